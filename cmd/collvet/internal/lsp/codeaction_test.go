package lsp

import (
	"path/filepath"
	"sort"
	"testing"
)

// The full loop: a finding, its quick fix, the fix applied by the editor
// (as an incremental change), the finding gone.
func TestCodeActionQuickFixClearsDiagnostic(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "train.py")
	text := "# ünïcode ✓\nα = 1; hazard(α)\n"
	writeFile(t, path, text)
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, text)
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	d := p.Diagnostics[0]

	// A cursor inside the finding.
	var actions []CodeAction
	cursor := Range{Start: Position{1, d.Range.Start.Character + 2}, End: Position{1, d.Range.Start.Character + 2}}
	err := c.call("textDocument/codeAction", CodeActionParams{
		TextDocument: TextDocumentIdentifier{URI: uri},
		Range:        cursor,
		Context:      CodeActionContext{Diagnostics: p.Diagnostics},
	}, &actions)
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 {
		t.Fatalf("actions = %+v, want 1", actions)
	}
	a := actions[0]
	if a.Kind != CodeActionKindQuickFix || !a.IsPreferred || a.Title != "Call safe instead (CV999)" ||
		len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "CV999" {
		t.Errorf("action = %+v", a)
	}
	edits := a.Edit.Changes[uri]
	if len(a.Edit.Changes) != 1 || len(edits) != 1 {
		t.Fatalf("edit = %+v", a.Edit)
	}
	// Apply as an editor does: last edit first, each as a content change.
	sort.Slice(edits, func(i, j int) bool { return less(edits[j].Range.Start, edits[i].Range.Start) })
	var changes []TextDocumentContentChangeEvent
	fixed := []byte(text)
	for _, e := range edits {
		r := e.Range
		ch := TextDocumentContentChangeEvent{Range: &r, Text: e.NewText}
		changes = append(changes, ch)
		fixed = applyChange(fixed, ch)
	}
	if want := "# ünïcode ✓\nα = 1; safe(α)\n"; string(fixed) != want {
		t.Fatalf("fixed text = %q, want %q", fixed, want)
	}
	c.change(uri, changes...)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// Nothing left to fix.
	actions = nil
	if err := c.call("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Range: cursor}, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 0 {
		t.Errorf("actions after the fix = %+v", actions)
	}
}

func TestCodeActionOutsideFindingAndOnlyFilter(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "x = 1\nhazard(x)\n")
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := pathToURI(path)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	for _, tc := range []struct {
		name string
		p    CodeActionParams
		want int
	}{
		{"other line", CodeActionParams{Range: Range{Start: Position{0, 0}, End: Position{0, 3}}}, 0},
		{"only refactor", CodeActionParams{Range: Range{Start: Position{1, 0}, End: Position{1, 0}}, Context: CodeActionContext{Only: []string{"refactor"}}}, 0},
		{"only quickfix", CodeActionParams{Range: Range{Start: Position{1, 0}, End: Position{1, 0}}, Context: CodeActionContext{Only: []string{"quickfix"}}}, 1},
		{"selection over the line", CodeActionParams{Range: Range{Start: Position{0, 0}, End: Position{2, 0}}}, 1},
	} {
		tc.p.TextDocument.URI = uri
		var actions []CodeAction
		if err := c.call("textDocument/codeAction", tc.p, &actions); err != nil {
			t.Fatal(err)
		}
		if len(actions) != tc.want {
			t.Errorf("%s: %d actions, want %d", tc.name, len(actions), tc.want)
		}
	}
}
