package flow

import (
	"maps"
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// What a program function's result is made of. `val_loss =
// validation(model, rank, loader)` passes the rank, yet returns a loss
// that the function all-reduced: the same on every rank. A call of a
// program function is a rank value only when a rank argument reaches a
// parameter that its return statements are computed from (followed
// through the function's own assignments, syntactically).

// returnFlow is the parameters a function's returned values are computed
// from, and whether the function could be read at all (ok).
type returnFlow struct {
	params []string        // positional parameters, in order
	from   map[string]bool // parameters the returns depend on
	ok     bool
}

// returnedParams summarises fn (memoised per analysis).
func (l *lowerer) returnedParams(fn *rules.Function) returnFlow {
	return summarize(&l.memo().returns, fn, func() returnFlow {
		if body, args, ok := l.defOf(fn); ok && args.Vararg == nil && args.Kwarg == nil {
			return scanReturns(body, args, l.uniformOutputs)
		}
		return returnFlow{}
	})
}

// uniformOutputs names what a call leaves the same on every rank: the
// outputs of an all-reduce, broadcast or all-gather.
func (l *lowerer) uniformOutputs(c *ast.Call) []string {
	site := l.r.Site(c)
	if site == nil {
		return nil
	}
	switch site.Op {
	case "all_reduce", "broadcast", "all_gather", "broadcast_object", "all_gather_object":
	default:
		return nil
	}
	outs := site.Outputs
	if len(outs) == 0 {
		if e := l.tb.Collectives[site.API]; e != nil {
			for _, a := range e.Outputs {
				if x := arg(c, a); x != nil {
					outs = append(outs, tensors(x)...)
				}
			}
		}
	}
	return outs
}

func scanReturns(body []ast.Stmt, args *ast.Arguments, uniform func(*ast.Call) []string) returnFlow {
	out := returnFlow{from: map[string]bool{}, ok: true, params: args.PositionalNames()}
	isParam := argSet(args)
	// deps[v]: the parameters local v is computed from.
	deps := map[string]map[string]bool{}
	for p := range isParam {
		deps[p] = map[string]bool{p: true}
	}
	var namesIn func(e ast.Node) map[string]bool
	namesIn = func(e ast.Node) map[string]bool {
		got := map[string]bool{}
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Lambda:
				return false
			case *ast.Name:
				for p := range deps[n.Id] {
					got[p] = true
				}
			case *ast.Call:
				// torch.load(path, map_location=device), x.to(device):
				// where the result lives is no part of its value.
				if placement(n) {
					for _, x := range placedValues(n) {
						for p := range namesIn(x) {
							got[p] = true
						}
					}
					return false
				}
			}
			return true
		})
		return got
	}
	// same: locals a collective leaves equal on every rank; whatever they
	// were computed from, they carry no parameter's value.
	same := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			for _, v := range uniform(n) {
				same[v] = true
			}
		}
		return true
	})
	bind := func(target ast.Node, from map[string]bool) bool {
		changed := false
		ast.Inspect(target, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && !same[nm.Id] {
				d := deps[nm.Id]
				if d == nil {
					d = map[string]bool{}
					deps[nm.Id] = d
				}
				for p := range from {
					if !d[p] {
						d[p] = true
						changed = true
					}
				}
			}
			return true
		})
		return changed
	}
	union := func(a, b map[string]bool) map[string]bool {
		if len(b) == 0 {
			return a
		}
		out := make(map[string]bool, len(a)+len(b))
		for k := range a {
			out[k] = true
		}
		for k := range b {
			out[k] = true
		}
		return out
	}
	// walk binds each assignment's targets to what its value, and the
	// tests that decide whether it runs (ctl), are computed from; returns
	// are collected with their tests the same way.
	var returns []map[string]bool
	var rebound map[*ast.Return][]string // set before the collecting walk
	var walk func(stmts []ast.Stmt, ctl map[string]bool, collect bool) bool
	// loop binds a for loop's target to its iterable; the body runs under
	// the iterable as a test (how many times it runs).
	loop := func(target, iter ast.Expr, body, orelse []ast.Stmt, ctl map[string]bool, collect bool) bool {
		it := namesIn(iter)
		changed := bind(target, union(it, ctl))
		c2 := union(ctl, it)
		changed = walk(body, c2, collect) || changed
		return walk(orelse, c2, collect) || changed
	}
	walk = func(stmts []ast.Stmt, ctl map[string]bool, collect bool) bool {
		changed := false
		for _, st := range stmts {
			ast.Inspect(st, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.Yield, *ast.YieldFrom:
					out.ok = false // a generator: its values are not its return
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
					return false
				}
				return true
			})
			switch n := st.(type) {
			case *ast.Assign:
				from := union(namesIn(n.Value), ctl)
				for _, t := range n.Targets {
					if bind(t, from) {
						changed = true
					}
				}
			case *ast.AugAssign:
				if bind(n.Target, union(namesIn(n.Value), ctl)) {
					changed = true
				}
			case *ast.AnnAssign:
				if n.Value != nil && bind(n.Target, union(namesIn(n.Value), ctl)) {
					changed = true
				}
			case *ast.For:
				changed = loop(n.Target, n.Iter, n.Body, n.Orelse, ctl, collect) || changed
			case *ast.AsyncFor:
				changed = loop(n.Target, n.Iter, n.Body, n.Orelse, ctl, collect) || changed
			case *ast.While:
				c2 := union(ctl, namesIn(n.Test))
				changed = walk(n.Body, c2, collect) || changed
				changed = walk(n.Orelse, c2, collect) || changed
			case *ast.If:
				c2 := union(ctl, namesIn(n.Test))
				changed = walk(n.Body, c2, collect) || changed
				changed = walk(n.Orelse, c2, collect) || changed
			case *ast.With:
				for _, it := range n.Items {
					if it.OptionalVars != nil && bind(it.OptionalVars, union(namesIn(it.ContextExpr), ctl)) {
						changed = true
					}
				}
				changed = walk(n.Body, ctl, collect) || changed
			case *ast.AsyncWith:
				changed = walk(n.Body, ctl, collect) || changed
			case *ast.Try:
				changed = walk(n.Body, ctl, collect) || changed
				for _, h := range n.Handlers {
					changed = walk(h.Body, ctl, collect) || changed
				}
				changed = walk(n.Orelse, ctl, collect) || changed
				changed = walk(n.Finalbody, ctl, collect) || changed
			case *ast.Match:
				c2 := union(ctl, namesIn(n.Subject))
				for _, mc := range n.Cases {
					changed = walk(mc.Body, c2, collect) || changed
				}
			case *ast.Return:
				if collect {
					r := map[string]bool{}
					if n.Value != nil {
						// Names rebound to a value of no parameter's
						// before this return (`loss = metrics[0] / n`
						// after the all-reduce of metrics) carry nothing
						// here.
						saved := map[string]map[string]bool{}
						for _, name := range rebound[n] {
							saved[name] = deps[name]
							delete(deps, name)
						}
						r = namesIn(n.Value)
						maps.Copy(deps, saved)
					}
					returns = append(returns, union(r, ctl))
				}
			}
		}
		return changed
	}
	// Assignments mostly come before their uses: a few passes settle
	// nearly every function; what a later pass would add is a loss of
	// recall on loop-carried chains only.
	for i := 0; i < 3 && walk(body, nil, false); i++ {
	}
	derived := map[string]bool{}
	for name, d := range deps {
		derived[name] = len(d) > 0
	}
	rebound = cleanRebinds(body, derived, func(e ast.Expr) bool { return len(namesIn(e)) > 0 })
	walk(body, nil, true)
	for _, r := range returns {
		for p := range r {
			out.from[p] = true
		}
	}
	return out
}

// rankThroughCall decides whether a call of a program function is a rank
// value from the arguments that reach the parameters its result is
// computed from (known); each such argument is examined once, the others
// not at all. known is false for anything else (external calls,
// generators, *args), which the caller examines as before.
func (l *lowerer) rankThroughCall(c *ast.Call) (rank, known bool) {
	if len(l.rankVars) == 0 && (constructs(c) || !namesRankInArgs(c)) {
		// No local holds the rank, and no argument of a function call
		// names one in place (`validate(model, rank=dist.get_rank())`;
		// an object constructed with the rank keeps it): the walk finds
		// whatever else makes it a rank. (This keeps the summaries off
		// nearly every function.)
		return false, false
	}
	return l.throughCall(c, l.isRank)
}

// namesRankInArgs reports an argument of c that names a rank in its text
// (a name or attribute with "rank" in it: dist.get_rank(), args.local_rank).
func namesRankInArgs(c *ast.Call) bool {
	return slices.ContainsFunc(c.Args, func(a ast.Expr) bool { return mentionsRankWord(a) }) ||
		slices.ContainsFunc(c.Keywords, func(k *ast.Keyword) bool { return mentionsRankWord(k.Value) })
}

// throughCall reports whether the result of a call of a program function
// has the property that holds of an argument (dep: isRank, timingProbe)
// when the function returns a value computed from that parameter; known
// is false when the call or the function is not understood.
func (l *lowerer) throughCall(c *ast.Call, dep func(ast.Expr) bool) (has, known bool) {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false, false
	}
	rf := l.returnedParams(fn)
	if !rf.ok {
		return false, false
	}
	params := rf.params
	// obj.method(x), and obj(x) running __call__: the receiver fills the
	// first parameter.
	_, method := c.Func.(*ast.Attribute)
	if (method || strings.HasSuffix(fn.Name, ".__call__")) && len(params) > 0 && (params[0] == "self" || params[0] == "cls") {
		params = params[1:]
	}
	for i, x := range c.Args {
		if _, star := x.(*ast.Starred); star || i >= len(params) {
			return false, false
		}
	}
	for _, k := range c.Keywords {
		if k.Arg == "" {
			return false, false
		}
	}
	for i, x := range c.Args {
		if rf.from[params[i]] && dep(x) && !l.reducesParam(fn, params[i]) {
			return true, true
		}
	}
	for _, k := range c.Keywords {
		if rf.from[k.Arg] && dep(k.Value) && !l.reducesParam(fn, k.Arg) {
			return true, true
		}
	}
	return false, true
}

// reducesParam reports a function that hands its parameter p, in place,
// to a collective whose result every rank shares (`def sum(self, values):
// if self.world_size > 1: dist.all_reduce(values); return values`,
// SmallLLMPreTrain's ProcessContext): what it returns of p is every
// rank's, whatever each passed. Under a single-process guard the
// collective may not run, but then there is no other rank.
func (l *lowerer) reducesParam(fn *rules.Function, p string) bool {
	key := reducedParam{fn, p}
	if v, ok := l.memo().reducedParams.Load(key); ok {
		return v.(bool)
	}
	r := l.reducesParamNow(fn, p)
	l.memo().reducedParams.Store(key, r)
	return r
}

// reducedParam keys reducesParam's memo.
type reducedParam struct {
	fn *rules.Function
	p  string
}

func (l *lowerer) reducesParamNow(fn *rules.Function, p string) bool {
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	// p, or a local made from it (`t = torch.tensor([1.0 if flag else
	// 0.0])`, nvidia-resiliency-ext's is_true_on_any_rank).
	from := map[string]bool{p: true}
	markBound(body, from, func(v ast.Expr) bool { return readsAny(v, from) })
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		if s := l.r.Site(c); s != nil && uniformOps[s.Op] && len(c.Args) > 0 {
			args := c.Args[:1]
			if strings.HasPrefix(s.Op, "all_gather") {
				// all_gather(out, t): what the function makes of the
				// gathered list is every rank's (concat_all_gather).
				args = c.Args
				for _, k := range c.Keywords {
					args = append(args, k.Value)
				}
			}
			for _, a := range args {
				if x, ok := a.(*ast.Name); ok && from[x.Id] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
