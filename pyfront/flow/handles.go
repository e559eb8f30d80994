package flow

import (
	"slices"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Work handles that a program function hands back to its caller.
//
// A helper that issues an async collective and returns its handle —
// `return out, handle` (vllm-ascend's all_gather_async, U1) — leaves the
// wait to its caller: the helper's own site is silent, since the handle
// escapes it. Each call of the helper that asks for async work then gets
// a Work of its own (rules.Work.Via), tracked in the caller like the
// result of a direct async call, so that `kv, _ = all_gather_async(kv,
// group, async_op=True)` is a discarded handle.

// returnedHandle is what a helper returns of one of its async sites.
type returnedHandle struct {
	fn    *rules.Function
	site  *rules.Site
	index int // the element of the returned tuple; -1: the returned value itself
	// asyncParam is the index of the helper's parameter that the site's
	// async argument is (async_op=async_op), or -1 when the site is
	// async whatever the caller passes.
	asyncParam int
	params     []string
	positional int // params[:positional] may be passed by position
}

// asyncBinding is a helper's variable bound to an async-capable site.
type asyncBinding struct {
	site       *rules.Site
	asyncParam int
}

// handedBack returns the async work handle that call c receives from a
// program function, or nil.
func (l *lowerer) handedBack(c *ast.Call) *returnedHandle {
	if l.callAsync[c] != nil {
		return nil // a collective itself
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn || !l.mayReturnWork(fn) {
		return nil
	}
	rh := l.returnedWork(fn)
	if rh == nil {
		return nil
	}
	// The caller decides: the argument must be a literal True.
	if rh.asyncParam >= 0 && !isTrue(paramArgument(c, rh.params, rh.positional, rh.asyncParam)) {
		return nil
	}
	return rh
}

// mayReturnWork: fn issues a collective that can be async (a cheap test
// that spares the syntax walk for nearly every function).
func (l *lowerer) mayReturnWork(fn *rules.Function) bool {
	for _, s := range fn.Sites {
		if e := l.tb.Collectives[s.API]; e != nil && (e.AlwaysAsync || e.Async.Present() || e.Sync.Present()) {
			return true
		}
	}
	return false
}

// returnedWork finds, in fn's own statements, a return of a variable bound
// to the result of one of its async-capable collectives.
func (l *lowerer) returnedWork(fn *rules.Function) *returnedHandle {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return nil
	}
	body, args, _, ok := defParts(fd.FuncDef(fn))
	if !ok {
		return nil
	}
	params, positional := callableParams(args)
	handles := map[string]asyncBinding{}
	// gates: an assignment under `if async_op:` (a parameter of the
	// helper) → that parameter, the innermost such if's: the handle it
	// binds exists only when the caller passes it true.
	gates := map[ast.Stmt]int{}
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		if i, ok := s.(*ast.If); ok {
			if p, ok := i.Test.(*ast.Name); ok {
				if idx := slices.Index(params, p.Id); idx >= 0 {
					ast.InspectStmts(i.Body, func(in ast.Stmt) bool {
						gates[in] = idx // visited after the outer if's: the innermost wins
						return true
					})
				}
			}
		}
		return true
	})
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			n, ok := s.Targets[0].(*ast.Name)
			value := unwrapAwait(s.Value)
			if lc, isComp := value.(*ast.ListComp); isComp {
				value = lc.Elt // a list of handles, one per element
			}
			c, isCall := value.(*ast.Call)
			if len(s.Targets) != 1 || !ok || !isCall {
				return true
			}
			if b, ok := l.asyncSite(c, params); ok {
				if gate, gated := gates[s]; gated && b.asyncParam < 0 {
					b.asyncParam = gate
				}
				handles[n.Id] = b
			} else {
				delete(handles, n.Id)
			}
		}
		return true
	})
	// Only a return that every call reaches counts: torch's own
	// `if async_op: return work` / `else: work.wait()` hands the handle
	// back only when asked to, which the site's async flag cannot tell.
	var found *returnedHandle
	for i, s := range body {
		r, ok := s.(*ast.Return)
		if g, isIf := s.(*ast.If); isIf && !ok {
			// `if dist.get_world_size() > 1: return dist.isend(t, dst)`
			// then `return None`: the handle comes back wherever there
			// is a peer, a test every rank answers alike and no
			// parameter of the helper decides (V-Net-JEPA's
			// _post_isend).
			r, ok = distributedReturn(g, body[i+1:], params)
		}
		if !ok {
			continue
		}
		index := -2
		var b asyncBinding
		switch v := r.Value.(type) {
		case *ast.Tuple:
			for i, x := range v.Elts {
				if hb, ok := l.returnedBinding(x, handles, params); ok {
					index, b = i, hb
					break
				}
			}
		default:
			if hb, ok := l.returnedBinding(v, handles, params); ok {
				index, b = -1, hb
			}
		}
		if index > -2 {
			found = &returnedHandle{fn: fn, site: b.site, index: index, asyncParam: b.asyncParam, params: params, positional: positional}
		}
		break
	}
	return found
}

// returnedBinding reports whether a returned expression is a work handle:
// a variable bound to an async-capable site, or such a call itself
// (`return dist.all_reduce(t, async_op=async_op)`, the shape of
// communication wrappers).
func (l *lowerer) returnedBinding(x ast.Expr, handles map[string]asyncBinding, params []string) (asyncBinding, bool) {
	switch x := unwrapAwait(x).(type) {
	case *ast.Name:
		b, ok := handles[x.Id]
		return b, ok
	case *ast.Call:
		return l.asyncSite(x, params)
	case *ast.ListComp:
		// `return [comm.Ireduce(f, g) for f, g in pairs]`: a list of
		// handles, one per element (firedrake's Ensemble).
		return l.returnedBinding(x.Elt, handles, params)
	case *ast.IfExp:
		// `return reqs if non_blocking else [r.wait() for r in reqs]`:
		// the handles come back when the caller passes True for the
		// tested parameter.
		p, ok := x.Test.(*ast.Name)
		if !ok {
			return asyncBinding{}, false
		}
		b, ok := l.returnedBinding(x.Body, handles, params)
		if !ok || b.asyncParam >= 0 {
			return asyncBinding{}, false
		}
		for i, q := range params {
			if q == p.Id {
				b.asyncParam = i
				return b, true
			}
		}
	}
	return asyncBinding{}, false
}

// asyncSite reports whether call c of a helper with parameters params is
// a collective whose result is a work handle: always (isend), with a
// literal async_op=True, or when the helper's own parameter passed as
// its async argument is true (asyncParam).
func (l *lowerer) asyncSite(c *ast.Call, params []string) (b asyncBinding, ok bool) {
	s := l.r.Site(c)
	if s == nil {
		return b, false
	}
	e := l.tb.Collectives[s.API]
	if e == nil {
		return b, false
	}
	b.site, b.asyncParam = s, -1
	if e.AlwaysAsync {
		return b, true
	}
	if x, ok := arg(c, e.Sync).(*ast.Constant); ok {
		return b, isFalse(x) && x.Type == ast.ConstBool // sync_op=False
	}
	switch x := arg(c, e.Async).(type) {
	case *ast.Constant:
		return b, isTrue(x)
	case *ast.Name:
		for i, p := range params {
			if p == x.Id {
				b.asyncParam = i
				return b, true
			}
		}
	}
	return b, false
}

// chained reports that waiting the newer work also waits the older one:
// both are torch.distributed collectives on the same group (the same
// group argument), which a device communicator runs on one stream in
// issue order, so `last = all_reduce(x, async_op=True)` in a loop with
// `last.wait()` after it waits every round (fairscale's ShardedGradScaler).
// Not on gloo, whose worker threads may finish them out of order, and not
// for MPI requests, each of which must be completed.
func (l *lowerer) chained(older, newer *rules.Work) bool {
	a, b := older.Site, newer.Site
	if a == nil || b == nil || a.Library != "torch" || b.Library != "torch" || a.Kind == rules.OpP2P || b.Kind == rules.OpP2P {
		return false
	}
	if a.Group == nil || b.Group == nil || !a.Group.IsDevice() || !b.Group.IsDevice() {
		return false
	}
	ta, oka := l.workGroup[older]
	tb, okb := l.workGroup[newer]
	if !oka || !okb {
		// Both on the default group, or both on one known group.
		return !oka && !okb && a.Group == b.Group && a.Group.Kind == rules.GroupWorld ||
			a.Group == b.Group && a.Group.Kind == rules.GroupAlloc
	}
	return ta == tb && ta != ""
}

// callableParams lists a def's parameters that a call can name: the
// positional ones (params[:positional], which may also be passed by
// position) and then the keyword-only ones.
func callableParams(args *ast.Arguments) (params []string, positional int) {
	if args == nil {
		return nil, 0
	}
	params = args.PositionalNames()
	positional = len(params)
	for _, a := range args.KwOnlyArgs {
		params = append(params, a.Arg)
	}
	return params, positional
}

// filedHandle is an async site whose handle a helper files in a list its
// caller passes (`def launch(ops, reqs): reqs.extend(dist.batch_isend_irecv(ops))`).
type filedHandle struct {
	fn         *rules.Function
	site       *rules.Site
	param      int // the index in params of the list parameter
	asyncParam int // as in returnedHandle
	params     []string
	positional int
}

// filedInParam finds, among fn's top-level statements (run on every
// call), one that appends or extends a parameter with the result of one
// of fn's async-capable collectives.
func (l *lowerer) filedInParam(fn *rules.Function) *filedHandle {
	body, args, ok := l.defOf(fn)
	if !ok {
		return nil
	}
	params, positional := callableParams(args)
	for _, s := range body {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		c, ok := es.Value.(*ast.Call)
		if !ok || !filesArgs(c) || len(c.Args) == 0 {
			continue
		}
		list, ok := c.Func.(*ast.Attribute).Value.(*ast.Name)
		if !ok {
			continue
		}
		param := slices.Index(params, list.Id)
		if param < 0 {
			continue
		}
		ac, ok := unwrapAwait(c.Args[len(c.Args)-1]).(*ast.Call)
		if !ok {
			continue
		}
		if b, ok := l.asyncSite(ac, params); ok {
			return &filedHandle{fn: fn, site: b.site, param: param, asyncParam: b.asyncParam, params: params, positional: positional}
		}
	}
	return nil
}

// filedBack starts tracking, in the caller, the handle that call c has a
// program function file in a list of this function's own (a local bound
// to []): it is pending under the list's name, like one appended here.
func (l *lowerer) filedBack(c *ast.Call, fn *rules.Function, st *state) {
	if fn == l.fn || !l.mayReturnWork(fn) {
		return
	}
	fh := l.filedInParam(fn)
	if fh == nil {
		return
	}
	if fh.asyncParam >= 0 && !isTrue(paramArgument(c, fh.params, fh.positional, fh.asyncParam)) {
		return
	}
	n, ok := paramArgument(c, fh.params, fh.positional, fh.param).(*ast.Name)
	if !ok || !l.handleLists[n.Id] {
		return
	}
	at := l.pos(c.Pos)
	stmt := l.listStmt()
	w := &rules.Work{Site: fh.site, Via: &at, ViaFunc: lastName(fh.fn.Name), ViaFiled: true, Var: n.Id, Container: n.Id, ListStmt: &stmt}
	st.add(n.Id, w)
	l.noteConds(w)
	l.addWork(w)
}

// rebindingStmt returns the position of a top-level statement of a loop's
// body that binds name afresh (`reqs = []`), which every pass runs: the
// handles the previous pass filed in the old list are dropped there.
func rebindingStmt(body []ast.Stmt, name string) *ast.Pos {
	for _, s := range body {
		var targets []ast.Expr
		switch s := s.(type) {
		case *ast.Assign:
			targets = s.Targets
		case *ast.AnnAssign:
			if s.Value != nil {
				targets = []ast.Expr{s.Target}
			}
		}
		for _, t := range targets {
			if n, ok := t.(*ast.Name); ok && n.Id == name {
				p := s.Span()
				return &p
			}
		}
	}
	return nil
}

// groupVaries reports whether the group argument of w's collective reads
// a name the loop binds anew on every pass (its target, or a local its
// body assigns): `group=groups[src]` in `for src in in_edges:` names a
// different group on each pass, so waiting the last pass's work does not
// wait the others (they run on other communicators' streams).
func (l *lowerer) groupVaries(w *rules.Work, target ast.Expr, body []ast.Stmt) bool {
	a := l.workGroupArg[w]
	if a == nil {
		return false
	}
	names := map[string]bool{}
	if target != nil {
		ast.Inspect(target, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok {
				names[nm.Id] = true
			}
			return true
		})
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Name:
			if n.Ctx == ast.Store {
				names[n.Id] = true
			}
		}
		return true
	})
	return mentions(a, names)
}

// distributedReturn returns the return of `if <test>: return x` when the
// test names none of the helper's parameters and the helper otherwise
// returns None (or nothing), for returnedWork.
func distributedReturn(g *ast.If, after []ast.Stmt, params []string) (*ast.Return, bool) {
	if len(g.Body) != 1 || len(g.Orelse) > 0 {
		return nil, false
	}
	r, ok := g.Body[0].(*ast.Return)
	if !ok || r.Value == nil {
		return nil, false
	}
	named := false
	ast.Inspect(g.Test, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && slices.Contains(params, nm.Id) {
			named = true
		}
		return !named
	})
	if named {
		return nil, false
	}
	if len(after) > 0 {
		last, ok := after[0].(*ast.Return)
		if !ok || last.Value != nil && !isNone(last.Value) {
			return nil, false
		}
	}
	return r, true
}
