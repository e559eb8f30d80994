package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/collvet/collvet/rules/textpos"
)

// document is an open editor buffer.
type document struct {
	uri     string // as the client spelled it; diagnostics are published to it
	path    string // absolute path
	lang    string // languageId
	version int
	text    []byte
}

func init() {
	handlers["textDocument/didOpen"] = (*Server).didOpen
	handlers["textDocument/didChange"] = (*Server).didChange
	handlers["textDocument/didSave"] = (*Server).didSave
	handlers["textDocument/didClose"] = (*Server).didClose
}

func (s *Server) didOpen(_ context.Context, params json.RawMessage) (any, error) {
	var p DidOpenTextDocumentParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil // untitled:, git: … documents are not ours to analyse
	}
	text := []byte(p.TextDocument.Text)
	// Opening a file the workspace analysis already read, with the same
	// text as on disk, changes nothing: its findings are published from
	// that analysis (or from the one under way) instead of analysing the
	// whole workspace again, which on a large tree costs seconds of CPU
	// per opened file.
	clean := sameAsDisk(path, text)
	s.mu.Lock()
	s.docs[path] = &document{
		uri:     p.TextDocument.URI,
		path:    path,
		lang:    p.TextDocument.LanguageID,
		version: p.TextDocument.Version,
		text:    text,
	}
	// An analysis has been published, or one is due (the workspace's
	// first, right after initialized): either covers this file.
	idle := s.gen == s.publishedGen
	quiet := clean && s.inRoots(path) && (s.analysed || !idle)
	s.mu.Unlock()
	switch {
	case !quiet:
		s.touch([]string{path}, false)
	case idle:
		s.publishOpened(path)
		// Otherwise the analysis due publishes it: publish covers every
		// document open at that time.
	}
	return nil, nil
}

// sameAsDisk reports whether text is the file's content on disk.
func sameAsDisk(path string, text []byte) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(text)) {
		return false
	}
	disk, err := os.ReadFile(path)
	return err == nil && bytes.Equal(disk, text)
}

// inRoots reports whether path is inside a workspace folder (the analysis
// reads it). Callers hold s.mu.
func (s *Server) inRoots(path string) bool {
	for _, r := range s.roots {
		if path == r || strings.HasPrefix(path, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (s *Server) didChange(_ context.Context, params json.RawMessage) (any, error) {
	var p DidChangeTextDocumentParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	s.mu.Lock()
	doc := s.docs[path]
	if doc == nil {
		s.mu.Unlock()
		s.logf(MessageWarning, "collvet: didChange for a document that is not open: %s", p.TextDocument.URI)
		return nil, nil
	}
	text := doc.text
	for _, c := range p.ContentChanges {
		text = applyChange(text, c)
	}
	doc.text = text
	doc.version = p.TextDocument.Version
	s.mu.Unlock()
	s.touch([]string{path}, false)
	return nil, nil
}

func (s *Server) didSave(_ context.Context, params json.RawMessage) (any, error) {
	var p DidSaveTextDocumentParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	if p.Text != nil {
		s.mu.Lock()
		if doc := s.docs[path]; doc != nil {
			doc.text = []byte(*p.Text)
		}
		s.mu.Unlock()
	}
	// The analysis already saw the buffer that is now on disk, so a save
	// changes nothing, except for a configuration file edited in the
	// editor (configuration is read from disk). Files changed by other
	// tools arrive as watched-file events.
	if isConfigFile(path) {
		s.touch([]string{path}, true)
	}
	return nil, nil
}

func (s *Server) didClose(_ context.Context, params json.RawMessage) (any, error) {
	var p DidCloseTextDocumentParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	s.mu.Lock()
	doc := s.docs[path]
	delete(s.docs, path)
	s.mu.Unlock()
	// The file on disk replaces the buffer that was analysed: analyse
	// again only when they differ (the edits were discarded).
	if disk, err := os.ReadFile(path); doc == nil || err != nil || !bytes.Equal(disk, doc.text) {
		s.touch([]string{path}, false)
	}
	return nil, nil
}

// applyChange applies one content change to text. Positions are UTF-16;
// out-of-range positions are clamped to the text, as clients expect.
func applyChange(text []byte, c TextDocumentContentChangeEvent) []byte {
	if c.Range == nil {
		return []byte(c.Text)
	}
	m := textpos.New(text)
	start := offsetOf(m, c.Range.Start)
	end := offsetOf(m, c.Range.End)
	if end < start {
		start, end = end, start
	}
	out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
	out = append(out, text[:start]...)
	out = append(out, c.Text...)
	out = append(out, text[end:]...)
	return out
}

// offsetOf converts an LSP position to a byte offset in m's text.
func offsetOf(m *textpos.Mapper, p Position) int {
	line := p.Line + 1
	if line < 1 {
		return 0
	}
	if line > m.LineCount() {
		return m.Offset(line, 1) // clamps to the end of the text
	}
	return m.Offset(line, m.ByteCol(line, p.Character))
}

// uriToPath converts a file: URI to an absolute, cleaned local path.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %s", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/x → C:/x; file://server/share/x → //server/share/x
		if u.Host != "" {
			p = "//" + u.Host + p
		} else if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		}
	}
	if p == "" {
		return "", fmt.Errorf("empty path in URI: %s", uri)
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI converts an absolute path to a file: URI.
func pathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// isConfigFile reports whether path is a file collvet reads its
// configuration from.
func isConfigFile(path string) bool {
	switch filepath.Base(path) {
	case "pyproject.toml", "collvet.toml":
		return true
	}
	return false
}
