// Package load is the Go front end's driver for collvet's CLI: it loads Go
// package patterns with go/packages, runs the builder analyzer
// (analyzers/lower) over them with go/analysis/checker, facts included,
// and merges the per-package models into one rules.Program, which the CLI
// merges with the Python front end's before running the rules.
package load

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/collvet/collvet/analyzers/lower"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Options tune a load.
type Options struct {
	Context context.Context
	// Tables are the API tables (nil: api.Default()), e.g. extended from
	// the user's configuration.
	Tables *api.Tables
	// Overlay maps absolute file names to unsaved contents (editor
	// buffers).
	Overlay map[string][]byte
	// Tests includes the packages' test files.
	Tests bool
	// BuildFlags are passed to the go command (-tags=mpi).
	BuildFlags []string
	// Base is the directory model paths are made relative to ("": dir).
	Base string
}

// Load loads the Go packages that patterns (./..., import paths,
// file=x.go) denote, relative to dir, and lowers them into one program.
// Paths in the program are relative to dir when inside it. The errors are
// the packages' load and type errors and analysis failures; the program
// holds whatever could be analysed.
func Load(patterns []string, dir string) (*rules.Program, []error) {
	return LoadWith(patterns, dir, Options{})
}

// LoadWith is Load with options.
func LoadWith(patterns []string, dir string, opts Options) (*rules.Program, []error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &rules.Program{}, []error{err}
	}
	base := abs
	if opts.Base != "" {
		if b, err := filepath.Abs(opts.Base); err == nil {
			base = b
		}
	}
	low := lower.NewConfig(lower.Config{Tables: opts.Tables, Base: base})
	cfg := &packages.Config{
		Env:        cgoEnv(),
		Mode:       packages.LoadAllSyntax | packages.NeedModule,
		Context:    opts.Context,
		Dir:        abs,
		Tests:      opts.Tests,
		Overlay:    opts.Overlay,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return &rules.Program{}, []error{fmt.Errorf("loading Go packages: %w", err)}
	}
	var errs []error
	// With Tests, a package comes back twice (p and p [p.test]), each with
	// its own errors: one is told once. The package's own cgo error comes
	// first and says why; its test variant's, at the same place, often
	// only that no C compiler ran.
	told := map[string]bool{}
	for _, p := range pkgs {
		for _, e := range cgoErrors(p) {
			key := e.Pos + "\x00" + e.Msg
			if strings.HasPrefix(e.Msg, cgoFailure) {
				key = e.Pos + "\x00" + cgoFailure
			}
			if !told[key] {
				told[key] = true
				errs = append(errs, e)
			}
		}
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{low}, pkgs, &checker.Options{})
	if err != nil {
		errs = append(errs, err)
	}
	prog := &rules.Program{}
	if graph == nil {
		return prog, errs
	}
	roots := append([]*checker.Action(nil), graph.Roots...)
	sort.Slice(roots, func(i, j int) bool { return roots[i].Package.ID < roots[j].Package.ID })
	for _, act := range roots {
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", act.Package.PkgPath, act.Err))
			continue
		}
		if res, ok := act.Result.(*lower.Result); ok && res != nil {
			prog.Merge(res.Prog)
		}
		listFiles(prog, act.Package, base)
	}
	Canonicalize(prog)
	return prog, errs
}

// listFiles adds a root package's files that its lowering did not list:
// the lowering skips a package that uses no communication library, but
// its files were still analysed (the counts of --stats, and the Go
// suppression directives, which are checked in every file).
func listFiles(prog *rules.Program, p *packages.Package, base string) {
	listed := map[string]bool{}
	for _, f := range prog.Files {
		listed[f.Path] = true
	}
	for _, name := range p.GoFiles {
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(filepath.Base(name), "_cgo_") {
			continue
		}
		path := name
		if r, err := filepath.Rel(base, name); err == nil && !strings.HasPrefix(r, "..") {
			path = r
		}
		if listed[path] {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		listed[path] = true
		prog.Files = append(prog.Files, &rules.File{Path: path, Lang: rules.Go, Src: src})
	}
}

// cgoEnv is the go command's environment: the process's, with cgo on
// unless CGO_ENABLED is set. The go command turns cgo off by itself where
// it finds no C compiler, and then leaves out every file that imports "C"
// (an NCCL or MPI binding is nothing else); collvet compiles nothing, so
// it reads those files as written instead (see cgoFailure).
func cgoEnv() []string {
	env := os.Environ()
	if _, set := os.LookupEnv("CGO_ENABLED"); !set {
		env = append(env, "CGO_ENABLED=1")
	}
	return env
}

// cgoErrors returns a package's errors, with a failure of cgo's
// processing (most often a C header, nccl.h or mpi.h, missing on a
// machine that only lints, or no C compiler) told once: go list then hands
// back the files as written, the lowering reads their C.name calls as they
// are, and the package is analysed. The go command's compiler output (a
// list error) and the "could not import C" type errors become one error
// that says so; the package's other errors are kept.
func cgoErrors(p *packages.Package) []packages.Error {
	var importC *packages.Error
	for i := range p.Errors {
		if e := &p.Errors[i]; e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import C ") {
			importC = e
			break
		}
	}
	if importC == nil {
		return p.Errors
	}
	why := "no C compiler ran"
	var out []packages.Error
	listed := false
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import C "):
		case e.Kind == packages.ListError && !listed && isCgoOutput(e.Msg):
			why, listed = compilerError(e.Msg), true
		default:
			out = append(out, e)
		}
	}
	return append([]packages.Error{{
		Pos:  importC.Pos,
		Kind: packages.TypeError,
		Msg:  cgoFailure + " (" + why + "); analysed without the C declarations",
	}}, out...)
}

// cgoFailure begins the error cgoErrors makes of a failed cgo run.
const cgoFailure = "cgo could not process this package's C code"

// isCgoOutput reports a go command error that is the C compiler's (or
// cgo's) output for the package.
func isCgoOutput(msg string) bool {
	return strings.Contains(msg, "error:") || strings.Contains(msg, "cgo") || strings.Contains(msg, "C compiler")
}

// compilerError picks the C compiler's first error line out of the go
// command's output ("./nc.go:4:11: fatal error: nccl.h: No such file or
// directory" gives "nccl.h: No such file or directory").
func compilerError(out string) string {
	for _, line := range strings.Split(out, "\n") {
		for _, mark := range []string{"fatal error: ", "error: "} {
			if i := strings.Index(line, mark); i >= 0 {
				return strings.TrimSpace(line[i+len(mark):])
			}
		}
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(out, "# "), "\n")
	return strings.TrimSpace(first)
}

// Canonicalize makes a merged Go program consistent: one Group and Stream
// per identity, one main context, one context per goroutine spawn (a
// package's own view of a spawn and an importer's view through facts are
// the same goroutine), files listed once, IDs renumbered.
func Canonicalize(p *rules.Program) {
	groups := map[string]*rules.Group{}
	var gs []*rules.Group
	canonG := func(g *rules.Group) *rules.Group {
		if g == nil {
			return nil
		}
		if c := groups[g.ID]; c != nil {
			return c
		}
		groups[g.ID] = g
		gs = append(gs, g)
		return g
	}
	streams := map[string]*rules.Stream{}
	var ss []*rules.Stream
	canonS := func(s *rules.Stream) *rules.Stream {
		if s == nil {
			return nil
		}
		if c := streams[s.ID]; c != nil {
			return c
		}
		streams[s.ID] = s
		ss = append(ss, s)
		return s
	}
	for _, g := range p.Groups {
		canonG(g)
	}
	for _, s := range p.Streams {
		canonS(s)
	}
	// Contexts: one main, one per (kind, spawn position).
	type ckey struct {
		kind  rules.ContextKind
		spawn rules.Pos
	}
	ctxs := map[ckey]*rules.Context{}
	alias := map[*rules.Context]*rules.Context{}
	var cs []*rules.Context
	var main *rules.Context
	for _, c := range p.Contexts {
		if c.Kind == rules.Main {
			if main == nil {
				main = c
				cs = append(cs, c)
			} else {
				if main.Entry == nil {
					main.Entry = c.Entry
				}
				main.LockedOSThread = main.LockedOSThread || c.LockedOSThread
				alias[c] = main
			}
			continue
		}
		k := ckey{c.Kind, rules.Pos{Path: c.Spawn.Path, Line: c.Spawn.Line, Col: c.Spawn.Col}}
		if c.Kind != rules.Goroutine || !c.Spawn.IsValid() {
			cs = append(cs, c)
			continue
		}
		if o := ctxs[k]; o != nil {
			o.Many = o.Many || c.Many
			o.Joined = o.Joined && c.Joined
			o.LockedOSThread = o.LockedOSThread && c.LockedOSThread
			if o.Entry == nil {
				o.Entry = c.Entry
			}
			alias[c] = o
			continue
		}
		ctxs[k] = c
		cs = append(cs, c)
	}
	canonC := func(c *rules.Context) *rules.Context {
		if a := alias[c]; a != nil {
			return a
		}
		return c
	}
	for _, c := range cs {
		c.Parent = canonC(c.Parent)
		c.Group = canonG(c.Group)
	}
	for _, s := range p.Sites {
		s.Group = canonG(s.Group)
		s.Stream = canonS(s.Stream)
		for i, g := range s.Groups {
			s.Groups[i] = canonG(g)
		}
		if s.Via != nil {
			s.Via.Group, s.Via.Stream = canonG(s.Via.Group), canonS(s.Via.Stream)
		}
		seen := map[*rules.Context]bool{}
		reach := s.Reach[:0]
		for _, r := range s.Reach {
			r.Ctx = canonC(r.Ctx)
			r.Group = canonG(r.Group)
			if seen[r.Ctx] && r.Group == nil {
				continue
			}
			seen[r.Ctx] = true
			reach = append(reach, r)
		}
		s.Reach = reach
	}
	for _, f := range p.Funcs {
		for _, e := range f.Events {
			e.Stream, e.Other = canonS(e.Stream), canonS(e.Other)
		}
	}
	files := map[string]bool{}
	fs := p.Files[:0]
	for _, f := range p.Files {
		if !files[f.Path] {
			files[f.Path] = true
			fs = append(fs, f)
		}
	}
	p.Files, p.Groups, p.Streams, p.Contexts = fs, gs, ss, cs
	for i, f := range p.Funcs {
		f.ID = i
	}
	for i, c := range p.Contexts {
		c.ID = i
	}
	for i, s := range p.Sites {
		s.ID = i
	}
}
