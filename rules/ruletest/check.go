package ruletest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
)

// Loader builds a Program from files or directories (the Python front
// end: pyfront.Load(paths, pyfront.Options{}).Program).
type Loader func(paths []string) (*rules.Program, error)

// Want is one expectation: a finding of Code on Line whose message matches Re.
type Want struct {
	Path string
	Line int
	Code string
	Re   *regexp.Regexp
}

var (
	wantLineRE = regexp.MustCompile(`#\s*want\s+(.*)$`)
	wantItemRE = regexp.MustCompile(`(CV\d{3})\s+"((?:[^"\\]|\\.)*)"`)
)

// ParseWants reads the `# want CV101 "regex"` markers of a file. A line may
// hold several (`# want CV101 "a" CV103 "b"`).
func ParseWants(path string, src []byte) ([]Want, error) {
	var out []Want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		items := wantItemRE.FindAllStringSubmatch(m[1], -1)
		if len(items) == 0 {
			return nil, fmt.Errorf("%s:%d: malformed want marker %q", path, i+1, m[0])
		}
		for _, it := range items {
			re, err := regexp.Compile(strings.ReplaceAll(it[2], `\"`, `"`))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
			out = append(out, Want{Path: path, Line: i + 1, Code: it[1], Re: re})
		}
	}
	return out, nil
}

// Units lists the analysis units of a fixture directory: each top-level
// .py file is a program of its own, and so is each subdirectory (for
// shapes that span modules), except fix/ (golden fix fixtures).
func Units(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir() && e.Name() != "fix":
			out = append(out, p)
		case !e.IsDir() && strings.HasSuffix(e.Name(), ".py"):
			out = append(out, p)
		}
	}
	return out, nil
}

// Check analyses each unit of dir (see Units) with load, runs every
// registered rule and compares the findings whose code is in codes with
// the markers of the unit's .py files: every want must be matched by a
// finding on its line, and every finding must be wanted.
func Check(t *testing.T, dir string, load Loader, codes ...string) {
	t.Helper()
	units, err := Units(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(units) == 0 {
		t.Fatalf("%s: no fixtures", dir)
	}
	for _, u := range units {
		checkUnit(t, u, load, codes)
	}
}

func checkUnit(t *testing.T, unit string, load Loader, codes []string) {
	t.Helper()
	prog, err := load([]string{unit})
	if err != nil {
		t.Fatalf("load %s: %v", unit, err)
	}
	sel := map[string]bool{}
	for _, c := range codes {
		sel[c] = true
	}
	var ds []rules.Diagnostic
	for _, d := range rules.Run(prog, rules.All()) {
		if sel[d.Rule] {
			ds = append(ds, d)
		}
	}
	var wants []Want
	err = filepath.WalkDir(unit, func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(path, ".py") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		w, err := ParseWants(path, src)
		wants = append(wants, w...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	used := make([]bool, len(ds))
	for _, w := range wants {
		if !sel[w.Code] {
			continue
		}
		found := false
		for i, d := range ds {
			if !used[i] && d.Rule == w.Code && d.Pos.Line == w.Line && samePath(d.Pos.Path, w.Path) && w.Re.MatchString(d.Message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			var near []string
			for _, d := range ds {
				if samePath(d.Pos.Path, w.Path) && d.Pos.Line == w.Line {
					near = append(near, d.Rule+" "+d.Message)
				}
			}
			t.Errorf("%s:%d: missing %s matching %q (findings on that line: %q)", w.Path, w.Line, w.Code, w.Re, near)
		}
	}
	for i, d := range ds {
		if !used[i] {
			t.Errorf("%s: unexpected %s %s", d.Pos, d.Rule, d.Message)
		}
	}
}

func samePath(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

// CheckFixes applies, for every .py file under dir that has a golden file
// beside it (x.py.golden), every fix of code's findings in that file, and
// checks that the result equals the golden text, that parse accepts it,
// and that re-analysing it shows no finding of code with a fix. With
// update set, it writes the golden files instead.
func CheckFixes(t *testing.T, dir string, load Loader, parse func(path string, src []byte) error, code string, update bool) {
	t.Helper()
	prog, err := load([]string{dir})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	byFile := map[string][]rules.Edit{}
	for _, d := range rules.Run(prog, rules.All()) {
		if d.Rule != code || len(d.Fixes) == 0 {
			continue
		}
		for _, e := range d.Fixes[0].Edits {
			byFile[filepath.Clean(e.Pos.Path)] = append(byFile[filepath.Clean(e.Pos.Path)], e)
		}
	}
	goldens, _ := filepath.Glob(filepath.Join(dir, "*.py.golden"))
	if len(goldens) == 0 && !update {
		t.Fatalf("%s: no golden files", dir)
	}
	var files []string
	if update {
		for f := range byFile {
			files = append(files, f)
		}
	} else {
		for _, g := range goldens {
			files = append(files, filepath.Clean(strings.TrimSuffix(g, ".golden")))
		}
	}
	sort.Strings(files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		edits := dedupe(byFile[f])
		if len(edits) == 0 {
			t.Errorf("%s: no %s fixes offered", f, code)
			continue
		}
		out, err := Apply(src, edits)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if update {
			if err := os.WriteFile(f+".golden", out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, _ := os.ReadFile(f + ".golden")
		if !bytes.Equal(out, want) {
			t.Errorf("%s: fixed text differs from golden:\n--- got\n%s\n--- want\n%s", f, out, want)
		}
		if err := parse(f, out); err != nil {
			t.Errorf("%s: fixed file does not parse: %v", f, err)
		}
		tmp := filepath.Join(t.TempDir(), filepath.Base(f))
		if err := os.WriteFile(tmp, out, 0o644); err != nil {
			t.Fatal(err)
		}
		p2, err := load([]string{tmp})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rules.Run(p2, rules.All()) {
			if d.Rule == code {
				t.Errorf("%s: after the fix, still %s at line %d: %s", f, code, d.Pos.Line, d.Message)
			}
		}
	}
}

// dedupe drops identical edits (one fix offered by several findings, such
// as CV102's insertion after init_process_group).
func dedupe(es []rules.Edit) []rules.Edit {
	seen := map[rules.Edit]bool{}
	var out []rules.Edit
	for _, e := range es {
		e.Pos.Path = filepath.Clean(e.Pos.Path)
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
