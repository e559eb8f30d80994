package lsp

import (
	"context"

	"github.com/collvet/collvet/rules"
)

// Request is one analysis the server asks for: the workspace roots, with
// the unsaved editor buffers laid over the files on disk.
type Request struct {
	// Roots are the workspace folders, absolute paths. The whole program
	// under them is analysed: a finding in one file may depend on another.
	Roots []string
	// Overlay maps absolute paths of open documents to their current text.
	Overlay map[string][]byte
	// Changed lists the absolute paths whose text changed since the
	// previous request (edits, saves, files changed on disk). An engine
	// with a cache re-analyses these and what depends on them.
	Changed []string
	// ConfigChanged reports that a configuration file (pyproject.toml,
	// collvet.toml) changed since the previous request: cached
	// configuration must be read again.
	ConfigChanged bool
}

// Result is what an analysis found.
type Result struct {
	// Diagnostics have positions with absolute paths (or paths relative
	// to the first root).
	Diagnostics []rules.Diagnostic
	// Files are the analysed sources; positions are converted to UTF-16
	// against their text.
	Files []*rules.File
}

// Analyzer runs the analysis. The server calls it from one goroutine at a
// time; it must honour ctx's cancellation as far as it can (a newer edit
// makes the running analysis obsolete).
type Analyzer interface {
	Analyze(ctx context.Context, req Request) (*Result, error)
}

// AnalyzerFunc adapts a function to Analyzer.
type AnalyzerFunc func(ctx context.Context, req Request) (*Result, error)

// Analyze calls f.
func (f AnalyzerFunc) Analyze(ctx context.Context, req Request) (*Result, error) {
	return f(ctx, req)
}
