package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestHoverExplainsFinding(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "import t\n    hazard(x)\n")
	c := newClient(t, Options{})
	c.initialize(root, ClientCapabilities{})
	uri := pathToURI(path)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	var h *Hover
	if err := c.call("textDocument/hover", TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{1, 6}}, &h); err != nil {
		t.Fatal(err)
	}
	if h == nil {
		t.Fatal("no hover on the finding")
	}
	v := h.Contents.Value
	for _, want := range []string{
		"**CV999** `test-hazard` — a hazard used by the server tests",
		"hazard() called",
		"**Call chain**",
		"1. [a.py:1](" + uri + "#L1) thread started here",
		"2. [a.py:2](" + uri + "#L2) calls hazard",
		"Hazards hang jobs.",
		"safe(x)",
		"Renames the call.",
		"(https://github.com/collvet/collvet/blob/main/docs/rules.md#CV999)",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("hover lacks %q:\n%s", want, v)
		}
	}
	if h.Contents.Kind != "markdown" || h.Range == nil || h.Range.Start != (Position{1, 4}) {
		t.Errorf("hover kind/range = %q %+v", h.Contents.Kind, h.Range)
	}

	// Off the finding: no hover (null result).
	h = nil
	if err := c.call("textDocument/hover", TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{0, 2}}, &h); err != nil {
		t.Fatal(err)
	}
	if h != nil {
		t.Errorf("hover off the finding = %+v", h)
	}
}
