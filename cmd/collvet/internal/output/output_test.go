package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/rules"
)

func schemaPath(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "testdata", "sarif", "sarif-2.1.0.json")
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// sampleReport has a finding on a line with non-ASCII text before the call,
// a related location, a fix with an insertion and a replacement, and a file
// error.
func sampleReport(src string, line int) *driver.Report {
	file := &rules.File{Path: "pkg/train.py", Lang: rules.Python, Src: []byte(src)}
	lines := strings.Split(src, "\n")
	col := strings.Index(lines[line-1], "all_reduce") + 1
	return &driver.Report{
		Files: []*rules.File{file},
		Diagnostics: []rules.Diagnostic{{
			Rule: driver.UnusedSuppression.Code, Name: driver.UnusedSuppression.Name, Severity: rules.Warning,
			Pos:     rules.Pos{Path: "pkg/train.py", Line: line, Col: col, EndLine: line, EndCol: col + 10},
			Message: "a message with \"quotes\" and a newline\nsecond line",
			Related: []rules.Related{{Pos: rules.Pos{Path: "pkg/train.py", Line: 1, Col: 1}, Message: "spawned here"}},
			Fixes: []rules.Fix{{Title: "Insert a line", Edits: []rules.Edit{
				{Pos: rules.Pos{Path: "pkg/train.py", Line: line, Col: 1, EndLine: line, EndCol: 1}, NewText: "x = 1\n"},
				{Pos: rules.Pos{Path: "pkg/train.py", Line: line, Col: col, EndLine: line, EndCol: col + 10}, NewText: ""},
			}}},
		}},
		Errors: []driver.FileError{{Path: "pkg/data.bin.py", Msg: "binary file", Kind: "binary"}},
		Stats:  driver.Stats{Files: 1},
	}
}

const sampleSrc = "import torch.distributed as dist\nx = 'é𝄞'; dist.all_reduce(t)\n"

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	s := compileSchema(t)
	var buf bytes.Buffer
	if err := SARIF(&buf, sampleReport(sampleSrc, 2), Options{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, s, buf.Bytes()); err != nil {
		t.Fatalf("SARIF output does not validate: %v\n%s", err, buf.String())
	}
	// The validator is not vacuous: a broken log fails.
	broken := strings.Replace(buf.String(), `"level": "warning"`, `"level": "fatal"`, 1)
	if err := validate(t, s, []byte(broken)); err == nil {
		t.Error("a log with level \"fatal\" validated")
	}
	var empty bytes.Buffer
	if err := SARIF(&empty, &driver.Report{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, s, empty.Bytes()); err != nil {
		t.Errorf("empty SARIF log does not validate: %v", err)
	}
}

type sarifDoc struct {
	Runs []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine, StartColumn, EndColumn int
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations    []json.RawMessage `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Fixes               []json.RawMessage `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

func sarifOf(t *testing.T, rep *driver.Report) sarifDoc {
	t.Helper()
	var buf bytes.Buffer
	if err := SARIF(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	var d sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSARIFContents(t *testing.T) {
	d := sarifOf(t, sampleReport(sampleSrc, 2))
	run := d.Runs[0]
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind = %q", run.ColumnKind)
	}
	r := run.Results[0]
	if r.RuleID != "CV002" || run.Tool.Driver.Rules[r.RuleIndex].ID != "CV002" {
		t.Errorf("ruleId %s, ruleIndex %d", r.RuleID, r.RuleIndex)
	}
	if !strings.Contains(run.Tool.Driver.Rules[r.RuleIndex].Help.Text, "Why is this bad") {
		t.Error("rule help does not render the rule's documentation")
	}
	loc := r.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "pkg/train.py" {
		t.Errorf("uri = %q", loc.ArtifactLocation.URI)
	}
	// "x = 'é𝄞'; dist." is 19 bytes (é 2, 𝄞 4) but 16 UTF-16 units (é 1, 𝄞 2).
	if loc.Region.StartColumn != 17 || loc.Region.EndColumn != 27 {
		t.Errorf("UTF-16 columns = %d..%d, want 17..27", loc.Region.StartColumn, loc.Region.EndColumn)
	}
	if len(r.RelatedLocations) != 1 || len(r.Fixes) != 1 {
		t.Errorf("related %d, fixes %d", len(r.RelatedLocations), len(r.Fixes))
	}
}

func TestSARIFFingerprintSurvivesLineShift(t *testing.T) {
	a := sarifOf(t, sampleReport(sampleSrc, 2))
	shifted := "# a new comment\n\n" + sampleSrc
	b := sarifOf(t, sampleReport(shifted, 4))
	fa := a.Runs[0].Results[0].PartialFingerprints[FingerprintKey]
	fb := b.Runs[0].Results[0].PartialFingerprints[FingerprintKey]
	if fa == "" || fa != fb {
		t.Errorf("fingerprint changed with a line shift: %q vs %q", fa, fb)
	}
	changed := strings.Replace(sampleSrc, "dist.all_reduce(t)", "dist.all_reduce(u)", 1)
	c := sarifOf(t, sampleReport(changed, 2))
	if fc := c.Runs[0].Results[0].PartialFingerprints[FingerprintKey]; fc == fa {
		t.Error("fingerprint did not change when the flagged line changed")
	}
}

func TestGitHubEscaping(t *testing.T) {
	var buf bytes.Buffer
	rep := sampleReport(sampleSrc, 2)
	rep.Diagnostics[0].Pos.Path = "dir,with:odd%chars.py"
	if err := GitHub(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := "::warning file=dir%2Cwith%3Aodd%25chars.py,line=2,col=20,endLine=2,endColumn=30,title=CV002 unused-suppression::a message with \"quotes\" and a newline%0Asecond line%0A  pkg/train.py:1:1: spawned here\n"
	// The file is not in the report under that name, so columns stay bytes.
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestGitLabCodeQuality(t *testing.T) {
	gitlabOf := func(rep *driver.Report) []map[string]any {
		t.Helper()
		var buf bytes.Buffer
		if err := GitLab(&buf, rep, Options{}); err != nil {
			t.Fatal(err)
		}
		var issues []map[string]any
		if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
			t.Fatalf("not a JSON array: %v\n%s", err, buf.String())
		}
		return issues
	}
	rep := sampleReport(sampleSrc, 2)
	issues := gitlabOf(rep)
	if len(issues) != 1 {
		t.Fatalf("%d issues, want 1", len(issues))
	}
	is := issues[0]
	// The fields GitLab requires, with collvet's values.
	for k, want := range map[string]any{"check_name": "CV002 unused-suppression", "severity": "major"} {
		if is[k] != want {
			t.Errorf("%s = %v, want %v", k, is[k], want)
		}
	}
	loc, _ := is["location"].(map[string]any)
	lines, _ := loc["lines"].(map[string]any)
	if loc["path"] != "pkg/train.py" || lines["begin"] != float64(2) {
		t.Errorf("location = %v", loc)
	}
	desc, _ := is["description"].(string)
	if !strings.HasPrefix(desc, "CV002 a message") || !strings.Contains(desc, "pkg/train.py:1: spawned here") {
		t.Errorf("description = %q", desc)
	}
	// One finding, one identity: the fingerprint is SARIF's, and it
	// survives a line shift.
	if fs := sarifOf(t, rep).Runs[0].Results[0].PartialFingerprints[FingerprintKey]; is["fingerprint"] != fs {
		t.Errorf("fingerprint %v, SARIF's %v", is["fingerprint"], fs)
	}
	shifted := gitlabOf(sampleReport("# a new comment\n\n"+sampleSrc, 4))
	if shifted[0]["fingerprint"] != is["fingerprint"] {
		t.Error("fingerprint changed with a line shift")
	}
	// No findings: an empty array, not null (GitLab rejects null).
	var buf bytes.Buffer
	if err := GitLab(&buf, &driver.Report{}, Options{}); err != nil || strings.TrimSpace(buf.String()) != "[]" {
		t.Errorf("empty report: %q, %v", buf.String(), err)
	}
	if gitlabSeverity(rules.Error) != "critical" || gitlabSeverity(rules.Info) != "minor" {
		t.Error("severity scale")
	}
}

func TestTextColour(t *testing.T) {
	rep := sampleReport(sampleSrc, 2)
	var plain, col bytes.Buffer
	Text(&plain, rep, Options{})
	Text(&col, rep, Options{Color: true})
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("colour without Color")
	}
	if !strings.Contains(col.String(), "\x1b[") {
		t.Error("no colour with Color")
	}
	if !strings.HasPrefix(plain.String(), "pkg/train.py:2:20: CV002 a message") {
		t.Errorf("text = %q", plain.String())
	}
}

func TestJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	JSON(&buf, &driver.Report{})
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if d, ok := got["diagnostics"].([]any); !ok || len(d) != 0 {
		t.Errorf("diagnostics = %v, want []", got["diagnostics"])
	}
}
