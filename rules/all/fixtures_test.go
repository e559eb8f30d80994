package all_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/ruletest"
)

var update = flag.Bool("update", false, "rewrite the fix golden files")

// fixtureRoot holds one directory per rule (testdata/rules/cv101, …), each
// with unsafe shapes marked `# want CVnnn "regex"` and safe*.py files that
// must stay silent, and optionally fix/ with golden files.
var fixtureRoot = filepath.Join("..", "..", "testdata", "rules")

func load(paths []string) (*rules.Program, error) {
	res, err := pyfront.Load(paths, pyfront.Options{})
	if err != nil {
		return nil, err
	}
	return res.Program, nil
}

func parse(path string, src []byte) error {
	if _, errs := parser.ParseFile(path, src); len(errs) > 0 {
		return errs
	}
	return nil
}

// TestFixtures runs the Python front end and every rule over each rule's
// fixture directory and compares the findings with the markers.
func TestFixtures(t *testing.T) {
	before := flow.Panics()
	for _, code := range want {
		t.Run(code, func(t *testing.T) {
			ruletest.Check(t, filepath.Join(fixtureRoot, strings.ToLower(code)), load, code)
		})
	}
	// A panic in the flow pass is recovered and loses that function's
	// facts silently: the fixtures must cause none.
	if n := flow.Panics() - before; n > 0 {
		t.Errorf("%d function lowerings stopped on a panic (COLLVET_DEBUG=1 prints them)", n)
	}
}

// TestFixGoldens applies each rule's fixes to its fix/ fixtures and
// compares with the golden files; the fixed files must parse and lose
// their findings.
func TestFixGoldens(t *testing.T) {
	for _, r := range rules.All() {
		dir := filepath.Join(fixtureRoot, strings.ToLower(r.Code), "fix")
		if _, err := os.Stat(dir); err != nil {
			if r.HasFix && contains(want, r.Code) {
				t.Errorf("%s declares HasFix but has no %s", r.Code, dir)
			}
			continue
		}
		if !r.HasFix {
			t.Errorf("%s has fix fixtures but HasFix is false", r.Code)
		}
		t.Run(r.Code, func(t *testing.T) {
			ruletest.CheckFixes(t, dir, load, parse, r.Code, *update)
		})
	}
}

// TestHasFixMatchesFindings checks that a rule without HasFix never emits
// fixes on the fixtures, and one with HasFix emits at least one.
func TestHasFixMatchesFindings(t *testing.T) {
	for _, code := range want {
		r := rules.Lookup(code)
		units, err := ruletest.Units(filepath.Join(fixtureRoot, strings.ToLower(code)))
		if err != nil {
			t.Fatal(err)
		}
		fixes := 0
		for _, u := range units {
			prog, err := load([]string{u})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range rules.Run(prog, []*rules.Rule{r}) {
				fixes += len(d.Fixes)
			}
		}
		if r.HasFix != (fixes > 0) {
			t.Errorf("%s: HasFix=%v but %d fixes on its fixtures", code, r.HasFix, fixes)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
