package cv201_test

import (
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv201"
	"github.com/collvet/collvet/rules/ruletest"
)

func TestTwoStreamsOneComm(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	comm := b.Group(2, "nccl")
	s1 := &rules.Stream{ID: "stream@t.py:3"}
	s2 := &rules.Stream{ID: "stream@t.py:4"}
	a := b.Site(fn, 5, "cupy.cuda.nccl.NcclCommunicator.allReduce", rules.OpCollective, comm, b.Main())
	a.Stream = s1
	c := b.Site(fn, 6, "cupy.cuda.nccl.NcclCommunicator.allReduce", rules.OpCollective, comm, b.Main())
	c.Stream = s2
	ds := b.Run(cv201.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 6 || ds[0].Related[0].Pos.Line != 5 {
		t.Fatalf("want one finding at 6:\n%s", ruletest.Lines(ds))
	}
	// An event wait orders the streams.
	b.Event(fn, &rules.Event{Kind: rules.EvWaitEvent, Pos: b.At(5), Stream: s2, Other: s1})
	if ds := b.Run(cv201.Rule); len(ds) != 0 {
		t.Fatalf("ordered streams: want silence:\n%s", ruletest.Lines(ds))
	}
}

func TestSameStreamOrDifferentComms(t *testing.T) {
	b := ruletest.NewBuilder("t.py", "")
	fn := b.Func("t", 1)
	s1 := &rules.Stream{ID: "stream@t.py:3"}
	s2 := &rules.Stream{ID: "stream@t.py:4"}
	c1, c2 := b.Group(1, "nccl"), b.Group(2, "nccl")
	for i, x := range []struct {
		g *rules.Group
		s *rules.Stream
	}{{c1, s1}, {c1, s1}, {c2, s2}} {
		site := b.Site(fn, 5+i, "cupy.cuda.nccl.NcclCommunicator.allReduce", rules.OpCollective, x.g, b.Main())
		site.Stream = x.s
	}
	if ds := b.Run(cv201.Rule); len(ds) != 0 {
		t.Fatalf("want silence:\n%s", ruletest.Lines(ds))
	}
}
