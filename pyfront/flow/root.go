package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// rankRoot records a rooted collective on the default group whose root
// argument depends on the rank (`dist.broadcast(t, src=args.local_rank)`):
// every rank must name the same root, as a global rank. On a subgroup a
// root computed from the rank is usually that group's first member, the
// same for all its members (Megatron's get_tensor_model_parallel_src_rank),
// and under a rank test it may equal the others' root (`if rank == owner:
// broadcast(t, src=rank)`); neither is recorded.
func (l *lowerer) rankRoot(c *ast.Call, site *rules.Site, root api.Arg) {
	if l.notDist > 0 || site.Group == nil {
		return
	}
	if l.rankArms == 0 {
		l.listOnEveryRank(c, site, root)
	}
	if site.Group.Kind != rules.GroupWorld {
		return
	}
	if l.rankArms > 0 {
		l.ownRootInSharedArm(c, site, root)
		l.listOnLocalZero(c, site, root)
		return
	}
	x := arg(c, root)
	if x == nil || l.isOwnRank(x) || !l.isRank(x) || deviceValue(x) || l.takesTurns(c, root, l.text(x)) {
		return
	}
	addFact(&l.r.Prog().RankRoots, &rules.RankRoot{Func: l.fn, Site: site, Arg: l.pos(x.Span()), Text: l.text(x), Param: root.Name})
}

// ownRootInSharedArm records a rooted collective on the default group
// whose root is the calling rank's own, in the arm of a rank test that
// every rank but a few takes (`else:` of `if rank == 0:`, `if rank !=
// 0:`): with three ranks or more, two of them run it at once, each naming
// itself as the root, and every rank must join every broadcast (a metric
// "gather" in which rank 0 broadcasts from each other rank in turn while
// each of them broadcasts only its own).
func (l *lowerer) ownRootInSharedArm(c *ast.Call, site *rules.Site, root api.Arg) {
	if l.rankArms != 1 || len(l.rankIfs) != 1 {
		return
	}
	x := arg(c, root)
	if x == nil || !l.isOwnRank(x) {
		return
	}
	ri := l.rankIfs[0]
	arm := ri.s.Body
	cond := l.text(ri.s.Test)
	switch {
	case ri.inElse && l.rankIs(ri.s.Test) != "":
		arm = ri.s.Orelse
		cond = "not " + cond
		if cmp, ok := ri.s.Test.(*ast.Compare); ok && len(cmp.Ops) == 1 {
			cond = l.text(cmp.Left) + " != " + l.text(cmp.Comparators[0])
		}
	case !ri.inElse && l.rankFrom(ri.s.Test) != "":
	default:
		return
	}
	if l.loops > ri.loops || l.takesTurnsIn(c, root, l.text(x), stmtNodes(arm)...) {
		return // each pass a new root, or the arm's ranks taking turns
	}
	addFact(&l.r.Prog().RankRoots, &rules.RankRoot{Func: l.fn, Site: site, Arg: l.pos(x.Span()), Text: l.text(x), Param: root.Name, Arm: cond})
}

// takesTurns reports whether the function makes the same call elsewhere
// with another root: a sequence in which each rank takes its turn as the
// root (`for r in range(1, me): bcast(src=r)`, `bcast(src=me)`, `for r in
// range(me + 1, n): bcast(src=r)`), every rank issuing the same roots in
// the same order.
func (l *lowerer) takesTurns(c *ast.Call, root api.Arg, text string) bool {
	if l.node == nil {
		return false
	}
	return l.takesTurnsIn(c, root, text, l.node)
}

// takesTurnsIn is takesTurns over the nodes in.
func (l *lowerer) takesTurnsIn(c *ast.Call, root api.Arg, text string, in ...ast.Node) bool {
	callee := dotted(c.Func)
	found := false
	visit := func(n ast.Node) bool {
		if found {
			return false
		}
		o, ok := n.(*ast.Call)
		if !ok || o == c || dotted(o.Func) != callee {
			return true
		}
		if x := arg(o, root); x != nil && l.text(x) != text {
			found = true
		}
		return true
	}
	for _, n := range in {
		ast.Inspect(n, visit)
	}
	return found
}

// stmtNodes returns stmts as nodes.
func stmtNodes(stmts []ast.Stmt) []ast.Node {
	out := make([]ast.Node, len(stmts))
	for i, s := range stmts {
		out[i] = s
	}
	return out
}

// ownGlobalRank are the names of a rank's own global rank.
var ownGlobalRank = map[string]bool{"rank": true, "global_rank": true, "my_rank": true, "world_rank": true,
	"get_rank": true, "Get_rank": true, "get_global_rank": true, "get_world_rank": true}

// ownRank reports a root that is the calling rank's own global rank
// (src=dist.get_rank(), root=comm.Get_rank(), src=self.rank): "I am the
// root", right in a program whose roles are split by rank, where the
// other ranks name this one (a parameter server broadcasting to its
// workers). A local rank, or arithmetic on the rank, is no such thing.
func ownRank(x ast.Expr) bool {
	if c, ok := x.(*ast.Call); ok {
		if len(c.Args)+len(c.Keywords) > 0 {
			return false
		}
		x = c.Func
	}
	return ownGlobalRank[lastDotted(x)]
}

// isOwnRank reports the process's own global rank: its spelling
// (ownRank) or a local holding it.
func (l *lowerer) isOwnRank(x ast.Expr) bool {
	if ownRank(x) {
		return true
	}
	n, ok := x.(*ast.Name)
	return ok && l.ownVars[n.Id]
}

// rootLists are the arguments torch's rooted collectives take on the root
// only: any other rank passing one raises ValueError ("must NOT be
// specified on non-destination ranks") before it joins.
var rootLists = map[string]api.Arg{
	"torch.distributed.gather":  {Pos: 1, Name: "gather_list"},
	"torch.distributed.scatter": {Pos: 1, Name: "scatter_list"},
	// gather_object checks its list the same way; scatter_object_list
	// ignores its input list on the other ranks.
	"torch.distributed.gather_object": {Pos: 1, Name: "object_gather_list"},
}

// listOnEveryRank records a gather or scatter that every rank gives its
// root-only list: a list with elements, built outside any rank test in
// this function (or written at the call), with a root that is not the
// caller's own rank. Every rank but the root raises ValueError before it
// joins, and the root waits in it (ComfyUI-xDit's gather, its ValueError
// swallowed by the caller).
func (l *lowerer) listOnEveryRank(c *ast.Call, site *rules.Site, root api.Arg) {
	list, ok := rootLists[site.API]
	if !ok {
		return
	}
	x := arg(c, list)
	switch x := x.(type) {
	case nil:
		return
	case *ast.Name:
		if !l.everyRankLists[x.Id] {
			return
		}
	default:
		if !filledList(x) {
			return
		}
	}
	if r := arg(c, root); r != nil && (l.isOwnRank(r) || l.isRank(r)) {
		return // each rank its own root, or a root from the rank: not this finding
	}
	addFact(&l.r.Prog().RankRoots, &rules.RankRoot{Func: l.fn, Site: site, Arg: l.pos(x.Span()), Text: l.text(x), Param: list.Name,
		EveryRank: true})
}

// filledList reports a new list with elements: a comprehension, a list
// display with items, or one repeated ([None] * n).
func filledList(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ListComp:
		return true
	case *ast.List:
		return len(e.Elts) > 0
	case *ast.BinOp:
		if e.Op != ast.Mult {
			return false
		}
		lst, ok := e.Left.(*ast.List)
		if !ok {
			lst, ok = e.Right.(*ast.List)
		}
		return ok && len(lst.Elts) > 0
	}
	return false
}

// listOnLocalZero records a gather or scatter that passes its root-only
// list in the arm of a test of the local rank (`if local_rank == 0:
// dist.gather(x, gathered, dst=0)`, DoReMi's is_local_process_zero()),
// with a constant root: on every node after the first, local rank 0 is
// no root, and raises before the collective the others wait in.
func (l *lowerer) listOnLocalZero(c *ast.Call, site *rules.Site, root api.Arg) {
	list, ok := rootLists[site.API]
	if !ok || len(l.rankIfs) == 0 {
		return
	}
	ri := l.rankIfs[len(l.rankIfs)-1]
	if ri.inElse || !localRankTest(ri.s.Test) {
		return
	}
	x := arg(c, list)
	if x == nil || isNone(x) {
		return
	}
	r := arg(c, root)
	if r == nil {
		r = &ast.Constant{Type: ast.ConstInt} // the default root, 0
	} else if _, isConst := r.(*ast.Constant); !isConst {
		return
	}
	addFact(&l.r.Prog().RankRoots, &rules.RankRoot{Func: l.fn, Site: site, Arg: l.pos(x.Span()), Text: l.text(x), Param: list.Name,
		Arm: l.text(ri.s.Test), LocalZero: true})
}

// localRankTest reports a test of the local rank alone: `local_rank ==
// 0`, `int(os.environ["LOCAL_RANK"]) == 0`, HF's is_local_process_zero(),
// accelerate's is_local_main_process.
func localRankTest(e ast.Expr) bool {
	found, other := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		name := spelledName(n)
		switch {
		case name == "":
		case strings.Contains(strings.ToLower(name), "local_rank") || name == "LOCAL_RANK" ||
			name == "is_local_process_zero" || name == "is_local_main_process" || name == "local_process_index":
			found = true
		case strings.Contains(name, "rank") || name == "is_main_process" || name == "is_world_process_zero":
			other = true
		}
		return true
	})
	return found && !other
}
