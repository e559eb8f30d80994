// Package driver runs one collvet analysis: it resolves the paths, loads
// the configuration, runs the front ends (Python, and Go when wired), runs
// the selected rules over the merged program and post-processes their
// findings (severity overrides, select/ignore, suppressions, per-path
// ignores). The check command and the LSP server both call Analyze; output
// formats and fixes live in their own packages.
//
// The order of the findings is deterministic whatever the scheduling of the
// parallel front ends: everything is sorted before it is returned.
package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/collvet/collvet/cmd/collvet/internal/config"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Request is one analysis.
type Request struct {
	Paths   []string          // files, dirs, Go package patterns (./...); default "."
	Overlay map[string][]byte // unsaved editor buffers by path
	Config  *config.Config    // nil: discover from the paths
	Jobs    int               // 0: all cores
	// Cache is passed through to the Python front end (a *pyfront.Cache,
	// for the LSP server); nil for none.
	Cache any
	// Pretouch: a batch run (or a server's first analysis) that may touch
	// the heap it will need up front (pyfront.Options.Pretouch).
	Pretouch bool
	// NoGoModules: do not analyse a directory holding go.mod as Go
	// (./...) too; explicit Go patterns and .go files are still analysed.
	// Loading Go packages takes seconds, which an editor serving Python
	// files may not want on every change.
	NoGoModules bool
	// GoTags are build tags for the Go packages (-tags=cuda), and GoTests
	// adds their _test.go files (as go vet does).
	GoTags  []string
	GoTests bool
}

// Report is the result of Analyze.
type Report struct {
	// Diagnostics after severity overrides, select/ignore, suppressions and
	// per-path ignores, sorted by path, line, column, code.
	Diagnostics []rules.Diagnostic
	Files       []*rules.File // the analysed sources, sorted by path
	// Errors lists files that could not be analysed. Syntax and decoding
	// errors also appear as CV000 diagnostics.
	Errors []FileError
	Stats  Stats
	// Config is the configuration used (nil: defaults).
	Config *config.Config
	// Rules are the rules that ran (the enabled ones), sorted by code.
	Rules []*rules.Rule
	// Program is the merged model the rules ran on (Python and Go), for
	// the debug commands.
	Program *rules.Program
}

// FileError is a file that could not be analysed (pyfront.FileError's shape).
type FileError struct {
	Path      string
	Line, Col int
	Msg       string
	Kind      string // syntax | read | decode | binary | too-large | skipped | incomplete (Go: type errors)
}

func (e FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Stats are counters of one run.
type Stats struct {
	Files       int
	ParseErrors int
	Lines       int
	Bytes       int64
	Seconds     float64
}

// PyOptions mirror pyfront.Options.
type PyOptions struct {
	Tables  *api.Tables
	Overlay map[string][]byte
	Exclude func(path string, isDir bool) bool
	Jobs    int
	Cache   any
	// Pretouch is Request.Pretouch.
	Pretouch bool
}

// PyResult mirrors pyfront.Result.
type PyResult struct {
	Program *rules.Program
	Errors  []FileError
	Files   int
	Bytes   int64
	Lines   int
}

// PythonFrontend loads Python paths into one program. It is a variable so
// tests can inject synthetic programs; pyfront.go wires pyfront.Load. Its
// error is for unusable input only (a missing path).
var PythonFrontend func(ctx context.Context, paths []string, opts PyOptions) (*PyResult, error)

// GoOptions are passed to the Go front end.
type GoOptions struct {
	Tables  *api.Tables
	Overlay map[string][]byte
	Jobs    int
	Tags    []string
	Tests   bool
}

// GoFrontend loads Go package patterns (./..., import paths, file=x.go)
// relative to dir into a program. nil: Go is not analysed, and Go patterns
// are reported as an error. gofront.go wires analyzers/load.
var GoFrontend func(ctx context.Context, patterns []string, dir string, opts GoOptions) (*rules.Program, []FileError, error)

// GoChecks, when set, runs checks that only the Go front end can make over
// the merged program (analyzers/collvet.Extra); its findings are filtered
// like every rule's. It runs only when Go files were analysed.
var GoChecks func(prog *rules.Program) []rules.Diagnostic

// Rules returns the rules to run; tests replace it.
var Rules = rules.All

// PathError is an unusable path argument (a missing file): exit 2.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Analyze runs one analysis.
func Analyze(ctx context.Context, req Request) (*Report, error) {
	start := time.Now()
	paths := req.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	jobs := req.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	cfg := req.Config
	if cfg == nil {
		var err error
		if cfg, err = config.Discover(paths); err != nil {
			return nil, err
		}
	}
	tables := api.Default()
	if cfg != nil && cfg.Library != nil {
		tables = tables.Extend(cfg.Library)
	}

	pyPaths, goPatterns, err := classify(paths, req.Overlay, !req.NoGoModules)
	if err != nil {
		return nil, err
	}
	prog := &rules.Program{}
	rep := &Report{Config: cfg, Program: prog}
	if len(pyPaths) > 0 {
		if PythonFrontend == nil {
			return nil, errors.New("the Python front end is not available in this build")
		}
		ex := newExcluder(cfg, pyPaths)
		res, err := PythonFrontend(ctx, pyPaths, PyOptions{
			Tables: tables, Overlay: req.Overlay, Exclude: ex.Exclude, Jobs: jobs, Cache: req.Cache, Pretouch: req.Pretouch,
		})
		if err != nil {
			return nil, err
		}
		if res != nil {
			prog.Merge(res.Program)
			rep.Errors = append(rep.Errors, res.Errors...)
			rep.Stats.Files += res.Files
			rep.Stats.Bytes += res.Bytes
			rep.Stats.Lines += res.Lines
		}
	}
	if len(goPatterns) > 0 {
		if GoFrontend == nil {
			return nil, fmt.Errorf("Go packages (%s): the Go front end is not available in this build", strings.Join(goPatterns, " "))
		}
		// One load for the patterns, one per module directory.
		jobsByDir := map[string][]string{}
		var dirs []string
		for _, pat := range goPatterns {
			dir, pats := ".", []string{pat}
			if d, ok := strings.CutPrefix(pat, "dir="); ok {
				dir, pats = d, []string{"./..."}
			} else if d, ok := strings.CutPrefix(pat, "pkg="); ok {
				dir = moduleRoot(d)
				absDir, err1 := filepath.Abs(dir)
				absPkg, err2 := filepath.Abs(d)
				rel, err := filepath.Rel(absDir, absPkg)
				if err = errors.Join(err1, err2, err); err != nil {
					return nil, &PathError{Path: d, Err: err}
				}
				pats = []string{"./" + filepath.ToSlash(rel)}
			}
			if _, ok := jobsByDir[dir]; !ok {
				dirs = append(dirs, dir)
			}
			jobsByDir[dir] = append(jobsByDir[dir], pats...)
		}
		seen := map[string]bool{}
		for _, dir := range dirs {
			gp, errs, err := GoFrontend(ctx, jobsByDir[dir], dir, GoOptions{Tables: tables, Overlay: req.Overlay, Jobs: jobs, Tags: req.GoTags, Tests: req.GoTests})
			if err != nil {
				return nil, err
			}
			rep.Errors = append(rep.Errors, errs...)
			if gp == nil {
				continue
			}
			// A file loaded twice (a module inside ".") counts once; the
			// duplicate findings it causes are removed after the rules.
			files := gp.Files[:0]
			for _, f := range gp.Files {
				if !seen[f.Path] {
					seen[f.Path] = true
					files = append(files, f)
					rep.Stats.Files++
					rep.Stats.Bytes += int64(len(f.Src))
					rep.Stats.Lines += countLines(f.Src)
				}
			}
			gp.Files = files
			prog.Merge(gp)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	rep.Files = append(rep.Files, prog.Files...)
	sort.SliceStable(rep.Files, func(i, j int) bool { return rep.Files[i].Path < rep.Files[j].Path })
	sort.SliceStable(rep.Errors, func(i, j int) bool {
		a, b := rep.Errors[i], rep.Errors[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})

	enabled := selectRules(Rules(), cfg)
	for _, r := range enabled {
		rep.Rules = append(rep.Rules, r)
	}
	sort.Slice(rep.Rules, func(i, j int) bool { return rep.Rules[i].Code < rep.Rules[j].Code })
	diags := runRules(prog, enabled)
	if GoChecks != nil && hasGo(prog) {
		diags = append(diags, GoChecks(prog)...)
	}
	diags = postprocess(diags, rep.Files, rep.Errors, cfg, enabled)
	rep.Diagnostics = diags
	for _, e := range rep.Errors {
		if e.Kind == "syntax" || e.Kind == "decode" {
			rep.Stats.ParseErrors++
		}
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// classify splits the arguments into Python paths and Go patterns. A
// directory holding a go.mod is also analysed as Go (dir/...) when the Go
// front end is wired.
func classify(paths []string, overlay map[string][]byte, goModules bool) (py, gopat []string, err error) {
	for _, p := range paths {
		switch {
		case strings.Contains(p, "..."):
			gopat = append(gopat, p)
			continue
		case strings.HasPrefix(p, "file="):
			gopat = append(gopat, p)
			continue
		}
		if _, ok := overlay[p]; ok {
			py = append(py, p)
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			if os.IsNotExist(err) && GoFrontend != nil && goModules && importPath(p) {
				// collvet example.com/m/internal/nccl, as go vet takes it:
				// a package of the module in the working directory, or
				// one it requires.
				gopat = append(gopat, p)
				continue
			}
			if os.IsNotExist(err) {
				return nil, nil, &PathError{Path: p, Err: errors.New("no such file or directory")}
			}
			return nil, nil, &PathError{Path: p, Err: err}
		}
		if !fi.IsDir() && strings.HasSuffix(p, ".go") {
			gopat = append(gopat, "file="+p)
			continue
		}
		py = append(py, p)
		if fi.IsDir() && GoFrontend != nil && goModules {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				// Loaded from the module's own directory (it may be a
				// module of its own); paths stay relative to the working
				// directory (GoFrontend's Base).
				gopat = append(gopat, "dir="+p)
			} else if hasGoFiles(p) && moduleRoot(p) != "" {
				// A package directory inside a module (collvet ./cmd/x,
				// as go vet ./cmd/x): that package alone, loaded from the
				// module's directory.
				gopat = append(gopat, "pkg="+p)
			}
		}
	}
	return py, gopat, nil
}

// importPath reports an argument that names a Go package by its import
// path rather than a file: no leading ./, ../ or /, no .py suffix, and a
// first element that is a domain (github.com/…) or the path of the module
// in the working directory (its go.mod's module line) leads it.
func importPath(p string) bool {
	if p == "" || strings.HasPrefix(p, ".") || filepath.IsAbs(p) || strings.HasSuffix(p, ".py") || strings.ContainsAny(p, " \\") {
		return false
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ".") {
		return true
	}
	mod := modulePath("go.mod")
	return mod != "" && (p == mod || strings.HasPrefix(p, mod+"/"))
}

// modulePath returns the module path a go.mod declares, or "".
func modulePath(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(b)
}

// hasGoFiles reports whether dir holds a .go file of its own.
func hasGoFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

// moduleRoot returns the directory of the go.mod above dir (as a path
// relative to the working directory when dir is), or "" when there is
// none.
func moduleRoot(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		abs, err := filepath.Abs(d)
		if err != nil || filepath.Dir(abs) == abs {
			return ""
		}
		d = filepath.Join(d, "..")
	}
}

// selectRules applies the configuration's select and ignore lists.
func selectRules(all []*rules.Rule, cfg *config.Config) map[string]*rules.Rule {
	out := map[string]*rules.Rule{}
	for _, r := range all {
		if cfg != nil {
			if len(cfg.Select) > 0 && !config.MatchesAny(cfg.Select, r) {
				continue
			}
			if config.MatchesAny(cfg.Ignore, r) {
				continue
			}
		}
		out[r.Code] = r
	}
	return out
}

// runRules runs the enabled rules. A rule that panics is an internal bug:
// it becomes an error finding instead of taking the run down.
func runRules(prog *rules.Program, enabled map[string]*rules.Rule) []rules.Diagnostic {
	codes := make([]string, 0, len(enabled))
	for c := range enabled {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var out []rules.Diagnostic
	for _, c := range codes {
		r := enabled[c]
		if r.Run == nil {
			continue
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(os.Stderr, "collvet: internal error in rule %s: %v\n", r.Code, p)
				}
			}()
			out = append(out, rules.Run(prog, []*rules.Rule{r})...)
		}()
	}
	return out
}

// postprocess applies severity overrides, suppressions, per-path ignores,
// adds CV000/CV001/CV002 findings, removes duplicates and sorts.
func postprocess(diags []rules.Diagnostic, files []*rules.File, errs []FileError, cfg *config.Config, enabled map[string]*rules.Rule) []rules.Diagnostic {
	broken := map[string]bool{}
	type pathLine struct {
		path string
		line int
	}
	// One syntax error per line: a parser that recovers reports the
	// consequences of one mistake too (`def f(:` is an unclosed bracket
	// and a missing name), which would only repeat the first.
	reported := map[pathLine]bool{}
	for _, e := range errs {
		if e.Kind == "syntax" || e.Kind == "decode" {
			broken[e.Path] = true
			if enabled[SyntaxError.Code] != nil {
				line, col := e.Line, e.Col
				if line < 1 {
					line, col = 1, 1
				}
				if col < 1 {
					col = 1
				}
				if k := (pathLine{e.Path, line}); reported[k] {
					continue
				} else {
					reported[k] = true
				}
				diags = append(diags, rules.Diagnostic{
					Rule: SyntaxError.Code, Name: SyntaxError.Name, Severity: SyntaxError.Severity,
					Pos:     rules.Pos{Path: e.Path, Line: line, Col: col},
					Message: e.Msg,
				})
			}
		}
	}

	// Suppressions, per file.
	byPath := map[string][]*suppression{}
	for _, f := range files {
		if s := findSuppressions(f); len(s) > 0 {
			byPath[f.Path] = s
		}
	}
	kept := diags[:0]
	for i := range diags {
		d := &diags[i]
		suppressed := false
		for _, s := range byPath[d.Pos.Path] {
			if k := s.covers(d); k >= 0 {
				s.used[k] = true
				suppressed = true
			}
		}
		if !suppressed {
			kept = append(kept, *d)
		}
	}
	diags = kept
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, s := range byPath[p] {
			if s.problem != "" {
				diags = append(diags, rules.Diagnostic{
					Rule: InvalidSuppression.Code, Name: InvalidSuppression.Name, Severity: InvalidSuppression.Severity,
					Pos: s.pos, Message: s.problem,
				})
				continue
			}
			if broken[p] {
				continue // findings of an unparsable file are unknown
			}
			for i, c := range s.codes {
				if s.used[i] || !allEnabled(c, enabled) {
					continue
				}
				msg := fmt.Sprintf("suppression of %s silences nothing on line %d; remove it", c, s.line)
				if s.file {
					msg = fmt.Sprintf("file-level suppression of %s silences nothing in this file; remove it", c)
				}
				diags = append(diags, rules.Diagnostic{
					Rule: UnusedSuppression.Code, Name: UnusedSuppression.Name, Severity: UnusedSuppression.Severity,
					Pos:     s.pos,
					Message: msg,
					Fixes:   unusedFix(s, c, files),
				})
			}
		}
	}

	// Severity overrides, select/ignore of the driver's own codes, per-path ignores.
	kept = diags[:0]
	for _, d := range diags {
		r := enabled[d.Rule]
		if r == nil {
			continue
		}
		if cfg != nil {
			if s, ok := cfg.Severity[d.Rule]; ok {
				d.Severity = s
			}
			if sel := cfg.IgnoredAt(d.Pos.Path); len(sel) > 0 && config.MatchesAny(sel, r) {
				continue
			}
		}
		kept = append(kept, d)
	}
	diags = dedupe(kept)
	rules.SortDiagnostics(diags)
	return diags
}

// allEnabled reports whether every rule selector c names is enabled: only
// then can a suppression be known to be unused.
func allEnabled(c string, enabled map[string]*rules.Rule) bool {
	any := false
	for _, r := range rules.All() {
		if config.Matches(c, r) {
			if enabled[r.Code] == nil {
				return false
			}
			any = true
		}
	}
	return any
}

// unusedFix removes a directive that names only one code.
func unusedFix(s *suppression, code string, files []*rules.File) []rules.Fix {
	if len(s.codes) != 1 {
		return nil
	}
	var f *rules.File
	for _, x := range files {
		if x.Path == s.pos.Path {
			f = x
		}
	}
	if f == nil {
		return nil
	}
	// Remove the comment and the whitespace before it.
	lines := strings.SplitAfter(string(f.Src), "\n")
	if s.pos.Line > len(lines) {
		return nil
	}
	text := lines[s.pos.Line-1]
	startCol := s.pos.Col
	for startCol > 1 && (text[startCol-2] == ' ' || text[startCol-2] == '\t') {
		startCol--
	}
	if startCol == 1 { // the whole line
		return []rules.Fix{{Title: "Remove the unused suppression", Edits: []rules.Edit{{
			Pos: rules.Pos{Path: f.Path, Line: s.pos.Line, Col: 1, EndLine: s.pos.Line + 1, EndCol: 1}}}}}
	}
	return []rules.Fix{{Title: "Remove the unused suppression", Edits: []rules.Edit{{
		Pos: rules.Pos{Path: f.Path, Line: s.pos.Line, Col: startCol, EndLine: s.pos.Line, EndCol: s.pos.EndCol}}}}}
}

func dedupe(ds []rules.Diagnostic) []rules.Diagnostic {
	type key struct {
		rule string
		pos  rules.Pos
		msg  string
	}
	seen := map[key]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := key{d.Rule, d.Pos, d.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

func hasGo(p *rules.Program) bool {
	for _, f := range p.Files {
		if f.Lang == rules.Go {
			return true
		}
	}
	return false
}

func countLines(src []byte) int {
	n := 0
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
