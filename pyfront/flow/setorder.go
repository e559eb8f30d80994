package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Set iteration order. A set iterates in the order of its elements'
// hashes, and those differ between processes: strings are hashed with a
// per-process random seed (PYTHONHASHSEED), objects by their address. A
// loop over a set that issues a collective per element therefore issues
// them in a different order on each rank, pairing different tensors
// (apex's flat_dist_call, R13). Such loops become a RankBranch with
// SetOrder set; CV301 reports them.

// setValued reports whether e evaluates to a set whose order can differ
// between processes: a set display or comprehension, set(…)/frozenset(…)
// of anything but integers, the set methods and operators applied to one,
// or a local bound to one (setVars). Whatever keeps a set's order is
// set-ordered too: list(s), tuple(s), enumerate(s), a comprehension over
// s, and a dict filled in a loop over s (setFilled), with its keys(),
// values() and items().
func (l *lowerer) setValued(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name:
		return l.setVars[e.Id]
	case *ast.ListComp:
		return l.compOverSet(e.Generators)
	case *ast.GeneratorExp:
		return l.compOverSet(e.Generators)
	case *ast.DictComp:
		return l.compOverSet(e.Generators)
	case *ast.Set:
		for _, x := range e.Elts {
			if !intLike(x) {
				return true
			}
		}
		return false
	case *ast.SetComp:
		return !intLike(e.Elt)
	case *ast.BinOp:
		switch e.Op {
		case ast.BitOr, ast.BitAnd, ast.Sub, ast.BitXor:
			return l.setValued(e.Left) || l.setValued(e.Right)
		}
	case *ast.Call:
		if a, ok := e.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "union", "intersection", "difference", "symmetric_difference", "copy", "keys", "values", "items":
				return l.setValued(a.Value)
			case "fromkeys":
				return len(e.Args) > 0 && l.setValued(e.Args[0])
			}
			return false
		}
		ext, _ := l.callee(e)
		switch ext {
		case "<builtin>.list", "<builtin>.tuple", "<builtin>.enumerate", "<builtin>.iter", "<builtin>.reversed", "<builtin>.dict":
			return len(e.Args) > 0 && l.setValued(e.Args[0])
		case "<builtin>.set", "<builtin>.frozenset":
		default:
			return false
		}
		if len(e.Args) == 0 {
			return true
		}
		return !intLike(e.Args[0])
	}
	return false
}

// compOverSet: a comprehension whose outermost loop runs over a set; its
// result lists the elements in the set's order.
func (l *lowerer) compOverSet(gens []*ast.Comprehension) bool {
	return len(gens) > 0 && l.setValued(gens[0].Iter)
}

// intLike: an int constant, or range(…): integers hash to themselves, so
// a set of them iterates alike on every rank.
func intLike(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant:
		return e.Type == ast.ConstInt
	case *ast.Call:
		if n, ok := e.Func.(*ast.Name); ok && n.Id == "range" {
			return true
		}
	}
	return false
}

// trackSet records whether the local v now holds a set (assign).
func (l *lowerer) trackSet(v string, value ast.Expr) {
	if value != nil && l.setValued(value) {
		l.setVars[v] = true
	} else {
		delete(l.setVars, v)
	}
}

// setLoop records a for loop over a set whose body issues collectives on
// the loop variable (directly, or through a call it is passed to).
func (l *lowerer) setLoop(iter, target ast.Expr, body []ast.Stmt) {
	if !l.setValued(iter) {
		return
	}
	if l.membersPerElement(body, loopVars(target, nil)) {
		return
	}
	vars := loopVars(target, body)
	var ops []*rules.OpRef
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			if argsMention(n, vars) {
				if o := l.nodeOps(n); len(o) > 0 {
					ops = append(ops, o...)
					return false
				}
			}
		}
		return true
	})
	if len(ops) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(iter.Span()), Cond: l.text(iter), Then: ops, SetOrder: true})
}

// membersPerElement reports a loop body that hands each element itself
// (vars: the loop's target), as the member list, to a group creation (`for ranks in set(tuple(r) for r in
// gathered): new_group(list(ranks))`): the elements are tuples of ranks,
// integers, whose hashes are the same in every process, so a set built
// alike on every rank (from a gathered list) iterates alike too.
func (l *lowerer) membersPerElement(body []ast.Stmt, vars map[string]bool) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		ext, _ := l.callee(c)
		gc := l.tb.GroupCreators[ext]
		if gc == nil || !gc.Members.Present() {
			return true
		}
		members := arg(c, gc.Members)
		found = members != nil && mentions(members, vars)
		return !found
	})
	return found
}

// argsMention reports whether a call's arguments name one of vars.
func argsMention(c *ast.Call, vars map[string]bool) bool {
	for _, a := range c.Args {
		if mentions(a, vars) {
			return true
		}
	}
	for _, k := range c.Keywords {
		if mentions(k.Value, vars) {
			return true
		}
	}
	return false
}

// loopVars returns the names a loop binds in its target, with the
// locals its body derives from them (derivedVars).
func loopVars(target ast.Expr, body []ast.Stmt) map[string]bool {
	vars := map[string]bool{}
	ast.Inspect(target, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			vars[nm.Id] = true
		}
		return true
	})
	derivedVars(body, vars)
	return vars
}

// derivedVars adds to vars the locals the loop body computes from them
// (`bucket = buckets[key]`, `flat = flatten(bucket)`, the targets of an
// inner loop over one): a collective on such a local follows the loop
// variable's order too. Repeated until nothing changes, which covers
// values carried from one round to the next.
func derivedVars(body []ast.Stmt, vars map[string]bool) {
	for changed := true; changed; {
		changed = false
		add := func(target ast.Expr) {
			ast.Inspect(target, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && !vars[nm.Id] {
					vars[nm.Id] = true
					changed = true
				}
				return true
			})
		}
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Assign:
				if mentions(n.Value, vars) {
					for _, t := range n.Targets {
						add(t)
					}
				}
			case *ast.AnnAssign:
				if n.Value != nil && mentions(n.Value, vars) {
					add(n.Target)
				}
			case *ast.NamedExpr:
				if mentions(n.Value, vars) {
					add(n.Target)
				}
			case *ast.For:
				if mentions(n.Iter, vars) {
					add(n.Target)
				}
			case *ast.AsyncFor:
				if mentions(n.Iter, vars) {
					add(n.Target)
				}
			case *ast.Call:
				// xs.append(v): xs now holds what v was derived from.
				if a, ok := n.Func.(*ast.Attribute); ok && len(n.Args) > 0 && mentions(n.Args[len(n.Args)-1], vars) {
					if _, isName := a.Value.(*ast.Name); isName {
						switch a.Attr {
						case "append", "extend", "add", "insert", "update":
							add(a.Value)
						}
					}
				}
			case *ast.If:
				// `if layer.key == key: tied.append(idx)`: what the
				// arm fills depends on the element through the test.
				if mentions(n.Test, vars) {
					for _, b := range n.Body {
						filledTargets(b, add)
					}
				}
			}
			return true
		})
	}
}

// mentions reports whether e reads one of vars.
func mentions(e ast.Expr, vars map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && vars[nm.Id] {
			found = true
		}
		return !found
	})
	return found
}

// setFilled lists the locals a loop over a set fills in the set's order
// (filledIn). Iterating them afterwards follows the set's order (apex's
// flat_dist_call grouped its tensors by type into a dict keyed from a
// set, R13).
func (l *lowerer) setFilled(iter, target ast.Expr, body []ast.Stmt) []string {
	if !l.setValued(iter) {
		return nil
	}
	return filledIn(target, body)
}

// filledIn lists the locals a loop body fills per element: `d[elem] = …`,
// `d.setdefault(elem, …)` and `xs.append(…)` on a local, with elem
// derived from the loop variable.
func filledIn(target ast.Expr, body []ast.Stmt) []string {
	vars := loopVars(target, body)
	var out []string
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			for _, t := range n.Targets {
				if sub, ok := t.(*ast.Subscript); ok && mentions(sub.Slice, vars) {
					if nm, ok := sub.Value.(*ast.Name); ok {
						out = append(out, nm.Id)
					}
				}
			}
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && len(n.Args) > 0 && mentions(n.Args[0], vars) {
				if nm, ok := a.Value.(*ast.Name); ok && (a.Attr == "append" || a.Attr == "setdefault") {
					out = append(out, nm.Id)
				}
			}
		}
		return true
	})
	return out
}

// filledTargets hands add the locals a statement binds or fills:
// assignment targets and the receivers of append/extend/add/insert.
func filledTargets(st ast.Stmt, add func(ast.Expr)) {
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Assign:
			for _, t := range n.Targets {
				for _, v := range targetNames(t) {
					add(&ast.Name{Id: v})
				}
			}
		case *ast.AugAssign:
			if nm, ok := n.Target.(*ast.Name); ok {
				add(nm)
			}
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok {
				switch a.Attr {
				case "append", "extend", "add", "insert", "update":
					if _, isName := a.Value.(*ast.Name); isName {
						add(a.Value)
					}
				}
			}
		}
		return true
	})
}
