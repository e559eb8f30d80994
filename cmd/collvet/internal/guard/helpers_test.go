package guard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The Python tests run /usr/bin/python3 (Debian's CPython with its
// python3-torch, PyTorch 1.13, CPU and gloo) unless COLLVET_PYTHON names
// another interpreter. Without torch they skip, unless
// COLLVET_REQUIRE_CORPUS=1 (as in CI), where they fail.

var (
	pyOnce sync.Once
	pyPath string
	pyErr  string
)

func requireTorch(t *testing.T) string {
	t.Helper()
	pyOnce.Do(func() {
		pyPath = os.Getenv("COLLVET_PYTHON")
		if pyPath == "" {
			pyPath = "/usr/bin/python3"
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, pyPath, "-c",
			"import torch.distributed as d; assert d.is_available(), 'torch.distributed not built'").CombinedOutput()
		if err != nil {
			pyErr = strings.TrimSpace(string(out)) + " (" + err.Error() + ")"
		}
	})
	if pyErr != "" {
		if os.Getenv("COLLVET_REQUIRE_CORPUS") == "1" {
			t.Fatalf("python with torch.distributed needed (COLLVET_REQUIRE_CORPUS=1): %s: %s", pyPath, pyErr)
		}
		t.Skipf("no python with torch.distributed (%s: %s); set COLLVET_PYTHON", pyPath, lastLine(pyErr))
	}
	return pyPath
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// guardDir writes the embedded guard into a fresh directory: the tests run
// the module as shipped in the binary.
func guardDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

var markRE = regexp.MustCompile(`\bmark:\s*(\w+)`)

// marks maps "# mark: NAME" comments of a file to their 1-based lines.
func marks(t *testing.T, path string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		if g := markRE.FindStringSubmatch(sc.Text()); g != nil {
			m[g[1]] = n
		}
	}
	return m
}

// moduleRoot is the directory holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
