package cv104_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv104"
	"github.com/collvet/collvet/rules/ruletest"
)

func build(level string, joined bool) *ruletest.Builder {
	b := ruletest.NewBuilder("t.py", "")
	w, mod := b.Func("t.worker", 5), b.Func("t", 1)
	th := b.Context(rules.Thread, w, 9, "threading.Thread", nil)
	th.Joined = joined
	s := b.Site(w, 6, "mpi4py.MPI.Comm.allreduce", rules.OpObject, b.Unknown(), th)
	s.Library = "mpi4py"
	m := b.Site(mod, 10, "mpi4py.MPI.Comm.Barrier", rules.OpBarrier, b.Unknown(), b.Main())
	m.Library = "mpi4py"
	b.Prog.Facts.MPIThreadLevel = level
	b.Prog.Facts.MPIThreadLevelPos = b.At(2)
	return b
}

func TestLevels(t *testing.T) {
	for _, c := range []struct {
		level  string
		joined bool
		want   int
	}{
		{"funneled", false, 1},
		{"funneled", true, 1}, // not the main thread, even if joined
		{"single", false, 1},
		{"serialized", false, 1}, // overlaps the main thread's Barrier
		{"serialized", true, 0},  // joined: calls never overlap
		{"multiple", false, 0},
		{"", false, 0}, // mpi4py default is multiple
	} {
		ds := build(c.level, c.joined).Run(cv104.Rule)
		if len(ds) != c.want {
			t.Errorf("level %q joined %v: want %d findings, got:\n%s", c.level, c.joined, c.want, ruletest.Lines(ds))
			continue
		}
		if c.want == 1 && (ds[0].Pos.Line != 6 || !strings.Contains(ds[0].Message, c.level)) {
			t.Errorf("level %q: finding %s", c.level, ruletest.Lines(ds))
		}
	}
}
