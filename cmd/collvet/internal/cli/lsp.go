package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/cmd/collvet/internal/lsp"
	"github.com/collvet/collvet/pyfront"
	"github.com/collvet/collvet/rules"
)

// `collvet lsp` runs the language server on stdin/stdout.
func init() {
	Register(&Command{
		Name:  "lsp",
		Usage: "[--ignore CODES] [--debounce DURATION] [--log FILE]",
		Short: "run the language server over stdio (editors: diagnostics, quick fixes, hover)",
		Run:   runLSP,
	})
}

func runLSP(env *Env, args []string) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var ignore listFlag
	fs.Var(&ignore, "ignore", "rule codes, prefixes or names never reported (comma-separated, repeatable)")
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "wait this long after an edit before analysing (0: analyse at once)")
	logFile := fs.String("log", "", "append the server's log to this file (default: stderr)")
	if err := fs.Parse(args); err != nil {
		return ExitError
	}
	if fs.NArg() > 0 {
		return env.Errorf("lsp: unexpected arguments %q (the server speaks LSP on stdin/stdout)", fs.Args())
	}
	var log io.Writer = env.Stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return env.Errorf("lsp: %v", err)
		}
		defer f.Close()
		log = f
	}
	// One cache for the session: the Python front end keeps per-module
	// work by content hash, so after an edit only the changed module is
	// parsed and summarised again.
	cache := pyfront.NewCache()
	var warmedUp atomic.Bool
	srv := lsp.NewServer(lsp.Options{
		Suppress: func(f *rules.File, d rules.Diagnostic) (rules.Fix, bool) {
			ds, _ := driver.SuppressionFixes([]*rules.File{f}, []rules.Diagnostic{d}, "")
			if len(ds) == 0 {
				return rules.Fix{}, false
			}
			return ds[0].Fixes[0], true
		},
		SuppressFile: func(f *rules.File, d rules.Diagnostic) (rules.Fix, bool) {
			return driver.FileSuppressionFix(f, d.Rule), true
		},
		Analyzer: lsp.AnalyzerFunc(func(ctx context.Context, req lsp.Request) (*lsp.Result, error) {
			// The first analysis parses and summarises the whole workspace
			// from nothing: like a batch run, it collects garbage less
			// often (the server runs one analysis at a time). Later
			// analyses reuse the cache and keep the default, which holds
			// the long-lived server's memory down.
			first := !warmedUp.Swap(true)
			if first && os.Getenv("GOGC") == "" {
				defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
			}
			// The configuration is discovered again on every run (Config
			// nil), so pyproject.toml/collvet.toml edits take effect.
			rep, err := driver.Analyze(ctx, driver.Request{Paths: req.Roots, Overlay: req.Overlay, Cache: cache, Pretouch: first})
			if err != nil {
				return nil, err
			}
			return &lsp.Result{Diagnostics: rep.Diagnostics, Files: rep.Files}, nil
		}),
		Unchanged: cache.Unchanged,
		Debounce:  lspDebounce(*debounce),
		Ignore:    ignore,
		Version:   Version,
		Log:       log,
	})
	var rwc io.ReadWriteCloser = lsp.Stdio()
	if env.Stdin != os.Stdin || env.Stdout != os.Stdout {
		rwc = envStream{env}
	}
	err := srv.Serve(context.Background(), rwc)
	switch {
	case errors.Is(err, lsp.ErrExitWithoutShutdown):
		return 1
	case err != nil:
		return env.Errorf("lsp: %v", err)
	}
	return ExitOK
}

// envStream serves on a command's own streams (tests run commands with
// buffers, not the process's stdio).
type envStream struct{ env *Env }

func (s envStream) Read(p []byte) (int, error)  { return s.env.Stdin.Read(p) }
func (s envStream) Write(p []byte) (int, error) { return s.env.Stdout.Write(p) }
func (s envStream) Close() error {
	if c, ok := s.env.Stdin.(io.Closer); ok {
		c.Close()
	}
	return nil
}

// lspDebounce maps the --debounce flag to lsp.Options.Debounce: the
// flag's 0 means "no wait", where the option's 0 means the default.
func lspDebounce(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
