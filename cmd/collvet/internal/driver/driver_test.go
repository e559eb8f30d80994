package driver

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/config"
	"github.com/collvet/collvet/rules"
)

// synthRule reports one finding per line containing "HAZARD" in every file.
var synthRule = &rules.Rule{Code: "CV101", Name: "collective-from-multiple-threads", Severity: rules.Error, Run: func(p *rules.Pass) {
	for _, f := range p.Prog.Files {
		for i, l := range strings.Split(string(f.Src), "\n") {
			if c := strings.Index(l, "HAZARD"); c >= 0 {
				p.Reportf(rules.Pos{Path: f.Path, Line: i + 1, Col: c + 1}, "hazard")
			}
		}
	}
}}

// inject makes the Python front end return files (in the given order)
// and errors, and the rule list synthRule plus the driver's codes.
func inject(t *testing.T, files []*rules.File, errs []FileError) {
	t.Helper()
	oldF, oldR := PythonFrontend, Rules
	PythonFrontend = func(ctx context.Context, paths []string, opts PyOptions) (*PyResult, error) {
		return &PyResult{Program: &rules.Program{Files: files}, Errors: errs, Files: len(files)}, nil
	}
	Rules = func() []*rules.Rule {
		if rules.Lookup("CV101") == nil {
			return []*rules.Rule{SyntaxError, InvalidSuppression, UnusedSuppression}
		}
		return []*rules.Rule{SyntaxError, InvalidSuppression, UnusedSuppression, synthRule}
	}
	t.Cleanup(func() { PythonFrontend, Rules = oldF, oldR })
}

func analyze(t *testing.T, cfg *config.Config) *Report {
	t.Helper()
	if cfg == nil {
		cfg = &config.Config{}
	}
	rep, err := Analyze(context.Background(), Request{Paths: []string{t.TempDir()}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func codesAt(rep *Report) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, fmt.Sprintf("%s:%d:%d %s", d.Pos.Path, d.Pos.Line, d.Pos.Col, d.Rule))
	}
	return out
}

func TestDeterministicOrder(t *testing.T) {
	if rules.Lookup("CV101") == nil {
		rules.Register(synthRule)
	}
	var files []*rules.File
	for i := 0; i < 20; i++ {
		files = append(files, &rules.File{Path: fmt.Sprintf("m%02d.py", i), Lang: rules.Python, Src: []byte("x\nHAZARD\n  HAZARD\n")})
	}
	var first []string
	for round := 0; round < 5; round++ {
		shuffled := append([]*rules.File(nil), files...)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		inject(t, shuffled, nil)
		got := codesAt(analyze(t, nil))
		if round == 0 {
			first = got
			if len(got) != 40 || got[0] != "m00.py:2:1 CV101" || got[1] != "m00.py:3:3 CV101" {
				t.Fatalf("unexpected findings: %v", got)
			}
			continue
		}
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("order depends on the front end's order:\n%v\n%v", got, first)
		}
	}
}

func TestSuppressionsPythonAndGo(t *testing.T) {
	if rules.Lookup("CV101") == nil {
		rules.Register(synthRule)
	}
	py := &rules.File{Path: "a.py", Lang: rules.Python, Src: []byte(strings.Join([]string{
		"HAZARD  # collvet: ignore[CV101] joined before use", // 1 suppressed
		"# collvet: ignore[CV1] prefix, next line",           // 2 covers 3
		"HAZARD", // 3 suppressed
		"s = '# collvet: ignore[CV101] in a string'; HAZARD",            // 4 reported
		"HAZARD  # collvet: ignore[CV101]",                              // 5 reported + CV001
		"HAZARD  # collvet: ignore[CV999] unknown code",                 // 6 reported + CV001
		"x = 1  # collvet: ignore[CV101] stale",                         // 7 CV002
		"HAZARD  # collvet: ignore[CV101, CV000] only CV101 is used",    // 8 suppressed, CV002 for CV000
		"HAZARD  # collvet:ignore CV101 Go syntax is not Python syntax", // 9 reported + CV001
		"",
	}, "\n"))}
	gosrc := &rules.File{Path: "b.go", Lang: rules.Go, Src: []byte(strings.Join([]string{
		"package b",
		"func f() { HAZARD() } //collvet:ignore CV101 locked thread",            // 2 suppressed
		"//collvet:ignore CV101 next line",                                      // 3 covers 4
		"func g() { HAZARD() }",                                                 // 4 suppressed
		"var s = \"//collvet:ignore CV101 in a string\"; func h() { HAZARD() }", // 5 reported
		"func k() { HAZARD() } //collvet:ignore CV101",                          // 6 reported + CV001
		"/* //collvet:ignore CV101 block comment */ func m() { HAZARD() }",      // 7 reported
		"",
	}, "\n"))}
	inject(t, []*rules.File{py, gosrc}, nil)
	got := codesAt(analyze(t, nil))
	want := []string{
		"a.py:4:45 CV101",
		"a.py:5:1 CV101", "a.py:5:9 CV001",
		"a.py:6:1 CV101", "a.py:6:9 CV001",
		"a.py:7:8 CV002",
		"a.py:8:9 CV002",
		"a.py:9:1 CV101", "a.py:9:9 CV001",
		"b.go:5:58 CV101",
		"b.go:6:12 CV101", "b.go:6:23 CV001",
		"b.go:7:55 CV101",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Unused-suppression checks only rules that ran.
	for _, d := range analyze(t, &config.Config{Ignore: []string{"CV101"}}).Diagnostics {
		if d.Rule == "CV002" && strings.Contains(d.Message, "CV101") {
			t.Errorf("CV002 reported for CV101 although CV101 did not run: %v", d)
		}
	}
}

func TestFileSuppressions(t *testing.T) {
	if rules.Lookup("CV101") == nil {
		rules.Register(synthRule)
	}
	covered := &rules.File{Path: "gen.py", Lang: rules.Python, Src: []byte(strings.Join([]string{
		"# collvet: file-ignore[CV101] generated: every rank runs the same schedule",
		"HAZARD", // 2 suppressed
		"x = 1",
		"HAZARD  # collvet: ignore[CV101] a line directive is still used", // 4 suppressed
		"",
	}, "\n"))}
	stale := &rules.File{Path: "stale.py", Lang: rules.Python, Src: []byte(strings.Join([]string{
		"x = 1",
		"y = 2  # collvet: file-ignore[CV101] trailing, and nothing to silence", // CV002
		"",
	}, "\n"))}
	broken := &rules.File{Path: "broken.py", Lang: rules.Python, Src: []byte(strings.Join([]string{
		"# collvet: file-ignore[CV101]",                      // CV001: no reason
		"# collvet: ignore-file[CV101] the other word order", // CV001 with a hint
		"HAZARD", // reported: the directives above are broken
		"",
	}, "\n"))}
	gosrc := &rules.File{Path: "c.go", Lang: rules.Go, Src: []byte(strings.Join([]string{
		"package c",
		"func f() { HAZARD() }", // suppressed by the directive below it
		"//collvet:file-ignore CV1 cgo test fixture",
		"func g() { HAZARD() }", // suppressed
		"",
	}, "\n"))}
	inject(t, []*rules.File{covered, stale, broken, gosrc}, nil)
	rep := analyze(t, nil)
	got := codesAt(rep)
	want := []string{
		"broken.py:1:1 CV001",
		"broken.py:2:1 CV001",
		"broken.py:3:1 CV101",
		"stale.py:2:8 CV002",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range rep.Diagnostics {
		switch {
		case d.Rule == "CV002":
			if !strings.Contains(d.Message, "silences nothing in this file") || len(d.Fixes) != 1 {
				t.Errorf("unused file-level directive: %q, %d fixes", d.Message, len(d.Fixes))
			}
		case d.Pos.Path == "broken.py" && d.Pos.Line == 2:
			if !strings.Contains(d.Message, "file-ignore[CV101] reason") {
				t.Errorf("misspelt directive gives no hint: %q", d.Message)
			}
		}
	}
}

// A recovering parser's follow-on errors on the same line are one CV000;
// errors on other lines are their own.
func TestOneSyntaxErrorPerLine(t *testing.T) {
	if rules.Lookup("CV101") == nil {
		rules.Register(synthRule)
	}
	errs := []FileError{
		{Path: "bad.py", Line: 1, Col: 11, Msg: "'(' was never closed", Kind: "syntax"},
		{Path: "bad.py", Line: 1, Col: 12, Msg: "invalid syntax: expected name", Kind: "syntax"},
		{Path: "bad.py", Line: 7, Col: 3, Msg: "invalid syntax", Kind: "syntax"},
	}
	inject(t, nil, errs)
	got := codesAt(analyze(t, nil))
	want := []string{"bad.py:1:11 CV000", "bad.py:7:3 CV000"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

func TestConfigFiltering(t *testing.T) {
	if rules.Lookup("CV101") == nil {
		rules.Register(synthRule)
	}
	files := []*rules.File{
		{Path: "src/a.py", Lang: rules.Python, Src: []byte("HAZARD\n")},
		{Path: "tests/t.py", Lang: rules.Python, Src: []byte("HAZARD\n")},
	}
	errs := []FileError{{Path: "src/bad.py", Line: 3, Col: 4, Msg: "invalid syntax", Kind: "syntax"}, {Path: "big.py", Msg: "too large", Kind: "too-large"}}
	inject(t, files, errs)
	wd, _ := os.Getwd()
	cfg := &config.Config{Root: wd, PerPathIgnores: []config.PathIgnore{{Glob: "tests/**", Codes: []string{"CV1"}}},
		Severity: map[string]rules.Severity{"CV101": rules.Info}}
	rep := analyze(t, cfg)
	got := codesAt(rep)
	want := []string{"src/a.py:1:1 CV101", "src/bad.py:3:4 CV000"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
	if rep.Diagnostics[0].Severity != rules.Info || rep.Diagnostics[1].Severity != rules.Error {
		t.Errorf("severities %v %v", rep.Diagnostics[0].Severity, rep.Diagnostics[1].Severity)
	}
	if rep.Stats.ParseErrors != 1 || len(rep.Errors) != 2 {
		t.Errorf("stats %+v errors %v", rep.Stats, rep.Errors)
	}
	if got := codesAt(analyze(t, &config.Config{Select: []string{"CV0"}})); !reflect.DeepEqual(got, []string{"src/bad.py:3:4 CV000"}) {
		t.Errorf("select CV0: %v", got)
	}
	if got := codesAt(analyze(t, &config.Config{Ignore: []string{"syntax-error", "CV1"}})); len(got) != 0 {
		t.Errorf("ignore all: %v", got)
	}
}

func TestMissingPathAndGoWithoutFrontend(t *testing.T) {
	_, err := Analyze(context.Background(), Request{Paths: []string{filepath.Join(t.TempDir(), "nope.py")}, Config: &config.Config{}})
	if _, ok := err.(*PathError); !ok {
		t.Errorf("missing path: %v", err)
	}
	old := GoFrontend
	GoFrontend = nil
	defer func() { GoFrontend = old }()
	if _, err := Analyze(context.Background(), Request{Paths: []string{"./..."}, Config: &config.Config{}}); err == nil || !strings.Contains(err.Error(), "Go front end") {
		t.Errorf("Go pattern without front end: %v", err)
	}
}

func TestGitignoreParsing(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("# comment\n/build\n*.gen.py\n!keep.gen.py\ndocs/\\#odd.py\nlogs/\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub", "build"), 0o755)
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	os.WriteFile(filepath.Join(dir, "logs2"), nil, 0o644)
	e := newExcluder(nil, []string{dir})
	cases := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"build", true, true},
		{"sub/build", true, false}, // anchored by the leading slash
		{"x.gen.py", false, true},
		{"sub/y.gen.py", false, true},
		{"keep.gen.py", false, false},
		{"docs/#odd.py", false, true},
		{"logs", true, true},
		{"logs", false, false}, // dir-only pattern
		{"build/inner.py", false, true},
		{"a.py", false, false},
		{"sub/.venv", true, true}, // default exclude
	}
	for _, c := range cases {
		if got := e.Exclude(filepath.Join(dir, c.path), c.isDir); got != c.want {
			t.Errorf("Exclude(%s, dir=%v) = %v, want %v", c.path, c.isDir, got, c.want)
		}
	}
}
