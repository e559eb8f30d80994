package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// precommitProject writes a project where two files have findings (the
// test rule flags every all_reduce call) and one is clean.
func precommitProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml":  "[tool.collvet]\n",
		"pkg/hazard.py":   "import torch.distributed as dist\n\n\ndef f(t):\n    dist.all_reduce(t)\n",
		"pkg/other.py":    "import torch.distributed as dist\n\ndist.all_reduce(x)\n",
		"pkg/clean.py":    "x = 1\n",
		"pkg/__init__.py": "",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPrecommitReportsOnlyNamedFiles(t *testing.T) {
	dir := precommitProject(t)
	code, out, errOut := run(t, dir, "precommit", "pkg/hazard.py", "pkg/clean.py")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitFindings, errOut)
	}
	if !strings.Contains(out, "pkg/hazard.py:5:10: CV990 ") {
		t.Errorf("finding in the committed file missing:\n%s", out)
	}
	if strings.Contains(out, "other.py") {
		t.Errorf("finding in a file not being committed reported:\n%s", out)
	}
	if !strings.Contains(errOut, "1 finding(s)") {
		t.Errorf("stderr = %q", errOut)
	}
}

func TestPrecommitCleanFilesPass(t *testing.T) {
	dir := precommitProject(t)
	// ./-prefixed and absolute spellings name the same file.
	code, out, errOut := run(t, dir, "precommit", "./pkg/clean.py", filepath.Join(dir, "pkg", "__init__.py"))
	if code != ExitOK || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and no output", code, out, errOut)
	}
	// No files (nothing staged that collvet reads): nothing to do.
	if code, _, _ := run(t, dir, "precommit"); code != ExitOK {
		t.Errorf("no files: exit %d", code)
	}
}

func TestPrecommitAbsoluteNamesAndFlags(t *testing.T) {
	dir := precommitProject(t)
	code, out, _ := run(t, dir, "precommit", "--format", "json", filepath.Join(dir, "pkg", "other.py"))
	if code != ExitFindings || !strings.Contains(out, `"rule": "CV990"`) && !strings.Contains(out, `"rule":"CV990"`) {
		t.Errorf("json: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, "precommit", "--ignore", "CV990", "pkg/other.py"); code != ExitOK {
		t.Errorf("--ignore CV990: exit %d, want 0", code)
	}
	if code, _, errOut := run(t, dir, "precommit", "--format", "xml", "pkg/other.py"); code != ExitError || !strings.Contains(errOut, "xml") {
		t.Errorf("bad format: exit %d, %q", code, errOut)
	}
	if code, _, _ := run(t, dir, "precommit", "--severity", "fatal", "pkg/other.py"); code != ExitError {
		t.Errorf("bad severity: exit %d", code)
	}
}
