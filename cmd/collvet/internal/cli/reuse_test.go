package cli

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/pyfront"
)

const reuseProgram = `import threading
import torch.distributed as dist


def worker(t):
    """Reduce t.

    On its own thread.
    """
    dist.all_reduce(t)  # background reduction


def main(t):
    th = threading.Thread(target=worker, args=(t,))
    th.start()
    dist.all_reduce(t)  # main reduction
    th.join()
`

// An analysis the cache answers from the previous one (only comments
// changed) reports what a fresh analysis of the same text reports: the
// findings, their fixes, and the suppression comments read from the new
// text.
func TestReusedAnalysisMatchesFresh(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.collvet]\n"), 0o644)
	path := filepath.Join(dir, "train.py")
	if err := os.WriteFile(path, []byte(reuseProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := pyfront.NewCache()
	base, err := driver.Analyze(context.Background(), driver.Request{Paths: []string{dir}, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if len(base.Diagnostics) == 0 {
		t.Fatal("the program has no finding to compare")
	}
	edits := []string{
		strings.Replace(reuseProgram, "# background reduction", "# the worker's reduction", 1),
		strings.Replace(reuseProgram, "# main reduction", "# collvet: ignore[CV101]", 1),
		strings.Replace(reuseProgram, "# background reduction", "# noqa: CV101", 1),
		strings.Replace(reuseProgram, "th.join()", "th.join()  # done", 1),
		strings.Replace(reuseProgram, "On its own thread.", "On a thread of its own, started by main.", 1),
		reuseProgram + "\n# collvet: ignore[CV101] covers nothing: an unused suppression\n",
	}
	for i, text := range edits {
		overlay := map[string][]byte{path: []byte(text)}
		got, err := driver.Analyze(context.Background(), driver.Request{Paths: []string{dir}, Cache: cache, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		want, err := driver.Analyze(context.Background(), driver.Request{Paths: []string{dir}, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
			t.Errorf("edit %d: from the cache\n%v\nfresh\n%v", i, got.Diagnostics, want.Diagnostics)
		}
	}
}
