package lower_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/collvet/collvet/analyzers/lower"
	"github.com/collvet/collvet/rules/api"
)

// TestFacts checks the summaries exported for other packages.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lower.Analyzer, "facts")
}

func TestValidate(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{lower.Analyzer}); err != nil {
		t.Fatal(err)
	}
}

// TestEmbeddedModules: the relevance filter knows the binding packages
// without decoding the tables, and goroutine-only packages do not count.
func TestEmbeddedModules(t *testing.T) {
	mods := map[string]bool{}
	for _, m := range api.EmbeddedModules() {
		mods[m] = true
	}
	for _, want := range []string{"github.com/sbromberger/gompi", "github.com/emer/empi/v2/mpi", "github.com/cpmech/gosl/mpi"} {
		if !mods[want] {
			t.Errorf("EmbeddedModules lacks %s", want)
		}
	}
	if mods["sync"] || mods["golang.org/x/sync/errgroup"] {
		t.Error("spawner packages must not make a package relevant")
	}
}
