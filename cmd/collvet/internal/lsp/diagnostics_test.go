package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// Positions are UTF-16 code units: a finding after non-ASCII text on its
// line starts where the editor shows it.
func TestPublishDiagnosticsUTF16AndFields(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "pkg", "mod.py")
	// "ü" is 2 bytes / 1 unit, "😀" 4 bytes / 2 units: hazard starts at
	// byte column 16 (1-based) and UTF-16 column 11 (0-based).
	text := "import x\ns = 'ü😀'; hazard(s)\n"
	writeFile(t, path, text)
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := pathToURI(path)

	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	d := p.Diagnostics[0]
	want := Range{Start: Position{1, 11}, End: Position{1, 17}}
	if d.Range != want {
		t.Errorf("range = %+v, want %+v", d.Range, want)
	}
	if d.Severity != SeverityError || d.Code != "CV999" || d.Source != "collvet" {
		t.Errorf("severity/code/source = %d %q %q", d.Severity, d.Code, d.Source)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "#CV999") {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}
	if !strings.Contains(d.Message, "hazard() called") || !strings.Contains(d.Message, "[test-hazard]") {
		t.Errorf("message = %q", d.Message)
	}
	if len(d.RelatedInformation) != 2 || d.RelatedInformation[0].Message != "thread started here" ||
		d.RelatedInformation[0].Location.URI != uri || d.RelatedInformation[1].Location.Range.Start != (Position{1, 11}) {
		t.Errorf("relatedInformation = %+v", d.RelatedInformation)
	}
	if p.Version != nil {
		t.Errorf("file not open but version = %d", *p.Version)
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// An open document is published after every analysis, even when clean, so
// the client sees that its version was analysed; closed clean files are not.
func TestOpenCleanDocumentIsPublished(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "clean.py")
	writeFile(t, path, "x = 1\n")
	writeFile(t, filepath.Join(root, "other.py"), "y = 1\n")
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "x = 1\n")
	v := c.change(uri, TextDocumentContentChangeEvent{Text: "x = 2\n"})
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == v })
	if len(p.Diagnostics) != 0 || p.Diagnostics == nil {
		t.Errorf("clean open document: diagnostics = %#v, want an empty list", p.Diagnostics)
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
	for {
		select {
		case q := <-c.diags:
			if q.URI == pathToURI(filepath.Join(root, "other.py")) {
				t.Errorf("clean closed file published: %+v", q)
			}
			continue
		default:
		}
		break
	}
}

func TestDiagnosticsClearWhenFixed(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "hazard(1)\n")
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	c.change(uri, TextDocumentContentChangeEvent{Text: "pass\n"})
	// The file had findings: an empty list is published for it.
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// A panicking analysis is logged to the client and the server goes on.
func TestPanicInAnalysisIsRecovered(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "PANIC\n")
	for m := range c.logs {
		if m.Type == MessageError && strings.Contains(m.Message, "PANIC") {
			break
		}
	}
	c.change(uri, TextDocumentContentChangeEvent{Text: "hazard(2)\n"})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// An edit cancels the analysis in flight; only the newest state is
// published.
func TestNewEditCancelsRunningAnalysis(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "pass\n")
	fa := &fakeAnalyzer{block: make(chan struct{})}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "hazard(1)\n")
	// Wait until an analysis is blocked in the analyzer.
	for {
		fa.mu.Lock()
		n := len(fa.requests)
		fa.mu.Unlock()
		if n > 0 {
			break
		}
		select {
		case <-c.done:
			t.Fatal("server stopped")
		default:
		}
	}
	v := c.change(uri, TextDocumentContentChangeEvent{Text: "hazard(1)\nhazard(2)\n"})
	// Let the newest analysis through.
	fa.mu.Lock()
	close(fa.block)
	fa.block = nil
	fa.mu.Unlock()
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == v })
	if len(p.Diagnostics) != 2 {
		t.Errorf("newest state has 2 findings, published %d", len(p.Diagnostics))
	}
	// No publish for the stale version 1 came before it.
	select {
	case q := <-c.diags:
		t.Errorf("unexpected extra publish %+v", q)
	default:
	}
}

func TestIgnored(t *testing.T) {
	d := rules.Diagnostic{Rule: "CV401", Name: "unwaited-async-work"}
	for _, tc := range []struct {
		ignore []string
		want   bool
	}{
		{nil, false},
		{[]string{"CV401"}, true},
		{[]string{"cv4"}, true},
		{[]string{"CV40", ""}, true},
		{[]string{"unwaited-async-work"}, true},
		{[]string{"CV402", "CV1"}, false},
		{[]string{" "}, false},
	} {
		if got := ignored(d, tc.ignore); got != tc.want {
			t.Errorf("ignored(%v) = %v, want %v", tc.ignore, got, tc.want)
		}
	}
}

func TestToRangeWithoutEnd(t *testing.T) {
	m := newMapper("ab\n  hazard(1)\n")
	r := toRange(m, rulesPos(2, 3, 0, 0))
	if r != (Range{Start: Position{1, 2}, End: Position{1, 11}}) {
		t.Errorf("range without end = %+v", r)
	}
	// An end before the start is treated as unknown.
	r = toRange(m, rulesPos(2, 3, 1, 1))
	if r.End != (Position{1, 11}) {
		t.Errorf("range with inverted end = %+v", r)
	}
}

// analyzerErr reports an error: the error is logged, nothing published.
func TestAnalysisErrorIsLogged(t *testing.T) {
	c := newClient(t, Options{Analyzer: AnalyzerFunc(func(context.Context, Request) (*Result, error) {
		return nil, errBroken
	})})
	c.initialize(t.TempDir(), ClientCapabilities{})
	for m := range c.logs {
		if m.Type == MessageError && strings.Contains(m.Message, "broken config") {
			break
		}
	}
	select {
	case m := <-c.shown:
		if m.Type != MessageError || m.Message != "collvet: broken config" {
			t.Errorf("showMessage = %+v", m)
		}
	case <-time.After(10 * time.Second):
		t.Error("analysis error not shown to the user")
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

func TestUnusedSuppressionIsTaggedUnnecessary(t *testing.T) {
	s := NewServer(Options{Analyzer: &fakeAnalyzer{}})
	mapper := func(string) *textpos.Mapper { return newMapper("x = 1  # collvet: ignore[CV101] r\n") }
	d := s.toProtocol(rules.Diagnostic{Rule: "CV002", Name: "unused-suppression", Severity: rules.Warning,
		Pos: rules.Pos{Path: "x.py", Line: 1, Col: 8, EndLine: 1, EndCol: 34}}, mapper)
	if len(d.Tags) != 1 || d.Tags[0] != TagUnnecessary || d.Severity != SeverityWarning {
		t.Errorf("CV002: tags %v severity %d", d.Tags, d.Severity)
	}
	d = s.toProtocol(rules.Diagnostic{Rule: "CV999", Name: "test-hazard", Pos: rules.Pos{Path: "x.py", Line: 1, Col: 1}}, mapper)
	if d.Tags != nil {
		t.Errorf("CV999 tagged %v", d.Tags)
	}
}

func (f *fakeAnalyzer) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// Opening a workspace file whose text is what is on disk publishes the
// findings of the analysis already made, with the document's version,
// and does not analyse the workspace again.
func TestOpenUnchangedFileReusesAnalysis(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	uri := pathToURI(path)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version == nil && len(p.Diagnostics) == 1 })
	before := fa.calls()

	c.open(path, "hazard(1)\n")
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 1 })
	if len(p.Diagnostics) != 1 {
		t.Errorf("diagnostics on open = %+v, want the analysis's finding", p.Diagnostics)
	}
	time.Sleep(50 * time.Millisecond) // several debounce periods
	if n := fa.calls(); n != before {
		t.Errorf("analyses after opening an unchanged file: %d, want %d", n, before)
	}

	// A buffer that differs from the disk is analysed as usual.
	other := filepath.Join(root, "b.py")
	writeFile(t, other, "pass\n")
	c.open(other, "hazard(2)\n")
	c.waitDiags(pathToURI(other), func(p PublishDiagnosticsParams) bool {
		return p.Version != nil && *p.Version == 1 && len(p.Diagnostics) == 1
	})
	if n := fa.calls(); n == before {
		t.Error("opening a modified buffer did not analyse it")
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// A file opened while the workspace's first analysis runs does not cancel
// it: that analysis publishes the document, with its version.
func TestOpenUnchangedFileDuringFirstAnalysis(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	block := make(chan struct{})
	fa := &fakeAnalyzer{block: block}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	deadline := time.Now().Add(5 * time.Second)
	for fa.calls() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	uri := c.open(path, "hazard(1)\n")
	time.Sleep(50 * time.Millisecond)
	close(block)
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 1 })
	if len(p.Diagnostics) != 1 {
		t.Errorf("diagnostics = %+v", p.Diagnostics)
	}
	if n := fa.calls(); n != 1 {
		t.Errorf("%d analyses, want 1 (the open must not restart the first)", n)
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// A clean document opened while the first analysis runs gets an empty
// publish for its version once that analysis ends (it is in neither the
// new findings nor the previous ones), and the server stays up.
func TestOpenCleanFileDuringFirstAnalysis(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "clean.py")
	writeFile(t, path, "x = 1\n")
	writeFile(t, filepath.Join(root, "b.py"), "hazard(1)\n")
	block := make(chan struct{})
	fa := &fakeAnalyzer{block: block}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	deadline := time.Now().Add(5 * time.Second)
	for fa.calls() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	uri := c.open(path, "x = 1\n")
	time.Sleep(50 * time.Millisecond)
	close(block)
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 1 })
	if len(p.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v", p.Diagnostics)
	}
	var hover *Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{}}, &hover); err != nil {
		t.Errorf("server gone after the publish: %v", err)
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// The workspace's first analysis, right after initialized, waits for no
// typing: with an hour's debounce, the opened file's diagnostics arrive.
func TestFirstAnalysisNotDebounced(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	c := newClient(t, Options{Debounce: time.Hour})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "hazard(1)\n")
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
}

// An edit that changes no code (Options.Unchanged) is analysed at once:
// with an hour's debounce, its diagnostics still arrive; a code edit after
// it waits for the debounce again.
func TestUnchangedEditSkipsDebounce(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	var mu sync.Mutex
	cheap := true
	c := newClient(t, Options{Debounce: time.Hour, Unchanged: func(p string, text []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		return cheap && p == path && strings.HasPrefix(string(text), "hazard(1)")
	}})
	c.initialize(root, ClientCapabilities{})
	// The workspace's first analysis runs at once (TestFirstAnalysisNotDebounced);
	// the cheap edit after it is analysed at once too.
	uri := c.open(path, "hazard(1)\n")
	v := c.change(uri, TextDocumentContentChangeEvent{Text: "hazard(1)  # a comment\n"})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == v })
	mu.Lock()
	cheap = false
	mu.Unlock()
	c.change(uri, TextDocumentContentChangeEvent{Text: "hazard(1)\nhazard(2)\n"})
	select {
	case p := <-c.diags:
		if p.URI == uri && len(p.Diagnostics) == 2 {
			t.Errorf("a code edit was analysed before the debounce: %+v", p)
		}
	case <-time.After(300 * time.Millisecond):
	}
}
