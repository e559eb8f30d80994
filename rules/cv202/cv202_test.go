package cv202_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv202"
	"github.com/collvet/collvet/rules/ruletest"
)

const src = `def step(shard, full):
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra, async_op=True)
    w2 = dist.all_reduce(shard, group=inter, async_op=True)
    w1.wait()
    w2.wait()
`

func build(waitFirst bool, sameGroup bool) *ruletest.Builder {
	b := ruletest.NewBuilder("t.py", src)
	fn := b.Func("t.step", 1)
	intra, inter := b.Group(10, "nccl"), b.Group(11, "nccl")
	if sameGroup {
		inter = intra
	}
	s1 := b.Site(fn, 2, "torch.distributed.reduce_scatter_tensor", rules.OpCollective, intra, b.Main())
	s1.Inputs, s1.Outputs = []string{"full"}, []string{"shard"}
	b.Async(s1, "w1")
	s2 := b.Site(fn, 3, "torch.distributed.all_reduce", rules.OpCollective, inter, b.Main())
	s2.Inputs, s2.Outputs = []string{"shard"}, []string{"shard"}
	b.Async(s2, "w2")
	b.Event(fn, &rules.Event{Kind: rules.EvCollective, Pos: s1.Pos, Site: s1, Indent: "    "})
	if waitFirst {
		b.Event(fn, &rules.Event{Kind: rules.EvWait, Pos: b.At(3), Var: "w1"})
	}
	b.Event(fn, &rules.Event{Kind: rules.EvCollective, Pos: s2.Pos, Site: s2, Indent: "    "})
	return b
}

func TestCrossGroupChain(t *testing.T) {
	ds := build(false, false).Run(cv202.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 3 || !strings.Contains(ds[0].Message, `"shard"`) {
		t.Fatalf("want one finding at 3:\n%s", ruletest.Lines(ds))
	}
	out, err := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if err != nil || !strings.Contains(string(out), "async_op=True)\n    w1.wait()\n    w2 = dist.all_reduce") {
		t.Fatalf("fix: %v\n%s", err, out)
	}
}

func TestSafeShapes(t *testing.T) {
	if ds := build(true, false).Run(cv202.Rule); len(ds) != 0 {
		t.Fatalf("waited: want silence:\n%s", ruletest.Lines(ds))
	}
	if ds := build(false, true).Run(cv202.Rule); len(ds) != 0 {
		t.Fatalf("same group: want silence:\n%s", ruletest.Lines(ds))
	}
}
