package pyfront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const reuseSrc = `import threading
import torch.distributed as dist


def worker(t):
    """Reduces t.

    Runs in the background.
    """
    dist.all_reduce(t)  # the background thread's reduction
    dist.init_process_group("nccl")


def main(t):
    th = threading.Thread(target=worker, args=(t,))
    th.start()
    dist.all_reduce(
        t,  # the main thread's
        async_op=False,
    )
`

// reused reports whether b is a.Program handed back by the Cache (its
// model shared, not rebuilt).
func reused(a, b *Result) bool {
	return len(a.Program.Funcs) > 0 && len(b.Program.Funcs) == len(a.Program.Funcs) && &a.Program.Funcs[0] == &b.Program.Funcs[0]
}

func srcOf(r *Result, path string) string {
	for _, f := range r.Program.Files {
		if f.Path == path {
			return string(f.Src)
		}
	}
	return ""
}

func TestLoadReusesWhenOnlyCommentsChange(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "train.py", reuseSrc)
	cache := NewCache()
	first, err := Load([]string{dir}, Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src string
		reuse     bool
	}{
		{"comment text at the end of a line", strings.Replace(reuseSrc, "background thread's", "worker's", 1), true},
		{"comment added at the end of a line", strings.Replace(reuseSrc, "th.start()", "th.start()  # runs worker", 1), true},
		{"same text", reuseSrc, true},
		{"comment lines appended", reuseSrc + "\n# TODO: overlap the two reductions\n# on separate streams\n", true},
		{"docstring line retyped", strings.Replace(reuseSrc, "Runs in the background.", "Runs on a worker thread, not the main one.", 1), true},
		{"string argument", strings.Replace(reuseSrc, `"nccl"`, `"gloo"`, 1), false},
		{"comment inside brackets", strings.Replace(reuseSrc, "the main thread's", "main", 1), false},
		{"line added", strings.Replace(reuseSrc, "def main", "# main\ndef main", 1), false},
		{"code changed", strings.Replace(reuseSrc, "args=(t,)", "args=(t, )", 1), false},
		{"syntax error", reuseSrc + "def (\n", false},
	} {
		res, err := Load([]string{dir}, Options{Cache: cache, Overlay: map[string][]byte{path: []byte(c.src)}})
		if err != nil {
			t.Fatal(err)
		}
		if got := reused(first, res); got != c.reuse {
			t.Errorf("%s: reused %v, want %v", c.name, got, c.reuse)
		}
		if got := srcOf(res, path); got != c.src {
			t.Errorf("%s: the result holds the old text", c.name)
		}
		if !c.reuse {
			// A full Load: the next edits compare against it. Go back to
			// the first text so that each case starts from it.
			if first, err = Load([]string{dir}, Options{Cache: cache}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Files on disk count like open buffers, and the project files the model
// reads are part of what must not change.
func TestLoadReuseOnDisk(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "train.py", reuseSrc)
	req := write(t, dir, "requirements.txt", "torch==2.3.0\n")
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{path, req} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	cache := NewCache()
	first, err := Load([]string{dir}, Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := Load([]string{dir}, Options{Cache: cache}); !reused(first, res) {
		t.Error("nothing changed: not reused")
	}
	write(t, dir, "train.py", strings.Replace(reuseSrc, "background thread's", "worker's", 1))
	res, err := Load([]string{dir}, Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if !reused(first, res) || !strings.Contains(srcOf(res, path), "worker's") {
		t.Error("comment edit on disk: not reused, or the old text kept")
	}
	write(t, dir, "requirements.txt", "torch==1.13.1\n")
	res, err = Load([]string{dir}, Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if reused(first, res) {
		t.Error("requirements.txt changed: reused")
	}
	if res.Program.Facts.TorchRequirement != "torch==1.13.1" {
		t.Errorf("torch requirement %q", res.Program.Facts.TorchRequirement)
	}
	write(t, dir, "other.py", "x = 1\n")
	if again, _ := Load([]string{dir}, Options{Cache: cache}); reused(res, again) {
		t.Error("a file added: reused")
	}
	if err := os.Remove(filepath.Join(dir, "other.py")); err != nil {
		t.Fatal(err)
	}
}
