package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/pyfront/parser"
)

const fixSrc = "import torch.distributed as dist\n\n\ndef step(t):\n    dist.all_reduce(t)\n    return t\n"

func TestDiff(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", fixSrc)
	code, out, _ := run(t, dir, "--diff", ".")
	want := "--- a.py\n+++ a.py\n@@ -2,5 +2,6 @@\n \n \n def step(t):\n+    torch.autograd.set_multithreading_enabled(False)\n     dist.all_reduce(t)\n     return t\n"
	if code != ExitFindings || out != want {
		t.Errorf("--diff: exit %d\n%s\nwant\n%s", code, out, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(got) != fixSrc {
		t.Error("--diff modified the file")
	}
	if code, out2, _ := run(t, dir, "--exit-zero", "--diff", "."); code != ExitOK || out2 != want {
		t.Errorf("--exit-zero --diff: exit %d\n%s", code, out2)
	}
	write(t, dir, "a.py", "x = 1\n")
	if code, out, _ := run(t, dir, "--diff", "."); code != ExitOK || out != "" {
		t.Errorf("--diff without fixes: exit %d %q", code, out)
	}
}

func TestFix(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", fixSrc)
	if err := os.Chmod(filepath.Join(dir, "a.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, dir, "--fix", ".")
	// The test rule still fires after its fix (it flags every all_reduce),
	// so findings remain: exit 1, reported from the fixed file.
	if code != ExitFindings || !strings.Contains(stderr, "applied 1 fix in 1 file\n") || !strings.Contains(out, "a.py:6:10: CV990") {
		t.Errorf("--fix: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.py"))
	if !strings.Contains(string(got), "    torch.autograd.set_multithreading_enabled(False)\n    dist.all_reduce(t)\n") {
		t.Errorf("fixed file:\n%s", got)
	}
	if _, errs := parser.ParseFile("a.py", got); len(errs) > 0 {
		t.Errorf("fixed file does not parse: %v", errs)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.py")); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestFixUnusedSuppression(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", "x = 1  # collvet: ignore[CV990] stale\n# collvet: ignore[CV990] stale too\ny = 2\n")
	code, _, _ := run(t, dir, "--fix", ".")
	got, _ := os.ReadFile(filepath.Join(dir, "a.py"))
	if code != ExitOK || string(got) != "x = 1\ny = 2\n" {
		t.Errorf("exit %d, file %q", code, got)
	}
}

// TestRobustness: binary, undecodable and empty files, an unreadable
// directory, a symlink loop and a 50 MB generated file neither crash nor
// hang the run, and the good file is still analysed.
func TestRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	t.Run("test-frontend", func(t *testing.T) { robustness(t, "all_reduce(t)") })
	t.Run("real-frontend", func(t *testing.T) { useReal(t); robustness(t, "all_reduce(t, async_op=True)") })
}

func robustness(t *testing.T, call string) {
	dir := tempProject(t)
	write(t, dir, "good.py", "import torch.distributed as dist\n\n\ndef f(t):\n    dist."+call+"\n")
	write(t, dir, "empty.py", "")
	write(t, dir, "binary.py", "\x7fELF\x00\x00\x01\x02\xff\xfe")
	write(t, dir, "latin.py", "x = '\xe9\xe8'\n")
	write(t, dir, "cookie.py", "# -*- coding: no-such-codec -*-\nx = 1\n")
	write(t, dir, "locked/inner.py", "x = 1\n")
	os.Chmod(filepath.Join(dir, "locked"), 0)
	defer os.Chmod(filepath.Join(dir, "locked"), 0o755)
	os.MkdirAll(filepath.Join(dir, "loop"), 0o755)
	os.Symlink("..", filepath.Join(dir, "loop", "up"))
	os.Symlink("self.py", filepath.Join(dir, "self.py"))
	var big strings.Builder
	line := "values_%07d = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n"
	for i := 0; big.Len() < 50<<20; i++ {
		big.WriteString(strings.Replace(line, "%07d", strings.Repeat("x", 7), 1))
	}
	write(t, dir, "generated.py", big.String())

	code, out, stderr := run(t, dir, "--format", "json", ".")
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(out, `"path": "good.py"`) {
		t.Errorf("good.py not analysed:\n%s", out)
	}
	for _, f := range []string{"latin.py", "cookie.py"} {
		if !strings.Contains(out, `"path": "`+f+`"`) || !strings.Contains(out, `"rule": "CV000"`) {
			t.Errorf("%s: no CV000 finding", f)
		}
	}
	if !strings.Contains(stderr, "binary.py") && !strings.Contains(out, `"path": "binary.py"`) {
		t.Errorf("binary file neither reported nor mentioned on stderr: %s", stderr)
	}
	if !strings.Contains(stderr, "generated.py") {
		t.Errorf("the 50 MB file is not mentioned on stderr: %s", stderr)
	}
}

// TestEndToEnd runs the real front end and rules over a reproducer of the
// hazards, then fixes it: the fixed file parses and the fixed findings are
// gone.
func TestEndToEnd(t *testing.T) {
	useReal(t)
	dir := tempProject(t)
	src := `import threading
import torch
import torch.distributed as dist


def saver(t):
    dist.all_reduce(t)


def hook(grad):
    dist.all_reduce(grad)
    return grad


def main():
    dist.init_process_group("nccl")
    t = torch.ones(1)
    th = threading.Thread(target=saver, args=(t,))
    th.start()
    dist.all_reduce(t)
    p = torch.nn.Parameter(torch.ones(1))
    p.register_hook(hook)
    p.sum().backward()
    w = dist.all_reduce(t, async_op=True)


main()
`
	write(t, dir, "repro.py", src)
	code, out, stderr := run(t, dir, ".")
	for _, want := range []string{"repro.py:7:5: CV101 ", "repro.py:11:5: CV102 ", "repro.py:24:9: CV401 ", "    repro.py:18:"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr = run(t, dir, "--fix", ".")
	got, _ := os.ReadFile(filepath.Join(dir, "repro.py"))
	if _, errs := parser.ParseFile("repro.py", got); len(errs) > 0 {
		t.Fatalf("fixed file does not parse: %v\n%s", errs, got)
	}
	if strings.Contains(out, "CV102") || strings.Contains(out, "CV401") || !strings.Contains(out, "CV101") {
		t.Errorf("after --fix (exit %d):\n%s\nstderr %s\nfile:\n%s", code, out, stderr, got)
	}
}

// TestConfigDeclaredAPIs: a user wrapper declared as a collective and a
// helper declared as a thread spawner in collvet.toml are recognised by the
// real front end (the tables are extended from configuration). mylib is an
// installed library here, not a package of the analysed tree.
func TestConfigDeclaredAPIs(t *testing.T) {
	useReal(t)
	dir := tempProject(t)
	write(t, dir, "train.py", `from mylib import comm, bg


def worker(t):
    comm.sync_grads(t)


def main(t):
    bg.run_in_background(worker, t)
    comm.sync_grads(t)
`)
	code, out, _ := run(t, dir, "--no-config", ".")
	if code != ExitOK || out != "" {
		t.Fatalf("without declarations: exit %d\n%s", code, out)
	}
	write(t, dir, "collvet.toml", `[[collective]]
name = "mylib.comm.sync_grads"
op = "all_reduce"
kind = "collective"
library = "mylib"
group = { pos = 1, name = "group" }

[[spawner]]
name = "mylib.bg.run_in_background"
context = "thread"
target = { pos = 0, name = "fn" }
`)
	code, out, stderr := run(t, dir, ".")
	if code != ExitFindings || !strings.Contains(out, "train.py:5:5: CV101 ") {
		t.Errorf("with declarations: exit %d\n%s%s", code, out, stderr)
	}
}

// TestGoPackages runs the Go front end through the CLI: package patterns,
// a module directory, and a package with type errors (warnings, no crash).
func TestGoPackages(t *testing.T) {
	useReal(t)
	if driver.GoFrontend == nil {
		t.Skip("the Go front end is not wired")
	}
	mod := filepath.Join(repoRoot(t), "analyzers", "load", "testdata", "mod")
	code, out, stderr := run(t, mod, "./...")
	if code != ExitFindings || !strings.Contains(out, "app/main.go:11:2: CV101 ") || !strings.Contains(out, "    wrap/wrap.go:31:2: ") {
		t.Errorf("./...: exit %d\n%s%s", code, out, stderr)
	}
	// An import path, as go vet takes it: a package of the module in the
	// working directory by its full path. A missing Python path is still
	// an error.
	code, out, stderr = run(t, mod, "example.com/mod/app")
	if code != ExitFindings || !strings.Contains(out, "app/main.go:11:2: CV101 ") {
		t.Errorf("import path: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr = run(t, mod, "nosuch/train.py"); code != ExitError || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("missing path: exit %d\n%s", code, stderr)
	}
	// A directory holding go.mod is analysed as Go too.
	code, out, _ = run(t, filepath.Dir(mod), "mod")
	if code != ExitFindings || !strings.Contains(out, "mod/app/main.go:11:2: CV101 ") {
		t.Errorf("mod: exit %d (want paths relative to the working directory)\n%s", code, out)
	}
	// A package directory inside the module is that package, as for go
	// vet: from the module's directory and from the package's own.
	code, out, stderr = run(t, mod, "./app")
	if code != ExitFindings || !strings.Contains(out, "app/main.go:11:2: CV101 ") {
		t.Errorf("./app: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = run(t, filepath.Join(mod, "app"), ".")
	if code != ExitFindings || !strings.Contains(out, "main.go:11:2: CV101 ") {
		t.Errorf("app, .: exit %d\n%s%s", code, out, stderr)
	}
	// Files behind a build tag count with -tags, as for go build.
	tagged := filepath.Join(repoRoot(t), "analyzers", "load", "testdata", "tagged")
	if code, out, stderr = run(t, tagged, "./..."); code != ExitOK {
		t.Errorf("tagged without -tags: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = run(t, tagged, "-tags=cuda", "./...")
	if code != ExitFindings || !strings.Contains(out, "share_cuda.go:32:4: CV101 ") {
		t.Errorf("tagged -tags=cuda: exit %d\n%s%s", code, out, stderr)
	}
	if strings.Contains(out, "share_cuda.go:42:") {
		t.Errorf("tagged -tags=cuda: the tests' goroutine counted without -tests\n%s", out)
	}
	// -tests adds the tests' goroutine; the package's own findings are
	// reported once, not once per test variant of the package.
	code, out, stderr = run(t, tagged, "-tags=cuda", "-tests", "./...")
	if code != ExitFindings || !strings.Contains(out, "share_cuda.go:42:2: CV105 ") || strings.Count(out, "share_cuda.go:32:4: CV101 ") != 1 {
		t.Errorf("tagged -tags=cuda -tests: exit %d\n%s%s", code, out, stderr)
	}
	broken := filepath.Join(repoRoot(t), "analyzers", "load", "testdata", "broken")
	code, _, stderr = run(t, broken, "./...")
	if code == ExitError || !strings.Contains(stderr, "typeerr/typeerr.go:") {
		t.Errorf("broken: exit %d\n%s", code, stderr)
	}
}
