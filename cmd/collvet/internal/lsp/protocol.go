package lsp

import "encoding/json"

// The subset of the Language Server Protocol (3.17) the server speaks. Field
// names and JSON tags follow the specification; only what collvet reads or
// writes is declared.

// Position is a zero-based line and a zero-based UTF-16 code unit offset.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open [Start, End) range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// VersionedTextDocumentIdentifier names a document at a version.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// WorkspaceFolder is one root of the workspace.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// InitializeParams is the part of initialize's parameters the server uses.
type InitializeParams struct {
	ProcessID             *int               `json:"processId"`
	RootPath              string             `json:"rootPath,omitempty"`
	RootURI               string             `json:"rootUri,omitempty"`
	WorkspaceFolders      []WorkspaceFolder  `json:"workspaceFolders,omitempty"`
	InitializationOptions json.RawMessage    `json:"initializationOptions,omitempty"`
	Capabilities          ClientCapabilities `json:"capabilities"`
}

// ClientCapabilities is the part of the client's capabilities the server
// looks at.
type ClientCapabilities struct {
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
	General struct {
		PositionEncodings []string `json:"positionEncodings,omitempty"`
	} `json:"general"`
	Window struct {
		// WorkDoneProgress: the client shows progress the server starts
		// (window/workDoneProgress/create, then $/progress).
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
}

// WorkDoneProgressCreateParams asks the client to create a progress token.
type WorkDoneProgressCreateParams struct {
	Token string `json:"token"`
}

// ProgressParams is a $/progress notification.
type ProgressParams struct {
	Token string            `json:"token"`
	Value WorkDoneProgressV `json:"value"`
}

// WorkDoneProgressV is the value of a work done progress notification:
// Kind is "begin" (with Title) or "end".
type WorkDoneProgressV struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Message     string `json:"message,omitempty"`
	Cancellable bool   `json:"cancellable,omitempty"`
}

// InitializeResult answers initialize.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ServerCapabilities is what the server offers.
type ServerCapabilities struct {
	PositionEncoding   string                      `json:"positionEncoding,omitempty"`
	TextDocumentSync   TextDocumentSyncOptions     `json:"textDocumentSync"`
	HoverProvider      bool                        `json:"hoverProvider"`
	CodeActionProvider CodeActionOptions           `json:"codeActionProvider"`
	Workspace          WorkspaceServerCapabilities `json:"workspace"`
}

// TextDocumentSyncOptions: open/close notifications, incremental changes,
// save notifications without text.
type TextDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"` // 1 full, 2 incremental
	Save      SaveOptions `json:"save"`
}

// SaveOptions of textDocument/didSave.
type SaveOptions struct {
	IncludeText bool `json:"includeText"`
}

// CodeActionOptions lists the code action kinds offered.
type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

// WorkspaceServerCapabilities is the server's workspace capabilities.
type WorkspaceServerCapabilities struct {
	WorkspaceFolders WorkspaceFoldersServerCapabilities `json:"workspaceFolders"`
}

// WorkspaceFoldersServerCapabilities says workspace folders are supported.
type WorkspaceFoldersServerCapabilities struct {
	Supported           bool `json:"supported"`
	ChangeNotifications bool `json:"changeNotifications"`
}

// DidOpenTextDocumentParams of textDocument/didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// TextDocumentContentChangeEvent is one change: with a Range an incremental
// edit, without one the whole new text.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidChangeTextDocumentParams of textDocument/didChange.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// DidSaveTextDocumentParams of textDocument/didSave.
type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

// DidCloseTextDocumentParams of textDocument/didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// Diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Diagnostic tags.
const (
	TagUnnecessary = 1
	TagDeprecated  = 2
)

// Diagnostic is one published finding.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity,omitempty"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	Tags               []int                          `json:"tags,omitempty"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
	Data               json.RawMessage                `json:"data,omitempty"`
}

// CodeDescription links a diagnostic code to its documentation.
type CodeDescription struct {
	Href string `json:"href"`
}

// DiagnosticRelatedInformation is a secondary location.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams of textDocument/publishDiagnostics.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// CodeActionParams of textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// CodeActionContext carries the diagnostics the client shows in the range.
type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

// CodeAction is a quick fix.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// CodeActionKindQuickFix is the kind of every action the server offers.
const CodeActionKindQuickFix = "quickfix"

// WorkspaceEdit is a set of edits per document.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// TextDocumentPositionParams locates a position in a document (hover).
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// Hover answers textDocument/hover.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// MarkupContent is markdown or plain text.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// DidChangeConfigurationParams of workspace/didChangeConfiguration.
type DidChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// FileEvent is one watched-file change.
type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"` // 1 created, 2 changed, 3 deleted
}

// DidChangeWatchedFilesParams of workspace/didChangeWatchedFiles.
type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

// DidChangeWorkspaceFoldersParams of workspace/didChangeWorkspaceFolders.
type DidChangeWorkspaceFoldersParams struct {
	Event struct {
		Added   []WorkspaceFolder `json:"added"`
		Removed []WorkspaceFolder `json:"removed"`
	} `json:"event"`
}

// RegistrationParams of client/registerCapability.
type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

// Registration is one dynamic registration.
type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

// FileSystemWatcher is a glob the client watches for the server.
type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

// DidChangeWatchedFilesRegistrationOptions lists the watchers.
type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

// Message types of window/logMessage.
const (
	MessageError   = 1
	MessageWarning = 2
	MessageInfo    = 3
	MessageLog     = 4
)

// LogMessageParams of window/logMessage.
type LogMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}
