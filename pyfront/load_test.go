package pyfront

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/collvet/collvet/rules"
)

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadMissingPath(t *testing.T) {
	if _, err := Load([]string{filepath.Join(t.TempDir(), "nope")}, Options{}); err == nil {
		t.Fatal("want an error for a path that does not exist")
	}
}

// Bad files are reported and skipped; the others are still analysed.
func TestLoadBadFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "good.py", "import torch.distributed as dist\n\ndef f(t):\n    dist.all_reduce(t)\n")
	write(t, dir, "empty.py", "")
	write(t, dir, "binary.py", "x = 1\x00\x01\x02")
	write(t, dir, "latin.py", "# -*- coding: utf-8 -*-\ns = '\xff\xfe'\n")
	write(t, dir, "broken.py", "def f(:\n    pass\n")
	write(t, dir, ".venv/lib.py", "def hidden(): pass\n")
	write(t, dir, "env/pyvenv.cfg", "home = /usr\n")
	write(t, dir, "env/lib.py", "def hidden(): pass\n")
	write(t, dir, "__pycache__/x.py", "def hidden(): pass\n")
	res, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range res.Errors {
		kinds[filepath.Base(e.Path)] = e.Kind
	}
	for name, want := range map[string]string{"binary.py": "binary", "latin.py": "decode", "broken.py": "syntax"} {
		if kinds[name] != want {
			t.Errorf("%s: error kind %q, want %q (errors: %v)", name, kinds[name], want, res.Errors)
		}
	}
	if _, ok := kinds["empty.py"]; ok {
		t.Errorf("an empty file is not an error")
	}
	// good.py, empty.py and broken.py (with its partial tree) are analysed.
	if res.Files != 3 {
		t.Errorf("analysed %d files, want 3", res.Files)
	}
	if len(res.Program.Sites) != 1 || !strings.HasSuffix(res.Program.Sites[0].Pos.Path, "good.py") {
		t.Errorf("want the all_reduce in good.py, got %v", res.Program.Sites)
	}
	for _, f := range res.Program.Funcs {
		if strings.Contains(f.Name, "hidden") {
			t.Errorf("analysed a file in a skipped directory: %s", f.Name)
		}
	}
}

// A file named explicitly is analysed even inside a skipped directory,
// and positions keep the path as given.
func TestLoadExplicitFileAndRelativePaths(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "build/gen.py", "import torch.distributed as dist\ndist.barrier()\n")
	res, err := Load([]string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Program.Sites) != 1 || res.Program.Sites[0].Pos.Path != filepath.Clean(p) {
		t.Fatalf("sites %v", res.Program.Sites)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	res, err = Load([]string{"./build/../build/gen.py"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Program.Sites[0].Pos.Path; got != "build/gen.py" {
		t.Fatalf("path %q, want the cleaned relative path", got)
	}
}

// Overlays replace file contents; the cache gives the same program.
func TestLoadOverlayAndCache(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "m.py", "def f():\n    pass\n")
	cache := NewCache()
	overlay := map[string][]byte{p: []byte("import torch.distributed as dist\ndist.barrier()\n")}
	for i := 0; i < 2; i++ {
		res, err := Load([]string{dir}, Options{Overlay: overlay, Cache: cache, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Program.Sites) != 1 {
			t.Fatalf("run %d: overlay not used: %v", i, res.Program.Sites)
		}
	}
}

// The cache keeps one entry per file the latest run used: the earlier
// versions of an edited file and deleted files are dropped, however many
// edits there were; unchanged files are reused, not parsed again.
func TestCacheKeepsLatestVersions(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.py", "def f():\n    pass\n")
	b := write(t, dir, "b.py", "x = 1\n")
	write(t, dir, "c.py", "y = 2\n")
	cache := NewCache()
	if _, err := Load([]string{dir}, Options{Cache: cache}); err != nil {
		t.Fatal(err)
	}
	kept := cache.get(cacheKey{path: b, module: "b", sum: sha256.Sum256([]byte("x = 1\n"))}, 0)
	if kept == nil {
		t.Fatalf("b.py not cached (%d entries)", cache.Len())
	}
	for i := 0; i < 20; i++ {
		edit := map[string][]byte{a: []byte(fmt.Sprintf("def f():\n    return %d\n", i))}
		if _, err := Load([]string{dir}, Options{Cache: cache, Overlay: edit}); err != nil {
			t.Fatal(err)
		}
		if n := cache.Len(); n != 3 {
			t.Fatalf("edit %d: %d cache entries, want 3", i, n)
		}
	}
	if again := cache.get(cacheKey{path: b, module: "b", sum: sha256.Sum256([]byte("x = 1\n"))}, 0); again != kept {
		t.Error("an unchanged file was parsed again")
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if _, err := Load([]string{dir}, Options{Cache: cache}); err != nil {
		t.Fatal(err)
	}
	if n := cache.Len(); n != 2 {
		t.Fatalf("after deleting b.py: %d cache entries, want 2", n)
	}
}

// Package roots: src/ layouts, packages given directly, relative imports.
func TestLoadPackages(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pkg/__init__.py", "from .comm import sync\n")
	write(t, dir, "src/pkg/comm.py", "import torch.distributed as dist\n\ndef sync(t):\n    dist.all_reduce(t)\n")
	write(t, dir, "scripts/train.py", "import pkg\n\npkg.sync(None)\n")
	res, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Program.Sites) != 1 {
		t.Fatalf("sites %v", res.Program.Sites)
	}
	var chain []string
	for _, r := range res.Program.Sites[0].Reach {
		for _, c := range r.Chain {
			chain = append(chain, c.Caller.Name+">"+c.Callee.Name)
		}
	}
	if strings.Join(chain, " ") != "train>pkg.comm.sync" {
		t.Fatalf("chain %v, want train>pkg.comm.sync", chain)
	}
}

// A cancelled context stops Load, whether it was cancelled before Load
// began or while the files were being discovered; an uncancelled one
// changes nothing.
func TestLoadCancelled(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.py", "import torch.distributed as dist\n\ndef f(t):\n    dist.all_reduce(t)\n")
	write(t, dir, "b.py", "def g():\n    pass\n")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Load([]string{dir}, Options{Context: ctx}); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled before Load: result %v, error %v; want context.Canceled", res, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	exclude := func(path string, isDir bool) bool {
		cancel() // the editor's next edit arrives while files are found
		return false
	}
	if res, err := Load([]string{dir}, Options{Context: ctx, Exclude: exclude}); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled during discovery: result %v, error %v; want context.Canceled", res, err)
	}

	res, err := Load([]string{dir}, Options{Context: context.Background()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || len(res.Program.Sites) == 0 {
		t.Errorf("uncancelled: %d files, %d collective sites; want 2 files and the all_reduce", res.Files, len(res.Program.Sites))
	}
}

// Nothing keeps an analysis alive after its result is dropped: a
// language server runs one per edit, and anything held globally (the
// flow pass once indexed every analysed file in a package-level map)
// grows with every keystroke.
func TestLoadResultCollected(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.py", "import torch.distributed as dist\n\ndef f(t):\n    dist.all_reduce(t)\n")
	collected := make(chan struct{})
	func() {
		res, err := Load([]string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Program.Sites) == 0 || len(res.Program.Files) != 1 {
			t.Fatalf("want the all_reduce site in one file; got %d sites, %d files", len(res.Program.Sites), len(res.Program.Files))
		}
		runtime.SetFinalizer(res.Program.Files[0], func(*rules.File) { close(collected) })
	}()
	for i := 0; i < 20; i++ {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the analysed file is still reachable after the result was dropped")
}

// Code written for Python 3.12 and 3.13 (type statements, PEP 695
// generics, PEP 701 f-strings, type parameter defaults) is analysed, not
// reported as a syntax error; code invalid in every version still is,
// with the 3.11 grammar's message.
func TestLoadNewerSyntax(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "modern.py", "import torch.distributed as dist\n\ntype Pair[T] = tuple[T, T]\n\n\n"+
		"class Reducer[T, *Ts, **P]:\n    def run[U = int](self, x: U) -> U:\n        dist.all_reduce(x)\n        return x\n\n\n"+
		"def label(names):\n    return f\"{\", \".join(names)}\"\n")
	write(t, dir, "broken.py", "def f(:\n    pass\n")
	res, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) == 0 {
		t.Fatal("no syntax error for broken.py")
	}
	for _, e := range res.Errors {
		if !strings.HasSuffix(e.Path, "broken.py") {
			t.Errorf("error outside broken.py: %+v", e)
		}
	}
	found := false
	for _, s := range res.Program.Sites {
		if strings.HasSuffix(s.Pos.Path, "modern.py") && s.Op == "all_reduce" && strings.HasSuffix(s.Func.Name, "Reducer.run") {
			found = true
		}
	}
	if !found {
		t.Errorf("the all_reduce in the generic class's method is not a site: %+v", res.Program.Sites)
	}
}
