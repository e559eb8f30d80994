// Package lsp implements `collvet lsp`, a Language Server Protocol server
// over stdio. It keeps the open documents, analyses the workspace with their
// unsaved text laid over the files on disk, and publishes collvet's findings
// as diagnostics, with quick fixes (code actions) and the rule's explanation
// on hover.
//
// Messages are handled in arrival order on the connection's reader
// goroutine; analysis never runs there. Edits are debounced and analysed on
// a goroutine of their own, the newest state winning: an edit cancels the
// analysis in flight. A panic inside an analysis is recovered and logged to
// the client, and the server keeps serving.
//
// The files of this package follow the protocol's method families:
// lifecycle (server.go), text synchronisation (textsync.go), diagnostics
// and scheduling (diagnostics.go), code actions (codeaction.go), hover
// (hover.go), workspace folders, configuration and watched files
// (workspace.go). protocol.go declares the protocol types used.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/collvet/collvet/rules"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// Options configure a Server.
type Options struct {
	// Analyzer runs the analysis; required.
	Analyzer Analyzer
	// Debounce is how long the server waits after an edit before it
	// analyses; further edits restart the wait. 0 means the default
	// (DefaultDebounce); a negative value analyses at once.
	Debounce time.Duration
	// Ignore lists rule codes or code prefixes ("CV401", "CV2") or rule
	// names never reported; the client's `collvet.ignore` setting adds to it.
	Ignore []string
	// Version is reported in serverInfo.
	Version string
	// DocURL returns the documentation link of a rule code
	// (codeDescription.href); nil uses DefaultDocURL.
	DocURL func(code string) string
	// Suppress, when set, gives the fix that adds a suppression
	// directive for d on its line of file (the text the analysis saw),
	// offered as a quick fix after the rule's own; false: none.
	Suppress func(file *rules.File, d rules.Diagnostic) (rules.Fix, bool)
	// SuppressFile, when set, gives the fix that adds a file-level
	// suppression directive for d's rule to file, offered after Suppress's.
	SuppressFile func(file *rules.File, d rules.Diagnostic) (rules.Fix, bool)
	// Unchanged, when set, reports that text, as an open document's new
	// content, changes no code the analysis reads (a comment written, a
	// docstring retyped), so that re-analysing is cheap: such edits are
	// analysed at once instead of after the debounce.
	Unchanged func(path string, text []byte) bool
	// Log receives the server's own log lines (stderr in `collvet lsp`);
	// nil discards them.
	Log io.Writer
	// ProgressDelay is how long an analysis runs before the server shows
	// its progress (clients with window.workDoneProgress); 0 means
	// ProgressDelay, the package constant.
	ProgressDelay time.Duration
}

// DefaultDocURL links a rule code to its documentation page.
func DefaultDocURL(code string) string { return rules.DocURL(code) }

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// before shutdown (the process should exit with status 1, as the protocol
// asks).
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Server is one LSP session.
type Server struct {
	opts Options
	// conn is set once the connection exists; handlers may run before
	// NewConn returns, so it is published atomically.
	conn atomic.Pointer[jsonrpc2.Conn]

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	exited      chan struct{}
	clientCaps  ClientCapabilities
	roots       []string             // absolute paths of the workspace folders
	docs        map[string]*document // open documents by absolute path
	ignore      []string             // from the client's settings
	// missingRoots: workspace folders found missing (warned about once).
	missingRoots map[string]bool
	changed      map[string]bool // paths changed since the last analysis
	configDirty  bool            // a configuration file changed
	gen          uint64          // bumped by every change that needs analysis
	published    map[string]*fileDiags
	// seenSrc is the text of every file the last published analysis read
	// (open documents' buffers included), by absolute path.
	seenSrc map[string][]byte
	// publishedGen is the gen of the last published analysis (valid once
	// analysed is set): when it equals gen, no analysis is due.
	publishedGen uint64
	analysed     bool

	kick chan struct{} // wakes the scheduler; capacity 1
}

// DefaultDebounce is the wait after an edit when Options.Debounce is 0.
const DefaultDebounce = 150 * time.Millisecond

// NewServer returns a server; call Serve to run it.
func NewServer(opts Options) *Server {
	switch {
	case opts.Debounce == 0:
		opts.Debounce = DefaultDebounce
	case opts.Debounce < 0:
		opts.Debounce = 0
	}
	if opts.DocURL == nil {
		opts.DocURL = DefaultDocURL
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	return &Server{
		opts:      opts,
		exited:    make(chan struct{}),
		docs:      map[string]*document{},
		changed:   map[string]bool{},
		published: map[string]*fileDiags{},
		kick:      make(chan struct{}, 1),
	}
}

// Serve runs the session on rwc until the client sends exit or closes the
// stream. It returns nil after shutdown+exit, ErrExitWithoutShutdown after
// an exit without shutdown, and nil when the stream ends.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed()
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), h,
		jsonrpc2.SetLogger(logger{s.opts.Log}))
	s.conn.CompareAndSwap(nil, conn)
	go s.schedule(ctx)
	select {
	case <-conn.DisconnectNotify():
	case <-s.exited:
		conn.Close()
	case <-ctx.Done():
		conn.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
		if !s.shutdown {
			return ErrExitWithoutShutdown
		}
	default:
	}
	return nil
}

// logger adapts an io.Writer to jsonrpc2's Logger.
type logger struct{ w io.Writer }

func (l logger) Printf(format string, v ...any) { fmt.Fprintf(l.w, format, v...) }

// Stdio joins standard input and output into the stream Serve reads.
func Stdio() io.ReadWriteCloser { return stdio{} }

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err := os.Stdin.Close()
	if err2 := os.Stdout.Close(); err == nil {
		err = err2
	}
	return err
}

// JSON-RPC error codes of the protocol.
const (
	codeServerNotInitialized = -32002
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
)

// handle dispatches one message. It runs on the reader goroutine, so it
// never waits on the client and never analyses.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	s.conn.CompareAndSwap(nil, conn)
	defer func() {
		// A bug in a handler must not take the session down.
		if r := recover(); r != nil {
			s.logf(MessageError, "collvet: internal error handling %s: %v", req.Method, r)
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprint(r)}
		}
	}()
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		s.mu.Lock()
		select {
		case <-s.exited:
		default:
			close(s.exited)
		}
		s.mu.Unlock()
		return nil, nil
	case req.Method == "initialize":
		if initialized {
			return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "initialize sent twice"}
		}
	case !initialized:
		if req.Notif {
			return nil, nil // notifications before initialize are dropped
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "server not initialized"}
	case shutdown:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "server is shutting down"}
	}

	h, ok := handlers[req.Method]
	if !ok {
		if req.Notif {
			return nil, nil // unknown notifications ($/cancelRequest, $/setTrace …) are ignored
		}
		return nil, &jsonrpc2.Error{Code: codeMethodNotFound, Message: "method not supported: " + req.Method}
	}
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	return h(s, ctx, params)
}

// handlerFunc handles one method with its raw parameters.
type handlerFunc func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// handlers maps methods to their handlers; each method family's file adds
// its own in init.
var handlers = map[string]handlerFunc{}

func init() {
	handlers["initialize"] = (*Server).initialize
	handlers["initialized"] = (*Server).initializedNotification
	handlers["shutdown"] = (*Server).shutdownRequest
}

// unmarshal decodes params into v, answering InvalidParams on failure.
func unmarshal(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return &jsonrpc2.Error{Code: codeInvalidParams, Message: "missing params"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &jsonrpc2.Error{Code: codeInvalidParams, Message: err.Error()}
	}
	return nil
}

func (s *Server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p InitializeParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path, err := uriToPath(f.URI); err == nil {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != "" {
		if path, err := uriToPath(p.RootURI); err == nil {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootPath != "" {
		roots = append(roots, p.RootPath)
	}
	s.mu.Lock()
	s.initialized = true
	s.clientCaps = p.Capabilities
	s.roots = roots
	s.mu.Unlock()
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		s.applySettings(p.InitializationOptions)
	}
	return InitializeResult{
		Capabilities: ServerCapabilities{
			PositionEncoding: "utf-16",
			TextDocumentSync: TextDocumentSyncOptions{OpenClose: true, Change: 2, Save: SaveOptions{}},
			HoverProvider:    true,
			CodeActionProvider: CodeActionOptions{
				CodeActionKinds: []string{CodeActionKindQuickFix},
			},
			Workspace: WorkspaceServerCapabilities{
				WorkspaceFolders: WorkspaceFoldersServerCapabilities{Supported: true, ChangeNotifications: true},
			},
		},
		ServerInfo: &ServerInfo{Name: "collvet", Version: s.opts.Version},
	}, nil
}

// initializedNotification registers the file watchers and starts the first
// analysis of the workspace.
func (s *Server) initializedNotification(_ context.Context, _ json.RawMessage) (any, error) {
	s.mu.Lock()
	dynamic := s.clientCaps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.mu.Unlock()
	if dynamic {
		// A request to the client: its answer arrives on the reader
		// goroutine, which must not wait for it.
		go s.registerWatchers()
	}
	s.touch(nil, false)
	return nil, nil
}

func (s *Server) shutdownRequest(_ context.Context, _ json.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	return nil, nil
}

// logf sends a window/logMessage to the client and writes the line to the
// server's log.
func (s *Server) logf(typ int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.opts.Log, msg)
	s.notify("window/logMessage", LogMessageParams{Type: typ, Message: msg})
}

func (s *Server) progressDelay() time.Duration {
	if s.opts.ProgressDelay > 0 {
		return s.opts.ProgressDelay
	}
	return ProgressDelay
}

// notify sends a notification to the client, if connected.
func (s *Server) notify(method string, params any) {
	if c := s.conn.Load(); c != nil {
		_ = c.Notify(context.Background(), method, params)
	}
}
