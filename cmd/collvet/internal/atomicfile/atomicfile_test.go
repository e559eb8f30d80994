package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.sarif")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new content"), 0o644, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "new content" || st.Mode().Perm() != 0o644 {
		t.Errorf("file = %q, mode %v", got, st.Mode().Perm())
	}
	assertNoTemp(t, dir)
}

func TestWriteCheckAbandons(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	os.WriteFile(path, []byte("x = 1\n"), 0o644)
	stop := errors.New("changed meanwhile")
	if err := Write(path, []byte("x = 2\n"), 0o644, func() error { return stop }); err != stop {
		t.Fatalf("Write = %v, want the check's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "x = 1\n" {
		t.Errorf("target changed to %q", got)
	}
	assertNoTemp(t, dir)
}

func TestWriteMissingDirectory(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "f"), []byte("x"), 0o644, nil); err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want the target alone", names)
	}
}
