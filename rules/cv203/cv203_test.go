package cv203_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv203"
	"github.com/collvet/collvet/rules/ruletest"
)

const src = `side = torch.cuda.Stream()
grad = compute()
with torch.cuda.stream(side):
    dist.all_reduce(grad)
out = grad * 2
`

// build lowers src by hand: the events the flow pass emits for it.
func build(waitBefore, waitAfter bool) *ruletest.Builder {
	b := ruletest.NewBuilder("t.py", src)
	fn := b.Func("t", 1)
	side := &rules.Stream{ID: "stream@t.py:1", Pos: b.At(1)}
	b.Event(fn, &rules.Event{Kind: rules.EvUse, Pos: b.At(2), Var: "grad", Write: true})
	if waitBefore {
		b.Event(fn, &rules.Event{Kind: rules.EvWaitStream, Pos: b.At(3), Stream: side, StreamText: "side"})
	}
	b.Event(fn, &rules.Event{Kind: rules.EvStreamEnter, Pos: b.At(3), Stream: side, StreamText: "side"})
	s := b.Site(fn, 4, "torch.distributed.all_reduce", rules.OpCollective, nil, b.Main())
	s.Inputs, s.Outputs, s.Stream = []string{"grad"}, []string{"grad"}, side
	b.Event(fn, &rules.Event{Kind: rules.EvCollective, Pos: s.Pos, Site: s, Stream: side, StreamText: "side", Indent: "    "})
	b.Event(fn, &rules.Event{Kind: rules.EvStreamExit, Pos: b.At(4), Stream: side, StreamText: "side"})
	if waitAfter {
		b.Event(fn, &rules.Event{Kind: rules.EvWaitStream, Pos: b.At(5), Other: side, OtherText: "side"})
	}
	b.Event(fn, &rules.Event{Kind: rules.EvUse, Pos: b.At(5), Var: "grad"})
	return b
}

func TestBothDirections(t *testing.T) {
	ds := build(false, false).Run(cv203.Rule)
	if len(ds) != 2 || ds[0].Pos.Line != 4 || ds[1].Pos.Line != 5 {
		t.Fatalf("want findings at 4 and 5:\n%s", ruletest.Lines(ds))
	}
	out, err := ruletest.Apply([]byte(src), ds[0].Fixes[0].Edits)
	if err != nil || !strings.Contains(string(out), "grad = compute()\nside.wait_stream(torch.cuda.current_stream())\nwith torch.cuda.stream(side):") {
		t.Fatalf("fix 1: %v\n%s", err, out)
	}
	out, err = ruletest.Apply([]byte(src), ds[1].Fixes[0].Edits)
	if err != nil || !strings.Contains(string(out), "torch.cuda.current_stream().wait_stream(side)\nout = grad * 2") {
		t.Fatalf("fix 2: %v\n%s", err, out)
	}
}

func TestWaitsSilence(t *testing.T) {
	if ds := build(true, true).Run(cv203.Rule); len(ds) != 0 {
		t.Fatalf("with waits: want silence:\n%s", ruletest.Lines(ds))
	}
	if ds := build(true, false).Run(cv203.Rule); len(ds) != 1 || ds[0].Pos.Line != 5 {
		t.Fatalf("first wait only: want the line-5 finding:\n%s", ruletest.Lines(ds))
	}
}

func TestFreeWithoutRecordStream(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "a = big + 1\nwith torch.cuda.stream(side):\n    use(a)\ndel a\n")
	fn := b.Func("t", 1)
	side := &rules.Stream{ID: "stream@t.py:1"}
	b.Event(fn, &rules.Event{Kind: rules.EvUse, Pos: b.At(1), Var: "a", Write: true})
	b.Event(fn, &rules.Event{Kind: rules.EvWaitStream, Pos: b.At(2), Stream: side, StreamText: "side"})
	b.Event(fn, &rules.Event{Kind: rules.EvUse, Pos: b.At(3), Var: "a", Stream: side, StreamText: "side"})
	free := b.Event(fn, &rules.Event{Kind: rules.EvFree, Pos: b.At(4), Var: "a"})
	ds := b.Run(cv203.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 4 || !strings.Contains(ds[0].Message, "record_stream") {
		t.Fatalf("want a free finding:\n%s", ruletest.Lines(ds))
	}
	out, _ := ruletest.Apply(b.Prog.Files[0].Src, ds[0].Fixes[0].Edits)
	if !strings.Contains(string(out), "a.record_stream(side)\ndel a") {
		t.Fatalf("fix:\n%s", out)
	}
	// With record_stream before the free: silent.
	fn.Events = append(fn.Events[:3], &rules.Event{Kind: rules.EvRecordStream, Pos: b.At(4), Var: "a", Other: side}, free)
	if ds := b.Run(cv203.Rule); len(ds) != 0 {
		t.Fatalf("record_stream: want silence:\n%s", ruletest.Lines(ds))
	}
}
