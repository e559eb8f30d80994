package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/analyzers/collvet"
	"github.com/collvet/collvet/analyzers/load"
	"github.com/collvet/collvet/rules"
)

// TestLoadModule loads the fixture module (a wrapper package with its own
// goroutine and an application using it) and checks the merged model and
// the findings the rules report on it, in the CLI's path shapes.
func TestLoadModule(t *testing.T) {
	prog, errs := load.Load([]string{"./..."}, "testdata/mod")
	for _, e := range errs {
		t.Errorf("load error: %v", e)
	}
	if len(prog.Files) < 2 {
		t.Fatalf("files = %d, want the module's two Go files", len(prog.Files))
	}
	for _, f := range prog.Files {
		if strings.HasPrefix(f.Path, "/") || f.Lang != rules.Go {
			t.Errorf("file %q (%s): want a relative Go path", f.Path, f.Lang)
		}
	}
	mains := 0
	for _, c := range prog.Contexts {
		if c.Kind == rules.Main {
			mains++
		}
	}
	if mains != 1 {
		t.Errorf("main contexts = %d, want 1 after merging", mains)
	}
	// The goroutine Background starts is one context, seen by the wrapper
	// package itself and by the application through facts.
	spawns := map[string]int{}
	for _, c := range prog.Contexts {
		if c.Kind == rules.Goroutine {
			spawns[c.Spawn.Short()]++
		}
	}
	for k, n := range spawns {
		if n != 1 {
			t.Errorf("spawn %s has %d contexts, want 1", k, n)
		}
	}
	var got []string
	for _, d := range collvet.Check(prog) {
		got = append(got, d.Pos.String()+" "+d.Rule)
	}
	want := []string{
		"app/main.go:11:2 CV101",
		"app/main.go:11:2 CV103",
		"wrap/wrap.go:26:2 CV101",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadErrors(t *testing.T) {
	_, errs := load.Load([]string{"./nonexistent/..."}, "testdata/mod")
	if len(errs) == 0 {
		t.Error("want an error for a pattern that matches nothing loadable")
	}
}

// TestLoadBroken: type errors (testdata/broken/typeerr) and syntax errors
// (a package written at test time, so the tree stays gofmt-clean) are
// reported, never a panic.
func TestLoadBroken(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/broken")); err != nil {
		t.Fatal(err)
	}
	bad := "package bad\n\nfunc Run(ch chan int) {\n\tgo func(\n}\n"
	if err := os.MkdirAll(filepath.Join(dir, "bad"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad", "bad.go"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, errs := load.Load([]string{"./..."}, dir)
	var syntax, types bool
	for _, e := range errs {
		syntax = syntax || strings.Contains(e.Error(), "bad.go")
		types = types || strings.Contains(e.Error(), "typeerr.go")
	}
	if !syntax || !types {
		t.Errorf("want errors for both packages, got %v", errs)
	}
	if prog == nil {
		t.Fatal("nil program")
	}
	_ = collvet.Check(prog)
}

// TestThreadLevelPerBinary: two main packages of one module, each its own
// process, ask for different MPI thread levels. Each program's goroutine
// is judged by its own request: the one that asked for
// MPI_THREAD_MULTIPLE is not reported because the other called MPI_Init.
func TestThreadLevelPerBinary(t *testing.T) {
	prog, errs := load.Load([]string{"./..."}, "testdata/twomains")
	for _, e := range errs {
		t.Errorf("load error: %v", e)
	}
	var got []string
	for _, d := range collvet.Check(prog) {
		got = append(got, d.Pos.String()+" "+d.Rule)
	}
	want := []string{"a/main.go:12:3 CV104"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
