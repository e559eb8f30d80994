package cv101_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv101"
	"github.com/collvet/collvet/rules/ruletest"
)

const ar = "torch.distributed.all_reduce"

func TestThreadAndMainSameGroup(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	worker := b.Func("t.worker", 3)
	mod := b.Func("t", 1)
	th := b.Context(rules.Thread, worker, 8, "threading.Thread", nil)
	b.Site(worker, 4, ar, rules.OpCollective, nil, th)
	b.Site(mod, 9, "torch.distributed.barrier", rules.OpBarrier, nil, b.Main())
	ds := b.Run(cv101.Rule)
	if len(ds) != 1 {
		t.Fatalf("want 1 finding, got:\n%s", ruletest.Lines(ds))
	}
	d := ds[0]
	if d.Pos.Line != 4 || !strings.Contains(d.Message, "the main thread") || !strings.Contains(d.Message, "hang") {
		t.Errorf("finding: %s", ruletest.Lines(ds))
	}
	var sawSpawn, sawOther bool
	for _, r := range d.Related {
		sawSpawn = sawSpawn || r.Pos.Line == 8
		sawOther = sawOther || r.Pos.Line == 9
	}
	if !sawSpawn || !sawOther {
		t.Errorf("related entries missing spawn (8) or other collective (9):\n%s", ruletest.Lines(ds))
	}
}

func TestJoinedThreadIsSilent(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	worker := b.Func("t.worker", 3)
	mod := b.Func("t", 1)
	th := b.Context(rules.Thread, worker, 8, "threading.Thread", nil)
	th.Joined = true
	b.Site(worker, 4, ar, rules.OpCollective, nil, th)
	b.Site(mod, 9, ar, rules.OpCollective, nil, b.Main())
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("joined thread: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestDedicatedGroupIsSilent(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	worker := b.Func("t.worker", 3)
	mod := b.Func("t", 1)
	side := b.Group(2, "gloo")
	th := b.Context(rules.Thread, worker, 8, "threading.Thread", nil)
	b.Site(worker, 4, ar, rules.OpCollective, side, th)
	b.Site(mod, 9, ar, rules.OpCollective, nil, b.Main())
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("dedicated group: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestOneGlooGroupPerThreadIsSilent(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	w1, w2 := b.Func("t.w1", 3), b.Func("t.w2", 5)
	g1, g2 := b.Group(1, "gloo"), b.Group(2, "gloo")
	t1 := b.Context(rules.Thread, w1, 8, "threading.Thread", nil)
	t2 := b.Context(rules.Thread, w2, 9, "threading.Thread", nil)
	b.Site(w1, 4, ar, rules.OpCollective, g1, t1)
	b.Site(w2, 6, ar, rules.OpCollective, g2, t2)
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("gloo group per thread: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestPoolMapManyFires(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	w := b.Func("t.work", 3)
	pool := b.Context(rules.Pool, w, 8, "concurrent.futures.ThreadPoolExecutor.map", nil)
	pool.Many = true
	b.Site(w, 4, "torch.distributed.gather_object", rules.OpObject, nil, pool)
	ds := b.Run(cv101.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "several threads") {
		t.Fatalf("pool.map: want one finding, got:\n%s", ruletest.Lines(ds))
	}
}

func TestAsyncSaveBackgroundThread(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	mod := b.Func("t", 1)
	bg := b.Context(rules.Background, nil, 5, "torch.distributed.checkpoint.async_save", nil)
	bg.Group = b.World()
	b.Site(mod, 6, "torch.distributed.barrier", rules.OpBarrier, nil, b.Main())
	ds := b.Run(cv101.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 5 || !strings.Contains(ds[0].Message, "async_save") {
		t.Fatalf("async_save + barrier: want one finding at line 5, got:\n%s", ruletest.Lines(ds))
	}
	// On its own group the background save is fine.
	bg.Group = b.Group(2, "gloo")
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("async_save on dedicated group: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestUnknownGroupsAreNotMatched(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	worker := b.Func("t.worker", 3)
	mod := b.Func("t", 1)
	th := b.Context(rules.Thread, worker, 8, "threading.Thread", nil)
	b.Site(worker, 4, ar, rules.OpCollective, b.Unknown(), th)
	b.Site(mod, 9, ar, rules.OpCollective, b.Unknown(), b.Main())
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("unknown groups: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestAutogradLeftToCV102(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	hook := b.Func("t.hook", 3)
	mod := b.Func("t", 1)
	ag := b.Context(rules.Autograd, hook, 8, "torch.Tensor.register_hook", nil)
	b.Site(hook, 4, ar, rules.OpCollective, nil, ag)
	b.Site(mod, 9, ar, rules.OpCollective, nil, b.Main())
	if ds := b.Run(cv101.Rule); len(ds) != 0 {
		t.Fatalf("autograd: want silence from CV101, got:\n%s", ruletest.Lines(ds))
	}
}
