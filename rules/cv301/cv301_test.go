package cv301_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv301"
	"github.com/collvet/collvet/rules/ruletest"
)

func op(b *ruletest.Builder, fn *rules.Function, line int, api string, kind rules.OpKind, g *rules.Group) *rules.OpRef {
	s := b.Site(fn, line, api, kind, g, b.Main())
	return &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s}
}

func TestGuardedFrameworkCall(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	save := op(b, fn, 3, "lightning.pytorch.Trainer.save_checkpoint", rules.OpFramework, nil)
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Func: fn, Guard: b.At(2), Cond: "trainer.is_global_zero", Then: []*rules.OpRef{save}})
	ds := b.Run(cv301.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 3 || !strings.Contains(ds[0].Message, "save_checkpoint on") || ds[0].Related[0].Pos.Line != 2 {
		t.Fatalf("want one finding at 3:\n%s", ruletest.Lines(ds))
	}
}

func TestThroughCall(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn, helper := b.Func("t", 1), b.Func("t.save", 10)
	bar := b.Site(helper, 11, "torch.distributed.barrier", rules.OpBarrier, nil, b.Main())
	ref := &rules.OpRef{Op: "barrier", Group: bar.Group, Pos: b.At(3), Site: bar}
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Func: fn, Guard: b.At(2), Cond: "rank == 0", Then: []*rules.OpRef{ref}})
	ds := b.Run(cv301.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 3 || len(ds[0].Related) != 2 || ds[0].Related[1].Pos.Line != 11 {
		t.Fatalf("want the call at 3 with the barrier at 11 related:\n%s", ruletest.Lines(ds))
	}
}

func TestSafeShapes(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	// Same collective on both sides.
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(2), Cond: "rank == 0",
		Then: []*rules.OpRef{op(b, fn, 3, "torch.distributed.broadcast", rules.OpCollective, nil)},
		Else: []*rules.OpRef{op(b, fn, 5, "torch.distributed.broadcast", rules.OpCollective, nil)}})
	// P2P split by rank.
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(6), Cond: "rank == 0",
		Then: []*rules.OpRef{op(b, fn, 7, "torch.distributed.send", rules.OpP2P, nil)},
		Else: []*rules.OpRef{op(b, fn, 9, "torch.distributed.recv", rules.OpP2P, nil)}})
	// Membership test around a subgroup collective.
	sub := b.Group(1, "nccl")
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(10), Cond: "rank in tp_ranks",
		Then: []*rules.OpRef{op(b, fn, 11, "torch.distributed.all_reduce", rules.OpCollective, sub)}})
	// Early exit with the same collective on the way out.
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(12), Cond: "rank != 0", EarlyExit: true,
		Then:  []*rules.OpRef{op(b, fn, 13, "torch.distributed.barrier", rules.OpBarrier, nil)},
		After: []*rules.OpRef{op(b, fn, 15, "torch.distributed.barrier", rules.OpBarrier, nil)}})
	if ds := b.Run(cv301.Rule); len(ds) != 0 {
		t.Fatalf("want silence:\n%s", ruletest.Lines(ds))
	}
}

func TestEarlyExit(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(2), Cond: "rank != 0", EarlyExit: true,
		After: []*rules.OpRef{op(b, fn, 4, "torch.distributed.barrier", rules.OpBarrier, nil)}})
	ds := b.Run(cv301.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 4 || !strings.Contains(ds[0].Message, "leave early") {
		t.Fatalf("want one finding at 4:\n%s", ruletest.Lines(ds))
	}
}

func TestDifferentOrder(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	g := b.Group(1, "nccl")
	b.Prog.Branches = append(b.Prog.Branches, &rules.RankBranch{Guard: b.At(2), Cond: "rank % 2 == 0",
		Then: []*rules.OpRef{op(b, fn, 3, "torch.distributed.all_to_all", rules.OpCollective, g), op(b, fn, 4, "torch.distributed.all_reduce", rules.OpCollective, nil)},
		Else: []*rules.OpRef{op(b, fn, 6, "torch.distributed.all_reduce", rules.OpCollective, nil), op(b, fn, 7, "torch.distributed.all_to_all", rules.OpCollective, g)}})
	if ds := b.Run(cv301.Rule); len(ds) != 1 || ds[0].Pos.Line != 3 {
		t.Fatalf("want one finding at 3:\n%s", ruletest.Lines(ds))
	}
}
