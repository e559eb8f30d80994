package collvet_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoVetVettool builds the collvet binary and runs
// `go vet -vettool=<it> ./...` on the fixture module testdata/vetmod:
// the unitchecker protocol end to end (-flags, -V=full, vet.cfg, facts for
// every dependency, suppressions, exit status).
func TestGoVetVettool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the collvet binary and runs go vet")
	}
	bin := filepath.Join(t.TempDir(), "collvet")
	build := exec.Command("go", "build", "-o", bin, "github.com/collvet/collvet/cmd/collvet")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", "-vettool="+bin, "./...")
	vet.Dir = filepath.Join("testdata", "vetmod")
	var stderr bytes.Buffer
	vet.Stderr = &stderr
	err := vet.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("go vet: err = %v, want exit status 1 (findings)\n%s", err, stderr.String())
	}
	var findings []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ": CV") {
			findings = append(findings, l[:strings.Index(l, ": CV")+7])
		}
	}
	want := []string{
		"main.go:19:3: CV101", // the goroutine and main share comm
		"main.go:19:3: CV103", // two goroutines drive comm and side
		// main.go:25 is suppressed; clean/ has nothing.
	}
	if strings.Join(findings, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\nfull output:\n%s", strings.Join(findings, "\n"), strings.Join(want, "\n"), stderr.String())
	}
	if !strings.Contains(stderr.String(), "[collective-from-multiple-threads]") ||
		!strings.Contains(stderr.String(), "group ncclCommInitRank@main.go:14") {
		t.Errorf("message shape differs from the CLI's:\n%s", stderr.String())
	}
}
