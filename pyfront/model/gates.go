package model

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Parameter gates: a helper that communicates only when a parameter of
// its own says so,
//
//	def save_state_dict(path, state, synchronize=True):
//	    if synchronize:
//	        barrier()
//
// called as save_state_dict(p, s, synchronize=False) under a rank-0 guard
// issues no collective there. Summaries mark such ops with the parameter
// (OpRef.Gate), and a call drops them when it passes, or defaults to, a
// false constant. An op that runs only where the parameter is false (`if
// not use_checkpoint: barrier()`) is marked "!use_checkpoint", and a call
// that passes a true constant drops it.

// gateKey is a call's position inside one function.
type gateKey struct{ line, col int }

// funcGates is what paramGates found in one function.
type funcGates struct {
	calls  map[gateKey]string // gated calls, by position
	params map[string]bool    // the parameters the body never assigns
	// negs: the gates known false at a call (it sits in the else of `if
	// g:`, or after `if g: return`), by position; recv is the method's
	// receiver parameter, whose attributes gate too (`if
	// self.args.is_pipe_parallel:`).
	negs map[gateKey][]string
	recv string
	fn   *callgraph.Func // the function the gates are of
	// classGates: for a method call on a local that the arms of a
	// parameter test bind to instances of different classes (`if
	// sharded: engine = ShardedEngine()` / `else: engine =
	// LocalEngine()`, then `engine.build(x)`), the gate of each class's
	// binding, by the call's position and the class's name.
	classGates map[gateKey]map[string]string
}

// gateAt is the gate of the op at k: the parameter it needs true, else
// "!p" for a parameter p it needs false (`if not use_checkpoint:
// barrier()`, or after `if use_checkpoint: return`); "" when none.
func (g *funcGates) gateAt(k gateKey) string {
	if gate := g.calls[k]; gate != "" {
		return gate
	}
	for _, p := range g.negs[k] {
		if !strings.Contains(p, ".") {
			return negGatePrefix + p
		}
	}
	return ""
}

// negGatePrefix marks a gate the op needs false (gateAt).
const negGatePrefix = "!"

// isNegGate reports a gate the op needs false.
func isNegGate(gate string) bool { return strings.HasPrefix(gate, negGatePrefix) }

// paramGates maps the calls of f that run only when one of f's
// parameters is true to that parameter: calls under `if p:`, in the else
// of `if not p:`, and after a top-level `if not p: return`. A parameter
// the body assigns is no gate. A nil f has none.
func (b *builder) paramGates(f *callgraph.Func) *funcGates {
	if f == nil {
		return &funcGates{}
	}
	if g, ok := b.gates[f]; ok {
		return g
	}
	g := &funcGates{fn: f}
	body, args := ast.DefBody(f.Node), funcArgs(f.Node)
	if args != nil {
		g.params = map[string]bool{}
		for _, a := range allParams(args) {
			g.params[a.Arg] = true
		}
		// A closure is gated by its enclosing functions' parameters too
		// (audiocraft's `def _barrier_if_sharded(): if is_sharded:
		// barrier()` inside the function taking is_sharded): the names
		// it does not bind itself.
		for p := f.Parent; p != nil; p = p.Parent {
			if pa := funcArgs(p.Node); pa != nil && f.Scope != nil {
				for _, a := range allParams(pa) {
					if f.Scope.Lookup(a.Arg) != f.Scope {
						g.params[a.Arg] = true
					}
				}
			}
		}
		for _, st := range body {
			ast.Inspect(st, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && nm.Ctx == ast.Store {
					delete(g.params, nm.Id)
				}
				return true
			})
		}
		if f.Class != nil && !f.Static && !f.ClassMethod && g.params[receiverParamName(args)] {
			g.recv = receiverParamName(args)
		}
		if len(g.params) > 0 {
			gw := gateWalker{params: g.params, recv: g.recv, out: map[gateKey]string{}, negs: map[gateKey][]string{}}
			gw.stmts(body, "", nil, true)
			if len(gw.out) > 0 {
				g.calls = gw.out
			}
			if len(gw.negs) > 0 {
				g.negs = gw.negs
			}
			g.classGates = gw.classGates(body)
		}
	}
	b.gates[f] = g
	return g
}

type gateWalker struct {
	params map[string]bool
	recv   string
	out    map[gateKey]string
	negs   map[gateKey][]string
	// built: per local, the classes its bindings construct, each with
	// the gate it is bound under ("" for none).
	built map[string][]classBinding
	// inBlock: the walk is inside a loop, with or try block, whose
	// bindings bind does not record (classGates wants a local's every
	// binding at the function's own level of ifs).
	inBlock int
}

// classBinding is a local bound to an instance of a class (by its
// name) under a gate.
type classBinding struct{ class, gate string }

// bind records `v = Cls(…)` under gate, or with negs known false.
func (w *gateWalker) bind(st ast.Stmt, gate string, negs []string) {
	if w.inBlock > 0 {
		return
	}
	a, ok := st.(*ast.Assign)
	if !ok || len(a.Targets) != 1 {
		return
	}
	v, ok := a.Targets[0].(*ast.Name)
	if !ok {
		return
	}
	if w.built == nil {
		w.built = map[string][]classBinding{}
	}
	c, isCall := a.Value.(*ast.Call)
	cls := ""
	if isCall {
		if n, ok := c.Func.(*ast.Name); ok && n.Id != "" && n.Id[0] >= 'A' && n.Id[0] <= 'Z' {
			cls = n.Id
		}
	}
	g := gate
	if g == "" && len(negs) > 0 && !strings.Contains(negs[len(negs)-1], ".") {
		g = negGatePrefix + negs[len(negs)-1]
	}
	w.built[v.Id] = append(w.built[v.Id], classBinding{class: cls, gate: g})
}

// classGates returns, for the method calls on locals every binding of
// which constructs a class under a gate, each class's gate by call
// position (funcGates.classGates).
func (w *gateWalker) classGates(body []ast.Stmt) map[gateKey]map[string]string {
	stores := map[string]int{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && nm.Ctx != ast.Load && w.built[nm.Id] != nil {
			stores[nm.Id]++
		}
		return true
	})
	gated := map[string]map[string]string{}
	for v, bs := range w.built {
		if stores[v] != len(bs) {
			continue // bound elsewhere too (in a loop, a with block)
		}
		m := map[string]string{}
		for _, b := range bs {
			if b.class == "" || b.gate == "" || m[b.class] != "" && m[b.class] != b.gate {
				m = nil
				break
			}
			m[b.class] = b.gate
		}
		if len(m) > 1 {
			gated[v] = m
		}
	}
	if len(gated) == 0 {
		return nil
	}
	out := map[gateKey]map[string]string{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if a, ok := c.Func.(*ast.Attribute); ok {
				if x, ok := a.Value.(*ast.Name); ok && gated[x.Id] != nil {
					sp := c.Span()
					out[gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}] = gated[x.Id]
				}
			}
		}
		return true
	})
	return out
}

// stmts walks a statement list under gate ("" for none), with the gates
// negs known false; top is the function's own body, where `if not p:
// return` gates what follows (and `if p: return` negates p there).
func (w *gateWalker) stmts(list []ast.Stmt, gate string, negs []string, top bool) {
	for i, st := range list {
		// model.eval() clears the module's training flag until
		// model.train(): what its methods issue only `if
		// self.training:` is off in the calls between (CLIP4Clip's
		// rank-0 evaluation, whose similarity all-gathers only in
		// training).
		if m, on, ok := trainingSwitch(st); ok {
			flag := m + ".training"
			negs = slices.DeleteFunc(slices.Clone(negs), func(n string) bool { return n == flag })
			if !on {
				negs = append(negs, flag)
			}
		}
		if w.block(st, gate, negs) {
			continue
		}
		iff, ok := st.(*ast.If)
		if !ok {
			w.node(st, gate, negs)
			w.bind(st, gate, negs)
			continue
		}
		inner := func(g string) string {
			if gate != "" {
				return gate // the outer gate stays: one is enough to drop it
			}
			return g
		}
		if body, orelse := w.compareTest(iff.Test); body != "" {
			w.node(iff.Test, gate, negs)
			w.stmts(iff.Body, inner(body), negs, false)
			w.stmts(iff.Orelse, inner(orelse), negs, false)
			if top && len(iff.Orelse) == 0 && exits(iff.Body) {
				w.stmts(list[i+1:], inner(orelse), negs, false)
				return
			}
			continue
		}
		p, negated := w.paramTest(iff.Test)
		if p == "" {
			w.node(iff.Test, gate, negs)
			// `if synchronize and world_size > 1:` gates its body by
			// synchronize, and `if not sync and …:` runs it where sync is
			// false; the else arm learns nothing.
			bodyGate, bodyNegs := gate, negs
			if pos, off := w.conjunction(iff.Test); pos != "" || len(off) > 0 {
				if bodyGate == "" {
					bodyGate = pos
				}
				bodyNegs = append(negs[:len(negs):len(negs)], off...)
			}
			w.stmts(iff.Body, bodyGate, bodyNegs, false)
			w.stmts(iff.Orelse, gate, negs, false)
			continue
		}
		not := append(negs[:len(negs):len(negs)], p)
		if !negated {
			w.stmts(iff.Body, inner(p), negs, false)
			w.stmts(iff.Orelse, gate, not, false)
			if top && len(iff.Orelse) == 0 && exits(iff.Body) {
				w.stmts(list[i+1:], gate, not, false)
				return
			}
			continue
		}
		w.stmts(iff.Body, gate, not, false)
		w.stmts(iff.Orelse, inner(p), negs, false)
		if top && len(iff.Orelse) == 0 && exits(iff.Body) {
			w.stmts(list[i+1:], inner(p), negs, false)
			return
		}
	}
}

// block walks the statements of a loop, with or try block with the gate
// in force, so that the ifs inside gate what they hold (`for i in
// range(n): if split[i] is not None and synchronize_ranks: barrier()`,
// Megatron's dataset builder); it reports whether st was one.
func (w *gateWalker) block(st ast.Stmt, gate string, negs []string) bool {
	w.inBlock++
	defer func() { w.inBlock-- }()
	switch s := st.(type) {
	case *ast.For:
		w.node(s.Iter, gate, negs)
		w.stmts(s.Body, gate, negs, false)
		w.stmts(s.Orelse, gate, negs, false)
	case *ast.AsyncFor:
		w.node(s.Iter, gate, negs)
		w.stmts(s.Body, gate, negs, false)
		w.stmts(s.Orelse, gate, negs, false)
	case *ast.While:
		w.node(s.Test, gate, negs)
		w.stmts(s.Body, gate, negs, false)
		w.stmts(s.Orelse, gate, negs, false)
	case *ast.With:
		for _, it := range s.Items {
			w.node(it.ContextExpr, gate, negs)
		}
		w.stmts(s.Body, gate, negs, false)
	case *ast.AsyncWith:
		for _, it := range s.Items {
			w.node(it.ContextExpr, gate, negs)
		}
		w.stmts(s.Body, gate, negs, false)
	case *ast.Try:
		w.stmts(s.Body, gate, negs, false)
		for _, h := range s.Handlers {
			w.stmts(h.Body, gate, negs, false)
		}
		w.stmts(s.Orelse, gate, negs, false)
		w.stmts(s.Finalbody, gate, negs, false)
	default:
		return false
	}
	return true
}

// trainingSwitch recognises a statement that sets a module's training
// flag: `m.eval()` (on false), `m.train()` and `m.train(True)` (on
// true), `m.train(False)` (on false); m is the module's path.
func trainingSwitch(st ast.Stmt) (module string, on, ok bool) {
	e, isExpr := st.(*ast.ExprStmt)
	if !isExpr {
		return "", false, false
	}
	c, isCall := e.Value.(*ast.Call)
	if !isCall || len(c.Keywords) > 0 {
		return "", false, false
	}
	a, isAttr := c.Func.(*ast.Attribute)
	if !isAttr {
		return "", false, false
	}
	module = attrChain(a.Value)
	if module == "" {
		return "", false, false
	}
	switch {
	case a.Attr == "eval" && len(c.Args) == 0:
		return module, false, true
	case a.Attr == "train" && len(c.Args) == 0:
		return module, true, true
	case a.Attr == "train" && len(c.Args) == 1:
		if k, isConst := c.Args[0].(*ast.Constant); isConst && k.Type == ast.ConstBool {
			return module, k.Bool, true
		}
	}
	return "", false, false
}

// paramTest recognises `p` and `not p` for a gate parameter p, and for an
// attribute of the receiver (`self.args.is_pipe_parallel`).
func (w *gateWalker) paramTest(e ast.Expr) (param string, negated bool) {
	if u, ok := e.(*ast.UnaryOp); ok && u.Op == ast.Not {
		e, negated = u.Operand, true
	}
	switch x := e.(type) {
	case *ast.Name:
		if w.params[x.Id] {
			return x.Id, negated
		}
	case *ast.Attribute:
		if d := attrChain(x); w.recv != "" && strings.HasPrefix(d, w.recv+".") {
			return d, negated
		}
	}
	return "", false
}

// conjunction reads an `and` of tests: the first gate that must be true
// for it to hold, and the gates it needs false (`not p` operands).
func (w *gateWalker) conjunction(e ast.Expr) (pos string, off []string) {
	b, ok := e.(*ast.BoolOp)
	if !ok || b.Op != ast.And {
		return "", nil
	}
	for _, v := range b.Values {
		p, negated := w.paramTest(v)
		switch {
		case p == "":
		case negated:
			off = append(off, p)
		case pos == "":
			pos = p
		}
	}
	return pos, off
}

// attrChain is "a.b.c" for an attribute chain rooted at a name, else "".
func attrChain(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Name:
		return x.Id
	case *ast.Attribute:
		if d := attrChain(x.Value); d != "" {
			return d + "." + x.Attr
		}
	}
	return ""
}

// node records the calls in n (not in nested definitions) under gate and
// negs.
func (w *gateWalker) node(n ast.Node, gate string, negs []string) {
	if gate == "" && len(negs) == 0 {
		return
	}
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Call:
			sp := x.Span()
			k := gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}
			if gate != "" {
				w.out[k] = gate
			}
			if len(negs) > 0 {
				w.negs[k] = negs
			}
		}
		return true
	})
}

// receiverGate translates an op's gate on an attribute of the callee's
// receiver, or of another parameter of it, into the caller's terms: for
// a method call on a name (self._update() passes self) the caller's
// attribute chain, and for a parameter the path the call passes
// (`_run_on_single_gpu(model, …)` makes the helper's `model.training`
// the caller's `model.training`); "" when the gate is a plain parameter
// or the call passes no path for it.
func receiverGate(caller, callee *callgraph.Func, call *ast.Call, gate string) string {
	root, rest, ok := strings.Cut(gate, ".")
	if !ok || callee == nil || call == nil || isNegGate(gate) {
		return ""
	}
	args := funcArgs(callee.Node)
	if args == nil {
		return ""
	}
	if receiverParamName(args) == root && callee.Class != nil && !callee.Static {
		a, ok := call.Func.(*ast.Attribute)
		if shortName(callee.Name) == "forward" && (!ok || a.Attr != "forward") {
			// model(x), self.attn(x): calling the module runs its forward,
			// with the module itself as the receiver. A module taken from
			// a container in a loop (`for layer in self.layers: x =
			// layer(x)`) is a submodule of the container.
			path := attrChain(call.Func)
			if n, isName := call.Func.(*ast.Name); isName && caller != nil {
				if p := loopContainer(caller, n.Id); p != "" {
					path = p + ".*"
				}
			}
			if path != "" {
				return path + "." + rest
			}
			return ""
		}
		if !ok {
			return ""
		}
		n, ok := a.Value.(*ast.Name)
		if !ok {
			return ""
		}
		return n.Id + "." + rest
	}
	x, _, _ := boundArg(callee, call, root)
	if path := attrChain(x); x != nil && path != "" {
		return path + "." + rest
	}
	return ""
}

// receiverParamName is a def's first parameter, the receiver of a
// method ("" when none).
func receiverParamName(a *ast.Arguments) string {
	if p := a.Positional(); len(p) > 0 {
		return p[0].Arg
	}
	return ""
}

// exits reports a block that always leaves the function.
func exits(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	switch body[len(body)-1].(type) {
	case *ast.Return, *ast.Raise:
		return true
	}
	return false
}

// resolveGate decides what a call of callee does with an op gated by
// callee's parameter gate: off when the call passes (or defaults to) a
// false constant, so the op is not issued; otherwise fwd is the caller's
// own parameter the call passes through (gate again in the caller's
// summary), or "".
//
// For a gate the op needs false ("!p"), off means the call passes (or
// defaults to) a true constant, and fwd is "!" and the caller's name.
func resolveGate(callee *callgraph.Func, call *ast.Call, gate string) (off bool, fwd string) {
	if isCmpGate(gate) {
		return resolveCmpGate(callee, call, gate)
	}
	param, neg := strings.CutPrefix(gate, negGatePrefix)
	offConst := isFalseConst
	if neg {
		offConst = isTrueConst
	}
	x, dflt, known := boundArg(callee, call, param)
	if x == nil {
		if !known || dflt == nil {
			return false, ""
		}
		return offConst(dflt), ""
	}
	if n, ok := x.(*ast.Name); ok {
		if neg {
			return false, negGatePrefix + n.Id
		}
		return false, n.Id
	}
	return offConst(x), ""
}

// isTrueConst: True, a non-zero int or a non-empty string.
func isTrueConst(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	switch c.Type {
	case ast.ConstBool:
		return c.Bool
	case ast.ConstInt:
		return c.Big != nil || c.Int != 0
	case ast.ConstStr:
		return c.Str != ""
	}
	return false
}

// isFalseConst: False, None, 0 or an empty string.
func isFalseConst(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	switch c.Type {
	case ast.ConstNone:
		return true
	case ast.ConstBool:
		return !c.Bool
	case ast.ConstInt:
		return c.Big == nil && c.Int == 0
	case ast.ConstStr:
		return c.Str == ""
	}
	return false
}

// apply applies a call's arguments to the callee's summary, for the
// summary of the caller (whose gates g are): ops the call switches off
// are dropped; ops still gated get a gate in the caller (the caller's
// parameter the call forwards, or the call's own gate).
func (g *funcGates) apply(sub []*rules.OpRef, callee *callgraph.Func, call *ast.Call, pos rules.Pos) []*rules.OpRef {
	callGate := g.calls[gateKey{pos.Line, pos.Col}]
	if callee != nil && callee.Class != nil {
		if cg := g.classGates[gateKey{pos.Line, pos.Col}][shortName(callee.Class.Name)]; cg != "" && callGate == "" {
			callGate = cg // engine.build(x) where only `if sharded:` made a ShardedEngine
		}
	}
	out := make([]*rules.OpRef, 0, len(sub))
	negs := g.negs[gateKey{pos.Line, pos.Col}]
	for _, o := range sub {
		gate := ""
		if rg := receiverGate(g.fn, callee, call, o.Gate); rg != "" {
			if negatedGate(negs, rg) {
				continue // the caller calls it where the attribute is false
			}
			if root, _, _ := strings.Cut(rg, "."); root == g.recv || g.params[root] {
				gate = rg
			}
		} else if o.Gate != "" && callee != nil {
			off, fwd := resolveGate(callee, call, o.Gate)
			if off {
				continue
			}
			if fwd == "" && !isNegGate(o.Gate) && closureGate(callee, o.Gate) {
				fwd = o.Gate // the caller's own variable the closure reads
			}
			if g.params[gateParam(fwd)] {
				gate = fwd
			}
		}
		if gate == "" {
			gate = callGate
		}
		out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: pos, Site: o.Site, Creates: o.Creates, Gate: gate, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad, ModuleParam: o.ModuleParam})
	}
	return out
}

// closureGate reports a gate of a closure that is no parameter of its
// own: a variable of an enclosing function, which the caller (that
// enclosing function) has under the same name.
func closureGate(callee *callgraph.Func, gate string) bool {
	if callee == nil || callee.Parent == nil || strings.Contains(gate, ".") {
		return false
	}
	if args := funcArgs(callee.Node); args != nil {
		for _, a := range allParams(args) {
			if a.Arg == gateParam(gate) {
				return false
			}
		}
	}
	return true
}

// GateArg returns, for an op of callee's summary gated by gate, the name
// the call passes for it: the caller's variable whose truth the op
// needs, or "".
func gateArg(callee *callgraph.Func, call *ast.Call, gate string) string {
	if gate == "" || isNegGate(gate) || isCmpGate(gate) || callee == nil || call == nil {
		return ""
	}
	if _, fwd := resolveGate(callee, call, gate); fwd != "" {
		return fwd
	}
	if closureGate(callee, gate) {
		return gate
	}
	return ""
}

// negatedGate reports a gate known false at a call: one of negs, or the
// training flag of a submodule of a module whose flag is (`model.eval()`
// clears model.attn.training too).
func negatedGate(negs []string, gate string) bool {
	if slices.Contains(negs, gate) {
		return true
	}
	path, ok := strings.CutSuffix(gate, ".training")
	if !ok {
		return false
	}
	return slices.ContainsFunc(negs, func(n string) bool {
		m, isFlag := strings.CutSuffix(n, ".training")
		return isFlag && strings.HasPrefix(path, m+".")
	})
}

// loopContainer returns the attribute path a for loop of fn iterates
// whose target is name, alone or as the second of enumerate's pairs
// (`for layer in self.layers:`, `for i, blk in enumerate(self.blocks):`),
// when fn binds name nowhere else; "" otherwise.
func loopContainer(fn *callgraph.Func, name string) string {
	path, binds := "", 0
	ast.InspectBody(defBody(fn.Node), func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Name:
			if x.Id == name && x.Ctx == ast.Store {
				binds++
			}
		case *ast.For:
			iter, target := x.Iter, x.Target
			if c, ok := iter.(*ast.Call); ok && len(c.Args) == 1 && attrChain(c.Func) == "enumerate" {
				if t, ok := target.(*ast.Tuple); ok && len(t.Elts) == 2 {
					iter, target = c.Args[0], t.Elts[1]
				}
			}
			if t, ok := target.(*ast.Name); ok && t.Id == name {
				if p := attrChain(iter); strings.Contains(p, ".") {
					path = p
				}
			}
		}
		return true
	})
	if binds != 1 {
		return ""
	}
	return path
}
