package model

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
)

// reach computes, per context, the functions it runs (breadth-first over
// call edges, so each chain is a shortest one) and gives every site one
// Reach per context with its witnessing chain. Main runs the module
// bodies and what they call; functions no context reaches (library code
// without an entry point) are treated as reachable from main.
func (b *builder) reach() {
	reachedBy := map[*rules.Function][]*rules.Context{}
	// The search runs over (function, wanted name) nodes: a decorator's
	// wrapper closure calls every function that decorator wraps in the
	// program, and a call through the name of one of them (dist.barrier(),
	// bound to timed_op's log_wrapper) runs that one only (wrapperCalls).
	// first is, per context, the node a function was first reached as,
	// whose parents give its chain.
	parents := map[*rules.Context]*reachParents{}
	first := map[*rules.Context]map[*rules.Function]reachNode{}
	// wrapped: a context entry that is a decorator wrapper, mapped to the
	// name of the function the spawn passed (see entryWants).
	wrapped := map[*rules.Context]string{}
	for _, s := range b.spawns {
		if w := b.entryWant(s); w != "" {
			wrapped[s.ctx] = w
		}
	}
	bfs := func(ctx *rules.Context, roots []reachNode) {
		par, firsts := parents[ctx], first[ctx]
		var queue []reachNode
		visit := func(n reachNode, p reachParent) {
			if !par.add(n, p) {
				return
			}
			if _, ok := firsts[n.f]; !ok {
				firsts[n.f] = n
				reachedBy[n.f] = append(reachedBy[n.f], ctx)
			}
			queue = append(queue, n)
		}
		for _, r := range roots {
			visit(r, reachParent{})
		}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			calls := n.f.Calls
			if n.want != "" {
				calls = b.wrapperCalls(n.f, n.want)
			}
			for _, c := range calls {
				if c.Callee == nil {
					continue
				}
				visit(reachNode{c.Callee, b.callWant(c)}, reachParent{call: c, from: n})
			}
		}
	}
	start := func(ctx *rules.Context) {
		parents[ctx] = &reachParents{plain: map[*rules.Function]reachParent{}}
		first[ctx] = map[*rules.Function]reachNode{}
	}
	start(b.main)
	var roots []reachNode
	for _, f := range b.g.Funcs {
		if _, ok := f.Node.(*ast.Module); ok {
			roots = append(roots, reachNode{f: b.fn(f)})
		}
	}
	bfs(b.main, roots)
	for _, c := range b.prog.Contexts[1:] {
		if c.Entry == nil {
			continue
		}
		start(c)
		bfs(c, []reachNode{{c.Entry, wrapped[c]}})
	}
	// What the scripts and threads reach (processEntries adds what the
	// processes they launch reach; libraryInits reads both).
	b.entryReached = map[*rules.Function]bool{}
	for f, ctxs := range reachedBy {
		if len(ctxs) > 0 {
			b.entryReached[f] = true
		}
	}
	// Library code: functions nobody reaches run on main. Functions
	// without callers go first so that chains start at entry points.
	called := map[*rules.Function]bool{}
	for _, f := range b.prog.Funcs {
		for _, c := range f.Calls {
			if c.Callee != nil {
				called[c.Callee] = true
			}
		}
	}
	// An uncalled method runs where the evidence says: in the contexts
	// that run the method it overrides (a call on the base class's
	// type, self.policy.distributed() on an api.policy.Policy, may
	// dispatch to it), or else in the spawned contexts whose unresolved
	// calls name it (self.policy.update_popart(), the policy built by a
	// registry).
	named, abstract := b.unresolvedNames(reachedBy), b.abstractCalls(reachedBy)
	defs := map[string]int{}
	if len(named) > 0 {
		for _, f := range b.g.Funcs {
			if f.Class != nil {
				if n := shortName(f.Name); len(named[n]) > 0 {
					defs[n]++
				}
			}
		}
	}
	for _, f := range b.prog.Funcs {
		if len(reachedBy[f]) > 0 || called[f] {
			continue
		}
		cf := b.fnOf(f)
		if cf == nil || cf.Class == nil {
			continue
		}
		ctxs := b.overriddenIn(cf, abstract)
		if len(ctxs) == 0 && shortName(f.Name) == "__del__" {
			// A finalizer runs where the object's last reference goes:
			// where its methods run.
			ctxs = b.methodsIn(cf.Class, reachedBy)
		}
		if len(ctxs) == 0 && defs[shortName(f.Name)] == 1 {
			// Only a name that nothing else in the program defines:
			// an unresolved x.forward() says nothing about which
			// forward runs.
			ctxs = named[shortName(f.Name)]
		}
		for _, ctx := range ctxs {
			bfs(ctx, []reachNode{{f: f}})
		}
	}
	for pass := 0; pass < 2; pass++ {
		for _, f := range b.prog.Funcs {
			if len(reachedBy[f]) > 0 || (pass == 0 && called[f]) {
				continue
			}
			bfs(b.main, []reachNode{{f: f}})
		}
	}
	// Parents of spawned contexts: the first context running the spawner.
	for _, s := range b.spawns {
		if by := reachedBy[b.fn(s.caller)]; len(by) > 0 && by[0] != s.ctx {
			s.ctx.Parent = by[0]
		} else {
			s.ctx.Parent = b.main
		}
	}
	for _, c := range b.prog.Contexts[1:] {
		if c.Parent == nil {
			c.Parent = b.main
		}
	}
	spawnOf := map[*rules.Context]*spawn{}
	for _, s := range b.spawns {
		spawnOf[s.ctx] = s
	}
	for _, site := range b.prog.Sites {
		if c := b.spawnedBy[site]; c != nil {
			site.Reach = append(site.Reach, &rules.Reach{Ctx: c})
			continue
		}
		for _, ctx := range reachedBy[site.Func] {
			par := parents[ctx]
			var chain []*rules.Call
			for n := first[ctx][site.Func]; ; {
				p := par.of(n)
				if p.call == nil {
					break
				}
				chain = append(chain, p.call)
				n = p.from
				if len(chain) > len(par.plain)+len(par.wanted) {
					break
				}
			}
			for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
				chain[i], chain[j] = chain[j], chain[i]
			}
			if b.offInSpawn(site, chain, spawnOf[ctx]) {
				continue // the callback exists only where the site's flag is false
			}
			if sp := spawnOf[ctx]; sp != nil && ctx.Kind == rules.Autograd && b.spawnNeverRuns(sp) {
				continue // the callback is never registered
			}
			if b.gatedOffIn(site, ctx, spawnOf[ctx], reachedBy) {
				continue // every call in this context turns the site's flag off
			}
			r := &rules.Reach{Ctx: ctx, Chain: chain}
			if g := b.refineGroup(site, chain, spawnOf[ctx]); g != nil {
				r.Group = g
			}
			site.Reach = append(site.Reach, r)
		}
	}
	// A library call that communicates on its own thread (async_save) is
	// also reached by that background context: its collectives run there,
	// not on the caller's thread.
	for _, s := range b.spawns {
		if s.ctx.Kind != rules.Background || s.ctx.Entry != nil || s.cs == nil {
			continue
		}
		if site := b.sites[s.cs.Node]; site != nil {
			site.Reach = append(site.Reach, &rules.Reach{Ctx: s.ctx, Group: s.ctx.Group})
		}
	}
}

// overriddenIn returns the contexts that run a call dispatching to an
// override of f: a call whose only targets are abstract methods (raise
// NotImplementedError, @abstractmethod) runs one of their overrides, and
// f overrides the nearest base class's method of its name. Context
// order.
func (b *builder) overriddenIn(f *callgraph.Func, abstractCalls map[*callgraph.Func][]*rules.Context) []*rules.Context {
	if len(abstractCalls) == 0 {
		return nil
	}
	mro, _ := b.g.MRO(f.Class)
	name := shortName(f.Name)
	for _, base := range mro {
		if base == f.Class {
			continue
		}
		fns, _ := b.g.Lookup(base, name)
		var out []*rules.Context
		for _, fn := range fns {
			for _, ctx := range abstractCalls[fn] {
				if !slices.Contains(out, ctx) {
					out = append(out, ctx)
				}
			}
		}
		if len(fns) > 0 {
			slices.SortFunc(out, func(x, y *rules.Context) int { return x.ID - y.ID })
			return out
		}
	}
	return nil
}

// abstractCalls maps the abstract methods that some call can only
// dispatch to an override of (every target of the call is abstract) to
// the contexts that run those calls.
func (b *builder) abstractCalls(reachedBy map[*rules.Function][]*rules.Context) map[*callgraph.Func][]*rules.Context {
	var out map[*callgraph.Func][]*rules.Context
	for f, ctxs := range reachedBy {
		cf := b.fnOf(f)
		if cf == nil {
			continue
		}
	calls:
		for _, cs := range cf.Calls {
			if cs.Node == nil || len(cs.Targets) == 0 {
				continue
			}
			for _, t := range cs.Targets {
				if t.Fn == nil || !t.Fn.Abstract() {
					continue calls
				}
			}
			if out == nil {
				out = map[*callgraph.Func][]*rules.Context{}
			}
			for _, t := range cs.Targets {
				for _, ctx := range ctxs {
					if !slices.Contains(out[t.Fn], ctx) {
						out[t.Fn] = append(out[t.Fn], ctx)
					}
				}
			}
		}
	}
	return out
}

// methodsIn returns the contexts that run c's methods, in context order.
func (b *builder) methodsIn(c *callgraph.Class, reachedBy map[*rules.Function][]*rules.Context) []*rules.Context {
	var out []*rules.Context
	for _, fn := range b.g.Funcs {
		if fn.Class != c {
			continue
		}
		for _, ctx := range reachedBy[b.fn(fn)] {
			if !slices.Contains(out, ctx) {
				out = append(out, ctx)
			}
		}
	}
	slices.SortFunc(out, func(x, y *rules.Context) int { return x.ID - y.ID })
	return out
}

// unresolvedNames maps the method names of the calls that nothing
// resolves (self.policy.update_popart() on a policy of unknown class) in
// the functions that spawned contexts run to those contexts.
func (b *builder) unresolvedNames(reachedBy map[*rules.Function][]*rules.Context) map[string][]*rules.Context {
	var named map[string][]*rules.Context
	for f, ctxs := range reachedBy {
		cf := b.fnOf(f)
		if cf == nil {
			continue
		}
		for _, cs := range cf.Calls {
			if cs.Node == nil || len(cs.Targets) > 0 {
				continue
			}
			attr, ok := cs.Node.Func.(*ast.Attribute)
			if !ok || strings.HasPrefix(attr.Attr, "__") {
				continue
			}
			for _, ctx := range ctxs {
				if ctx == b.main || slices.Contains(named[attr.Attr], ctx) {
					continue
				}
				if named == nil {
					named = map[string][]*rules.Context{}
				}
				named[attr.Attr] = append(named[attr.Attr], ctx)
			}
		}
	}
	for _, ctxs := range named {
		slices.SortFunc(ctxs, func(x, y *rules.Context) int { return x.ID - y.ID })
	}
	return named
}

// reachNode is a function as the search reaches it: want names the one
// function a decorator wrapper stands for at that call ("" for all).
type reachNode struct {
	f    *rules.Function
	want string
}

// reachParent is how the search first came to a node: the call, and the
// node it was made from (call nil for a root).
type reachParent struct {
	call *rules.Call
	from reachNode
}

// reachParents holds how the search first came to each node of one
// context. Nodes with a wanted name are few (decorator wrappers): they
// get their own map, and the common node is keyed by its function alone.
type reachParents struct {
	plain  map[*rules.Function]reachParent
	wanted map[reachNode]reachParent
}

// add records p for n unless n was reached already, and reports whether
// it did.
func (r *reachParents) add(n reachNode, p reachParent) bool {
	if n.want == "" {
		if _, ok := r.plain[n.f]; ok {
			return false
		}
		r.plain[n.f] = p
		return true
	}
	if _, ok := r.wanted[n]; ok {
		return false
	}
	if r.wanted == nil {
		r.wanted = map[reachNode]reachParent{}
	}
	r.wanted[n] = p
	return true
}

func (r *reachParents) of(n reachNode) reachParent {
	if n.want == "" {
		return r.plain[n.f]
	}
	return r.wanted[n]
}

// callWant returns, for a call whose callee is a decorator's wrapper
// closure reached through another name (dist.barrier() calling
// timed_op's log_wrapper), that name: the wrapper runs the function so
// named. It returns "" otherwise.
func (b *builder) callWant(c *rules.Call) string {
	if !b.isClosure(c.Callee) {
		return ""
	}
	cs := b.callSite(c)
	if cs == nil || cs.Node == nil {
		return ""
	}
	if want := funcName(cs.Node); want != "" && want != shortName(c.Callee.Name) {
		return want
	}
	return ""
}

// entryWant returns, for a spawn whose entry is a decorator wrapper
// (register_hook(partial(self._post_backward_hook, h)) where the method is
// decorated with torch.no_grad()), the name of the function passed; the
// wrapper calls every function that decorator wraps in the program, and
// the context runs only this one. It returns "" otherwise.
func (b *builder) entryWant(s *spawn) string {
	if s.ctx.Entry == nil || !s.sp.Target.Present() || !b.isClosure(s.ctx.Entry) {
		return ""
	}
	e := argExpr(s.cs.Node, s.sp.Target)
	for depth := 0; e != nil && depth < 4; depth++ {
		call, ok := e.(*ast.Call)
		if !ok || len(call.Args) == 0 || funcName(call) != "partial" {
			break
		}
		e = call.Args[0]
	}
	want := lastIdent(e)
	if want == "" || want == shortName(s.ctx.Entry.Name) {
		return ""
	}
	return want
}

// refineGroup follows the site's group argument up the chain while it is
// a parameter, and evaluates the argument passed for it at the first
// call (or spawn) that passes something else: the group this chain uses.
func (b *builder) refineGroup(site *rules.Site, chain []*rules.Call, sp *spawn) *rules.Group {
	src, ok := b.siteSrc[site]
	if !ok || src.cs == nil || src.cs.Node == nil {
		return nil
	}
	var e ast.Expr
	switch {
	case src.c.ReceiverGroup:
		// pg.allreduce(t), comm.allReduce(…): the receiver is the group.
		a, ok := src.cs.Node.Func.(*ast.Attribute)
		if !ok {
			return nil
		}
		e = a.Value
	case src.c.Group.Present():
		e = argExpr(src.cs.Node, src.c.Group)
	default:
		return nil
	}
	fn := b.fnOf(site.Func)
	for k := len(chain) - 1; ; k-- {
		name, ok := e.(*ast.Name)
		if !ok {
			break
		}
		idx := paramIndex(fn, name.Id)
		if idx < 0 {
			break
		}
		var next ast.Expr
		if k >= 0 {
			cs := b.callSite(chain[k])
			if cs == nil || cs.Node == nil {
				return nil
			}
			shift := 0
			if fn.Class != nil && !fn.Static {
				if _, attr := cs.Node.Func.(*ast.Attribute); attr {
					shift = 1
				}
			}
			if a, attr := cs.Node.Func.(*ast.Attribute); attr && a.Attr == "apply" && fn.Class != nil && shortName(fn.Name) == "forward" {
				// Fn.apply(x, group) calls the autograd Function's
				// forward(ctx, x, group): autograd passes ctx.
				shift = 1
			}
			next = callArg(cs.Node, idx-shift, name.Id)
			if next == nil {
				// Not passed: the parameter's default (group=None is the
				// default group).
				return b.defaultGroup(fn, name.Id)
			}
			fn = cs.Caller
		} else {
			if sp == nil {
				return nil
			}
			shift := 0
			if sp.bound {
				shift = 1
			}
			if i := idx - shift; i >= 0 && i < len(sp.args) {
				next = sp.args[i]
			} else if sp.kw != nil {
				next = sp.kw[name.Id]
			}
			if next == nil {
				return b.defaultGroup(fn, name.Id)
			}
			if gs := b.groupsOf(b.g.ExprValues(next), next); len(gs) == 1 {
				return gs[0]
			}
			return nil
		}
		if next == nil {
			return nil
		}
		e = next
	}
	if e == nil {
		return nil
	}
	if gs := b.groupsOf(b.g.ExprValues(e), e); len(gs) == 1 {
		return gs[0]
	}
	return nil
}

// defaultGroup is the group a parameter's default denotes when a call
// leaves it out: the default group for None (or group.WORLD); nil
// otherwise.
func (b *builder) defaultGroup(f *callgraph.Func, param string) *rules.Group {
	if f == nil {
		return nil
	}
	d := flow.ParamDefault(f.Node, param)
	if d == nil {
		return nil
	}
	if k, ok := d.(*ast.Constant); ok && k.Type == ast.ConstNone {
		return b.in.Values.world
	}
	if t := pathText(d); strings.HasSuffix(t, "group.WORLD") {
		return b.in.Values.world
	}
	return nil
}

// paramIndex is the position of a parameter among f's positional
// parameters (-1 when it is not one).
func paramIndex(f *callgraph.Func, name string) int {
	if f == nil || f.Scope == nil {
		return -1
	}
	for i, p := range f.Scope.Params {
		if p == name {
			return i
		}
	}
	return -1
}

// callArg finds the argument passed at position i or by keyword name.
func callArg(call *ast.Call, i int, name string) ast.Expr {
	for _, k := range call.Keywords {
		if k.Arg == name {
			return k.Value
		}
	}
	if i >= 0 && i < len(call.Args) {
		for _, a := range call.Args[:i+1] {
			if _, star := a.(*ast.Starred); star {
				return nil
			}
		}
		return call.Args[i]
	}
	return nil
}

// gatedOffIn reports a site that its function issues only when a
// parameter says so (`if background: all_to_all(…, async_op=True)`),
// where every call of that function made in ctx passes, or defaults to,
// the value that rules it out: an autograd Function's backward that calls
// the helper without the flag never reaches the site (Switch-NeRF's
// list_all_to_all). A caller that passes a parameter of its own
// (`build_generic(cls, synchronize_ranks, …)`) is asked the same of that
// parameter, a few calls up; ctx's entry, of the arguments its spawn
// passes (`ex.submit(build_split, path, False)`, Megatron's dataset
// builder's pool). A function ctx enters without an explicit call keeps
// its sites.
func (b *builder) gatedOffIn(site *rules.Site, ctx *rules.Context, sp *spawn, reachedBy map[*rules.Function][]*rules.Context) bool {
	f := b.fnOf(site.Func)
	if f == nil {
		return false
	}
	gate := b.paramGates(f).gateAt(gateKey{site.Pos.Line, site.Pos.Col})
	if gate == "" || strings.Contains(gate, ".") {
		return false
	}
	if param := strings.TrimPrefix(gate, negGatePrefix); !isParam(funcArgs(f.Node), param) {
		return b.closureGatedOff(f, param, gate)
	}
	return b.offInContext(f, gate, ctx, sp, reachedBy, 0)
}

// offInContext reports that every way ctx enters f passes, or defaults
// to, a value of gate's parameter that rules the gated code out
// (gatedOffIn).
func (b *builder) offInContext(f *callgraph.Func, gate string, ctx *rules.Context, sp *spawn, reachedBy map[*rules.Function][]*rules.Context, depth int) bool {
	found := false
	if sp != nil && sp.ctx == ctx && ctx.Entry != nil && ctx.Entry == b.fn(f) {
		if !spawnGateOff(sp, f, gate) {
			return false
		}
		found = true
	}
	for _, cs := range b.callersOf(f) {
		if !slices.Contains(reachedBy[b.fn(cs.Caller)], ctx) {
			continue
		}
		off, fwd := resolveGate(f, cs.Node, gate)
		if !off {
			// The caller's own parameter, passed on: ask its callers.
			if fwd == "" || depth >= 3 || !isParam(funcArgs(cs.Caller.Node), strings.TrimPrefix(fwd, negGatePrefix)) ||
				!b.offInContext(cs.Caller, fwd, ctx, sp, reachedBy, depth+1) {
				return false
			}
		}
		found = true
	}
	return found
}

// spawnGateOff reports that the arguments a spawn passes to its entry f
// (submit(fn, a, b), Thread(target=fn, args=(…), kwargs={…})) give gate's
// parameter a constant, or leave its default, that rules the gated code
// out: resolveGate on the call the spawn makes, when its arguments line
// up with f's parameters as a call's would (a method bound to its
// receiver, or a plain function).
func spawnGateOff(sp *spawn, f *callgraph.Func, gate string) bool {
	if sp.bound != (f.Class != nil && !f.Static) {
		return false
	}
	call := &ast.Call{Args: sp.args}
	for name, v := range sp.kw {
		call.Keywords = append(call.Keywords, &ast.Keyword{Arg: name, Value: v})
	}
	off, _ := resolveGate(f, call, gate)
	return off
}

// closureGatedOff reports a site of closure f gated by a parameter of an
// enclosing function (dolomite's run_rank_n(func, rank=0, barrier=False),
// whose wrappers barrier `if barrier:`) where every call of that function
// passes, or defaults to, the value that rules the site out: the closures
// it returns never issue it, in any context.
func (b *builder) closureGatedOff(f *callgraph.Func, param, gate string) bool {
	var owner *callgraph.Func
	for p := f.Parent; p != nil; p = p.Parent {
		if isParam(funcArgs(p.Node), param) {
			owner = p
			break
		}
	}
	if owner == nil {
		return false
	}
	return b.offAtEveryCall(owner, gate)
}
