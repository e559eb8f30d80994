package all_test

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
)

var updateLedger = flag.Bool("update-ledger", false, "rewrite testdata/incidents/LEDGER.tsv from the current findings")

const incidentRoot = "../../testdata/incidents"

// TestIncidentLedger analyses each reproducer of the reference's incidents
// (and its fixed version) on its own and compares the rule codes reported
// with testdata/incidents/LEDGER.tsv. The ledger records recall, misses
// included ("-" on a hazardous reproducer): a change either way fails the
// test, so that it is seen, and is recorded with -update-ledger.
func TestIncidentLedger(t *testing.T) {
	ledger := filepath.Join(incidentRoot, "LEDGER.tsv")
	f, err := os.Open(ledger)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	changed := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			out = append(out, line)
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("%s: malformed line %q", ledger, line)
		}
		id := cols[0]
		got := []string{cols[0], cols[1], codes(t, filepath.Join(incidentRoot, id, "repro.py")), "n/a"}
		if fixed := filepath.Join(incidentRoot, id, "fixed", "repro.py"); fileExists(fixed) {
			got[3] = codes(t, fixed)
		}
		if got[2] != cols[2] || got[3] != cols[3] {
			changed = true
			if !*updateLedger {
				t.Errorf("%s: reported %s (fixed: %s), ledger says %s (fixed: %s)", id, got[2], got[3], cols[2], cols[3])
			}
		}
		out = append(out, strings.Join(got, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if *updateLedger && changed {
		if err := os.WriteFile(ledger, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// codes returns the sorted rule codes reported on one file, "-" for none.
func codes(t *testing.T, path string) string {
	t.Helper()
	prog, err := load([]string{path})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	set := map[string]bool{}
	for _, d := range rules.Run(prog, rules.All()) {
		set[d.Rule] = true
	}
	if len(set) == 0 {
		return "-"
	}
	var cs []string
	for c := range set {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
