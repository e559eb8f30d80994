package collvet_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/collvet/collvet/analyzers/collvet"
)

func TestNCCL(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), collvet.Analyzer, "ncclshare", "ncclloop")
}
