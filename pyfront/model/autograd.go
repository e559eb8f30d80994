package model

import (
	"bytes"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
)

// ctxAttrGroups resolves a group read from the autograd context object in
// a torch.autograd.Function method ("dist.all_reduce(g, group=ctx.group)"
// in backward). The engine passes ctx, so the call graph knows nothing of
// it; the group is what forward stored there ("ctx.group = group"), and
// when forward stored one of its own parameters, the argument passed for
// it at the class's Function.apply calls (apply drops ctx). It returns nil
// when e is not such a read or nothing is known.
func (b *builder) ctxAttrGroups(cs *callgraph.CallSite, e ast.Expr) []*rules.Group {
	attr, ok := e.(*ast.Attribute)
	if !ok || cs.Caller == nil {
		return nil
	}
	base, ok := attr.Value.(*ast.Name)
	fn := cs.Caller
	if !ok || fn.Class == nil || fn.Scope == nil || len(fn.Scope.Params) == 0 || fn.Scope.Params[0] != base.Id {
		return nil
	}
	if fn.Node != nil {
		if d, ok := fn.Node.(*ast.FunctionDef); ok && d.Name == "forward" {
			return nil
		}
	}
	fwds, _ := b.g.Lookup(fn.Class, "forward")
	var out []*rules.Group
	seen := map[*rules.Group]bool{}
	add := func(gs []*rules.Group) {
		for _, g := range gs {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	for _, fwd := range fwds {
		if fwd.Scope == nil || len(fwd.Scope.Params) == 0 {
			continue
		}
		ctxName := fwd.Scope.Params[0]
		for _, v := range ctxStores(fwd.Node, ctxName, attr.Attr) {
			if gs := b.groupsOf(b.g.ExprValues(v), v); len(gs) > 0 {
				add(gs)
				continue
			}
			// Tuple elements have no recorded values: name the WORLD
			// handle through the imports.
			if fwd.Module != nil && b.ref(fwd.Module.Path, v) == "torch.distributed.group.WORLD" {
				add([]*rules.Group{b.in.Values.world})
				continue
			}
			name, ok := v.(*ast.Name)
			if !ok {
				continue
			}
			idx := paramIndex(fwd, name.Id)
			if idx < 1 {
				continue
			}
			for _, call := range b.applyCalls()[fwd.Class] {
				if arg := callArg(call.Node, idx-1, name.Id); arg != nil {
					add(b.groupsOf(b.g.ExprValues(arg), arg))
				}
			}
		}
	}
	return out
}

// ctxStores returns the values a function body assigns to ctxName.attr
// ("ctx.group = group", also inside tuple assignments).
func ctxStores(fn ast.Node, ctxName, attr string) []ast.Expr {
	def, ok := fn.(*ast.FunctionDef)
	if !ok {
		return nil
	}
	isTarget := func(t ast.Expr) bool {
		a, ok := t.(*ast.Attribute)
		if !ok || a.Attr != attr {
			return false
		}
		n, ok := a.Value.(*ast.Name)
		return ok && n.Id == ctxName
	}
	var out []ast.Expr
	for _, s := range def.Body {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Assign:
				for _, t := range n.Targets {
					if isTarget(t) {
						out = append(out, n.Value)
					}
					tt, ok1 := t.(*ast.Tuple)
					vt, ok2 := n.Value.(*ast.Tuple)
					if ok1 && ok2 && len(tt.Elts) == len(vt.Elts) {
						for i, el := range tt.Elts {
							if isTarget(el) {
								out = append(out, vt.Elts[i])
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// applyCalls indexes the "Cls.apply(...)" calls of the program by the
// class whose apply they call (computed once).
func (b *builder) applyCalls() map[*callgraph.Class][]*callgraph.CallSite {
	if b.applyIdx != nil {
		return b.applyIdx
	}
	b.applyIdx = map[*callgraph.Class][]*callgraph.CallSite{}
	for _, cs := range b.g.Calls {
		if cs.Node == nil {
			continue
		}
		a, ok := cs.Node.Func.(*ast.Attribute)
		if !ok || a.Attr != "apply" {
			continue
		}
		for _, v := range b.g.ExprValues(a.Value) {
			if val := b.g.Value(v); val != nil && val.Kind == callgraph.KClass && val.Class != nil {
				b.applyIdx[val.Class] = append(b.applyIdx[val.Class], cs)
			}
		}
	}
	return b.applyIdx
}

// appliedOnlyWithoutGrad reports an autograd Function whose every
// Cls.apply call of the program runs with autograd off (in a function
// decorated with @torch.no_grad() or @torch.inference_mode(), or inside
// `with torch.no_grad():`): no graph is recorded there, so its backward
// never runs (scale-mae's GatherLayer, applied only in a no-grad kNN
// evaluation). False when no apply call is seen.
func (b *builder) appliedOnlyWithoutGrad(c *callgraph.Class) bool {
	calls := b.applyCalls()[c]
	if len(calls) == 0 {
		return false
	}
	if b.gradOffProgram() {
		return true
	}
	for _, cs := range calls {
		if !b.callWithoutGrad(cs, 0) {
			return false
		}
	}
	return true
}

// functionPass reports the forward or backward of an autograd Function:
// torch runs both with autograd off (a Function's forward records no
// graph of its own; its backward runs without create_graph), so a
// Function applied there has no backward of its own to run
// (context_parallel's _AllToAll, applied inside the Ulysses attention
// Function's forward).
func (b *builder) functionPass(f *callgraph.Func) bool {
	if f == nil || f.Class == nil {
		return false
	}
	if name := shortName(f.Name); name != "forward" && name != "backward" {
		return false
	}
	_, exts := b.g.MRO(f.Class)
	for _, e := range exts {
		if b.autogradBase(e) {
			return true
		}
	}
	return false
}

// maxGradOffDepth bounds how many callers up callWithoutGrad looks.
const maxGradOffDepth = 3

// callWithoutGrad reports whether call site cs runs with autograd off:
// where it stands (flow.NoGradAt), or because every call of its function
// does (gather_from_all, applied only from a @torch.no_grad() kNN).
func (b *builder) callWithoutGrad(cs *callgraph.CallSite, depth int) bool {
	if cs.Caller == nil {
		return false
	}
	if flow.NoGradAt(cs.Caller.Node, int(cs.Node.Span().Lineno)) || b.functionPass(cs.Caller) {
		return true
	}
	if depth >= maxGradOffDepth {
		return false
	}
	callers := b.callersOf(cs.Caller)
	if len(callers) == 0 {
		return false
	}
	for _, up := range callers {
		if up.Caller == cs.Caller || !b.callWithoutGrad(up, depth+1) {
			return false
		}
	}
	return true
}

// gradOffProgram reports a program that turns autograd off for the whole
// process and never back on: a module's own statements call
// torch.set_grad_enabled(False), and no file of the program runs a
// backward pass or enables autograd again (.backward(, autograd.grad(,
// enable_grad, set_grad_enabled(True)). An inference tool (DeepFold's
// predict) records no graph, so no autograd Function's backward runs.
func (b *builder) gradOffProgram() bool {
	b.gradOffOnce.Do(func() {
		off := false
		for _, m := range b.in.Modules {
			for _, st := range m.AST.Body {
				if e, ok := st.(*ast.ExprStmt); ok {
					if c, ok := e.Value.(*ast.Call); ok && lastDotted(c.Func) == "set_grad_enabled" && len(c.Args) == 1 && isFalseConst(c.Args[0]) {
						off = true
					}
				}
			}
		}
		if !off {
			return
		}
		for _, f := range b.in.Files {
			for _, on := range gradOnMarks {
				if bytes.Contains(f.Src, on) {
					return
				}
			}
		}
		b.gradOff = true
	})
	return b.gradOff
}

// gradOnMarks are texts of code that runs a backward pass or turns
// autograd back on.
var gradOnMarks = [][]byte{[]byte(".backward("), []byte("autograd.grad("), []byte("autograd.backward("),
	[]byte("enable_grad"), []byte("set_grad_enabled(True"), []byte("set_grad_enabled(mode")}
