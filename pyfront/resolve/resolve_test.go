package resolve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/collvet/collvet/pyfront/parser"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestModuleNames(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"src/pkg/__init__.py", "src/pkg/sub/__init__.py", "src/pkg/sub/m.py",
		"scripts/train.py", "ns/inner/mod.py", "tool/__init__.py", "tool/cli.py",
		"src/nspkg/comm.py",
	} {
		touch(t, filepath.Join(root, f))
	}
	files, err := Discover([]string{root, filepath.Join(root, "tool")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := NewNamer()
	got := map[string]*Module{}
	for _, f := range files {
		m := n.Name(f)
		rel, _ := filepath.Rel(root, f.Path)
		got[filepath.ToSlash(rel)] = m
	}
	for path, want := range map[string]string{
		"src/pkg/__init__.py":     "pkg",
		"src/pkg/sub/m.py":        "pkg.sub.m",
		"scripts/train.py":        "train",
		"ns/inner/mod.py":         "mod",
		"tool/cli.py":             "tool.cli",
		"src/pkg/sub/__init__.py": "pkg.sub",
	} {
		if m := got[path]; m == nil || m.Name != want {
			t.Errorf("%s: module %+v, want %s", path, m, want)
		}
	}
	// The path relative to the given root is an alias (namespace packages).
	if m := got["ns/inner/mod.py"]; m == nil || len(m.Aliases) != 1 || m.Aliases[0] != "ns.inner.mod" {
		t.Errorf("aliases %+v", m)
	}
	var mods []*Module
	for _, f := range files {
		mods = append(mods, got[mustRel(t, root, f.Path)])
	}
	table := NewTable(mods)
	if m := table.Lookup("ns.inner.mod", nil); m == nil || m.Name != "mod" {
		t.Errorf("alias lookup: %+v", m)
	}
	if !table.IsPackagePrefix("ns.inner") {
		t.Errorf("ns.inner is a namespace package")
	}
	// A namespace package of a src/ layout is importable from under src/.
	if m := table.Lookup("nspkg.comm", nil); m == nil || m.Name != "comm" {
		t.Errorf("src/ namespace package lookup: %+v", m)
	}
	sub := got["src/pkg/sub/m.py"]
	for _, c := range []struct {
		level int
		mod   string
		want  string
		ok    bool
	}{{1, "", "pkg.sub", true}, {1, "x", "pkg.sub.x", true}, {2, "y", "pkg.y", true}, {3, "z", "z", true}, {4, "z", "", false}} {
		if got, ok := Absolute(sub, c.level, c.mod); got != c.want || ok != c.ok {
			t.Errorf("Absolute(%d, %q) = %q, %v; want %q, %v", c.level, c.mod, got, ok, c.want, c.ok)
		}
	}
	// A module of a namespace package (no __init__.py) imports relative
	// to the package it is importable as from the root.
	if got, ok := Absolute(got["ns/inner/mod.py"], 1, "peer"); got != "ns.inner.peer" || !ok {
		t.Errorf("namespace package: Absolute(1, peer) = %q, %v; want ns.inner.peer", got, ok)
	}
	// One of a src/ layout imports relative to its installed name, not to
	// a package named src (mpi4py's futures: `from .. import MPI`).
	if got, ok := Absolute(got["src/nspkg/comm.py"], 2, ""); got != "" || ok {
		t.Errorf("src/ namespace package: Absolute(2, \"\") = %q, %v; want beyond the top", got, ok)
	}
	if got, ok := Absolute(got["src/nspkg/comm.py"], 1, "peer"); got != "nspkg.peer" || !ok {
		t.Errorf("src/ namespace package: Absolute(1, peer) = %q, %v; want nspkg.peer", got, ok)
	}
}

// TestImportRoots: a directory that is not a package may be on sys.path
// (a script's, the working directory), so files below it are importable
// by their path from there, through namespace packages, except under a
// name an installed library has.
func TestImportRoots(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"setup.py", "tools/evalkit/run.py", "tools/evalkit/pkg/sub/__init__.py", "tools/evalkit/pkg/sub/misc.py",
		"tools/evalkit/deepspeed/launch.py", "tools/evalkit/helpers/__init__.py", "tools/evalkit/helpers/io.py",
		"proj/apps/main/train.py", "proj/lingua/ckpt.py",
	} {
		touch(t, filepath.Join(root, f))
	}
	files, err := Discover([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := NewNamer()
	var mods []*Module
	for _, f := range files {
		mods = append(mods, n.Name(f))
	}
	AddImportRoots(mods, n, func(top string) bool { return top == "deepspeed" })
	table := NewTable(mods)
	for name, want := range map[string]string{
		"pkg.sub.misc":               "tools/evalkit/pkg/sub/misc.py", // from the script's directory
		"pkg.sub":                    "tools/evalkit/pkg/sub/__init__.py",
		"helpers.io":                 "tools/evalkit/helpers/io.py",   // its own name
		"tools.evalkit.pkg.sub.misc": "tools/evalkit/pkg/sub/misc.py", // from the root, as before
		"lingua.ckpt":                "proj/lingua/ckpt.py",           // from proj/, the working directory of `python -m apps.main.train`
	} {
		m := table.Lookup(name, nil)
		if m == nil || mustRel(t, root, m.Path) != want {
			t.Errorf("Lookup(%q) = %+v, want %s", name, m, want)
		}
	}
	if !table.IsPackagePrefix("pkg") {
		t.Errorf("pkg is a namespace package seen from the script's directory")
	}
	if m := table.Lookup("deepspeed.launch", nil); m != nil || table.IsPackagePrefix("deepspeed") {
		t.Errorf("a namespace directory named like a library shadows it: %+v", m)
	}
}

func mustRel(t *testing.T, root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

func TestScopes(t *testing.T) {
	src := `x = 1
class C:
    x = 2
    def m(self):
        self.attr = x
        return [x for x in range(3)]
def outer():
    y = 1
    def inner():
        nonlocal y
        global z
        y = z = 2
        f = lambda: y
    return inner
`
	tree, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s := BuildScopes("t", tree)
	byName := map[string]*Scope{}
	for _, sc := range s.All {
		if sc.Kind != ComprehensionScope {
			byName[sc.Name] = sc
		}
	}
	m := byName["t.C.m"]
	if m == nil || m.Lookup("x") != s.Module {
		t.Fatalf("x in a method skips the class scope")
	}
	if c := byName["t.C"]; c == nil || len(c.SelfAttrs) != 1 || c.SelfAttrs[0] != "attr" {
		t.Errorf("self attributes: %+v", c)
	}
	inner := byName["t.outer.inner"]
	if inner.Lookup("y") != byName["t.outer"] || inner.BindingScope("y") != byName["t.outer"] {
		t.Errorf("nonlocal y binds in outer")
	}
	if inner.BindingScope("z") != s.Module {
		t.Errorf("global z binds in the module")
	}
	if l := byName["t.outer.inner.<lambda1>"]; l == nil || l.Lookup("y") != byName["t.outer"] {
		t.Errorf("lambda naming / free variable lookup")
	}
}
