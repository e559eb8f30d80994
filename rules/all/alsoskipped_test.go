package all_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv301"
	"github.com/collvet/collvet/rules/ruletest"
)

// TestCV301NamesEveryCondition: a collective that two rank-dependent
// conditions skip is reported once, at the first, with the second among
// its related locations.
func TestCV301NamesEveryCondition(t *testing.T) {
	prog, err := load([]string{filepath.Join(fixtureRoot, "cv301", "also_skipped", "nan_and_oom.py")})
	if err != nil {
		t.Fatal(err)
	}
	ds := rules.Run(prog, []*rules.Rule{cv301.Rule})
	if len(ds) != 1 {
		t.Fatalf("want one CV301, got:\n%s", ruletest.Lines(ds))
	}
	var also []string
	for _, r := range ds[0].Related {
		if strings.HasPrefix(r.Message, "also decided by another condition") {
			also = append(also, r.Message)
		}
	}
	if len(also) != 1 || !strings.Contains(also[0], "except torch.cuda.OutOfMemoryError") || ds[0].Related[0].Pos.Line != 21 {
		t.Errorf("want the NaN test first and the OOM handler as the other condition, got:\n%s", ruletest.Lines(ds))
	}
}
