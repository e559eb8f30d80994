package pyfront

import "testing"

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
