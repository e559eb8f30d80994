package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/pyfront/parser"
)

// The test rule (CV990) flags every all_reduce call.
const ignoreSrc = `import torch.distributed as dist


def step(t):
    dist.all_reduce(t)
    x = dist.all_reduce(t) + \
        1
    dist.all_reduce(["""a
b"""])
    y = (dist.all_reduce(t), dist.all_reduce(t))
    dist.all_reduce(t)  # collvet: ignore[CV101] another decision
    return x, y
`

const ignoreWant = `import torch.distributed as dist


def step(t):
    dist.all_reduce(t)  # collvet: ignore[CV990] accepted, see OPS-12
    # collvet: ignore[CV990] accepted, see OPS-12
    x = dist.all_reduce(t) + \
        1
    # collvet: ignore[CV990] accepted, see OPS-12
    dist.all_reduce(["""a
b"""])
    y = (dist.all_reduce(t), dist.all_reduce(t))  # collvet: ignore[CV990] accepted, see OPS-12
    dist.all_reduce(t)  # collvet: ignore[CV101] another decision
    return x, y
`

// TestAddIgnore: a directive per line with findings, at its end or, where
// a comment cannot follow (a backslash, a string that runs on), on its own
// line above; a line that has a directive already is left to its owner.
func TestAddIgnore(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", ignoreSrc)

	code, out, _ := run(t, dir, "--add-ignore", "accepted, see OPS-12", "--diff", ".")
	if code != ExitFindings || !strings.Contains(out, "+    dist.all_reduce(t)  # collvet: ignore[CV990] accepted, see OPS-12\n") {
		t.Errorf("--diff: exit %d\n%s", code, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(got) != ignoreSrc {
		t.Fatal("--add-ignore --diff modified the file")
	}

	code, out, stderr := run(t, dir, ".", "--add-ignore", "accepted, see OPS-12")
	got, _ := os.ReadFile(filepath.Join(dir, "a.py"))
	if string(got) != ignoreWant {
		t.Fatalf("annotated file:\n%s\nwant:\n%s", got, ignoreWant)
	}
	if _, errs := parser.ParseFile("a.py", got); len(errs) > 0 {
		t.Errorf("annotated file does not parse: %v", errs)
	}
	if !strings.Contains(stderr, "added 4 suppressions in 1 file\n") || !strings.Contains(stderr, "a.py:11:10: not suppressed: the line already has a suppression directive") {
		t.Errorf("stderr:\n%s", stderr)
	}
	// What remains is the line whose directive names another code.
	if code != ExitFindings || !strings.Contains(out, "a.py:13:10: CV990 ") || strings.Count(out, "CV990") != 1 {
		t.Errorf("after --add-ignore: exit %d\n%s", code, out)
	}
	// A second run adds nothing and finds the same.
	code, out2, stderr := run(t, dir, ".", "--add-ignore", "accepted, see OPS-12")
	if code != ExitFindings || out2 != out || !strings.Contains(stderr, "added 0 suppressions") {
		t.Errorf("second run: exit %d\n%s%s", code, out2, stderr)
	}
}

func TestAddIgnoreUsage(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", ignoreSrc)
	for _, args := range [][]string{
		{"--add-ignore", "", "."},
		{"--add-ignore", "  ", "."},
		{"--add-ignore", "see # 12", "."},
		{"--add-ignore", "two\nlines", "."},
		{"--add-ignore", "why", "--fix", "."},
	} {
		code, _, stderr := run(t, dir, args...)
		if code != ExitError || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(got) != ignoreSrc {
		t.Error("a usage error modified the file")
	}
}

// TestAddIgnoreGo: Go findings get //collvet:ignore directives.
func TestAddIgnoreGo(t *testing.T) {
	useReal(t)
	if driver.GoFrontend == nil {
		t.Skip("the Go front end is not wired")
	}
	src := filepath.Join(repoRoot(t), "analyzers", "load", "testdata", "mod")
	mod := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		write(t, mod, rel, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, mod, "./...")
	if code != ExitFindings || !strings.Contains(out, "app/main.go:11:2: CV101 ") {
		t.Fatalf("before: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = run(t, mod, "--add-ignore", "the worker owns its own communicator", "./...")
	got, _ := os.ReadFile(filepath.Join(mod, "app", "main.go"))
	lines := strings.Split(string(got), "\n")
	if len(lines) < 11 || !strings.Contains(lines[10], " //collvet:ignore CV101") || !strings.HasSuffix(lines[10], " the worker owns its own communicator") {
		t.Errorf("app/main.go line 11: %q\nstderr %s", lines[min(10, len(lines)-1)], stderr)
	}
	if strings.Contains(out, "app/main.go:11:2: CV101 ") {
		t.Errorf("after: exit %d, the finding remains\n%s%s", code, out, stderr)
	}
}

// TestGoPackageWithoutCollectives: a Go module that uses no communication
// library is still analysed: --stats counts its files, and a suppression
// in it that silences nothing is reported.
func TestGoPackageWithoutCollectives(t *testing.T) {
	useReal(t)
	if driver.GoFrontend == nil {
		t.Skip("the Go front end is not wired")
	}
	mod := t.TempDir()
	write(t, mod, "go.mod", "module example.com/plain\n\ngo 1.21\n")
	write(t, mod, "plain.go", "package plain\n\n//collvet:ignore CV101 the worker owns the communicator\nfunc Twice(n int) int { return 2 * n }\n")
	code, out, stderr := run(t, mod, "--stats", "./...")
	if code != ExitFindings || !strings.Contains(out, "plain.go:3:1: CV002 ") {
		t.Errorf("exit %d, want the unused suppression reported\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "files: 1, lines: 4,") {
		t.Errorf("stats: %s, want one file of four lines", stderr)
	}
}
