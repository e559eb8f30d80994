package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
	"github.com/sourcegraph/jsonrpc2"
)

// The tests drive a Server through an in-process client connected by a
// pipe, as an editor would, with a fake analyzer standing in for the real
// engine: it reports every `hazard(` call in the .py files under the roots
// (open buffers win over disk) as CV999, with a fix that renames the call
// to `safe(`, and every `other(` call as CV998 (no fix).

func init() {
	rules.Register(&rules.Rule{
		Code:     "CV999",
		Name:     "test-hazard",
		Severity: rules.Error,
		HasFix:   true,
		Doc: rules.Doc{
			Title:      "a hazard used by the server tests",
			Why:        "Hazards hang jobs.",
			UseInstead: "safe(x)",
			FixSafety:  "Renames the call.",
		},
	})
}

// fakeAnalyzer implements Analyzer over the file system and the overlay.
type fakeAnalyzer struct {
	mu       sync.Mutex
	requests []Request
	// block, when set, makes Analyze wait for ctx to be cancelled (or for
	// the channel to close) before it reads anything.
	block chan struct{}
	// delay, when set, is how long each analysis takes (cut short by
	// cancellation), so that editor events arrive while it runs.
	delay time.Duration
}

func (f *fakeAnalyzer) Analyze(ctx context.Context, req Request) (*Result, error) {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	block := f.block
	delay := f.delay
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
	}
	if block != nil {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-block:
		}
	}
	var res Result
	var files []string
	for _, root := range req.Roots {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".py") {
				files = append(files, path)
			}
			return nil
		})
	}
	for p := range req.Overlay {
		if !containsPath(files, p) && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
	}
	for _, path := range files {
		src, ok := req.Overlay[path]
		if !ok {
			var err error
			if src, err = os.ReadFile(path); err != nil {
				continue
			}
		}
		if bytes.Contains(src, []byte("PANIC")) {
			panic("fake analyzer: PANIC in " + path)
		}
		res.Files = append(res.Files, &rules.File{Path: path, Lang: rules.Python, Src: src})
		m := textpos.New(src)
		for line := 1; line <= m.LineCount(); line++ {
			text := m.Line(line)
			if i := bytes.Index(text, []byte("other(")); i >= 0 {
				res.Diagnostics = append(res.Diagnostics, rules.Diagnostic{
					Rule: "CV998", Name: "test-other", Severity: rules.Warning,
					Pos: rules.Pos{Path: path, Line: line, Col: i + 1}, Message: "other() called",
				})
			}
			i := bytes.Index(text, []byte("hazard("))
			if i < 0 {
				continue
			}
			col := i + 1
			res.Diagnostics = append(res.Diagnostics, rules.Diagnostic{
				Rule: "CV999", Name: "test-hazard", Severity: rules.Error,
				Pos:     rules.Pos{Path: path, Line: line, Col: col, EndLine: line, EndCol: col + len("hazard")},
				Message: "hazard() called",
				Related: []rules.Related{
					{Pos: rules.Pos{Path: path, Line: 1, Col: 1}, Message: "thread started here"},
					{Pos: rules.Pos{Path: path, Line: line, Col: col}, Message: "calls hazard"},
				},
				Fixes: []rules.Fix{{Title: "Call safe instead", Edits: []rules.Edit{{
					Pos:     rules.Pos{Path: path, Line: line, Col: col, EndLine: line, EndCol: col + len("hazard")},
					NewText: "safe",
				}}}},
			})
		}
	}
	return &res, nil
}

func containsPath(list []string, p string) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

func (f *fakeAnalyzer) last() Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[len(f.requests)-1]
}

// testClient is the editor side of a session.
type testClient struct {
	t      *testing.T
	conn   *jsonrpc2.Conn
	server *Server
	done   chan error
	diags  chan PublishDiagnosticsParams
	logs   chan LogMessageParams
	shown  chan LogMessageParams // window/showMessage
	regs   chan RegistrationParams
	// progress receives window/workDoneProgress/create requests (as a
	// ProgressParams with Value.Kind "create") and $/progress notifications.
	progress chan ProgressParams
	version  int
}

// newClient starts a server with opts (a fakeAnalyzer when opts.Analyzer is
// nil) and connects a client to it.
func newClient(t *testing.T, opts Options) *testClient {
	t.Helper()
	if opts.Analyzer == nil {
		opts.Analyzer = &fakeAnalyzer{}
	}
	if opts.Debounce == 0 {
		opts.Debounce = 5 * time.Millisecond
	}
	a, b := net.Pipe()
	srv := NewServer(opts)
	c := &testClient{
		t:      t,
		server: srv,
		done:   make(chan error, 1),
		diags:  make(chan PublishDiagnosticsParams, 100),
		logs:   make(chan LogMessageParams, 100),
		shown:  make(chan LogMessageParams, 100),
		regs:   make(chan RegistrationParams, 10),

		progress: make(chan ProgressParams, 100),
	}
	go func() { c.done <- srv.Serve(context.Background(), a) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			switch req.Method {
			case "textDocument/publishDiagnostics":
				var p PublishDiagnosticsParams
				json.Unmarshal(*req.Params, &p)
				c.diags <- p
			case "window/logMessage":
				var p LogMessageParams
				json.Unmarshal(*req.Params, &p)
				c.logs <- p
			case "window/showMessage":
				var p LogMessageParams
				json.Unmarshal(*req.Params, &p)
				c.shown <- p
			case "client/registerCapability":
				var p RegistrationParams
				json.Unmarshal(*req.Params, &p)
				c.regs <- p
			case "window/workDoneProgress/create":
				var p WorkDoneProgressCreateParams
				json.Unmarshal(*req.Params, &p)
				c.progress <- ProgressParams{Token: p.Token, Value: WorkDoneProgressV{Kind: "create"}}
			case "$/progress":
				var p ProgressParams
				json.Unmarshal(*req.Params, &p)
				c.progress <- p
			}
			return nil, nil
		}))
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// call sends a request and decodes its result into result.
func (c *testClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// initialize runs the handshake with root as the workspace folder.
func (c *testClient) initialize(root string, caps ClientCapabilities) InitializeResult {
	c.t.Helper()
	var res InitializeResult
	params := map[string]any{
		"processId":        nil,
		"rootUri":          pathToURI(root),
		"workspaceFolders": []WorkspaceFolder{{URI: pathToURI(root), Name: "ws"}},
		"capabilities":     caps,
	}
	if err := c.call("initialize", params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify("initialized", struct{}{})
	return res
}

// waitDiags waits for a publishDiagnostics for uri that satisfies ok.
func (c *testClient) waitDiags(uri string, ok func(PublishDiagnosticsParams) bool) PublishDiagnosticsParams {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	var seen []PublishDiagnosticsParams
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri && ok(p) {
				return p
			}
			seen = append(seen, p)
		case <-timeout:
			c.t.Fatalf("no matching publishDiagnostics for %s; saw %+v", uri, seen)
		}
	}
}

func (c *testClient) open(path, text string) string {
	uri := pathToURI(path)
	c.version = 1
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{
		URI: uri, LanguageID: "python", Version: c.version, Text: text}})
	return uri
}

func (c *testClient) change(uri string, changes ...TextDocumentContentChangeEvent) int {
	c.version++
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: c.version},
		ContentChanges: changes,
	})
	return c.version
}

// shutdown ends the session properly and returns Serve's result.
func (c *testClient) shutdown() error {
	c.t.Helper()
	if err := c.call("shutdown", nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return nil
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInitializeAdvertisesCapabilities(t *testing.T) {
	c := newClient(t, Options{Version: "1.2.3"})
	res := c.initialize(t.TempDir(), ClientCapabilities{})
	caps := res.Capabilities
	if caps.PositionEncoding != "utf-16" || caps.TextDocumentSync.Change != 2 || !caps.TextDocumentSync.OpenClose ||
		!caps.HoverProvider || len(caps.CodeActionProvider.CodeActionKinds) != 1 ||
		!caps.Workspace.WorkspaceFolders.Supported {
		t.Errorf("capabilities = %+v", caps)
	}
	if res.ServerInfo == nil || res.ServerInfo.Name != "collvet" || res.ServerInfo.Version != "1.2.3" {
		t.Errorf("serverInfo = %+v", res.ServerInfo)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("Serve after shutdown+exit = %v, want nil", err)
	}
}

func TestRequestBeforeInitializeIsRejected(t *testing.T) {
	c := newClient(t, Options{})
	err := c.call("textDocument/hover", TextDocumentPositionParams{}, nil)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != codeServerNotInitialized {
		t.Fatalf("hover before initialize: err = %v, want code %d", err, codeServerNotInitialized)
	}
}

func TestInitializeTwiceIsRejected(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	var rpcErr *jsonrpc2.Error
	if err := c.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); !errors.As(err, &rpcErr) || rpcErr.Code != codeInvalidRequest {
		t.Fatalf("second initialize: err = %v", err)
	}
}

func TestUnknownMethodAndBadParams(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	var rpcErr *jsonrpc2.Error
	if err := c.call("textDocument/definition", map[string]any{}, nil); !errors.As(err, &rpcErr) || rpcErr.Code != codeMethodNotFound {
		t.Errorf("unknown method: err = %v", err)
	}
	if err := c.call("textDocument/hover", "not an object", nil); !errors.As(err, &rpcErr) || rpcErr.Code != codeInvalidParams {
		t.Errorf("bad params: err = %v", err)
	}
	// The session survives both.
	if err := c.shutdown(); err != nil {
		t.Errorf("Serve = %v", err)
	}
}

func TestRequestsAfterShutdownAreRejected(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	if err := c.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	var rpcErr *jsonrpc2.Error
	if err := c.call("textDocument/hover", TextDocumentPositionParams{}, nil); !errors.As(err, &rpcErr) || rpcErr.Code != codeInvalidRequest {
		t.Errorf("hover after shutdown: err = %v", err)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestClientDisconnectEndsServe(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), ClientCapabilities{})
	c.conn.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not notice the closed stream")
	}
}

func TestURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/tmp/a b/c#d.py", "/x/ünï.py", "/plain/x.py"} {
		uri := pathToURI(p)
		back, err := uriToPath(uri)
		if err != nil || back != filepath.Clean(p) {
			t.Errorf("%q -> %q -> %q, %v", p, uri, back, err)
		}
	}
	if _, err := uriToPath("untitled:Untitled-1"); err == nil {
		t.Error("untitled: URI accepted as a path")
	}
	if got := pathToURI("/a/b.py"); got != "file:///a/b.py" {
		t.Errorf("pathToURI = %q", got)
	}
}

// Options.Debounce: 0 is the default wait, a negative value no wait.
func TestDebounceOption(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{0, DefaultDebounce},
		{-1, 0},
		{40 * time.Millisecond, 40 * time.Millisecond},
	} {
		s := NewServer(Options{Analyzer: AnalyzerFunc(func(context.Context, Request) (*Result, error) { return &Result{}, nil }), Debounce: c.in})
		if s.opts.Debounce != c.want {
			t.Errorf("Debounce %v → %v, want %v", c.in, s.opts.Debounce, c.want)
		}
	}
}
