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
// or a local bound to one (setVars).
func (l *lowerer) setValued(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name:
		return l.setVars[e.Id]
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
			case "union", "intersection", "difference", "symmetric_difference", "copy":
				return l.setValued(a.Value)
			}
			return false
		}
		ext, _ := l.callee(e)
		if ext != "<builtin>.set" && ext != "<builtin>.frozenset" {
			return false
		}
		if len(e.Args) == 0 {
			return true
		}
		return !intLike(e.Args[0])
	}
	return false
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
	vars := map[string]bool{}
	ast.Inspect(target, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			vars[nm.Id] = true
		}
		return true
	})
	var ops []*rules.OpRef
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
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
	}
	if len(ops) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(iter.Span()), Cond: l.text(iter), Then: ops, SetOrder: true})
}

// argsMention reports whether a call's arguments name one of vars.
func argsMention(c *ast.Call, vars map[string]bool) bool {
	found := false
	check := func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && vars[nm.Id] {
				found = true
			}
			return !found
		})
	}
	for _, a := range c.Args {
		check(a)
	}
	for _, k := range c.Keywords {
		check(k.Value)
	}
	return found
}
