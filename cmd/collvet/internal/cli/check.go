package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/collvet/collvet/cmd/collvet/internal/atomicfile"
	"github.com/collvet/collvet/cmd/collvet/internal/config"
	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/cmd/collvet/internal/fix"
	"github.com/collvet/collvet/cmd/collvet/internal/output"
	"github.com/collvet/collvet/rules"
	_ "github.com/collvet/collvet/rules/all" // register every rule
)

// The check command is the default: `collvet [flags] [paths | patterns]`.
func init() {
	Register(&Command{
		Name:  "check",
		Usage: "[flags] [paths | Go package patterns]",
		Short: "analyse Python files/directories and Go packages (the default command)",
		Run:   runCheck,
	})
}

// listFlag collects repeatable, comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

type checkFlags struct {
	format     string
	selectF    listFlag
	ignore     listFlag
	severity   string
	jobs       int
	fix        bool
	diff       bool
	addIgnore  *string // --add-ignore REASON; nil when not given
	stats      bool
	quiet      bool
	version    bool
	configFile string
	noConfig   bool
	color      string
	cpuprofile string
	goTags     []string // -tags: Go build tags
	goTests    bool     // -tests: Go test files too
	output     string
	exitZero   bool
}

func newCheckFlagSet(env *Env, f *checkFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("collvet", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&f.format, "format", "text", "output format: text, json, sarif, github or gitlab")
	fs.Var(&f.selectF, "select", "rule codes, prefixes (CV1) or names to enable, comma-separated (replaces the configuration's select)")
	fs.Var(&f.ignore, "ignore", "rule codes, prefixes or names to disable, comma-separated (added to the configuration's ignore)")
	fs.StringVar(&f.severity, "severity", "info", "report findings of at least this severity: info, warning or error")
	fs.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "parallel jobs")
	fs.BoolVar(&f.fix, "fix", false, "apply fixes to the files (atomically; files changed since they were read are not touched)")
	fs.BoolVar(&f.diff, "diff", false, "print the fixes as a unified diff instead of applying them (exit 1 if non-empty)")
	fs.Func("add-ignore", "add `REASON`ed suppression comments (# collvet: ignore[CODE] REASON) for every current finding, to adopt collvet on existing code (with -diff: print them)", func(v string) error {
		if err := driver.CheckIgnoreReason(v); err != nil {
			return err
		}
		f.addIgnore = &v
		return nil
	})
	fs.BoolVar(&f.stats, "stats", false, "print statistics (files, lines, time) on standard error")
	fs.BoolVar(&f.quiet, "quiet", false, "print findings only: no warnings or summaries on standard error")
	fs.BoolVar(&f.version, "version", false, "print collvet's version and exit")
	fs.StringVar(&f.configFile, "config", "", "read configuration from this file instead of discovering pyproject.toml / collvet.toml")
	fs.BoolVar(&f.noConfig, "no-config", false, "ignore configuration files")
	fs.StringVar(&f.color, "color", "auto", "colour the text format: auto (on a terminal), always or never")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the analysis to this file (for performance work)")
	fs.StringVar(&f.output, "output", "", "write the report to this file instead of standard output (replaced whole: written beside it, then renamed)")
	fs.Func("tags", "Go build tags, comma-separated (-tags=cuda,mpi): the files behind `//go:build` lines are analysed with them", func(v string) error {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				f.goTags = append(f.goTags, t)
			}
		}
		return nil
	})
	fs.BoolVar(&f.goTests, "tests", false, "also analyse the Go packages' _test.go files")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 when there are findings or, with -diff, fixes (a usage or internal error still exits 2): for CI steps that upload the report")
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: collvet [flags] [paths | Go package patterns]\n\n"+
			"Analyses the given Python files and directories (as one program) and Go\n"+
			"packages (./...), default \".\". Exit status: 0 no findings, 1 findings,\n"+
			"2 usage or internal error. Flags may come before or after the paths.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses flags that may come before or after positional
// arguments (as go vet and ruff accept); "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func runCheck(env *Env, args []string) int {
	batchGC()
	var f checkFlags
	fs := newCheckFlagSet(env, &f)
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitError
	}
	if f.version {
		fmt.Fprintf(env.Stdout, "collvet %s\n", Version)
		return ExitOK
	}
	if !output.Valid(f.format) {
		return env.Errorf("unknown --format %q (want %s)", f.format, strings.Join(output.Formats, ", "))
	}
	minSev := rules.Severity(f.severity)
	if minSev.Rank() == 0 {
		return env.Errorf("unknown --severity %q (want info, warning or error)", f.severity)
	}
	if f.color != "auto" && f.color != "always" && f.color != "never" {
		return env.Errorf("unknown --color %q (want auto, always or never)", f.color)
	}
	for _, s := range append(append([]string{}, f.selectF...), f.ignore...) {
		if err := checkCLISelector(s); err != nil {
			return env.Errorf("%v", err)
		}
	}
	if f.noConfig && f.configFile != "" {
		return env.Errorf("--config and --no-config exclude each other")
	}
	if f.addIgnore != nil && f.fix {
		return env.Errorf("--add-ignore and --fix exclude each other: fix what can be fixed first, then suppress the rest")
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}

	// Configuration: explicit, none, or discovered; then the flags on top.
	var cfg *config.Config
	switch {
	case f.noConfig:
		cfg = &config.Config{}
	case f.configFile != "":
		cfg, err = config.Load(f.configFile)
	default:
		cfg, err = config.Discover(paths)
	}
	if err != nil {
		return env.Errorf("configuration: %v", err)
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	merged := *cfg
	if len(f.selectF) > 0 {
		merged.Select = f.selectF
	}
	merged.Ignore = append(append([]string{}, cfg.Ignore...), f.ignore...)

	if f.cpuprofile != "" {
		pf, err := os.Create(f.cpuprofile)
		if err != nil {
			return env.Errorf("%v", err)
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			return env.Errorf("%v", err)
		}
		defer func() { pprof.StopCPUProfile(); pf.Close() }()
	}

	ctx := context.Background()
	req := driver.Request{Paths: paths, Config: &merged, Jobs: f.jobs, Pretouch: true, GoTags: f.goTags, GoTests: f.goTests}
	rep, err := driver.Analyze(ctx, req)
	if err != nil {
		return env.Errorf("%v", err)
	}
	warnErrors(env, rep, f.quiet)
	if rep.Stats.Files == 0 {
		// Nothing was analysed: a Go pattern outside any module (`./...`
		// where no go.mod is) is a mistake to stop on, as go vet does;
		// an empty tree is worth a word.
		for _, e := range rep.Errors {
			if e.Kind == "skipped" {
				return env.Errorf("no file was analysed: %s", e.Msg)
			}
		}
		if !f.quiet && len(rep.Errors) == 0 {
			fmt.Fprintf(env.Stderr, "collvet: warning: no Python files or Go packages found under %s (Go files are analysed where a go.mod is, or as a pattern: ./...)\n", strings.Join(paths, " "))
		}
	}
	filterSeverity(rep, minSev)

	if f.addIgnore != nil {
		var code int
		if rep, code = addIgnores(ctx, env, &f, req, rep, minSev); rep == nil {
			return code
		}
	} else if f.fix || f.diff {
		changes, skips := fix.Plan(rep.Files, rep.Diagnostics)
		if !f.quiet {
			for _, s := range skips {
				fmt.Fprintf(env.Stderr, "collvet: %s: fix not applied: %s\n", s.Path, s.Reason)
			}
		}
		if f.diff {
			if code := printDiffs(env, changes); code != ExitFindings || !f.exitZero {
				return code
			}
			return ExitOK
		}
		fixed, files := writeChanges(env, changes, "fix not applied")
		if !f.quiet && files > 0 {
			fmt.Fprintf(env.Stderr, "collvet: applied %s in %s\n", plural(fixed, "fix"), plural(files, "file"))
		}
		if files > 0 {
			// Report what remains, from the fixed sources.
			if rep, err = driver.Analyze(ctx, req); err != nil {
				return env.Errorf("%v", err)
			}
			filterSeverity(rep, minSev)
		}
	}

	opts := output.Options{Root: output.RepoRoot("."), Version: Version}
	switch f.color {
	case "always":
		opts.Color = true
	case "auto":
		opts.Color = f.output == "" && isTerminal(env.Stdout) && os.Getenv("NO_COLOR") == ""
	}
	if f.output == "" {
		if err := output.Write(env.Stdout, f.format, rep, opts); err != nil {
			return env.Errorf("writing output: %v", err)
		}
	} else {
		var buf bytes.Buffer
		if err := output.Write(&buf, f.format, rep, opts); err != nil {
			return env.Errorf("writing output: %v", err)
		}
		if err := atomicfile.Write(f.output, buf.Bytes(), 0o644, nil); err != nil {
			return env.Errorf("writing %s: %v", f.output, err)
		}
	}
	if f.stats {
		printStats(env.Stderr, rep)
	}
	if f.format == "text" && !f.quiet && isTerminal(env.Stderr) {
		// For people at a terminal (ruff prints one too); pipes and CI
		// logs get the findings alone, as from go vet.
		if line := summary(rep.Diagnostics); line != "" {
			fmt.Fprintln(env.Stderr, line)
		}
	}
	if len(rep.Diagnostics) > 0 && !f.exitZero {
		return ExitFindings
	}
	return ExitOK
}

// summary is the one-line count of findings a terminal user sees after
// them: how many, of which severities, in how many files, and how many
// --fix can fix. "" when there are none.
func summary(ds []rules.Diagnostic) string {
	if len(ds) == 0 {
		return ""
	}
	files := map[string]bool{}
	sev := map[rules.Severity]int{}
	fixable := 0
	for _, d := range ds {
		files[d.Pos.Path] = true
		sev[d.Severity]++
		if len(d.Fixes) > 0 {
			fixable++
		}
	}
	var parts []string
	for _, s := range []struct {
		sev  rules.Severity
		noun string
	}{{rules.Error, "error"}, {rules.Warning, "warning"}, {rules.Info, "info"}} {
		if n := sev[s.sev]; n > 0 {
			if s.sev == rules.Info {
				parts = append(parts, fmt.Sprintf("%d info", n))
			} else {
				parts = append(parts, plural(n, s.noun))
			}
		}
	}
	line := fmt.Sprintf("collvet: %s (%s) in %s", plural(len(ds), "finding"), strings.Join(parts, ", "), plural(len(files), "file"))
	if fixable > 0 {
		line += fmt.Sprintf("; %d can be fixed with --fix (--diff shows how)", fixable)
	}
	return line
}

// printDiffs writes the changes as unified diffs (--diff) and returns the
// exit status: findings when there is a diff.
func printDiffs(env *Env, changes []*fix.Change) int {
	n := 0
	for _, c := range changes {
		if d := c.Diff(); d != "" {
			io.WriteString(env.Stdout, d)
			n++
		}
	}
	if n > 0 {
		return ExitFindings
	}
	return ExitOK
}

// writeChanges writes the changes (atomically, see fix.Change.Write),
// saying on stderr which could not be written and why (failed: "fix not
// applied"), and returns how many edits and files were written.
func writeChanges(env *Env, changes []*fix.Change, failed string) (edits, files int) {
	for _, c := range changes {
		if err := c.Write(); err != nil {
			fmt.Fprintf(env.Stderr, "collvet: %s: %s: %v\n", c.Path, failed, err)
			continue
		}
		edits += c.Fixes
		files++
	}
	return edits, files
}

// checkCLISelector accepts selectors that name at least one rule.
func checkCLISelector(s string) error {
	if err := config.CheckSelector(s); err != nil {
		return err
	}
	for _, r := range rules.All() {
		if config.Matches(s, r) {
			return nil
		}
	}
	return fmt.Errorf("%q selects no rule (see `collvet rules`)", s)
}

func filterSeverity(rep *driver.Report, min rules.Severity) {
	kept := rep.Diagnostics[:0]
	for _, d := range rep.Diagnostics {
		if d.Severity.Rank() >= min.Rank() {
			kept = append(kept, d)
		}
	}
	rep.Diagnostics = kept
}

// warnErrors prints the files that could not be analysed (other than
// syntax errors, which are CV000 findings).
func warnErrors(env *Env, rep *driver.Report, quiet bool) {
	if quiet {
		return
	}
	for _, e := range rep.Errors {
		if e.Kind == "syntax" || e.Kind == "decode" {
			continue
		}
		fmt.Fprintf(env.Stderr, "collvet: warning: %s (%s)\n", e.Error(), e.Kind)
	}
}

func printStats(w io.Writer, rep *driver.Report) {
	s := rep.Stats
	fmt.Fprintf(w, "files: %d, lines: %d, bytes: %d, parse errors: %d, findings: %d, time: %.3fs\n",
		s.Files, s.Lines, s.Bytes, s.ParseErrors, len(rep.Diagnostics), s.Seconds)
	counts := map[string]int{}
	for _, d := range rep.Diagnostics {
		counts[d.Rule+" "+d.Name]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %5d  %s\n", counts[k], k)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// batchGC tunes the garbage collector for a one-shot run: the
// whole-program analysis allocates many small objects that live until the
// run ends, so collecting less often saves time at a bounded memory cost.
// It is set here, in the batch commands, and not in the analysis library,
// because the GC percentage is process-global and the long-lived LSP
// server runs analyses concurrently.
func batchGC() { debug.SetGCPercent(batchGCPercent) }

// batchGCPercent is the GC percentage of one-shot analyses.
const batchGCPercent = 400
