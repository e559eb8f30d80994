package cv401_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv401"
	"github.com/collvet/collvet/rules/ruletest"
)

func site(b *ruletest.Builder, line, col, endCol int, api string, kind rules.OpKind) *rules.Site {
	s := b.Site(nil, line, api, kind, nil, b.Main())
	s.Pos = b.AtCol(line, col, endCol)
	return s
}

func TestDiscardedWithFix(t *testing.T) {
	src := "def f(g):\n    dist.all_reduce(g, async_op=True)\n    return g\n"
	b := ruletest.NewBuilder("t.py", src)
	s := site(b, 2, 5, 38, "torch.distributed.all_reduce", rules.OpCollective)
	b.Async(s, "")
	ds := b.Run(cv401.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "discarded") || len(ds[0].Fixes) != 1 {
		t.Fatalf("want one finding with a fix:\n%s", ruletest.Lines(ds))
	}
	out, err := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	want := "def f(g):\n    work = dist.all_reduce(g, async_op=True)\n    work.wait()\n    return g\n"
	if err != nil || string(out) != want {
		t.Fatalf("fix: %v\n%q", err, out)
	}
}

func TestBatchListNeverWaited(t *testing.T) {
	src := "reqs = dist.batch_isend_irecv(ops)"
	b := ruletest.NewBuilder("t.py", src)
	s := site(b, 1, 8, 36, "torch.distributed.batch_isend_irecv", rules.OpP2P)
	s.Op = "batch_p2p"
	b.Async(s, "reqs")
	ds := b.Run(cv401.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "never waited") {
		t.Fatalf("want one finding:\n%s", ruletest.Lines(ds))
	}
	out, _ := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if string(out) != src+"\nfor _req in reqs:\n    _req.wait()" {
		t.Fatalf("fix: %q", out)
	}
}

func TestOverwrittenAndExit(t *testing.T) {
	src := "w = dist.isend(t, 1)\nw = dist.isend(u, 1)\nw.wait()\n"
	b := ruletest.NewBuilder("t.py", src)
	s := site(b, 1, 5, 21, "torch.distributed.isend", rules.OpP2P)
	w := b.Async(s, "w")
	ow := b.At(2)
	w.Overwritten = &ow
	ds := b.Run(cv401.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "rebound at line 2") {
		t.Fatalf("want one finding:\n%s", ruletest.Lines(ds))
	}
	out, _ := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if !strings.HasPrefix(string(out), "w = dist.isend(t, 1)\nw.wait()\nw = dist.isend(u, 1)") {
		t.Fatalf("fix: %q", out)
	}

	src = "def f():\n    w = dist.isend(t, 1)\n    if bad:\n        return\n    w.wait()\n"
	b = ruletest.NewBuilder("t.py", src)
	s = site(b, 2, 9, 25, "torch.distributed.isend", rules.OpP2P)
	w = b.Async(s, "w")
	ex := b.AtCol(4, 9, 15)
	w.UnwaitedExit, w.Waited = &ex, []rules.Pos{b.At(5)}
	ds = b.Run(cv401.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "line 4") {
		t.Fatalf("want one finding:\n%s", ruletest.Lines(ds))
	}
	out, _ = ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if !strings.Contains(string(out), "        w.wait()\n        return\n") {
		t.Fatalf("fix: %q", out)
	}
}

func TestSafe(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	s := site(b, 1, 5, 21, "torch.distributed.isend", rules.OpP2P)
	w := b.Async(s, "w")
	w.Waited = []rules.Pos{b.At(3)}
	s2 := site(b, 4, 5, 21, "torch.distributed.all_reduce", rules.OpCollective)
	b.Async(s2, "h").Escapes = true
	if ds := b.Run(cv401.Rule); len(ds) != 0 {
		t.Fatalf("want silence:\n%s", ruletest.Lines(ds))
	}
}
