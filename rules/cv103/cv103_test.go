package cv103_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv103"
	"github.com/collvet/collvet/rules/ruletest"
)

func TestTwoGroupsTwoThreads(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	bg, mod := b.Func("t.bg", 3), b.Func("t", 1)
	gMain, gBg := b.Group(1, "nccl"), b.Group(2, "nccl")
	th := b.Context(rules.Thread, bg, 8, "threading.Thread", nil)
	b.Site(bg, 4, "torch.distributed.batch_isend_irecv", rules.OpP2P, gBg, th)
	b.Site(mod, 10, "torch.distributed.all_reduce", rules.OpCollective, gMain, b.Main())
	ds := b.Run(cv103.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 4 || !strings.Contains(ds[0].Message, "another device communicator") {
		t.Fatalf("want one finding at 4:\n%s", ruletest.Lines(ds))
	}
	// gloo groups are exempt.
	gBg.Backend = "gloo"
	if ds := b.Run(cv103.Rule); len(ds) != 0 {
		t.Fatalf("gloo background group: want silence:\n%s", ruletest.Lines(ds))
	}
}

func TestJoinedThreadSilent(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	bg, mod := b.Func("t.bg", 3), b.Func("t", 1)
	th := b.Context(rules.Thread, bg, 8, "threading.Thread", nil)
	th.Joined = true
	b.Site(bg, 4, "torch.distributed.all_reduce", rules.OpCollective, b.Group(2, "nccl"), th)
	b.Site(mod, 10, "torch.distributed.all_reduce", rules.OpCollective, b.Group(1, "nccl"), b.Main())
	if ds := b.Run(cv103.Rule); len(ds) != 0 {
		t.Fatalf("joined: want silence:\n%s", ruletest.Lines(ds))
	}
}

func TestHybridShard(t *testing.T) {
	src := "import torch\nimport torch.distributed as dist\ndist.init_process_group('nccl')\nm = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)\n"
	b := ruletest.NewBuilder("t.py", src)
	fn := b.Func("t", 1)
	b.Prog.Facts.Inits = []*rules.InitSite{{Pos: b.At(3), AfterLine: 3}}
	b.Prog.Facts.MultiComm = []*rules.MultiCommUse{{Pos: b.At(4), Func: fn, API: "torch.distributed.fsdp.FullyShardedDataParallel", Detail: "sharding_strategy=HYBRID_SHARD"}}
	ds := b.Run(cv103.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "HYBRID_SHARD") || len(ds[0].Fixes) != 1 {
		t.Fatalf("want one finding with a fix:\n%s", ruletest.Lines(ds))
	}
	out, err := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if err != nil || !strings.Contains(string(out), "dist.init_process_group('nccl')\ntorch.autograd.set_multithreading_enabled(False)") {
		t.Fatalf("fix: %v\n%s", err, out)
	}
	b.Prog.Facts.AutogradSingleThreaded = []rules.Pos{b.At(3)}
	if ds := b.Run(cv103.Rule); len(ds) != 0 {
		t.Fatalf("multithreading disabled: want silence:\n%s", ruletest.Lines(ds))
	}
}
