package model

import (
	"slices"
	"sort"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// resolver implements flow.Resolver over the built model.
type resolver struct {
	b       *builder
	file    *rules.File
	mod     string
	sources flow.Sources // line indexes for this Build only
	// rankGlobals: per file, the module-level names bound to a rank value
	// (flow.RankGlobaler).
	rankGlobals map[string]map[string]bool
	memos       map[string]map[*rules.Function]bool // flow.Memoizer
	// ownRankGlobals: per file, the module-level names bound to the
	// process's own global rank (flow.OwnRankGlobaler).
	ownRankGlobals map[string]map[string]bool
	// rankGlobalDefs: per file, what those names were assigned
	// (flow.RankGlobalDefser).
	rankGlobalDefs map[string]map[string]ast.Expr
	callees        []resolvedCallee // Callee's answers, by call site ID
	// streamClasses: the classes one of whose methods enters a stream
	// context (flow.StreamClasser).
	streamClasses map[*callgraph.Class]bool
}

// StreamClass implements flow.StreamClasser.
func (r *resolver) StreamClass(fn *rules.Function) bool {
	if len(r.streamClasses) == 0 {
		return false
	}
	f := r.b.fnOf(fn)
	return f != nil && f.Class != nil && r.streamClasses[f.Class]
}

// Memo implements flow.Memoizer.
func (r *resolver) Memo(key string) map[*rules.Function]bool {
	m := r.memos[key]
	if m == nil {
		if r.memos == nil {
			r.memos = map[string]map[*rules.Function]bool{}
		}
		m = map[*rules.Function]bool{}
		r.memos[key] = m
	}
	return m
}

// Sources implements flow.SourceIndex.
func (r *resolver) Sources() *flow.Sources { return &r.sources }

func (r *resolver) Prog() *rules.Program { return r.b.prog }
func (r *resolver) File() *rules.File    { return r.file }
func (r *resolver) Tables() *api.Tables  { return r.b.t }

func (r *resolver) Callee(call *ast.Call) (string, *rules.Function) {
	// The flow rules ask about each call many times over (on the torch
	// package, 470,000 questions about 34,000 calls): the answer, fixed
	// once the graph is solved, is kept.
	// Kept by call site, which the graph finds by the expression's
	// number without hashing.
	cs := r.b.g.CallOf(call)
	if cs == nil {
		return "", nil
	}
	if cs.ID >= 0 && cs.ID < len(r.callees) {
		if c := &r.callees[cs.ID]; c.done {
			return c.ext, c.fn
		}
	}
	ext, fn := r.callee(cs)
	if cs.ID >= 0 && cs.ID < len(r.b.g.Calls) {
		if r.callees == nil {
			r.callees = make([]resolvedCallee, len(r.b.g.Calls))
		}
		r.callees[cs.ID] = resolvedCallee{ext, fn, true}
	}
	return ext, fn
}

// ParamOmitted implements flow.ParamOmitter.
func (r *resolver) ParamOmitted(fn *rules.Function, param string) bool {
	return r.everyCall(fn, param, func(cs *callgraph.CallSite, x, _ ast.Expr, known bool) bool {
		return known && x == nil
	})
}

// ParamFalse implements flow.ParamOmitter: every call of fn in the
// program leaves param at a false default or passes a false constant
// (False, None, 0, ""), also through a **kwargs it hands on.
func (r *resolver) ParamFalse(fn *rules.Function, param string) bool {
	return r.everyCall(fn, param, func(cs *callgraph.CallSite, x, dflt ast.Expr, known bool) bool {
		if !known && !r.b.kwargsOmit(cs, param, 0) {
			return false
		}
		if x == nil {
			x = dflt
		}
		return isFalseConst(x)
	})
}

// everyCall reports whether ok holds for the argument every call of fn
// in the program binds to param (boundArg's answer): false when fn has
// no call, or is run other than by a call expression (a thread's target,
// a callback), which may pass anything.
func (r *resolver) everyCall(fn *rules.Function, param string, ok func(cs *callgraph.CallSite, x, dflt ast.Expr, known bool) bool) bool {
	f := r.b.fnOf(fn)
	if f == nil || !isParam(funcArgs(f.Node), param) {
		return false
	}
	callers := r.b.callersOf(f)
	if len(callers) == 0 || r.b.calledImplicitly(f) {
		return false
	}
	for _, cs := range callers {
		x, dflt, known := boundArg(f, cs.Node, param)
		if !ok(cs, x, dflt, known) {
			return false
		}
	}
	return true
}

// kwargsOmit reports a call that hands on its caller's own **kwargs
// (`inference(model, x, **kwargs)` in do_evaluation(model, x,
// **kwargs)) where no call of that caller passes param by keyword,
// directly or through a **kwargs of its own, and nothing else in the
// call could carry it (a *args, another ** mapping).
func (b *builder) kwargsOmit(cs *callgraph.CallSite, param string, depth int) bool {
	caller := cs.Caller
	if depth > 3 || caller == nil || cs.Node == nil {
		return false
	}
	args := funcArgs(caller.Node)
	if args == nil || args.Kwarg == nil {
		return false
	}
	for _, a := range cs.Node.Args {
		if _, star := a.(*ast.Starred); star {
			return false
		}
	}
	for _, k := range cs.Node.Keywords {
		if k.Arg == param {
			return false
		}
		if k.Arg == "" {
			if n, ok := k.Value.(*ast.Name); !ok || n.Id != args.Kwarg.Arg {
				return false
			}
		}
	}
	callers := b.callersOf(caller)
	if len(callers) == 0 || b.calledImplicitly(caller) {
		return false
	}
	for _, up := range callers {
		if up.Node == nil {
			return false
		}
		for _, k := range up.Node.Keywords {
			if k.Arg == param || k.Arg == "" && !b.kwargsOmit(up, param, depth+1) {
				return false
			}
		}
	}
	return true
}

// resolvedCallee is an answer of Callee (done once it is kept).
type resolvedCallee struct {
	ext  string
	fn   *rules.Function
	done bool
}

func (r *resolver) callee(cs *callgraph.CallSite) (string, *rules.Function) {
	var ext string
	var fn *rules.Function
	for _, t := range cs.Targets {
		if t.Fn != nil && fn == nil {
			fn = r.b.fn(t.Fn)
		}
	}
	if len(cs.Targets) > 1 && fn != nil && r.b.fnOf(fn).Abstract() {
		// self.step() in a base class resolves to the abstract stub and
		// to the subclasses' overrides: the stub never runs.
		for _, t := range cs.Targets {
			if t.Fn != nil && !t.Fn.Abstract() {
				fn = r.b.fn(t.Fn)
				break
			}
		}
	}
	names := r.b.apis(cs)
	for _, n := range names {
		if r.b.inTables(n) {
			return n, fn
		}
	}
	if len(names) > 0 {
		ext = names[0]
	}
	return ext, fn
}

// ExternalCallees lists every external symbol a call may call (a name
// bound to numpy on one path and cupy on another calls either).
func (r *resolver) ExternalCallees(call *ast.Call) []string {
	cs := r.b.g.CallOf(call)
	if cs == nil {
		return nil
	}
	return r.b.apis(cs)
}

func (r *resolver) Ref(e ast.Expr) string {
	for _, v := range r.b.g.ExprValues(e) {
		if val := r.b.g.Value(v); val != nil && val.Name != "" && val.Kind == callgraph.KExternal {
			return r.b.t.Canonical(val.Name)
		}
	}
	return r.b.ref(r.mod, e)
}

func (r *resolver) Site(call *ast.Call) *rules.Site { return r.b.sites[call] }

// ProcessGroupObject implements flow.ProcessGroupObjecter.
func (r *resolver) ProcessGroupObject(e ast.Expr) bool {
	vals := r.b.g.ExprValues(e)
	for _, v := range vals {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != callgraph.KOpaque || val.Name != groupType {
			return false
		}
		if _, ok := val.Data.(*rules.Group); !ok {
			return false
		}
	}
	return len(vals) > 0
}

// FuncObject implements flow.FuncObjecter.
func (r *resolver) FuncObject(e ast.Expr) *rules.Function {
	// Only the def the name itself denotes: a method read off an
	// instance (bound), or a module's function by its own name. An
	// attribute that holds a callback may hold None as well, which the
	// graph does not track.
	var name string
	want := callgraph.KFunc
	switch x := e.(type) {
	case *ast.Name:
		name = x.Id
	case *ast.Attribute:
		name, want = x.Attr, callgraph.KBound
	default:
		return nil
	}
	var fn *callgraph.Func
	for _, v := range r.b.g.ExprValues(e) {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != want || val.Fn == nil || val.Fn.Property || shortName(val.Fn.Name) != name {
			return nil
		}
		if want == callgraph.KFunc && nested(val.Fn) {
			return nil // a closure, bound to a local of the same name
		}
		if fn == nil {
			fn = val.Fn
		}
	}
	return r.b.fn(fn)
}

// PartialTarget implements flow.PartialObjecter.
func (r *resolver) PartialTarget(e ast.Expr) *rules.Function {
	var fn *callgraph.Func
	vals := r.b.g.ExprValues(e)
	for _, v := range vals {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != callgraph.KPartial {
			return nil
		}
		target := r.b.g.Value(val.Recv)
		if target == nil || target.Kind != callgraph.KFunc || target.Fn == nil || target.Fn.Property {
			return nil
		}
		if nested(target.Fn) {
			return nil
		}
		if fn != nil && fn != target.Fn {
			return nil
		}
		fn = target.Fn
	}
	return r.b.fn(fn)
}

// nested reports a function defined inside another function or method.
func nested(fn *callgraph.Func) bool {
	if fn.Parent == nil {
		return false
	}
	_, mod := fn.Parent.Node.(*ast.Module)
	return !mod
}

// ModuleValue implements flow.ModuleValuer: the value of the one
// top-level assignment of name in fn's module (`DS_CONFIG = {…}`), or nil
// when the module binds it otherwise or more than once.
func (r *resolver) ModuleValue(fn *rules.Function, name string) ast.Expr {
	f := r.b.fnOf(fn)
	for f != nil && f.Parent != nil {
		f = f.Parent
	}
	if f == nil {
		return nil
	}
	m, ok := f.Node.(*ast.Module)
	if !ok {
		return nil
	}
	var value ast.Expr
	n := 0
	for _, st := range m.Body {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Name:
				if x.Ctx == ast.Store && x.Id == name {
					n++
				}
			}
			return true
		})
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 {
			if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == name {
				value = a.Value
			}
		}
	}
	if n != 1 {
		return nil
	}
	return value
}

// FuncDef implements flow.FuncDefiner.
func (r *resolver) FuncDef(fn *rules.Function) ast.Node {
	if f := r.b.fnOf(fn); f != nil {
		return f.Node
	}
	return nil
}

// MethodDef returns the definition of method name of the class that fn is
// a method of (through its MRO), or nil (flow.MethodDefiner).
func (r *resolver) MethodDef(fn *rules.Function, name string) ast.Node {
	f := r.b.fnOf(fn)
	if f == nil || f.Class == nil {
		return nil
	}
	fns, _ := r.b.g.Lookup(f.Class, name)
	if len(fns) != 1 {
		return nil
	}
	return fns[0].Node
}

func (r *resolver) Stream(e ast.Expr) *rules.Stream { return r.b.streamOf(e) }

// Summary returns the collectives fn issues, transitively, in program
// order (the first visit wins on recursion).
func (r *resolver) Summary(fn *rules.Function) []*rules.OpRef { return r.b.summarize(fn, 0) }

// CallSummary is Summary for the callee of one call (flow.CallSummarizer):
// a decorator wrapper stands for the function the call names.
// Ops the callee issues only when the call sets one of its parameters are
// dropped when the call passes a false constant there.
func (r *resolver) CallSummary(call *ast.Call, fn *rules.Function) []*rules.OpRef {
	var sum []*rules.OpRef
	if want := funcName(call); want != "" && fn != nil && shortName(fn.Name) != want && r.b.isClosure(fn) {
		sum = r.b.summarizeAs(fn, want, 0)
	} else {
		sum = r.b.summarize(fn, 0)
	}
	gated, moduled := false, false
	for _, o := range sum {
		gated = gated || o.Gate != ""
		moduled = moduled || o.ModuleParam != ""
	}
	if moduled {
		sum = r.b.passedModules(r.b.fnOf(fn), call, sum)
	}
	if !gated {
		return sum
	}
	var negs []string
	var caller *callgraph.Func
	if cs := r.b.g.CallOf(call); cs != nil && cs.Caller != nil {
		caller = cs.Caller
		sp := call.Span()
		negs = r.b.paramGates(cs.Caller).negs[gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}]
	}
	out := make([]*rules.OpRef, 0, len(sum))
	for _, o := range sum {
		if rg := receiverGate(caller, r.b.fnOf(fn), call, o.Gate); rg != "" {
			if negatedGate(negs, rg) {
				continue
			}
		} else if isNegGate(o.Gate) {
			if off, _ := resolveGate(r.b.fnOf(fn), call, o.Gate); off {
				continue
			}
		} else if o.Gate != "" {
			if off, _ := resolveGate(r.b.fnOf(fn), call, o.Gate); off {
				continue
			}
			if a := gateArg(r.b.fnOf(fn), call, o.Gate); a != "" {
				c := *o
				c.GateArg = a
				o = &c
			}
		}
		out = append(out, o)
	}
	return out
}

// throughModuleParams carries a callee's module-parameter forwards into
// its caller's summary: dropped where the call passes a module no wrapper
// made, kept on the caller's own parameter where it passes that on
// (`def run(model): evaluate(model)`), and kept plain otherwise.
func (b *builder) throughModuleParams(caller *rules.Function, callee *callgraph.Func, call *ast.Call, sum []*rules.OpRef) []*rules.OpRef {
	var out []*rules.OpRef
	for i, o := range sum {
		if o.ModuleParam == "" || callee == nil {
			if out != nil {
				out = append(out, o)
			}
			continue
		}
		if out == nil {
			out = append(make([]*rules.OpRef, 0, len(sum)), sum[:i]...)
		}
		x, _, _ := boundArg(callee, call, o.ModuleParam)
		if x != nil && (b.wrapsNothing(x) || b.ddpUnwrapped(caller, x)) {
			continue
		}
		c := *o
		c.ModuleParam = ""
		if n, ok := x.(*ast.Name); ok {
			if f := b.fnOf(caller); f != nil && isParam(funcArgs(f.Node), n.Id) {
				c.ModuleParam = n.Id
			}
		}
		out = append(out, &c)
	}
	if out == nil {
		return sum
	}
	return out
}

// ddpUnwrapped reports a module argument that is the module a DDP wrapper
// holds, taken out of it (`model.module`, or a local of fn bound only to
// that: `model = model.module`): its forward is the plain module's, which
// issues nothing. FSDP's inner module is left alone (its nested units
// still gather).
func (b *builder) ddpUnwrapped(fn *rules.Function, x ast.Expr) bool {
	f := b.fnOf(fn)
	if f == nil {
		return false
	}
	if n, ok := x.(*ast.Name); ok {
		vals := flow.LocalValues(f.Node, n.Id)
		if len(vals) != 1 {
			return false
		}
		x = vals[0]
	}
	a, ok := x.(*ast.Attribute)
	if !ok || a.Attr != "module" {
		return false
	}
	vals := b.g.ExprValues(a.Value)
	if n, isName := a.Value.(*ast.Name); isName && len(vals) == 0 && isParam(funcArgs(f.Node), n.Id) {
		// model = model.module on the function's parameter: what its
		// callers pass.
		vals = b.g.ParamValues(f, n.Id)
	}
	ddp := false
	for _, v := range vals {
		val := b.g.Value(v)
		if val == nil || val.Kind != callgraph.KOpaque {
			continue
		}
		if c := b.constructedBy(val); c != nil {
			if !strings.HasSuffix(c.Name, "DistributedDataParallel") {
				return false
			}
			ddp = true
		}
	}
	return ddp
}

// passedModules drops from a callee's summary the forwards of a module
// parameter to which the call passes a module that no wrapper made.
func (b *builder) passedModules(callee *callgraph.Func, call *ast.Call, sum []*rules.OpRef) []*rules.OpRef {
	if callee == nil {
		return sum
	}
	out := make([]*rules.OpRef, 0, len(sum))
	for _, o := range sum {
		if o.ModuleParam != "" {
			if x, _, _ := boundArg(callee, call, o.ModuleParam); x != nil && (b.wrapsNothing(x) || b.wrapsNothingYet(x, call)) {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// wrapsNothingYet reports a local name of the calling function that,
// where the call stands, holds only what the assignments above it made,
// none of them a wrapper: `model = Linear(…)`, an evaluation call that
// returns, and `model = DDP(model)` only further down (dualprompt's
// --eval path). An assignment below the call inside a loop around it
// may reach the call on the next pass, and a parameter holds what the
// callers pass: neither is judged here.
//
// x may also be an attribute of a constructor's receiver (`self.model`
// in __init__), judged by the constructor's own assignments to it.
func (b *builder) wrapsNothingYet(x ast.Expr, call *ast.Call) bool {
	cs := b.g.CallOf(call)
	if cs == nil || cs.Caller == nil {
		return false
	}
	n, ok := x.(*ast.Name)
	if a, isAttr := x.(*ast.Attribute); isAttr && cs.Caller.Class != nil && shortName(cs.Caller.Name) == "__init__" {
		if r, isName := a.Value.(*ast.Name); isName && r.Id == receiverParamName(funcArgs(cs.Caller.Node)) {
			n, ok = &ast.Name{Id: pathText(a)}, true
		}
	}
	if !ok {
		return false
	}
	body := ast.ScopeBody(cs.Caller.Node)
	if _, module := cs.Caller.Node.(*ast.Module); !module {
		// A parameter holds what the callers pass; a module's names have
		// none.
		if args := funcArgs(cs.Caller.Node); args == nil || isParam(args, n.Id) {
			return false
		}
	}
	at := call.Span()
	var before []ast.Expr
	var loops []ast.Pos
	laterInLoop, unknown := false, false
	var visit func(n ast.Node)
	visit = func(nd ast.Node) {
		switch s := nd.(type) {
		case nil, *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return
		case *ast.For, *ast.While, *ast.AsyncFor:
			loops = append(loops, nd.Span())
		case *ast.Global:
			unknown = unknown || slices.Contains(s.Names, n.Id)
		case *ast.Nonlocal:
			unknown = unknown || slices.Contains(s.Names, n.Id)
		case *ast.Assign:
			if len(s.Targets) == 1 {
				if pathText(s.Targets[0]) == n.Id {
					if after(at, s.Span()) {
						before = append(before, s.Value)
					} else if slices.ContainsFunc(loops, func(l ast.Pos) bool { return within(at, l) && within(s.Span(), l) }) {
						laterInLoop = true
					}
					visit(s.Value)
					return
				}
			}
		case *ast.Name:
			// Bound any other way (unpacked, a loop target, with … as,
			// :=, +=): left to the whole-program values.
			unknown = unknown || s.Id == n.Id && s.Ctx != ast.Load
		}
		ast.Children(nd, visit)
	}
	for _, st := range body {
		visit(st)
	}
	if unknown || laterInLoop || len(before) == 0 {
		return false
	}
	for _, v := range before {
		if !b.wrapsNothing(v) {
			return false
		}
	}
	return true
}

// within reports whether p lies inside q.
func within(p, q ast.Pos) bool {
	return !after(q, p) && (p.Lineno > q.Lineno || p.Lineno == q.Lineno && p.ColOffset >= q.ColOffset) &&
		(p.EndLineno < q.EndLineno || p.EndLineno == q.EndLineno && p.EndColOffset <= q.EndColOffset)
}

func (b *builder) summarize(fn *rules.Function, depth int) []*rules.OpRef {
	return b.summarizeAs(fn, "", depth)
}

// singleProcessArms returns the line spans of fn's arms that run only
// when the job is one process (flow.SingleProcessArm).
func (b *builder) singleProcessArms(fn *rules.Function) [][2]int {
	f := b.fnOf(fn)
	if f == nil {
		return nil
	}
	var out [][2]int
	span := func(stmts []ast.Stmt) {
		if len(stmts) > 0 {
			out = append(out, [2]int{int(stmts[0].Span().Lineno), int(stmts[len(stmts)-1].Span().EndLineno)})
		}
	}
	ast.InspectBody(ast.DefBody(f.Node), func(n ast.Node) bool {
		if i, ok := n.(*ast.If); ok {
			if single, inThen := flow.SingleProcessArm(i.Test); single {
				if inThen {
					span(i.Body)
				} else {
					span(i.Orelse)
				}
			}
		}
		return true
	})
	return out
}

// summaryKey memoises summaries; want is the called name a decorator
// wrapper stands for ("" for a plain summary).
type summaryKey struct {
	fn   *rules.Function
	want string
}

// summarizeCall summarises a call's callee. When the callee is a decorator
// wrapper (the call says "_free_storage(…)" and resolves to no_grad's
// decorate_context), the wrapper's call of the wrapped function has every
// function the decorator wraps anywhere in the program as targets; only
// the ones with the called name are followed.
func (b *builder) summarizeCall(c *rules.Call, depth int) []*rules.OpRef {
	if want := b.calledName(c); want != "" && shortName(c.Callee.Name) != want && b.isClosure(c.Callee) {
		return b.summarizeAs(c.Callee, want, depth)
	}
	return b.summarizeAs(c.Callee, "", depth)
}

// calledName is the name a call expression calls ("f" in f(…) and x.f(…)).
func (b *builder) calledName(c *rules.Call) string {
	cs := b.callSite(c)
	if cs == nil || cs.Node == nil {
		return ""
	}
	return funcName(cs.Node)
}

// funcName is the name a call expression calls ("f" in f(…) and x.f(…)).
func funcName(call *ast.Call) string {
	switch f := call.Func.(type) {
	case *ast.Name:
		return f.Id
	case *ast.Attribute:
		return f.Attr
	}
	return ""
}

// isClosure reports a function defined inside another function (what
// decorators return).
func (b *builder) isClosure(fn *rules.Function) bool {
	f := b.fnOf(fn)
	if f == nil || f.Parent == nil {
		return false
	}
	_, isMod := f.Parent.Node.(*ast.Module)
	return !isMod
}

// wrapperCalls returns fn's calls, keeping at a call position with a
// target named want only the targets so named.
func (b *builder) wrapperCalls(fn *rules.Function, want string) []*rules.Call {
	named := map[rules.Pos]bool{}
	for _, c := range fn.Calls {
		if c.Callee != nil && shortName(c.Callee.Name) == want {
			named[c.Pos] = true
		}
	}
	out := make([]*rules.Call, 0, len(fn.Calls))
	for _, c := range fn.Calls {
		if named[c.Pos] && (c.Callee == nil || shortName(c.Callee.Name) != want) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func (b *builder) summarizeAs(fn *rules.Function, want string, depth int) []*rules.OpRef {
	if fn == nil {
		return nil
	}
	key := summaryKey{fn, want}
	if s, ok := b.summary[key]; ok {
		return s
	}
	if b.inProgress[key] || depth > 64 {
		return nil
	}
	b.inProgress[key] = true
	type item struct {
		pos  rules.Pos
		refs []*rules.OpRef
	}
	var items []item
	gates := b.paramGates(b.fnOf(fn))
	twins := b.twinArmSites(fn, depth)
	for _, s := range fn.Sites {
		if twins[s] {
			continue
		}
		gate := gates.gateAt(gateKey{s.Pos.Line, s.Pos.Col})
		items = append(items, item{pos: s.Pos, refs: []*rules.OpRef{{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s, Gate: gate, ModuleParam: b.wrapperReceiverParam(s)}}})
	}
	if f := b.fnOf(fn); f != nil {
		for _, o := range b.syncOps[f.Node] {
			gate := gates.gateAt(gateKey{o.Pos.Line, o.Pos.Col})
			items = append(items, item{pos: o.Pos, refs: []*rules.OpRef{{Op: o.Op, Group: o.Group, Pos: o.Pos, Gate: gate, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad, ModuleParam: o.ModuleParam}}})
		}
	}
	calls := fn.Calls
	if want != "" {
		calls = b.wrapperCalls(fn, want)
	}
	alone := b.singleProcessArms(fn)
	for _, c := range calls {
		if c.Callee == nil || c.Callee == fn || flow.Dispatch(c.Callee) {
			continue
		}
		if slices.ContainsFunc(alone, func(sp [2]int) bool { return sp[0] <= c.Pos.Line && c.Pos.Line <= sp[1] }) {
			// `if dist.get_world_size() > 1: … else: load_via_mpi()`:
			// what a one-process job issues pairs with no other rank.
			continue
		}
		sub := b.summarizeCall(c, depth+1)
		if len(sub) == 0 {
			continue
		}
		var node *ast.Call
		if cs := b.callSite(c); cs != nil {
			node = cs.Node
		}
		sub = b.throughModuleParams(fn, b.fnOf(c.Callee), node, sub)
		refs := gates.apply(sub, b.fnOf(c.Callee), node, c.Pos)
		if len(refs) == 0 {
			continue
		}
		items = append(items, item{pos: c.Pos, refs: refs})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].pos.Line != items[j].pos.Line {
			return items[i].pos.Line < items[j].pos.Line
		}
		return items[i].pos.Col < items[j].pos.Col
	})
	var out []*rules.OpRef
	for _, it := range items {
		out = append(out, it.refs...)
	}
	// Sequences concatenate callees' sequences and grow exponentially with
	// call depth on large code bases; the flow pass needs only a prefix.
	if len(out) > flow.MaxSummary {
		out = out[:flow.MaxSummary]
	}
	delete(b.inProgress, key)
	b.summary[key] = out
	return out
}

// twinArmSites returns the sites of fn in the else arm of an if whose two
// arms issue the same collectives, directly and nothing else: `if r ==
// rounds: broadcast(stop); break` / `else: broadcast(go_on)` issues one
// broadcast whichever arm runs, so the summary keeps the then arm's
// (FedMPI's server loop, matched by its clients' single broadcast).
func (b *builder) twinArmSites(fn *rules.Function, depth int) map[*rules.Site]bool {
	f := b.fnOf(fn)
	if f == nil || len(fn.Sites) < 2 {
		return nil
	}
	var out map[*rules.Site]bool
	within := func(p rules.Pos, stmts []ast.Stmt) bool {
		if len(stmts) == 0 {
			return false
		}
		from, to := stmts[0].Span(), stmts[len(stmts)-1].Span()
		line, col := int32(p.Line), int32(p.Col-1)
		after := line > from.Lineno || line == from.Lineno && col >= from.ColOffset
		before := line < to.EndLineno || line == to.EndLineno && col < to.EndColOffset
		return after && before
	}
	// The two paths of each if: its arms, or an arm that returns and the
	// statements after the if (`if job is None: broadcast([None]); return`
	// then `broadcast([job])`, a relay announcing work or the end).
	// For an arm that returns, the statements after the if may go on to
	// issue more (the tensors a job's announcement is followed by): the
	// arm's sites need only match the first of theirs.
	type arms struct {
		then, els []ast.Stmt
		prefix    bool
	}
	var ifs []arms
	returnArm := func(block []ast.Stmt) {
		for k, st := range block {
			if i, ok := st.(*ast.If); ok && len(i.Orelse) == 0 && k+1 < len(block) {
				if _, ret := i.Body[len(i.Body)-1].(*ast.Return); ret {
					ifs = append(ifs, arms{i.Body, block[k+1:], true})
				}
			}
		}
	}
	body := defBody(f.Node)
	returnArm(body)
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.If:
			if len(st.Orelse) > 0 {
				ifs = append(ifs, arms{st.Body, st.Orelse, false})
			}
		}
		for _, block := range ast.ChildBlocks(st) {
			returnArm(block)
		}
		return true
	})
	// Inner ifs first (an elif chain's last arms before its first), each
	// comparing what the ones inside it left.
	for k := len(ifs) - 1; k >= 0; k-- {
		i := ifs[k]
		if slices.ContainsFunc(fn.Calls, func(c *rules.Call) bool {
			return c.Callee != nil && (within(c.Pos, i.then) || within(c.Pos, i.els)) && len(b.summarizeCall(c, depth+1)) > 0
		}) {
			continue // a program call that communicates in an arm: its sequence is not compared here
		}
		var then, els []*rules.Site
		for _, s := range fn.Sites {
			switch {
			case out[s]:
			case within(s.Pos, i.then):
				then = append(then, s)
			case within(s.Pos, i.els):
				els = append(els, s)
			}
		}
		if i.prefix && len(els) > len(then) {
			els = els[:len(then)]
		}
		if len(then) == 0 || len(then) != len(els) || slices.ContainsFunc(then, func(a *rules.Site) bool {
			c := els[slices.Index(then, a)]
			return a.Op != c.Op || a.Group != c.Group && (a.Group == nil || c.Group == nil || a.Group.ID != c.Group.ID)
		}) {
			continue
		}
		if out == nil {
			out = map[*rules.Site]bool{}
		}
		for _, s := range els {
			out[s] = true
		}
	}
	return out
}

// RankGlobals implements flow.RankGlobaler.
func (r *resolver) RankGlobals(path string) map[string]bool { return r.rankGlobals[path] }

// SetRankGlobals implements flow.RankGlobaler.
func (r *resolver) SetRankGlobals(path string, names map[string]bool) {
	if r.rankGlobals == nil {
		r.rankGlobals = map[string]map[string]bool{}
	}
	r.rankGlobals[path] = names
}

// RankGlobalDefs implements flow.RankGlobalDefser.
func (r *resolver) RankGlobalDefs(path string) map[string]ast.Expr { return r.rankGlobalDefs[path] }

// SetRankGlobalDefs implements flow.RankGlobalDefser.
func (r *resolver) SetRankGlobalDefs(path string, defs map[string]ast.Expr) {
	if r.rankGlobalDefs == nil {
		r.rankGlobalDefs = map[string]map[string]ast.Expr{}
	}
	r.rankGlobalDefs[path] = defs
}

// OwnRankGlobals implements flow.OwnRankGlobaler.
func (r *resolver) OwnRankGlobals(path string) map[string]bool { return r.ownRankGlobals[path] }

// SetOwnRankGlobals implements flow.OwnRankGlobaler.
func (r *resolver) SetOwnRankGlobals(path string, names map[string]bool) {
	if r.ownRankGlobals == nil {
		r.ownRankGlobals = map[string]map[string]bool{}
	}
	r.ownRankGlobals[path] = names
}

// EnclosingDef implements flow.EnclosingDefer.
func (r *resolver) EnclosingDef(fn *rules.Function) (*rules.Function, ast.Node) {
	f := r.b.fnOf(fn)
	if f == nil || f.Parent == nil {
		return nil, nil
	}
	if _, isModule := f.Parent.Node.(*ast.Module); isModule {
		return nil, nil
	}
	return r.b.fn(f.Parent), f.Parent.Node
}

// RankParams implements flow.RankParamer (see builder.spawnRankParams).
func (r *resolver) RankParams(fn *rules.Function) []string {
	return r.b.rankParams[fn]
}

// QualifiedNames implements flow.QualifiedNamer.
func (r *resolver) QualifiedNames(fn *rules.Function) []string {
	out := []string{fn.Name}
	f := r.b.fnOf(fn)
	if f == nil || f.Module == nil || !strings.HasPrefix(fn.Name, f.Module.Name+".") {
		return out
	}
	rest := fn.Name[len(f.Module.Name):]
	for _, a := range f.Module.Aliases {
		out = append(out, a+rest)
	}
	return out
}

// RankAttrs implements flow.RankAttrer: the rank attributes of the
// instance of fn's class, its own and its program bases' (selfRankAttrs).
// HostAttrs implements flow.HostAttrer.
func (r *resolver) HostAttrs(fn *rules.Function) []string {
	f := r.b.fnOf(fn)
	if f == nil || f.Class == nil || f.Static || f.ClassMethod || len(r.b.hostAttrs) == 0 {
		return nil
	}
	classes, _ := r.b.g.MRO(f.Class)
	var out []string
	for _, c := range classes {
		for _, a := range r.b.hostAttrs[c] {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

func (r *resolver) RankAttrs(fn *rules.Function) []flow.RankAttr {
	f := r.b.fnOf(fn)
	if f == nil || f.Class == nil || f.Static || f.ClassMethod || len(r.b.rankAttrs) == 0 {
		return nil
	}
	classes, _ := r.b.g.MRO(f.Class)
	var out []flow.RankAttr
	for _, c := range classes {
		for _, a := range r.b.rankAttrs[c] {
			out = flow.MergeRankAttr(out, a)
		}
	}
	return out
}

// InstanceRankAttr implements flow.InstanceRankAttrer: every value a's
// receiver may hold is an instance of a class whose rank attributes
// (builder.rankAttrs, through its MRO) name a.Attr as a plain rank (not
// an object some ranks hold, nor a test uniform within some groups).
func (r *resolver) InstanceRankAttr(a *ast.Attribute) bool {
	if !r.b.rankAttrNames[a.Attr] {
		return false
	}
	vals := r.b.g.ExprValues(a.Value)
	if len(vals) == 0 {
		return false
	}
	if len(r.b.objRankAttrs) > 0 && !slices.ContainsFunc(vals, func(v callgraph.ValueID) bool { return !r.b.objRankAttrs[v][a.Attr] }) {
		return true // params.is_master, set to a rank test where params was set up
	}
	for _, v := range vals {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != callgraph.KInstance || val.Class == nil {
			return false
		}
		classes, _ := r.b.g.MRO(val.Class)
		found := false
		for _, c := range classes {
			for _, ra := range r.b.rankAttrs[c] {
				if ra.Name == a.Attr && !ra.Held && len(ra.UniformIn) == 0 {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// IterGenerators implements flow.IterGeneratorer: the program generator
// methods that iterating iter runs (the __iter__ of its class).
func (r *resolver) IterGenerators(iter ast.Expr) []*rules.Function {
	var out []*rules.Function
	vals := r.b.g.ExprValues(iter)
	if c, ok := iter.(*ast.Call); ok && len(vals) == 0 {
		// for x in Shard(loader, rank, world): the instance the call makes.
		if cs := r.b.g.CallOf(c); cs != nil {
			vals = r.b.g.ResultValues(cs)
		}
	}
	for _, v := range vals {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != callgraph.KInstance {
			continue
		}
		fns, _ := r.b.g.Lookup(val.Class, "__iter__")
		for _, f := range fns {
			if rf := r.b.fn(f); rf != nil && f.Generator && !slices.Contains(out, rf) {
				out = append(out, rf)
			}
		}
	}
	return out
}

// PythonContainer implements flow.ContainerResolver: every assignment
// of an attribute of fn's receiver (`self.buffers`) in its class's
// methods is a list, tuple or dict display or comprehension; or the
// expression's values are all such containers of the program.
func (r *resolver) PythonContainer(fn *rules.Function, e ast.Expr) bool {
	if a, ok := e.(*ast.Attribute); ok {
		if x, ok := a.Value.(*ast.Name); ok {
			if f := r.b.fnOf(fn); f != nil && f.Class != nil {
				if args := funcArgs(f.Node); args != nil && receiverParamName(args) == x.Id {
					stores := r.b.selfStores(f.Class)[a.Attr]
					for _, st := range stores {
						switch st.(type) {
						case *ast.List, *ast.ListComp, *ast.Tuple, *ast.Dict, *ast.DictComp:
						default:
							return false
						}
					}
					if len(stores) > 0 {
						return true
					}
				}
			}
		}
	}
	vals := r.b.g.ExprValues(e)
	for _, v := range vals {
		val := r.b.g.Value(v)
		if val == nil || val.Kind != callgraph.KContainer {
			return false
		}
		switch val.Name {
		case "list", "tuple", "dict":
		default:
			return false
		}
	}
	return len(vals) > 0
}
