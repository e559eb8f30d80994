package model

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
)

// The main-process-first idiom as a class-based context manager:
//
//	class zero_first:
//	    def __enter__(self):
//	        if self.local_rank > 0: dist.barrier()
//	    def __exit__(self, *exc):
//	        if self.local_rank == 0: dist.barrier()
//
// Every rank issues one barrier: the others wait in __enter__ until rank 0
// reaches __exit__. The flow pass pairs the two halves when they sit in
// one function (flow.pairRank); here they sit in two methods, so the
// model pairs them once every function is lowered.

// pairContextManagerRanks marks Paired the rank branches of a class's
// __enter__ and __exit__ whose tests hold on complementary sets of ranks
// and which issue the same collectives, when no other collective of the
// two methods runs between them (after the branch in __enter__, before it
// in __exit__).
func (b *builder) pairContextManagerRanks() {
	byFunc := map[*rules.Function][]*rules.RankBranch{}
	for _, br := range b.prog.Branches {
		if br != nil && br.Func != nil && br.Divergence == rules.RankTest && !br.EarlyExit && len(br.Else) == 0 && len(br.Then) > 0 {
			byFunc[br.Func] = append(byFunc[br.Func], br)
		}
	}
	exits := map[string]*rules.Function{}
	for fn := range byFunc {
		if cls, ok := strings.CutSuffix(fn.Name, ".__exit__"); ok {
			exits[cls] = fn
		}
	}
	for enter, ebs := range byFunc {
		cls, ok := strings.CutSuffix(enter.Name, ".__enter__")
		if !ok || len(ebs) != 1 {
			continue
		}
		exit := exits[cls]
		if exit == nil || len(byFunc[exit]) != 1 {
			continue
		}
		e, x := ebs[0], byFunc[exit][0]
		if !flow.SameOps(e.Then, x.Then) || between(b.summarize(enter, 0), e, true) || between(b.summarize(exit, 0), x, false) {
			continue
		}
		et, xt := b.branchTest(enter, e), b.branchTest(exit, x)
		if et == nil || xt == nil || !flow.OppositeRankTests(et, xt) {
			continue
		}
		e.Paired, x.Paired = true, true
	}
}

// between reports whether a method's ops include one that runs between
// the two halves, other than the branch's own: after the branch in
// __enter__ (after true), before it in __exit__. A teardown
// (destroy_process_group on an exception path of __exit__) does not count.
func between(ops []*rules.OpRef, br *rules.RankBranch, after bool) bool {
	own := map[rules.Pos]bool{}
	for _, o := range br.Then {
		own[o.Pos] = true
	}
	for _, o := range ops {
		if own[o.Pos] || o.Op == "destroy" {
			continue
		}
		if after && o.Pos.Line > br.Guard.Line || !after && o.Pos.Line < br.Guard.Line {
			return true
		}
	}
	return false
}

// branchTest finds the test expression of an if statement of fn that br
// was made from (by its guard's position).
func (b *builder) branchTest(fn *rules.Function, br *rules.RankBranch) ast.Expr {
	f := b.fnOf(fn)
	if f == nil {
		return nil
	}
	var test ast.Expr
	ast.InspectBody(ast.DefBody(f.Node), func(n ast.Node) bool {
		if test != nil {
			return false
		}
		if s, ok := n.(*ast.If); ok {
			sp := s.Test.Span()
			if int(sp.Lineno) == br.Guard.Line && int(sp.ColOffset)+1 == br.Guard.Col {
				test = s.Test
				return false
			}
		}
		return true
	})
	return test
}
