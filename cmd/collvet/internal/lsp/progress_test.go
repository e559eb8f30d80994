package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// withProgress is a client that shows server-initiated progress.
func withProgress() ClientCapabilities {
	var caps ClientCapabilities
	caps.Window.WorkDoneProgress = true
	return caps
}

// A long analysis is announced: the server creates a token, begins, and
// ends the report under that token once the analysis is done.
func TestProgressOfLongAnalysis(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	os.WriteFile(path, []byte("hazard(x)\n"), 0o644)
	c := newClient(t, Options{Analyzer: &fakeAnalyzer{delay: 300 * time.Millisecond}, ProgressDelay: 20 * time.Millisecond})
	c.initialize(root, withProgress())
	var got []ProgressParams
	timeout := time.After(10 * time.Second)
	for len(got) < 3 {
		select {
		case p := <-c.progress:
			got = append(got, p)
		case <-timeout:
			t.Fatalf("progress so far: %+v", got)
		}
	}
	token := got[0].Token
	if got[0].Value.Kind != "create" || token == "" {
		t.Fatalf("first message %+v, want the token's creation", got[0])
	}
	if got[1].Token != token || got[1].Value.Kind != "begin" || got[1].Value.Title != "collvet" {
		t.Errorf("second message %+v, want begin on %q", got[1], token)
	}
	if got[2].Token != token || got[2].Value.Kind != "end" {
		t.Errorf("third message %+v, want end on %q", got[2], token)
	}
	c.waitDiags(pathToURI(path), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
}

// Analyses shorter than the delay, and clients without the capability,
// see no progress at all.
func TestNoProgressForShortAnalysesOrWithoutCapability(t *testing.T) {
	for _, tc := range []struct {
		name  string
		caps  ClientCapabilities
		delay time.Duration // the analysis
		shown time.Duration // Options.ProgressDelay
	}{
		{"short analysis", withProgress(), 0, 5 * time.Second},
		{"no capability", ClientCapabilities{}, 200 * time.Millisecond, 10 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "a.py")
			os.WriteFile(path, []byte("hazard(x)\n"), 0o644)
			c := newClient(t, Options{Analyzer: &fakeAnalyzer{delay: tc.delay}, ProgressDelay: tc.shown})
			c.initialize(root, tc.caps)
			c.waitDiags(pathToURI(path), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
			select {
			case p := <-c.progress:
				t.Fatalf("unexpected progress %+v", p)
			case <-time.After(100 * time.Millisecond):
			}
		})
	}
}

// An analysis cancelled by an edit before its report began leaves no
// dangling "begin": every begin has its end.
func TestProgressBeginsAreEnded(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	os.WriteFile(path, []byte("hazard(x)\n"), 0o644)
	c := newClient(t, Options{Analyzer: &fakeAnalyzer{delay: 120 * time.Millisecond}, ProgressDelay: 30 * time.Millisecond, Debounce: time.Millisecond})
	c.initialize(root, withProgress())
	uri := c.open(path, "hazard(x)\n")
	for i := 0; i < 8; i++ {
		c.change(uri, TextDocumentContentChangeEvent{Text: "hazard(x)\n" + string(rune('a'+i)) + " = 1\n"})
		time.Sleep(time.Duration(20+15*i) * time.Millisecond)
	}
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == c.version })
	time.Sleep(300 * time.Millisecond)
	open := map[string]bool{}
	begins := 0
	for {
		select {
		case p := <-c.progress:
			switch p.Value.Kind {
			case "begin":
				open[p.Token] = true
				begins++
			case "end":
				if !open[p.Token] {
					t.Errorf("end without begin on %q", p.Token)
				}
				delete(open, p.Token)
			}
			continue
		default:
		}
		break
	}
	if len(open) > 0 {
		t.Errorf("begun and never ended: %v", open)
	}
	if begins == 0 {
		t.Error("no analysis lasted long enough to begin a report; the test exercised nothing")
	}
}
