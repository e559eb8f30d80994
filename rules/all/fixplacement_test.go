package all_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv102"
)

// TestCV102FixPlacement: the fix disables multithreading after the init
// statement of a script that runs the callback, never after another
// script's.
func TestCV102FixPlacement(t *testing.T) {
	dir := filepath.Join(fixtureRoot, "cv102", "fix_placement")
	for unit, wantFile := range map[string]string{
		"library_function": "", // no script of the paths runs it: no fix
		"two_scripts":      "train.py",
	} {
		t.Run(unit, func(t *testing.T) {
			prog, err := load([]string{filepath.Join(dir, unit)})
			if err != nil {
				t.Fatal(err)
			}
			ds := rules.Run(prog, []*rules.Rule{cv102.Rule})
			if len(ds) != 1 {
				t.Fatalf("want one CV102, got %d", len(ds))
			}
			d := ds[0]
			if wantFile == "" {
				if len(d.Fixes) != 0 {
					t.Errorf("no fix expected, got one editing %s", d.Fixes[0].Edits[0].Pos.Path)
				}
				return
			}
			if len(d.Fixes) != 1 || !strings.HasSuffix(d.Fixes[0].Edits[0].Pos.Path, wantFile) {
				t.Errorf("want a fix in %s, got %+v", wantFile, d.Fixes)
			}
		})
	}
}
