package all_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	_ "github.com/collvet/collvet/rules/all"
)

var (
	codeRE = regexp.MustCompile(`^CV\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	urlRE  = regexp.MustCompile(`^https://\S+ — \S`)
)

// The rules this package must register: the catalog in the design, and
// the rules added to it since (CV302, CV303, CV304, CV402, CV403).
var want = []string{"CV101", "CV102", "CV103", "CV104", "CV201", "CV202", "CV203", "CV301", "CV302", "CV303", "CV304", "CV401", "CV402", "CV403"}

func TestEveryRuleRegisteredAndDocumented(t *testing.T) {
	have := map[string]*rules.Rule{}
	for _, r := range rules.All() {
		have[r.Code] = r
	}
	for _, code := range want {
		r := have[code]
		if r == nil {
			t.Errorf("%s is not registered", code)
			continue
		}
		if !codeRE.MatchString(r.Code) || !nameRE.MatchString(r.Name) {
			t.Errorf("%s: bad code or name %q", code, r.Name)
		}
		if r.Run == nil {
			t.Errorf("%s: no Run", code)
		}
		if r.Severity.Rank() == 0 {
			t.Errorf("%s: bad severity %q", code, r.Severity)
		}
		d := r.Doc
		for field, v := range map[string]string{"Title": d.Title, "What": d.What, "Why": d.Why, "Example": d.Example,
			"UseInstead": d.UseInstead, "FixSafety": d.FixSafety, "Since": d.Since} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: Doc.%s is empty", code, field)
			}
		}
		if d.Since != "0.1.0" {
			t.Errorf("%s: Since = %q", code, d.Since)
		}
		if strings.HasSuffix(d.Title, ".") || strings.Contains(d.Title, "\n") {
			t.Errorf("%s: Title should be one line without a period: %q", code, d.Title)
		}
		if len(d.References) == 0 {
			t.Errorf("%s: no references", code)
		}
		for _, ref := range d.References {
			if !urlRE.MatchString(ref) {
				t.Errorf("%s: reference %q is not 'URL — note'", code, ref)
			}
		}
		if d.Example == d.UseInstead {
			t.Errorf("%s: example and fix are identical", code)
		}
		// Findings that cannot be proven statically point at the runtime guard.
		if !strings.Contains(d.FixSafety, "collvet guard") {
			t.Errorf("%s: FixSafety does not mention `collvet guard`", code)
		}
	}
}

// TestEveryRuleHasFixtures checks that each rule has a Python fixture
// directory with unsafe and safe shapes (see testdata/rules/README.md).
func TestEveryRuleHasFixtures(t *testing.T) {
	root := fixtureRoot
	for _, code := range want {
		dir := filepath.Join(root, strings.ToLower(code))
		var wants, files int
		err := filepath.WalkDir(dir, func(path string, de os.DirEntry, err error) error {
			if err != nil || de.IsDir() || !strings.HasSuffix(path, ".py") {
				return err
			}
			files++
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			wants += strings.Count(string(b), "# want "+code)
			return nil
		})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if files == 0 || wants < 5 {
			t.Errorf("%s: %d fixture files with %d `# want %s` markers; want at least 5 unsafe shapes", code, files, wants, code)
		}
		safe, _ := filepath.Glob(filepath.Join(dir, "safe*.py"))
		if len(safe) == 0 {
			t.Errorf("%s: no safe*.py fixtures", code)
		}
	}
}
