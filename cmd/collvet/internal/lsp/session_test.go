package lsp

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRandomSessions drives the server with random editor sessions —
// documents opened, edited, saved and closed, files created and deleted
// on disk, configuration changes, hovers and code actions — while slow
// analyses overlap them. The server must answer every request, end with
// each open document published at its last version with the findings of
// its last text, and shut down cleanly. (A clean document opened during
// an analysis once crashed it.)
func TestRandomSessions(t *testing.T) {
	texts := []string{"x = 1\n", "hazard(1)\n", "other(2)\nhazard(3)\n", "", "y = 2\nhazard(4)\nhazard(5)\n"}
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			root := t.TempDir()
			names := []string{"a.py", "b.py", "sub/c.py", "d.py"}
			for _, n := range names[:3] {
				writeFile(t, filepath.Join(root, n), texts[rng.Intn(len(texts))])
			}
			fa := &fakeAnalyzer{delay: time.Duration(5+rng.Intn(40)) * time.Millisecond}
			c := newClient(t, Options{Analyzer: fa, Debounce: time.Duration(rng.Intn(10)) * time.Millisecond})
			// The latest publish per URI, as an editor keeps it; and every
			// publish that names a version must hold the findings of that
			// version's text (versions are never reused, even on reopen).
			var mu sync.Mutex
			latest := map[string]PublishDiagnosticsParams{}
			sent := map[string]map[int]string{} // uri → version → text
			var wrong []string
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				for {
					select {
					case p := <-c.diags:
						mu.Lock()
						latest[p.URI] = p
						if p.Version != nil {
							if text, ok := sent[p.URI][*p.Version]; ok {
								if want := findings(text); len(p.Diagnostics) != want {
									wrong = append(wrong, fmt.Sprintf("%s v%d published with %d diagnostics, its text has %d", p.URI, *p.Version, len(p.Diagnostics), want))
								}
							}
						}
						mu.Unlock()
					case <-stop:
						return
					}
				}
			}()
			record := func(uri string, v int, text string) {
				mu.Lock()
				defer mu.Unlock()
				if sent[uri] == nil {
					sent[uri] = map[int]string{}
				}
				sent[uri][v] = text
			}
			lastVersion := map[string]int{}
			c.initialize(root, ClientCapabilities{})
			type doc struct {
				version int
				text    string
			}
			open := map[string]*doc{} // by URI
			for op := 0; op < 120; op++ {
				path := filepath.Join(root, names[rng.Intn(len(names))])
				uri := pathToURI(path)
				text := texts[rng.Intn(len(texts))]
				switch k := rng.Intn(10); {
				case k < 2:
					if open[uri] == nil {
						// An editor opens a file with the text on disk.
						if b, err := os.ReadFile(path); err == nil && rng.Intn(2) == 0 {
							text = string(b)
						}
						lastVersion[uri]++
						v := lastVersion[uri]
						open[uri] = &doc{v, text}
						record(uri, v, text)
						c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "python", Version: v, Text: text}})
					}
				case k < 5:
					if d := open[uri]; d != nil {
						lastVersion[uri]++
						d.version = lastVersion[uri]
						d.text = text
						record(uri, d.version, text)
						c.notify("textDocument/didChange", DidChangeTextDocumentParams{
							TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: d.version},
							ContentChanges: []TextDocumentContentChangeEvent{{Text: text}},
						})
					}
				case k < 6:
					if d := open[uri]; d != nil {
						writeFile(t, path, d.text)
						c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
					}
				case k < 7:
					if open[uri] != nil {
						delete(open, uri)
						c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
					}
				case k < 8:
					typ := 2
					if rng.Intn(3) == 0 {
						os.Remove(path)
						typ = 3
					} else {
						writeFile(t, path, text)
					}
					c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: uri, Type: typ}}})
				case k < 9:
					c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"collvet": Settings{}}})
				default:
					pos := Position{Line: rng.Intn(3), Character: rng.Intn(8)}
					var hover *Hover
					if err := c.call("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: pos}, &hover); err != nil {
						t.Fatalf("op %d: hover: %v", op, err)
					}
					var actions []CodeAction
					if err := c.call("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Range: Range{Start: pos, End: pos}}, &actions); err != nil {
						t.Fatalf("op %d: codeAction: %v", op, err)
					}
				}
				switch rng.Intn(8) {
				case 0, 1:
					time.Sleep(time.Duration(rng.Intn(8)) * time.Millisecond)
				case 2:
					// A pause longer than an analysis: what was running ends
					// with nothing newer queued.
					time.Sleep(time.Duration(30+rng.Intn(50)) * time.Millisecond)
				}
			}
			// Each open document ends published at its last version, with
			// the findings of its last text.
			settled := func() (bad []string) {
				mu.Lock()
				defer mu.Unlock()
				for uri, d := range open {
					want := findings(d.text)
					p, ok := latest[uri]
					if !ok || p.Version == nil || *p.Version != d.version || len(p.Diagnostics) != want {
						got := "nothing"
						if ok && p.Version != nil {
							got = fmt.Sprintf("v%d with %d diagnostics", *p.Version, len(p.Diagnostics))
						} else if ok {
							got = fmt.Sprintf("no version, %d diagnostics", len(p.Diagnostics))
						}
						bad = append(bad, fmt.Sprintf("%s: want v%d with %d diagnostics, latest publish %s", uri, d.version, want, got))
					}
				}
				return bad
			}
			deadline := time.Now().Add(10 * time.Second)
			for bad := settled(); len(bad) > 0; bad = settled() {
				if time.Now().After(deadline) {
					t.Fatalf("open documents not settled:\n%s", strings.Join(bad, "\n"))
				}
				time.Sleep(10 * time.Millisecond)
			}
			mu.Lock()
			for _, w := range wrong {
				t.Error(w)
			}
			mu.Unlock()
			if err := c.shutdown(); err != nil {
				t.Error(err)
			}
		})
	}
}

// findings is how many findings the fake analyzer reports for text.
func findings(text string) int {
	return bytes.Count([]byte(text), []byte("hazard(")) + bytes.Count([]byte(text), []byte("other("))
}

// gatedAnalyzer reads the files as fakeAnalyzer does, then reports that
// it has read them and waits for the test before returning.
type gatedAnalyzer struct {
	fake fakeAnalyzer
	read chan struct{}
	gate chan struct{}
}

func (g *gatedAnalyzer) Analyze(ctx context.Context, req Request) (*Result, error) {
	res, err := g.fake.Analyze(ctx, req)
	g.read <- struct{}{}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return res, err
}

// A document opened with its on-disk text while an analysis runs is
// published from that analysis only if the analysis read the same text:
// here the file changed on disk after it was read (and before the editor
// opened it), so the server analyses again rather than publish version 1
// with the findings of the old text. (TestRandomSessions caught this once
// in twenty runs.)
func TestOpenedDocumentNotPublishedFromOtherText(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "b.py")
	writeFile(t, path, "x = 1\n")
	g := &gatedAnalyzer{read: make(chan struct{}, 10), gate: make(chan struct{})}
	c := newClient(t, Options{Analyzer: g})
	c.initialize(root, ClientCapabilities{})
	<-g.read // the first analysis has read b.py as "x = 1"
	text := "hazard(1)\nhazard(2)\n"
	writeFile(t, path, text) // changed on disk, not yet seen by the server
	uri := c.open(path, text)
	close(g.gate) // every analysis may finish now
	go func() {
		for range g.read {
		}
	}()
	p := c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 1 })
	if len(p.Diagnostics) != 2 {
		t.Fatalf("version 1 published with %d diagnostics, its text has 2", len(p.Diagnostics))
	}
}
