package pyfront

import (
	"testing"
	"time"
)

func TestPretouchSize(t *testing.T) {
	for _, c := range []struct{ src, want int64 }{
		{0, 0},
		{100 << 10, 0}, // a small project: nothing
		{15 << 20, 15 << 20 * pretouchPerSourceByte}, // the torch tree
		{1 << 30, pretouchMax},                       // capped
	} {
		if got := pretouchSize(c.src); got != c.want {
			t.Errorf("pretouchSize(%d) = %d, want %d", c.src, got, c.want)
		}
	}
}

// A run with Pretouch finds the same as one without.
func TestLoadPretouchSameResult(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.py", "import threading\nimport torch.distributed as dist\n\ndef w():\n    dist.barrier()\n\nthreading.Thread(target=w).start()\ndist.all_reduce(1)\n")
	a, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load([]string{dir}, Options{Pretouch: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Program.Sites) != len(b.Program.Sites) || len(a.Program.Contexts) != len(b.Program.Contexts) || len(a.Program.Sites) == 0 {
		t.Errorf("sites %d/%d contexts %d/%d", len(a.Program.Sites), len(b.Program.Sites), len(a.Program.Contexts), len(b.Program.Contexts))
	}
}

// touch stops at the first 16 MB step past the floor at which it has been
// slower than the rate asked for, and never stops when no rate is given.
func TestTouchStopsWhenSlow(t *testing.T) {
	b := make([]byte, 64<<20)
	for _, c := range []struct {
		floor int
		perMB time.Duration
		want  int
	}{
		{0, 0, len(b)},                        // no rate: everything
		{0, time.Hour, len(b)},                // never slower than an hour per MB
		{0, time.Nanosecond, 16 << 20},        // slow at once: one step
		{20 << 20, time.Nanosecond, 32 << 20}, // but never short of the floor
	} {
		if got := touch(b, c.floor, c.perMB); got != c.want {
			t.Errorf("touch(floor %d MB, %v/MB) = %d MB, want %d MB", c.floor>>20, c.perMB, got>>20, c.want>>20)
		}
	}
}
