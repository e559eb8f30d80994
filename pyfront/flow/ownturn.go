package flow

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// A loop over every rank that skips the rank's own turn,
//
//	for i in range(world_size):
//	    if i == rank:
//	        continue
//	    check_pair(rank, i)  # a barrier inside
//
// runs world_size - 1 passes on every rank, so a collective that is the
// same in every pass is issued the same number of times everywhere
// (vLLM's peer-to-peer access check). One that changes with the pass
// (broadcast(t, src=i), all_reduce(bufs[i])) pairs different passes of
// different ranks, and stays reported.

// forIter is a for loop being lowered: its body and what it iterates.
type forIter struct {
	body   []ast.Stmt
	iter   ast.Expr
	target ast.Expr
}

// enumerateIndex reports a name that an enclosing loop binds to the
// count of enumerate() (`for i, x in enumerate(xs)`): a Python int.
func (l *lowerer) enumerateIndex(name string) bool {
	for _, fi := range l.forIters {
		c, isCall := fi.iter.(*ast.Call)
		t, isTuple := fi.target.(*ast.Tuple)
		if isCall && isTuple && dotted(c.Func) == "enumerate" && len(t.Elts) == 2 && isName(t.Elts[0], name) {
			return true
		}
	}
	return false
}

// skipsOwnTurn reports whether s is `if i == rank: continue` at the top
// of a loop over every rank's index i, and br's collectives after it are
// the same in every pass.
func (l *lowerer) skipsOwnTurn(s *ast.If, br *rules.RankBranch) bool {
	if len(s.Body) != 1 || len(s.Orelse) > 0 || len(l.forIters) == 0 || len(br.Then) > 0 {
		return false
	}
	if _, ok := s.Body[0].(*ast.Continue); !ok {
		return false
	}
	loop := l.forIters[len(l.forIters)-1]
	if !slices.Contains(loop.body, ast.Stmt(s)) || len(l.loopBodies) == 0 || !slices.Contains(l.loopBodies[len(l.loopBodies)-1], ast.Stmt(s)) {
		return false
	}
	target, ok := l.loopTargets[len(l.loopTargets)-1].(*ast.Name)
	if !ok || !overEveryRank(loop.iter) {
		return false
	}
	cmp, ok := s.Test.(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != ast.Eq {
		return false
	}
	other := cmp.Comparators[0]
	if n, ok := cmp.Left.(*ast.Name); !ok || n.Id != target.Id {
		if n, ok := other.(*ast.Name); !ok || n.Id != target.Id {
			return false
		}
		other = cmp.Left
	}
	if !l.isRank(other) {
		return false
	}
	// The calls after the test that issue br's collectives, by position.
	calls := l.callsByPos(loop.body)
	for _, o := range br.After {
		// A helper's op carries its call's position in this function.
		c := calls[lineCol{o.Pos.Line, o.Pos.Col}]
		if c == nil {
			return false
		}
		if !reads(c, target.Id) {
			continue
		}
		// A helper handed the pass's index: only a collective with no
		// argument at all (a barrier on the default group) is the same
		// in every pass.
		if o.Site == nil || l.r.Site(c) == o.Site || len(o.Site.Inputs)+len(o.Site.Outputs) > 0 || o.Site.GroupText != "" || o.Site.Op != "barrier" {
			return false
		}
	}
	return true
}

// lineCol is a call's position in its file.
type lineCol struct{ line, col int }

// callsByPos indexes the calls of stmts by position, the key an op
// carries for the call that issues it in this function.
func (l *lowerer) callsByPos(stmts []ast.Stmt) map[lineCol]*ast.Call {
	calls := map[lineCol]*ast.Call{}
	ast.InspectBody(stmts, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			p := l.pos(c.Span())
			calls[lineCol{p.Line, p.Col}] = c
		}
		return true
	})
	return calls
}

// overEveryRank: range(n) whose bound names the number of ranks
// (world_size, get_world_size(), comm.Get_size(), len(ranks)).
func overEveryRank(iter ast.Expr) bool {
	c, ok := iter.(*ast.Call)
	if !ok || dotted(c.Func) != "range" || len(c.Args) != 1 {
		return false
	}
	found := false
	ast.Inspect(c.Args[0], func(n ast.Node) bool {
		var name string
		switch n := n.(type) {
		case *ast.Name:
			name = n.Id
		case *ast.Attribute:
			name = n.Attr
		}
		name = strings.ToLower(name)
		if strings.Contains(name, "world_size") || strings.Contains(name, "size") || strings.Contains(name, "ranks") {
			found = true
		}
		return !found
	})
	return found
}

// reads reports whether a call's arguments read the name v.
func reads(c *ast.Call, v string) bool {
	found := false
	visit := func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(*ast.Name); ok && x.Id == v {
				found = true
			}
			return !found
		})
	}
	for _, a := range c.Args {
		visit(a)
	}
	for _, k := range c.Keywords {
		visit(k.Value)
	}
	return found
}

// skipsOtherGroups reports `if <test of the pass's index>: continue` in a
// loop over group indexes whose skipped collectives all run on the group
// of that index (`for tp in range(TP): if tp != my_tp: continue;
// broadcast(buf, group=groups[tp])`, nanoRLHF's weight sync): each rank
// passes over the groups it is not a member of, and the members of each
// group are its business, as for a loop over the rank's own groups
// (rankLoop).
func (l *lowerer) skipsOtherGroups(s *ast.If, br *rules.RankBranch) bool {
	if len(s.Body) != 1 || len(s.Orelse) > 0 || len(l.loopTargets) == 0 || len(br.Then) > 0 || len(br.After) == 0 {
		return false
	}
	if _, ok := s.Body[0].(*ast.Continue); !ok {
		return false
	}
	target, ok := l.loopTargets[len(l.loopTargets)-1].(*ast.Name)
	if !ok || !mentionsAny(l.text(s.Test), map[string]bool{target.Id: true}) {
		return false
	}
	// The collectives' own calls in the loop body, by position (a helper's
	// op carries its call's position, and does not count).
	calls := l.callsByPos(l.loopBodies[len(l.loopBodies)-1])
	for _, o := range br.After {
		if o.Site == nil {
			return false
		}
		c := calls[lineCol{o.Pos.Line, o.Pos.Col}]
		entry := l.tb.Collectives[o.Site.API]
		if c == nil || entry == nil || l.r.Site(c) != o.Site {
			return false
		}
		g := arg(c, entry.Group)
		if g == nil || !mentionsAny(l.text(g), map[string]bool{target.Id: true}) {
			return false
		}
	}
	return true
}
