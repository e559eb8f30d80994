package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/config"
	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/cmd/collvet/internal/output"
	"github.com/collvet/collvet/rules"
)

// `collvet precommit FILES…` is the pre-commit hook's entry point: it
// analyses the whole project (the current directory, where pre-commit runs
// hooks: the repository root), because a hazard in the committed file may
// depend on code in others (the thread that calls into it, the rank guard
// around its caller), but reports only the findings located in the named
// files, so a commit is never blocked by findings in files it does not
// touch.
func init() {
	Register(&Command{
		Name:  "precommit",
		Usage: "[--root DIR] [--format F] [--select CODES] [--ignore CODES] [--severity S] FILES…",
		Short: "analyse the project, report only findings in FILES (the pre-commit hook)",
		Run:   runPrecommit,
	})
}

func runPrecommit(env *Env, args []string) int {
	batchGC()
	fs := flag.NewFlagSet("collvet precommit", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	root := fs.String("root", ".", "the project directory analysed for context")
	format := fs.String("format", "text", "output format: text, json, sarif or github")
	var selectF, ignore listFlag
	fs.Var(&selectF, "select", "rule codes, prefixes or names to enable (replaces the configuration's select)")
	fs.Var(&ignore, "ignore", "rule codes, prefixes or names to disable (added to the configuration's ignore)")
	severity := fs.String("severity", "info", "report findings of at least this severity: info, warning or error")
	quiet := fs.Bool("quiet", false, "print findings only")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitError
	}
	if !output.Valid(*format) {
		return env.Errorf("unknown --format %q (want %s)", *format, strings.Join(output.Formats, ", "))
	}
	minSev := rules.Severity(*severity)
	if minSev.Rank() == 0 {
		return env.Errorf("unknown --severity %q (want info, warning or error)", *severity)
	}
	for _, s := range append(append([]string{}, selectF...), ignore...) {
		if err := checkCLISelector(s); err != nil {
			return env.Errorf("%v", err)
		}
	}
	if len(files) == 0 {
		return ExitOK // nothing committed that collvet reads
	}
	named := map[string]bool{}
	for _, f := range files {
		named[cleanRel(f)] = true
	}

	cfg, err := config.Discover([]string{*root})
	if err != nil {
		return env.Errorf("configuration: %v", err)
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	merged := *cfg
	if len(selectF) > 0 {
		merged.Select = selectF
	}
	merged.Ignore = append(append([]string{}, cfg.Ignore...), ignore...)

	rep, err := driver.Analyze(context.Background(), driver.Request{Paths: []string{*root}, Config: &merged, Pretouch: true})
	if err != nil {
		return env.Errorf("%v", err)
	}
	// Unreadable files matter only when they are among those committed.
	errs := rep.Errors[:0]
	for _, e := range rep.Errors {
		if named[cleanRel(e.Path)] {
			errs = append(errs, e)
		}
	}
	rep.Errors = errs
	warnErrors(env, rep, *quiet)
	filterSeverity(rep, minSev)
	kept := rep.Diagnostics[:0]
	for _, d := range rep.Diagnostics {
		if named[cleanRel(d.Pos.Path)] {
			kept = append(kept, d)
		}
	}
	rep.Diagnostics = kept

	opts := output.Options{Root: output.RepoRoot("."), Version: Version}
	if err := output.Write(env.Stdout, *format, rep, opts); err != nil {
		return env.Errorf("writing output: %v", err)
	}
	if len(rep.Diagnostics) > 0 {
		if !*quiet && *format == "text" {
			fmt.Fprintf(env.Stderr, "collvet: %d finding(s) in the files being committed; `collvet explain CODE` tells more, `# collvet: ignore[CODE] reason` silences one\n", len(rep.Diagnostics))
		}
		return ExitFindings
	}
	return ExitOK
}

// cleanRel normalises a path for comparison: relative to the working
// directory, cleaned, with forward slashes.
func cleanRel(p string) string {
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil {
				p = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}
