package cv105_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv105"
	"github.com/collvet/collvet/rules/ruletest"
)

const src = `package main

import "runtime"

func main() {
	go func() {
		C.cudaSetDevice(1)
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, nil)
	}()
}
`

// goProgram is a Go model: main spawns a goroutine (line 6) whose function
// sets the device (line 7) and all-reduces (line 8).
func goProgram(locked bool) (*ruletest.Builder, *rules.Context) {
	b := ruletest.NewBuilder("main.go", src)
	b.Prog.Files[0].Lang = rules.Go
	lit := b.Func("main.main$1", 6)
	lit.Lang = rules.Go
	g := b.Context(rules.Goroutine, lit, 6, "go", nil)
	g.LockedOSThread = locked
	dev := b.Site(lit, 7, "C.cudaSetDevice", rules.OpOther, b.Unknown(), g)
	dev.Library = "cuda"
	ar := b.Site(lit, 8, "C.ncclAllReduce", rules.OpCollective, b.Group(3, "nccl"), g)
	ar.Library = "nccl"
	return b, g
}

func TestUnlockedGoroutine(t *testing.T) {
	b, _ := goProgram(false)
	ds := b.Run(cv105.Rule)
	if len(ds) != 1 {
		t.Fatalf("want one finding per goroutine, got:\n%s", ruletest.Lines(ds))
	}
	d := ds[0]
	if d.Pos.Line != 7 || !strings.Contains(d.Message, "C.cudaSetDevice") || !strings.Contains(d.Message, "runtime.LockOSThread") {
		t.Errorf("finding: %s", ruletest.Lines(ds))
	}
	if len(d.Related) != 1 || d.Related[0].Pos.Line != 6 {
		t.Errorf("related: want the spawn on line 6, got %+v", d.Related)
	}
	if len(d.Fixes) != 1 {
		t.Fatalf("want the lock fix, got %+v", d.Fixes)
	}
	out, err := ruletest.Apply([]byte(src), d.Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "\tgo func() {\n\t\truntime.LockOSThread()\n\t\tdefer runtime.UnlockOSThread()\n\t\tC.cudaSetDevice(1)\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("fixed source:\n%s", out)
	}
}

func TestLockedGoroutineIsSilent(t *testing.T) {
	b, _ := goProgram(true)
	if ds := b.Run(cv105.Rule); len(ds) != 0 {
		t.Fatalf("locked goroutine: want silence, got:\n%s", ruletest.Lines(ds))
	}
}

func TestPythonAndMainAreSilent(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	f := b.Func("t.worker", 1)
	th := b.Context(rules.Thread, f, 5, "threading.Thread", nil)
	s := b.Site(f, 2, "cupy.cuda.nccl.NcclCommunicator.allReduce", rules.OpCollective, nil, th, b.Main())
	s.Library = "nccl"
	if ds := b.Run(cv105.Rule); len(ds) != 0 {
		t.Fatalf("Python threads are CV101/CV103's business: got:\n%s", ruletest.Lines(ds))
	}
}

// TestGroupAcrossBlock: ncclGroupStart … <-ch … ncclGroupEnd on an
// unlocked goroutine; the same without the block is silent.
func TestGroupAcrossBlock(t *testing.T) {
	for _, block := range []bool{true, false} {
		b := ruletest.NewBuilder("main.go", src)
		fn := b.Func("main.exchange", 3)
		fn.Lang = rules.Go
		start := b.Site(fn, 4, "C.ncclGroupStart", rules.OpOther, b.Unknown(), b.Main())
		start.Op, start.Library = "group_start", "nccl"
		end := b.Site(fn, 6, "C.ncclGroupEnd", rules.OpOther, b.Unknown(), b.Main())
		end.Op, end.Library = "group_end", "nccl"
		b.Event(fn, &rules.Event{Kind: rules.EvCollective, Pos: start.Pos, Site: start})
		if block {
			b.Event(fn, &rules.Event{Kind: rules.EvBlock, Pos: b.At(5), Var: "channel receive"})
		}
		b.Event(fn, &rules.Event{Kind: rules.EvCollective, Pos: end.Pos, Site: end})
		ds := b.Run(cv105.Rule)
		switch {
		case block && (len(ds) != 1 || ds[0].Pos.Line != 4 || !strings.Contains(ds[0].Message, "channel receive")):
			t.Errorf("group across a receive: got:\n%s", ruletest.Lines(ds))
		case !block && len(ds) != 0:
			t.Errorf("group without a block: want silence, got:\n%s", ruletest.Lines(ds))
		}
	}
}
