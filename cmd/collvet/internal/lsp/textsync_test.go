package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestApplyChange(t *testing.T) {
	rng := func(l1, c1, l2, c2 int) *Range {
		return &Range{Start: Position{l1, c1}, End: Position{l2, c2}}
	}
	for _, tc := range []struct {
		name, text string
		change     TextDocumentContentChangeEvent
		want       string
	}{
		{"full", "a\nb\n", TextDocumentContentChangeEvent{Text: "new"}, "new"},
		{"insert", "ab\ncd\n", TextDocumentContentChangeEvent{Range: rng(1, 1, 1, 1), Text: "X"}, "ab\ncXd\n"},
		{"delete across lines", "ab\ncd\nef", TextDocumentContentChangeEvent{Range: rng(0, 1, 2, 1), Text: ""}, "af"},
		// é is one UTF-16 unit and two bytes; 😀 is two UTF-16 units and four bytes.
		{"after two-byte rune", "é = 1\n", TextDocumentContentChangeEvent{Range: rng(0, 1, 0, 1), Text: "x"}, "éx = 1\n"},
		{"after surrogate pair", "s = '😀'; f()\n", TextDocumentContentChangeEvent{Range: rng(0, 10, 0, 11), Text: "g"}, "s = '😀'; g()\n"},
		{"replace the pair", "'😀'", TextDocumentContentChangeEvent{Range: rng(0, 1, 0, 3), Text: "ok"}, "'ok'"},
		{"crlf lines", "a\r\nbc\r\n", TextDocumentContentChangeEvent{Range: rng(1, 1, 1, 2), Text: "Z"}, "a\r\nbZ\r\n"},
		{"past the end clamps", "ab", TextDocumentContentChangeEvent{Range: rng(0, 1, 9, 9), Text: ""}, "a"},
		{"append at end", "ab\n", TextDocumentContentChangeEvent{Range: rng(1, 0, 1, 0), Text: "c\n"}, "ab\nc\n"},
	} {
		if got := string(applyChange([]byte(tc.text), tc.change)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Unsaved buffers are analysed as overlays; closing a document drops its
// overlay; each change is reported to the analyzer as changed.
func TestTextSyncOverlays(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "train.py")
	writeFile(t, path, "x = 1\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	uri := c.open(path, "x = 1\n")

	// Incremental edit, then a full replacement: the analysis sees the
	// buffer, not the file on disk.
	c.change(uri, TextDocumentContentChangeEvent{Range: &Range{Start: Position{0, 0}, End: Position{0, 0}}, Text: "hazard(x)\n"})
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if p.Version == nil || *p.Version != 2 {
		t.Errorf("published version = %v, want 2", p.Version)
	}
	if got := string(fa.last().Overlay[path]); got != "hazard(x)\nx = 1\n" {
		t.Errorf("overlay = %q", got)
	}
	if ch := fa.last().Changed; len(ch) != 1 || ch[0] != path {
		t.Errorf("Changed = %v, want [%s]", ch, path)
	}
	v := c.change(uri, TextDocumentContentChangeEvent{Text: "y = 2\n"})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 0 && p.Version != nil && *p.Version == v
	})

	// Save: the analysis already saw this text, nothing is re-analysed.
	fa.mu.Lock()
	n := len(fa.requests)
	fa.mu.Unlock()
	os.WriteFile(path, []byte("y = 2\n"), 0o644)
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	// Close with edits discarded (the disk has a hazard the buffer did
	// not): the disk text is analysed again.
	writeFile(t, path, "hazard(1)\n")
	c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	p = c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if p.Version != nil {
		t.Errorf("closed document published with version %d", *p.Version)
	}
	fa.mu.Lock()
	analyses := len(fa.requests) - n
	fa.mu.Unlock()
	if analyses != 1 {
		t.Errorf("save + close ran %d analyses, want 1 (the close)", analyses)
	}
	if _, ok := fa.last().Overlay[path]; ok {
		t.Error("overlay kept after didClose")
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// Saving pyproject.toml from the editor re-reads the configuration.
func TestSaveConfigFile(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "pyproject.toml")
	writeFile(t, cfg, "[tool.collvet]\n")
	writeFile(t, filepath.Join(root, "a.py"), "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	c.waitDiags(pathToURI(filepath.Join(root, "a.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	uri := pathToURI(cfg)
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "toml", Version: 1, Text: "[tool.collvet]\n"}})
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	deadline := time.Now().Add(10 * time.Second)
	for {
		fa.mu.Lock()
		n := len(fa.requests)
		fa.mu.Unlock()
		if n > 0 && fa.last().ConfigChanged {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("saving pyproject.toml did not re-read the configuration")
		}
		time.Sleep(time.Millisecond)
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// A change for a document that is not open is logged, not fatal.
func TestChangeOfUnopenedDocument(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	c.change("file:///nowhere/x.py", TextDocumentContentChangeEvent{Text: "x"})
	select {
	case m := <-c.logs:
		if m.Type != MessageWarning || !strings.Contains(m.Message, "not open") {
			t.Errorf("log = %+v", m)
		}
	case <-c.done:
		t.Fatal("server stopped")
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}
