package collvet_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/collvet/collvet/analyzers/collvet"
)

// The fixtures are cgo packages that include stub NCCL/MPI headers from
// testdata/src/include: cgo type-checks them, nothing links.

func TestNCCL(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer,
		"ncclshare", "ncclloop", "nccltwo", "ncclgroup", "ncclstreams", "ncclsafe", "nccldevice", "ncclbinding", "ncclbindinguse", "nccllockshared", "nccldevicethreads", "nccllockundone", "ncclinitall")
}

func TestLockFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), collvet.Analyzer, "nccllock")
}

func TestMPI(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer, "mpifunneled", "mpisingle", "mpirequest", "mpip2p", "mpicogentcore", "mpirank")
}

func TestSpawners(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer, "spawners", "pools")
}

// TestFacts checks the summaries a wrapper package exports and the
// findings they produce in an importing package.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer, "ncclwrap", "wrapapp")
}

func TestSuppressions(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer, "suppress")
}

// TestWithoutHeaders runs the cgo fixtures on a machine that lacks their C
// headers (the include directory is left out of a copy): cgo's processing
// fails, the files are read as written, and every finding is the same.
func TestWithoutHeaders(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(analysistest.TestData())); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "src", "include")); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, collvet.Analyzer,
		"ncclshare", "ncclloop", "nccltwo", "ncclgroup", "ncclstreams", "ncclsafe", "nccldevice", "ncclbinding", "ncclbindinguse", "nccllockshared", "ncclinitall",
		"mpifunneled", "mpisingle", "mpirequest", "mpip2p", "ncclwrap", "wrapapp", "suppress")
}
