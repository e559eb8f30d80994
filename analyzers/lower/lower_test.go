package lower_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/collvet/collvet/analyzers/lower"
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
