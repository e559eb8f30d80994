package flow

import (
	"maps"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Locals bound on some ranks only. A function that binds a local only
// in one arm of a rank test (`if comm.Get_rank() == 0: state =
// torch.load(p)`) and then hands it to a collective on every rank
// (`comm.bcast(state[k])`) raises UnboundLocalError on the ranks that
// skipped the arm, while evaluating the collective's arguments, before
// they reach it (DarrellDai/Distributed-RL's learner resume). Under
// mpi4py an uncaught exception does not end the job, so the ranks that
// did bind it wait in the collective forever. (Under torch.distributed
// the launcher stops the job with the error: loud, so not reported.)

// bindState says how a local is bound at a point of the walk: absent
// from the map, not at all; nil, on every path; an if, only on the ranks
// that take one arm of that rank test.
type bindState = map[string]*armBinding

// armBinding is the rank test whose arm alone binds a local, and
// whether that arm is its else arm.
type armBinding struct {
	test   *ast.If
	inElse bool
}

// rankBoundReads reports the mpi4py collectives of body whose arguments
// read a local only some ranks bind (above), each as an early exit
// before the collective on the ranks that did not bind it.
func (l *lowerer) rankBoundReads(body []ast.Stmt) {
	if !l.src.mpiRaiseFile() {
		return
	}
	// The parameters are bound on entry; a name declared global or
	// nonlocal is not the function's local.
	entry := bindState{}
	for p := range paramNames(l.node) {
		entry[p] = nil
	}
	if _, args, _, ok := defParts(l.node); ok && args != nil {
		for _, a := range []*ast.Arg{args.Vararg, args.Kwarg} {
			if a != nil {
				entry[a.Arg] = nil
			}
		}
	}
	skip := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Global:
			for _, v := range n.Names {
				skip[v] = true
			}
		case *ast.Nonlocal:
			for _, v := range n.Names {
				skip[v] = true
			}
		}
		return true
	})
	reported := map[*ast.Call]bool{}
	l.bindWalk(body, entry, skip, reported)
}

// bindWalk walks stmts in order from the binding state in, checking each
// statement's own expressions for mpi4py collectives before applying its
// bindings, and returns the state after them.
func (l *lowerer) bindWalk(stmts []ast.Stmt, in bindState, skip map[string]bool, reported map[*ast.Call]bool) bindState {
	st := in
	for _, s := range stmts {
		for _, e := range ownExprs(s) {
			l.checkUnboundArgs(e, st, skip, reported)
		}
		switch s := s.(type) {
		case *ast.FunctionDef:
			st[s.Name] = nil
		case *ast.AsyncFunctionDef:
			st[s.Name] = nil
		case *ast.ClassDef:
			st[s.Name] = nil
		case *ast.Import:
			bindAliases(st, s.Names)
		case *ast.ImportFrom:
			bindAliases(st, s.Names)
		case *ast.If:
			then := l.bindWalk(s.Body, maps.Clone(st), skip, reported)
			els := l.bindWalk(s.Orelse, maps.Clone(st), skip, reported)
			var rb *ast.If
			if l.isRank(s.Test) {
				rb = s
			}
			st = mergeBinds(st, then, els, rb, leavesFunction(s.Body), leavesFunction(s.Orelse))
		case *ast.For, *ast.AsyncFor, *ast.While:
			inner := maps.Clone(st)
			if t := forTarget(s); t != nil {
				inner = bindNames(inner, []ast.Expr{t})
			}
			blocks := ast.ChildBlocks(s)
			body := l.bindWalk(blocks[0], inner, skip, reported)
			els := l.bindWalk(blocks[1], maps.Clone(st), skip, reported)
			st = mergeBinds(st, body, els, nil, false, false)
		case *ast.With:
			for _, it := range s.Items {
				st = bindNames(st, everyBindingTarget(it))
			}
			st = l.bindWalk(s.Body, st, skip, reported)
		case *ast.AsyncWith:
			for _, it := range s.Items {
				st = bindNames(st, everyBindingTarget(it))
			}
			st = l.bindWalk(s.Body, st, skip, reported)
		case *ast.Try, *ast.TryStar, *ast.Match:
			// Any arm may run: a name bound in one counts as bound
			// (no report where the analysis cannot tell).
			out := maps.Clone(st)
			for _, arm := range ast.ChildBlocks(s) {
				a := l.bindWalk(arm, maps.Clone(st), skip, reported)
				out = mergeBinds(out, a, out, nil, false, false)
			}
			if t, ok := s.(*ast.Try); ok {
				for _, h := range t.Handlers {
					if h.Name != "" {
						out[h.Name] = nil
					}
				}
			}
			st = out
		default:
			// Assignments, and walrus targets anywhere in the statement.
			ast.Inspect(s, func(n ast.Node) bool {
				st = bindNames(st, everyBindingTarget(n))
				return true
			})
		}
	}
	return st
}

// bindAliases marks the names an import binds (`import a.b` binds a).
func bindAliases(st bindState, names []*ast.Alias) {
	for _, a := range names {
		name := a.Asname
		if name == "" {
			name, _, _ = strings.Cut(a.Name, ".")
		}
		st[name] = nil
	}
}

// ownExprs returns the expressions a statement evaluates itself, not
// those of the blocks it holds.
func ownExprs(s ast.Stmt) []ast.Expr {
	switch s := s.(type) {
	case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
		return nil
	case *ast.If:
		return []ast.Expr{s.Test}
	case *ast.While:
		return []ast.Expr{s.Test}
	case *ast.For:
		return []ast.Expr{s.Iter}
	case *ast.AsyncFor:
		return []ast.Expr{s.Iter}
	case *ast.With:
		var out []ast.Expr
		for _, it := range s.Items {
			out = append(out, it.ContextExpr)
		}
		return out
	case *ast.AsyncWith:
		var out []ast.Expr
		for _, it := range s.Items {
			out = append(out, it.ContextExpr)
		}
		return out
	case *ast.Try, *ast.TryStar, *ast.Match:
		return nil
	}
	var out []ast.Expr
	ast.Inspect(s, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			out = append(out, e)
			return false
		}
		return true
	})
	return out
}

// forTarget is a for loop's target, nil for a while loop.
func forTarget(s ast.Stmt) ast.Expr {
	switch s := s.(type) {
	case *ast.For:
		return s.Target
	case *ast.AsyncFor:
		return s.Target
	}
	return nil
}

// bindNames marks the names among targets bound on every path.
func bindNames(st bindState, targets []ast.Expr) bindState {
	for _, t := range targets {
		ast.Inspect(t, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok {
				st[nm.Id] = nil
			}
			return true
		})
	}
	return st
}

// mergeBinds joins the states at the ends of an if's (or loop's) two
// paths, both started from before. Under a rank test (rank non-nil), a
// local unbound before that only one arm binds is bound on the ranks
// taking that arm alone. An arm that leaves the function does not reach
// the code after the if.
func mergeBinds(before, then, els bindState, rank *ast.If, thenLeaves, elseLeaves bool) bindState {
	switch {
	case thenLeaves && !elseLeaves:
		return els
	case elseLeaves && !thenLeaves:
		return then
	}
	out := maps.Clone(before)
	names := map[string]bool{}
	for k := range then {
		names[k] = true
	}
	for k := range els {
		names[k] = true
	}
	for k := range names {
		if v, ok := before[k]; ok && v == nil {
			continue // bound everywhere already
		}
		t, inThen := then[k]
		e, inElse := els[k]
		switch {
		case inThen && inElse && t == nil && e == nil:
			out[k] = nil
		case inThen && inElse:
			// Bound in both, on some ranks in one: keep the narrower.
			if t != nil {
				out[k] = t
			} else {
				out[k] = e
			}
		case rank != nil && inThen && t == nil:
			out[k] = &armBinding{test: rank}
		case rank != nil && inElse && e == nil:
			out[k] = &armBinding{test: rank, inElse: true}
		case inThen:
			if rank == nil && t == nil {
				out[k] = nil // a test the analysis does not read: bound
			} else {
				out[k] = t
			}
		case inElse:
			if rank == nil && e == nil {
				out[k] = nil
			} else {
				out[k] = e
			}
		}
	}
	return out
}

// checkUnboundArgs reports each mpi4py collective in e whose arguments
// read a local bound on some ranks only.
func (l *lowerer) checkUnboundArgs(e ast.Expr, st bindState, skip map[string]bool, reported map[*ast.Call]bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Lambda, *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
			return false
		}
		c, ok := n.(*ast.Call)
		if !ok || reported[c] {
			return true
		}
		site := l.r.Site(c)
		if site == nil || !strings.HasPrefix(site.API, "mpi4py.") || site.Kind == rules.OpOther {
			return true
		}
		var args []ast.Expr
		args = append(args, c.Args...)
		for _, k := range c.Keywords {
			args = append(args, k.Value)
		}
		for _, a := range args {
			var hit string
			var rb *armBinding
			ast.Inspect(a, func(x ast.Node) bool {
				if ie, ok := x.(*ast.IfExp); ok && l.isRank(ie.Test) {
					return false // `x if rank == 0 else None`: read where bound
				}
				switch x.(type) {
				case *ast.Lambda, *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
					return false // comprehensions bind their own names
				}
				if nm, ok := x.(*ast.Name); ok && hit == "" && nm.Ctx == ast.Load && !skip[nm.Id] {
					if b := st[nm.Id]; b != nil {
						hit, rb = nm.Id, b
					}
				}
				return hit == ""
			})
			if hit == "" {
				continue
			}
			reported[c] = true
			cond := l.text(rb.test.Test)
			if rb.inElse {
				cond = "not (" + cond + ")"
			}
			op := &rules.OpRef{Op: site.Op, Group: site.Group, Pos: site.Pos, Site: site}
			l.addBranch(&rules.RankBranch{
				Func: l.fn, Guard: l.pos(rb.test.Test.Span()), Cond: cond, Divergence: rules.RankTest,
				EarlyExit: true, MPIRaise: true, Unbound: hit, After: []*rules.OpRef{op},
				UniformIn: l.uniformIn(rb.test.Test),
			})
			break
		}
		return true
	})
}
