package load_test

import (
	"os"
	"os/exec"
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
	listed := map[string]bool{}
	for _, f := range prog.Files {
		if strings.HasPrefix(f.Path, "/") || f.Lang != rules.Go {
			t.Errorf("file %q (%s): want a relative Go path", f.Path, f.Lang)
		}
		if listed[f.Path] {
			t.Errorf("file %q listed twice", f.Path)
		}
		listed[f.Path] = true
	}
	// A package without collectives is not lowered, but its files were
	// analysed: --stats counts them and suppressions in them are checked.
	if !listed[filepath.Join("plain", "plain.go")] {
		t.Errorf("files %v: want plain/plain.go, a package that uses no communication library", listed)
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

// TestLoadWithoutC: the fixture module on a machine without its C header,
// and on one without a C compiler (where the go command would leave out
// every file that imports "C"). Each cgo package gets one error that says
// why and that it was analysed anyway; the findings are the ones
// TestLoadModule gets with the header.
func TestLoadWithoutC(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, tc := range []struct {
		name, why string
		noCC      bool
	}{
		{"header", "nccl.h", false},
		{"compiler", "no C compiler ran", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("testdata/mod")); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(dir, "include")); err != nil {
				t.Fatal(err)
			}
			if tc.noCC {
				// A PATH with the go command and no C compiler, and
				// CGO_ENABLED unset: the go command's default is then off.
				bin := t.TempDir()
				if err := os.Symlink(gobin, filepath.Join(bin, "go")); err != nil {
					t.Skip(err)
				}
				t.Setenv("PATH", bin)
				t.Setenv("CC", "")
				unsetenv(t, "CGO_ENABLED")
			}
			prog, errs := load.Load([]string{"./..."}, dir)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "cgo could not process this package's C code ("+tc.why) ||
				!strings.Contains(errs[0].Error(), "wrap.go") {
				t.Errorf("errors = %v, want one cgo error for wrap.go naming %q", errs, tc.why)
			}
			var got []string
			for _, d := range collvet.Check(prog) {
				got = append(got, d.Pos.String()+" "+d.Rule)
			}
			want := []string{"app/main.go:11:2 CV101", "app/main.go:11:2 CV103", "wrap/wrap.go:26:2 CV101"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// unsetenv unsets an environment variable for the rest of the test.
func unsetenv(t *testing.T, key string) {
	t.Helper()
	old, had := os.LookupEnv(key)
	os.Unsetenv(key)
	t.Cleanup(func() {
		if had {
			os.Setenv(key, old)
		}
	})
}

// TestLoadWithoutCOtherErrors: a cgo package without its header that also
// has an error of its own gets the one cgo error and its own, not the
// go command's compiler output.
func TestLoadWithoutCOtherErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/mod")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "include")); err != nil {
		t.Fatal(err)
	}
	bad := "package wrap\n\nfunc broken() int { return undefinedName }\n"
	if err := os.WriteFile(filepath.Join(dir, "wrap", "broken.go"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := load.Load([]string{"./..."}, dir)
	var cgo, own int
	for _, e := range errs {
		switch msg := e.Error(); {
		case strings.Contains(msg, "cgo could not process this package's C code (nccl.h"):
			cgo++
		case strings.Contains(msg, "undefinedName"):
			own++
		case strings.Contains(msg, "fatal error") || strings.Contains(msg, "could not import C"):
			t.Errorf("raw cgo error kept: %v", e)
		}
	}
	if cgo != 1 || own != 1 {
		t.Errorf("errors = %v, want one cgo error and the package's own", errs)
	}
}

// TestLoadWithoutCTests: with the test files, a cgo package comes back
// twice (the package and its test variant); its missing header is told
// once, with the reason the package's own run gave.
func TestLoadWithoutCTests(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/mod")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "include")); err != nil {
		t.Fatal(err)
	}
	test := "package wrap\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n"
	if err := os.WriteFile(filepath.Join(dir, "wrap", "wrap_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := load.LoadWith([]string{"./..."}, dir, load.Options{Tests: true})
	var cgo []string
	for _, e := range errs {
		if strings.Contains(e.Error(), "cgo could not process") {
			cgo = append(cgo, e.Error())
		}
	}
	if len(cgo) != 1 || !strings.Contains(cgo[0], "nccl.h") {
		t.Errorf("cgo errors = %q, want one, naming nccl.h", cgo)
	}
}
