package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/driver/drivertest"
	"github.com/collvet/collvet/rules"
)

// shippedRules is the registry without the test-only rule that this
// package's tests register.
func shippedRules() []*rules.Rule {
	var out []*rules.Rule
	for _, r := range rules.All() {
		if r.Code != drivertest.RuleCode {
			out = append(out, r)
		}
	}
	return out
}

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/rules.md from the rule registry")

// TestRulesDocUpToDate keeps docs/rules.md (the target of the LSP's and
// SARIF's rule links) identical to what the registry renders.
// Regenerate with: go test ./cmd/collvet/internal/cli -run RulesDoc -update-docs
func TestRulesDocUpToDate(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "docs", "rules.md")
	want := RulesMarkdown(shippedRules())
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate with -update-docs)", err)
	}
	if string(got) != want {
		t.Errorf("docs/rules.md is stale; regenerate with: go test ./cmd/collvet/internal/cli -run RulesDoc -update-docs")
	}
	for _, r := range shippedRules() {
		if !containsAnchor(want, r.Code) {
			t.Errorf("no anchor for %s", r.Code)
		}
	}
}

func containsAnchor(doc, code string) bool {
	return strings.Contains(doc, `<a id="`+code+`"></a>`)
}
