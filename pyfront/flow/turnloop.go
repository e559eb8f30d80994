package flow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Loops over every rank that take turns.
//
//	for r in range(world_size):
//	    if rank == to:
//	        if r != rank:
//	            broadcast_object(None, src=r)   # receive r's state
//	    elif r == rank:
//	        broadcast_object(state, src=rank)   # send mine
//	    elif r != to:
//	        broadcast_object(None, src=r)       # relay
//
// Every test in the body compares the loop's index, this process's rank
// and values every rank holds alike (to, constants), so in each pass the
// ranks split by those comparisons alone. The body is balanced when, for
// every way the index and the shared values can compare, every rank
// issues the same sequence of operations: then no pass pairs different
// collectives across ranks, and the rank branches inside are no hazard
// (torch's ZeroRedundancyOptimizer.consolidate_state_dict, fairscale's
// OSS). The check enumerates the ways: a domain of one value per name and
// per constant covers every pattern of equalities among them.

// maxTurnNames bounds the names a turn-taking body may compare (the
// enumeration is domain^names).
const maxTurnNames = 4

// turnTerm is one side of a comparison: a name of the loop ("" for a
// constant), or a constant's value.
type turnTerm struct {
	name  string
	value int64
}

// turnBalanced reports whether the innermost loop being lowered is a
// loop over every rank whose body issues, in each pass, the same
// operations on every rank.
func (l *lowerer) turnBalanced() bool {
	if len(l.forIters) == 0 || len(l.loopTargets) == 0 {
		return false
	}
	loop := l.forIters[len(l.forIters)-1]
	target, ok := l.loopTargets[len(l.loopTargets)-1].(*ast.Name)
	if !ok || len(loop.body) == 0 || !overEveryRank(loop.iter) {
		return false
	}
	key := loop.body[0]
	if v, ok := l.turnMemo[key]; ok {
		return v
	}
	v := l.evalTurns(loop.body, target.Id)
	if l.turnMemo == nil {
		l.turnMemo = map[ast.Stmt]bool{}
	}
	l.turnMemo[key] = v
	return v
}

// evalTurns enumerates the comparisons of body's tests.
func (l *lowerer) evalTurns(body []ast.Stmt, index string) bool {
	names := map[string]bool{}
	consts := map[int64]bool{}
	readable := true
	var rankSeen, indexSeen bool
	var collect func(e ast.Expr)
	collect = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.BoolOp:
			for _, v := range x.Values {
				collect(v)
			}
			return
		case *ast.UnaryOp:
			if x.Op == ast.Not {
				collect(x.Operand)
				return
			}
		case *ast.Compare:
			if len(x.Ops) == 1 && (x.Ops[0] == ast.Eq || x.Ops[0] == ast.NotEq) {
				for _, side := range []ast.Expr{x.Left, x.Comparators[0]} {
					t, ok := l.turnTermOf(side, index)
					if !ok {
						readable = false
						return
					}
					switch {
					case t.name == "rank":
						rankSeen = true
					case t.name == "index":
						indexSeen = true
					}
					if t.name != "" {
						names[t.name] = true
					} else {
						consts[t.value] = true
					}
				}
				return
			}
		}
		readable = false
	}
	ok := true
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.If:
			collect(s.Test)
		case *ast.For, *ast.AsyncFor, *ast.While:
			ok = false // a pass of its own inside: not enumerated
		case *ast.Break, *ast.Return, *ast.Raise:
			ok = false
		}
		return ok && readable
	})
	if !ok || !readable || !rankSeen || !indexSeen || len(names) > maxTurnNames {
		return false
	}
	var others []string // every name but the rank, in a fixed order
	for n := range names {
		if n != "rank" {
			others = append(others, n)
		}
	}
	slices.Sort(others)
	// The domain: every constant, and one fresh value per name.
	var domain []int64
	for c := range consts {
		domain = append(domain, c)
	}
	fresh := int64(-1000)
	for range names {
		domain = append(domain, fresh)
		fresh--
	}
	slices.Sort(domain)
	env := map[string]int64{}
	stmtOps := map[ast.Stmt]stmtText{} // each pass reads the same statements
	balanced, issues := true, false
	var assign func(i int)
	assign = func(i int) {
		if !balanced {
			return
		}
		if i < len(others) {
			for _, v := range domain {
				env[others[i]] = v
				assign(i + 1)
			}
			return
		}
		first := ""
		for j, v := range domain {
			env["rank"] = v
			seq, ok := l.turnSequence(body, index, env, stmtOps)
			if !ok {
				balanced = false
				return
			}
			if seq != "" {
				issues = true
			}
			if j == 0 {
				first = seq
			} else if seq != first {
				balanced = false
				return
			}
		}
	}
	assign(0)
	return balanced && issues
}

// turnTermOf names a comparison's side: the loop index, the rank, a name
// every rank holds alike, or an int constant.
func (l *lowerer) turnTermOf(e ast.Expr, index string) (turnTerm, bool) {
	if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstInt {
		return turnTerm{value: k.Int}, true
	}
	d := dotted(e)
	switch {
	case d == "":
		return turnTerm{}, false
	case d == index:
		return turnTerm{name: "index"}, true
	case l.isRank(e):
		return turnTerm{name: "rank"}, true
	}
	if _, div := l.divergence(e); div {
		return turnTerm{}, false // differs between ranks some other way
	}
	return turnTerm{name: "v:" + d}, true
}

// turnSequence is the operations body issues in one pass under env, as
// text; ok is false when a test cannot be decided.
func (l *lowerer) turnSequence(body []ast.Stmt, index string, env map[string]int64, memo map[ast.Stmt]stmtText) (string, bool) {
	var b strings.Builder
	// run reports whether every test could be decided, and whether a
	// continue ended the pass.
	var run func(stmts []ast.Stmt) (ok, stop bool)
	run = func(stmts []ast.Stmt) (bool, bool) {
		for _, s := range stmts {
			if i, isIf := s.(*ast.If); isIf {
				v, ok := l.turnTest(i.Test, index, env)
				if !ok {
					return false, false
				}
				arm := i.Orelse
				if v {
					arm = i.Body
				}
				if ok, stop := run(arm); !ok || stop {
					return ok, stop
				}
				continue
			}
			if _, isCont := s.(*ast.Continue); isCont {
				return true, true // the rest of the pass is skipped
			}
			t, seen := memo[s]
			if !seen {
				t = l.stmtOps(s)
				memo[s] = t
			}
			if t.nested {
				return false, false // an if inside a with or try: not followed
			}
			b.WriteString(t.ops)
		}
		return true, false
	}
	ok, _ := run(body)
	return b.String(), ok
}

// stmtText is what a statement other than an if issues, as text, and
// whether it holds an if of its own.
type stmtText struct {
	ops    string
	nested bool
}

func (l *lowerer) stmtOps(s ast.Stmt) stmtText {
	var t stmtText
	ast.InspectStmts([]ast.Stmt{s}, func(x ast.Stmt) bool {
		if _, isIf := x.(*ast.If); isIf && x != s {
			t.nested = true
		}
		return !t.nested
	})
	if t.nested {
		return t
	}
	var b strings.Builder
	for _, o := range l.ops([]ast.Stmt{s}) {
		g := ""
		if o.Group != nil {
			g = o.Group.ID
		}
		fmt.Fprintf(&b, "%s@%s;", o.Op, g)
	}
	t.ops = b.String()
	return t
}

// turnTest evaluates a test of the body under env.
func (l *lowerer) turnTest(e ast.Expr, index string, env map[string]int64) (bool, bool) {
	switch x := e.(type) {
	case *ast.BoolOp:
		and := x.Op == ast.And
		for _, v := range x.Values {
			r, ok := l.turnTest(v, index, env)
			if !ok {
				return false, false
			}
			if and && !r {
				return false, true
			}
			if !and && r {
				return true, true
			}
		}
		return and, true
	case *ast.UnaryOp:
		if x.Op == ast.Not {
			r, ok := l.turnTest(x.Operand, index, env)
			return !r, ok
		}
	case *ast.Compare:
		if len(x.Ops) != 1 {
			return false, false
		}
		a, ok1 := l.turnTermOf(x.Left, index)
		c, ok2 := l.turnTermOf(x.Comparators[0], index)
		if !ok1 || !ok2 {
			return false, false
		}
		val := func(t turnTerm) int64 {
			if t.name == "" {
				return t.value
			}
			return env[t.name]
		}
		eq := val(a) == val(c)
		switch x.Ops[0] {
		case ast.Eq:
			return eq, true
		case ast.NotEq:
			return !eq, true
		}
	}
	return false, false
}
