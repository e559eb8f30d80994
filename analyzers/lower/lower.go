package lower

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Analyzer lowers each package with the embedded API tables.
var Analyzer = New(nil)

// New returns a builder analyzer that uses tables (nil: the embedded
// api.Default tables), for drivers that extend the tables from config.
func New(tables *api.Tables) *analysis.Analyzer { return NewConfig(Config{Tables: tables}) }

// Config configures a builder analyzer.
type Config struct {
	// Tables are the API tables (nil: api.Default()).
	Tables *api.Tables
	// Base is the directory model paths are made relative to (files
	// outside it keep absolute paths). Empty: $COLLVET_BASE, else the
	// working directory (go vet runs tools in the package directory).
	Base string
}

// NewConfig returns a builder analyzer configured by c. Each analyzer
// value has its own fact types' owner: use one per driver run.
func NewConfig(c Config) *analysis.Analyzer {
	tables := c.Tables
	return &analysis.Analyzer{
		Name: "collvetlower",
		Doc: "lower Go code that drives NCCL, MPI and CUDA into collvet's model\n\n" +
			"The builder analyzer of collvet's Go front end. It reports nothing; " +
			"its result is the package's rules.Program and its facts summarise, " +
			"for other packages, the communication each function performs.",
		URL:              "https://github.com/collvet/collvet/tree/main/analyzers/lower",
		Run:              func(pass *analysis.Pass) (any, error) { return run(pass, tables, c.Base) },
		RunDespiteErrors: true,
		ResultType:       reflect.TypeFor[*Result](),
		FactTypes:        []analysis.Fact{new(Summary), new(PackageSummary)},
	}
}

// Result is the lowered package.
type Result struct {
	// Prog is the package's model. It is empty (no functions) when the
	// package neither uses cgo nor imports a communication library or a
	// package with summaries.
	Prog *rules.Program
	// Dir is the directory that relative paths in Prog are relative to.
	Dir string

	tokpos map[rules.Pos]token.Pos
	files  map[string]*token.File
}

// TokenPos maps a model position back to the token.Pos it was made from.
// Positions in other packages (from facts) have none.
func (r *Result) TokenPos(p rules.Pos) (token.Pos, bool) {
	if r == nil {
		return token.NoPos, false
	}
	if tp, ok := r.tokpos[rules.Pos{Path: p.Path, Line: p.Line, Col: p.Col}]; ok {
		return tp, true
	}
	// A position computed by a rule (a fix's insertion point): map it
	// through the file's line table when the file is a plain one.
	f := r.files[p.Path]
	if f == nil || p.Line < 1 || p.Line > f.LineCount() {
		return token.NoPos, false
	}
	off := int(f.LineStart(p.Line)-token.Pos(f.Base())) + p.Col - 1
	if off < 0 || off > f.Size() {
		return token.NoPos, false
	}
	return f.Pos(off), true
}

// displayBase returns the directory positions are made relative to: the
// root of the module holding the working directory (go vet runs tools in
// the package directory, and users run go vet from the module root), else
// the working directory. A COLLVET_BASE environment variable overrides it;
// the CLI's loader passes its own.
func displayBase() string {
	if b := os.Getenv("COLLVET_BASE"); b != "" {
		return b
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return wd
		}
		d = up
	}
}

// relPath makes an absolute file name relative to base when it is inside it.
func relPath(base, name string) string {
	if base == "" || !filepath.IsAbs(name) {
		return name
	}
	if r, err := filepath.Rel(base, name); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return name
}

func run(pass *analysis.Pass, tables *api.Tables, base string) (any, error) {
	if !relevant(pass, tables) {
		return &Result{Prog: &rules.Program{}}, nil
	}
	if tables == nil {
		tables = api.Default()
	}
	b := newBuilder(pass, tables)
	if base != "" {
		b.base = base
	}
	b.collect()
	b.lower()
	b.branches()
	b.exportFacts()
	return b.result(), nil
}

// builder holds the state of one package's lowering.
type builder struct {
	pass   *analysis.Pass
	tables *api.Tables
	base   string

	prog   *rules.Program
	tokpos map[rules.Pos]token.Pos
	files  map[string]*token.File

	funcs   []*fn
	byNode  map[ast.Node]*fn
	byObj   map[*types.Func]*fn
	creator map[types.Object]value // communicators / streams assigned from creators
	subst   map[types.Object]ast.Expr
	lockIn  map[*fn]bool // init functions that lock the main thread

	groups   map[string]*rules.Group
	streams  map[string]*rules.Stream
	sites    map[siteKey]*rules.Site
	sitesAt  map[token.Pos]*rules.Site // first site made for a call
	ctxs     map[string]*rules.Context
	ctxOrder []*ctxJob
	spawned  map[*item]bool
	main     *rules.Context
	level    string
	levelPos rules.Pos
	sums     map[*fn]*Summary
	opsMemo  map[*fn]int
	edges    map[edgeKey]*rules.Call
	manyOK   map[*rules.Context]bool // a loop-spawned context reaches a site on a non-indexed value
	loopCtx  map[*rules.Context]bool
}

type siteKey struct {
	pos            token.Pos
	group, stream  string
	wrapper, inner string
}

func newBuilder(pass *analysis.Pass, tables *api.Tables) *builder {
	return &builder{
		pass:    pass,
		tables:  tables,
		base:    displayBase(),
		prog:    &rules.Program{},
		tokpos:  map[rules.Pos]token.Pos{},
		files:   map[string]*token.File{},
		byNode:  map[ast.Node]*fn{},
		byObj:   map[*types.Func]*fn{},
		creator: map[types.Object]value{},
		subst:   map[types.Object]ast.Expr{},
		lockIn:  map[*fn]bool{},
		groups:  map[string]*rules.Group{},
		streams: map[string]*rules.Stream{},
		sites:   map[siteKey]*rules.Site{},
		sitesAt: map[token.Pos]*rules.Site{},
		ctxs:    map[string]*rules.Context{},
		spawned: map[*item]bool{},
		sums:    map[*fn]*Summary{},
		opsMemo: map[*fn]int{},
		edges:   map[edgeKey]*rules.Call{},
		manyOK:  map[*rules.Context]bool{},
		loopCtx: map[*rules.Context]bool{},
	}
}

// relevant is the cheap filter, run before the tables are decoded: most
// packages (the whole standard library under go vet) neither use cgo nor
// import a communication library nor a package that has summaries.
func relevant(pass *analysis.Pass, tables *api.Tables) bool {
	mods := map[string]bool{}
	if tables != nil {
		for _, l := range tables.Libraries {
			if len(l.Collectives) == 0 && len(l.GroupCreators) == 0 {
				continue // spawner-only tables make nothing relevant
			}
			for _, m := range l.Modules {
				mods[m] = true
			}
		}
	} else {
		for _, m := range api.EmbeddedModules() {
			mods[m] = true
		}
	}
	for _, imp := range pass.Pkg.Imports() {
		p := imp.Path()
		if p == "runtime/cgo" || mods[p] {
			return true
		}
		var ps PackageSummary
		if pass.ImportPackageFact(imp, &ps) {
			return true
		}
	}
	for _, f := range pass.Files {
		for _, is := range f.Imports {
			if is.Path != nil && is.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// pos converts a token position to a model position and remembers the
// mapping for the reporting analyzer.
func (b *builder) pos(p, end token.Pos) rules.Pos {
	if !p.IsValid() {
		return rules.Pos{}
	}
	ps := b.pass.Fset.Position(p)
	rp := rules.Pos{Path: relPath(b.base, ps.Filename), Line: ps.Line, Col: ps.Column}
	b.tokpos[rp] = p
	if end.IsValid() {
		pe := b.pass.Fset.Position(end)
		if pe.Filename == ps.Filename {
			rp.EndLine, rp.EndCol = pe.Line, pe.Column
		}
	}
	return rp
}

func (b *builder) nodePos(n ast.Node) rules.Pos { return b.pos(n.Pos(), n.End()) }

// result assembles the Result, with deterministic orders.
func (b *builder) result() *Result {
	p := b.prog
	seen := map[string]bool{}
	for _, f := range b.pass.Files {
		tf := b.pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := b.pass.Fset.Position(f.Pos()).Filename
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(filepath.Base(name), "_cgo_") || seen[name] {
			continue
		}
		seen[name] = true
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		path := relPath(b.base, name)
		p.Files = append(p.Files, &rules.File{Path: path, Lang: rules.Go, Src: src})
		if tf.Name() == name { // plain file: its line table maps model positions back
			b.files[path] = tf
		}
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	for _, g := range b.groups {
		p.Groups = append(p.Groups, g)
	}
	sort.Slice(p.Groups, func(i, j int) bool { return p.Groups[i].ID < p.Groups[j].ID })
	for _, s := range b.streams {
		p.Streams = append(p.Streams, s)
	}
	sort.Slice(p.Streams, func(i, j int) bool { return p.Streams[i].ID < p.Streams[j].ID })
	sort.SliceStable(p.Works, func(i, j int) bool { return lessPos(p.Works[i].Site.Pos, p.Works[j].Site.Pos) })
	for i, s := range p.Sites {
		s.ID = i
	}
	for i, c := range p.Contexts {
		c.ID = i
	}
	for i, f := range p.Funcs {
		f.ID = i
	}
	if b.level != "" {
		p.Facts.RequestMPIThreadLevel(b.level, b.levelPos, nil)
	}
	return &Result{Prog: p, Dir: b.base, tokpos: b.tokpos, files: b.files}
}

func lessPos(a, b rules.Pos) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}
