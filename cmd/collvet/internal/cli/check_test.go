package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/cmd/collvet/internal/driver/drivertest"
	"github.com/collvet/collvet/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/cli")

// realFrontend and realRules are the production front end and rule list,
// for the end-to-end tests; the others use drivertest's stable ones.
var (
	realFrontend = driver.PythonFrontend
	realRules    = driver.Rules
)

// useReal switches to the real front end and rules for one test.
func useReal(t *testing.T) {
	t.Helper()
	if realFrontend == nil {
		t.Skip("the Python front end is not wired")
	}
	f, r := driver.PythonFrontend, driver.Rules
	driver.PythonFrontend, driver.Rules = realFrontend, realRules
	t.Cleanup(func() { driver.PythonFrontend, driver.Rules = f, r })
}

func TestMain(m *testing.M) {
	flag.Parse()
	realFrontend, realRules = driver.PythonFrontend, driver.Rules
	restore := drivertest.Install()
	code := m.Run()
	restore()
	os.Exit(code)
}

// repoRoot finds the module root (testdata lives there).
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// run runs collvet with args in dir and returns exit code, stdout, stderr.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "testdata", "cli", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run with -update after checking):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestFormatsGolden renders the basic project in each format.
func TestFormatsGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "github", "gitlab"} {
		t.Run(format, func(t *testing.T) {
			code, out, stderr := run(t, filepath.Join(repoRoot(t), "testdata", "cli", "basic"), "--format", format, ".")
			if code != ExitFindings {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			golden(t, "basic."+format+".golden", out)
		})
	}
}

// TestTextContents checks the behaviours the golden file records, so that
// an -update cannot silently bless a regression.
func TestTextContents(t *testing.T) {
	_, out, _ := run(t, filepath.Join(repoRoot(t), "testdata", "cli", "basic"), ".")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		"pkg/broken.py:1:",           // syntax error (CV000) …
		"pkg/broken.py:2:10: CV990 ", // … and the file's other findings
		"train.py:8:10: CV990 all_reduce called here [test-all-reduce]",  // contract shape
		"    train.py:1:1: module starts here",                           // related, indented
		"train.py:13:32: CV990 all_reduce called here [test-all-reduce]", // byte column after non-ASCII
		"train.py:18:56: CV990 all_reduce called here [test-all-reduce]", // '#' in a string is not a comment
		"train.py:19:12: CV002 suppression of CV990 silences nothing",    // unused suppression
		"train.py:20:10: CV990 all_reduce called here",                   // a reason-less suppression suppresses nothing
		"train.py:20:25: CV001 suppression without a reason",             // and is reported
	}
	for _, w := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line starting with %q in:\n%s", w, out)
		}
	}
	for _, l := range lines {
		for _, bad := range []string{"train.py:15:", "train.py:17:", "tests/test_train.py"} {
			if strings.HasPrefix(l, bad) {
				t.Errorf("suppressed or per-path-ignored finding reported: %s", l)
			}
		}
	}
}

func TestJSONShape(t *testing.T) {
	_, out, _ := run(t, filepath.Join(repoRoot(t), "testdata", "cli", "basic"), "--format=json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != float64(1) {
		t.Errorf("version = %v", doc["version"])
	}
	stats := doc["stats"].(map[string]any)
	if stats["files"] != float64(4) || stats["parse_errors"] != float64(1) {
		t.Errorf("stats = %v, want 4 files, 1 parse error", stats)
	}
	diags := doc["diagnostics"].([]any)
	keys := []string{"rule", "name", "severity", "path", "line", "column", "end_line", "end_column", "message", "related", "fixes"}
	for _, d := range diags {
		m := d.(map[string]any)
		if len(m) != len(keys) {
			t.Errorf("diagnostic has keys %v, want exactly %v", m, keys)
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("diagnostic lacks %q: %v", k, m)
			}
		}
	}
	var first map[string]any
	for _, d := range diags {
		if m := d.(map[string]any); m["path"] == "train.py" && m["line"] == float64(8) {
			first = m
		}
	}
	if first == nil {
		t.Fatalf("no finding at train.py:8:\n%s", out)
	}
	fix := first["fixes"].([]any)[0].(map[string]any)
	edit := fix["edits"].([]any)[0].(map[string]any)
	if edit["path"] != "train.py" || edit["line"] != float64(8) || edit["new_text"] != "    torch.autograd.set_multithreading_enabled(False)\n" {
		t.Errorf("edit = %v", edit)
	}
}

func TestExitCodes(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "clean.py", "x = 1\n")
	write(t, dir, "bad.py", "import torch.distributed as dist\ndist.all_reduce(t)\n")
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"clean.py"}, ExitOK, ""},
		// Nothing to analyse: a Go pattern where no module is stops, as
		// go vet does; an empty directory is only worth a warning.
		{[]string{"./..."}, ExitError, "no file was analysed"},
		{[]string{"empty"}, ExitOK, "no Python files or Go packages found under empty"},
		{[]string{"bad.py"}, ExitFindings, ""},
		{[]string{"."}, ExitFindings, ""},
		{[]string{"--select", "CV0", "."}, ExitOK, ""},
		{[]string{"--ignore", "CV990", "."}, ExitOK, ""},
		{[]string{"--ignore=test-all-reduce", "."}, ExitOK, ""},
		{[]string{".", "--ignore", "CV9"}, ExitOK, ""}, // flags after paths
		{[]string{"--severity", "error", "bad.py"}, ExitFindings, ""},
		{[]string{"missing.py"}, ExitError, "missing.py: no such file or directory"},
		{[]string{"--format", "xml", "."}, ExitError, "unknown --format"},
		{[]string{"--select", "CV7", "."}, ExitError, "selects no rule"},
		{[]string{"--select", "bogus", "."}, ExitError, "not a rule code"},
		{[]string{"--severity", "fatal", "."}, ExitError, "unknown --severity"},
		{[]string{"--no-such-flag"}, ExitError, "flag provided but not defined"},
		{[]string{"--config", "nope.toml", "."}, ExitError, "nope.toml"},
		{[]string{"--", "--weird.py"}, ExitError, "--weird.py: no such file"},
		{[]string{"--exit-zero", "bad.py"}, ExitOK, ""},
		{[]string{"--exit-zero", "missing.py"}, ExitError, "missing.py: no such file or directory"},
		{[]string{"--exit-zero", "--format", "xml", "."}, ExitError, "unknown --format"},
	}
	for _, c := range cases {
		code, _, stderr := run(t, dir, c.args...)
		if code != c.code {
			t.Errorf("collvet %v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
		}
		if c.err != "" && !strings.Contains(stderr, c.err) {
			t.Errorf("collvet %v: stderr %q lacks %q", c.args, stderr, c.err)
		}
	}
	code, out, _ := run(t, dir, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "collvet ") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// --output writes the report to a file, whole, and nothing to stdout;
// the exit status still tells whether there were findings.
func TestOutputFile(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "bad.py", "import torch.distributed as dist\ndist.all_reduce(t)\n")
	code, stdout, _ := run(t, dir, "--format", "json", "bad.py")
	if code != ExitFindings {
		t.Fatalf("reference run: exit %d", code)
	}
	write(t, dir, "report.json", "stale report that is much longer than nothing at all\n")
	code2, stdout2, stderr := run(t, dir, "--format", "json", "--output", "report.json", "bad.py")
	if code2 != ExitFindings || stdout2 != "" {
		t.Errorf("--output: exit %d, stdout %q (stderr %q)", code2, stdout2, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != stdout {
		t.Errorf("report file differs from the standard output of the same run:\n%s\n---\n%s", got, stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 { // .git, bad.py, report.json
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v: a temporary file was left behind", names)
	}
	code3, _, stderr3 := run(t, dir, "--output", filepath.Join("no", "such", "dir", "r.txt"), "bad.py")
	if code3 != ExitError || !strings.Contains(stderr3, "r.txt") {
		t.Errorf("--output into a missing directory: exit %d, stderr %q", code3, stderr3)
	}
}

func TestSeverityThresholdAndOverride(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "a.py", "dist.all_reduce(t)\n")
	write(t, dir, "collvet.toml", "[severity]\nCV990 = \"info\"\n")
	code, out, _ := run(t, dir, "--format", "json", ".")
	if code != ExitFindings || !strings.Contains(out, `"severity": "info"`) {
		t.Errorf("override: exit %d, %s", code, out)
	}
	code, out, _ = run(t, dir, "--severity", "warning", ".")
	if code != ExitOK || out != "" {
		t.Errorf("threshold: exit %d, %q", code, out)
	}
	code, _, _ = run(t, dir, "--no-config", "--severity", "warning", ".")
	if code != ExitFindings {
		t.Errorf("--no-config: exit %d, want 1", code)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		file, body, want string
	}{
		{"pyproject.toml", "[tool.collvet]\nselect = [\"CV1\"]\nbogus = 1\n", "pyproject.toml:3: tool.collvet.bogus: unknown key"},
		{"collvet.toml", "select = \"CV1\"\n", "collvet.toml:1: select: incompatible types"},
		{"collvet.toml", "\n[severity]\nCV101 = \"fatal\"\n", "collvet.toml:3: severity.CV101: severity \"fatal\""},
		{"collvet.toml", "ignore = [\"XX\"]\n", "collvet.toml:1: ignore: \"XX\" is not a rule code"},
		{"collvet.toml", "[[collective]]\nname = \"mylib.allreduce\"\nop = \"all_reduce\"\ngrp = 2\n", "collvet.toml:4: collective.grp: unknown key"},
		{"collvet.toml", "select = [\n", "collvet.toml:1: select: unexpected EOF"},
		{"collvet.toml", "[per-path-ignores]\n\"tests/[\" = [\"CV1\"]\n", "collvet.toml:2: per-path-ignores.\"tests/[\": invalid glob"},
	}
	for _, c := range cases {
		dir := tempProject(t)
		write(t, dir, c.file, c.body)
		write(t, dir, "a.py", "x = 1\n")
		code, _, stderr := run(t, dir, "a.py")
		if code != ExitError || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %q: exit %d, stderr %q, want exit 2 and %q", c.file, c.body, code, stderr, c.want)
		}
	}
	// A pyproject.toml without [tool.collvet] is not a configuration.
	dir := tempProject(t)
	write(t, dir, "pyproject.toml", "[tool.black]\nline-length = 100\n")
	write(t, dir, "a.py", "x = 1\n")
	if code, _, stderr := run(t, dir, "a.py"); code != ExitOK {
		t.Errorf("foreign pyproject: exit %d: %s", code, stderr)
	}
}

func TestConfigAPIExtension(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, "collvet.toml", "[[collective]]\nname = \"mylib.comm.allreduce\"\nop = \"all_reduce\"\nkind = \"collective\"\ngroup = { pos = 1, name = \"group\" }\n")
	write(t, dir, "a.py", "x = 1\n")
	if code, _, stderr := run(t, dir, "."); code != ExitOK {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestGitignoreAndExclude(t *testing.T) {
	dir := tempProject(t)
	write(t, dir, ".gitignore", "gen/\n*_pb2.py\n!keep_pb2.py\n")
	write(t, dir, "collvet.toml", "exclude = [\"vendor/**\"]\n")
	src := "dist.all_reduce(t)\n"
	for _, f := range []string{"a.py", "gen/g.py", "x_pb2.py", "keep_pb2.py", "vendor/v.py", "sub/.venv/lib.py", "sub/b.py"} {
		write(t, dir, f, src)
	}
	_, out, _ := run(t, dir, ".")
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if i := strings.Index(l, ":"); i > 0 {
			got[l[:i]] = true
		}
	}
	for _, f := range []string{"a.py", "keep_pb2.py", "sub/b.py"} {
		if !got[f] {
			t.Errorf("%s not analysed; output:\n%s", f, out)
		}
	}
	for _, f := range []string{"gen/g.py", "x_pb2.py", "vendor/v.py", "sub/.venv/lib.py"} {
		if got[f] {
			t.Errorf("%s analysed although ignored", f)
		}
	}
	// Named explicitly, an ignored file is analysed.
	if code, out, _ := run(t, dir, "gen/g.py", "x_pb2.py"); code != ExitFindings || !strings.Contains(out, "gen/g.py:1:6") || !strings.Contains(out, "x_pb2.py:1:6") {
		t.Errorf("explicit ignored files: exit %d\n%s", code, out)
	}
}

func TestExplainAndRules(t *testing.T) {
	code, out, _ := run(t, "", "explain", "CV001")
	if code != ExitOK || !strings.Contains(out, "CV001 (invalid-suppression)") || !strings.Contains(out, "Why is this bad") {
		t.Errorf("explain CV001: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "explain", "syntax-error")
	if code != ExitOK || !strings.HasPrefix(out, "CV000 (syntax-error)") {
		t.Errorf("explain syntax-error: %d\n%s", code, out)
	}
	if code, _, stderr := run(t, "", "explain", "CV777"); code != ExitError || !strings.Contains(stderr, "unknown rule") {
		t.Errorf("explain CV777: %d %s", code, stderr)
	}
	code, out, _ = run(t, "", "rules")
	if code != ExitOK || !strings.Contains(out, "CV002  unused-suppression") {
		t.Errorf("rules: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "rules", "--format", "json")
	var rs []map[string]any
	if err := json.Unmarshal([]byte(out), &rs); code != ExitOK || err != nil || len(rs) < 4 {
		t.Fatalf("rules json: %d %v\n%s", code, err, out)
	}
	for _, r := range rs {
		if r["code"] == "CV002" && r["fix"] != true {
			t.Errorf("CV002 fix = %v", r["fix"])
		}
		if r["code"] == "CV002" && r["lowered_severity"] != nil {
			t.Errorf("CV002 lowered_severity = %v, want none", r["lowered_severity"])
		}
	}
}

// A rule that reports its less certain findings a level lower says so in
// the listing, its explanation and the JSON (CV301's file system checks
// are warnings).
func TestRulesShowLoweredSeverity(t *testing.T) {
	code, out, _ := run(t, "", "rules")
	if code != ExitOK || !regexp.MustCompile(`(?m)^CV301 +rank-conditional-collective +error \(some warning\) `).MatchString(out) {
		t.Errorf("rules: %d\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^CV101 +collective-from-multiple-threads +error +- `).MatchString(out) {
		t.Errorf("rules: CV101 should show a single severity\n%s", out)
	}
	code, out, _ = run(t, "", "explain", "CV301")
	if code != ExitOK || !strings.Contains(out, "Default severity: error (some warning).") {
		t.Errorf("explain CV301: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "rules", "--format", "json")
	var rs []map[string]any
	if err := json.Unmarshal([]byte(out), &rs); code != ExitOK || err != nil {
		t.Fatalf("rules json: %d %v", code, err)
	}
	found := false
	for _, r := range rs {
		if r["code"] == "CV301" {
			found = true
			if r["severity"] != "error" || r["lowered_severity"] != "warning" {
				t.Errorf("CV301 json: %v", r)
			}
		}
	}
	if !found {
		t.Error("CV301 missing from rules --format json")
	}
}

// tempProject returns a temporary directory that is a repository root, so
// that configuration discovery stops there.
func tempProject(t *testing.T) string {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSummary(t *testing.T) {
	at := func(path string, sev rules.Severity, fix bool) rules.Diagnostic {
		d := rules.Diagnostic{Pos: rules.Pos{Path: path, Line: 1}, Severity: sev}
		if fix {
			d.Fixes = []rules.Fix{{Title: "fix"}}
		}
		return d
	}
	for _, tc := range []struct {
		ds   []rules.Diagnostic
		want string
	}{
		{nil, ""},
		{[]rules.Diagnostic{at("a.py", rules.Error, false)}, "collvet: 1 finding (1 error) in 1 file"},
		{[]rules.Diagnostic{at("a.py", rules.Error, true), at("a.py", rules.Warning, false), at("b.py", rules.Warning, true), at("c.go", rules.Info, false)},
			"collvet: 4 findings (1 error, 2 warnings, 1 info) in 3 files; 2 can be fixed with --fix (--diff shows how)"},
	} {
		if got := summary(tc.ds); got != tc.want {
			t.Errorf("summary = %q, want %q", got, tc.want)
		}
	}
}
