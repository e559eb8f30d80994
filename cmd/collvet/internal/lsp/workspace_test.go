package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDidChangeConfigurationIgnore(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(root, ClientCapabilities{})
	uri := pathToURI(path)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"collvet": Settings{Ignore: []string{"CV999"}}}})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	if !fa.last().ConfigChanged {
		t.Error("configuration change not passed to the analyzer")
	}
	// The bare form (no "collvet" wrapper) is accepted too.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": Settings{Ignore: nil}})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
}

func TestInitializationOptionsIgnore(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\nother(2)\n")
	c := newClient(t, Options{})
	var res InitializeResult
	if err := c.call("initialize", map[string]any{
		"rootUri":               pathToURI(root),
		"capabilities":          map[string]any{},
		"initializationOptions": map[string]any{"ignore": []string{"test-hazard"}},
	}, &res); err != nil {
		t.Fatal(err)
	}
	c.notify("initialized", struct{}{})
	p := c.waitDiags(pathToURI(path), func(PublishDiagnosticsParams) bool { return true })
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "CV998" {
		t.Errorf("with test-hazard ignored: %+v", p.Diagnostics)
	}
}

func TestWatchedConfigFileChange(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.py")
	writeFile(t, path, "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	var caps ClientCapabilities
	caps.Workspace.DidChangeWatchedFiles.DynamicRegistration = true
	c.initialize(root, caps)

	reg := <-c.regs
	if len(reg.Registrations) != 1 || reg.Registrations[0].Method != "workspace/didChangeWatchedFiles" {
		t.Fatalf("registration = %+v", reg)
	}
	uri := pathToURI(path)
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	// A source file changed on disk (not open): re-analysed from disk.
	writeFile(t, path, "hazard(1)\nhazard(2)\n")
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: uri, Type: 2}}})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 2 })
	if r := fa.last(); r.ConfigChanged || len(r.Changed) != 1 || r.Changed[0] != path {
		t.Errorf("request after a source change = %+v", r)
	}

	// pyproject.toml changed: the analyzer is told to re-read configuration.
	cfg := filepath.Join(root, "pyproject.toml")
	writeFile(t, cfg, "[tool.collvet]\n")
	writeFile(t, path, "hazard(1)\n")
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{
		{URI: pathToURI(cfg), Type: 1}, {URI: uri, Type: 2}}})
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if !fa.last().ConfigChanged {
		t.Error("pyproject.toml change not passed as ConfigChanged")
	}
}

func TestWorkspaceFolders(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(a, "x.py"), "hazard(1)\n")
	writeFile(t, filepath.Join(b, "y.py"), "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(a, ClientCapabilities{})
	c.waitDiags(pathToURI(filepath.Join(a, "x.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	var p DidChangeWorkspaceFoldersParams
	p.Event.Added = []WorkspaceFolder{{URI: pathToURI(b), Name: "b"}}
	p.Event.Removed = []WorkspaceFolder{{URI: pathToURI(a), Name: "a"}}
	c.notify("workspace/didChangeWorkspaceFolders", p)
	// Files are published in path order: a's (t.TempDir numbers them)
	// before b's. The removed folder's findings are withdrawn.
	c.waitDiags(pathToURI(filepath.Join(a, "x.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	c.waitDiags(pathToURI(filepath.Join(b, "y.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if r := fa.last().Roots; len(r) != 1 || r[0] != b {
		t.Errorf("roots = %v, want [%s]", r, b)
	}
}

// A workspace folder that does not exist (deleted from a multi-root
// workspace) is left out with one warning; the others are analysed.
func TestMissingWorkspaceFolderIsSkipped(t *testing.T) {
	a := t.TempDir()
	missing := filepath.Join(t.TempDir(), "deleted")
	writeFile(t, filepath.Join(a, "x.py"), "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	c.initialize(a, ClientCapabilities{})
	c.waitDiags(pathToURI(filepath.Join(a, "x.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	var p DidChangeWorkspaceFoldersParams
	p.Event.Added = []WorkspaceFolder{{URI: pathToURI(missing), Name: "deleted"}}
	c.notify("workspace/didChangeWorkspaceFolders", p)
	timeout := time.After(10 * time.Second)
	for warned := false; !warned; {
		select {
		case m := <-c.logs:
			warned = m.Type == MessageWarning && strings.Contains(m.Message, missing)
		case <-timeout:
			t.Fatal("no warning about the missing folder")
		}
	}
	c.waitDiags(pathToURI(filepath.Join(a, "x.py")), func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if r := fa.last().Roots; len(r) != 1 || r[0] != a {
		t.Errorf("roots = %v, want [%s]", r, a)
	}
}

// Without a workspace folder, the open files are the roots.
func TestNoWorkspaceFolderAnalysesOpenFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "solo.py")
	writeFile(t, path, "hazard(1)\n")
	fa := &fakeAnalyzer{}
	c := newClient(t, Options{Analyzer: fa})
	if err := c.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	c.notify("initialized", struct{}{})
	uri := c.open(path, "hazard(1)\n")
	c.waitDiags(uri, func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if r := fa.last().Roots; len(r) != 1 || r[0] != path {
		t.Errorf("roots = %v", r)
	}
}
