package pyfront

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/model"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Options configure Load.
type Options struct {
	Tables  *api.Tables                        // nil: api.Default()
	Overlay map[string][]byte                  // unsaved buffers, keyed by path as given/cleaned
	Exclude func(path string, isDir bool) bool // extra excludes (config globs, .gitignore); may be nil
	Jobs    int                                // 0: GOMAXPROCS
	Cache   *Cache                             // optional; per-module summaries cached by content hash
	// Pretouch: for one-shot runs, touch about the memory the analysis
	// will need on a spare core while parsing (see pretouch.go). It
	// triggers a garbage collection, so long-lived callers should set it
	// only for their first, whole-workspace analysis.
	Pretouch bool
	// PyCGSelf builds the call graph with PyCG's convention for method
	// receivers (callgraph.Options.SelfInstances), for the exported call
	// graph; the findings use the default.
	PyCGSelf bool
	// Context, when set, cancels the analysis: Load then stops parsing
	// and solving as soon as it notices and returns the context's error
	// (the language server cancels the analysis an edit made obsolete).
	Context context.Context
}

// FileError is a problem with one file; the other files are analysed
// regardless. Kind is "syntax", "read", "decode", "binary", "too-large" or
// "skipped". Line and Col are 1-based (0 when unknown).
type FileError struct {
	Path      string
	Line, Col int
	Msg       string
	Kind      string
}

func (e FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Result is what Load found.
type Result struct {
	Program *rules.Program // Files hold every analysed file's decoded source
	Errors  []FileError    // sorted by path, line
	Files   int
	Bytes   int64
	Lines   int
	// Graph is the call graph and value analysis the Program was built
	// from (debug callgraph exports it in PyCG's shape); nil in a Result
	// a Cache handed back (see reuse.go).
	Graph *callgraph.Graph
}

// MaxFileSize is the largest file parsed; larger files are reported as
// "too-large" and skipped, so one generated blob cannot take the run's
// memory or time.
const MaxFileSize = 20 << 20

// Cache keeps per-module work (parse tree, scopes) keyed by path, module
// name and content hash, so that a re-run after an edit re-parses only the
// files that changed. It holds what the latest runs used: when a Load
// ends, entries that no Load since it began has used (earlier versions of
// edited files, deleted files) are dropped, so a long editor session does
// not keep a tree per keystroke. It is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[cacheKey]*cacheEntry
	gen     uint64    // Loads begun
	snap    *snapshot // the latest full Load's inputs and result (reuse.go)
}

type cacheEntry struct {
	p    *parsed
	used uint64 // the latest Load that used it
}

type cacheKey struct {
	path, module string
	sum          [32]byte
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[cacheKey]*cacheEntry{}} }

// Len is the number of cached modules.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// begin starts a Load's use of the cache and returns its generation.
func (c *Cache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	return c.gen
}

func (c *Cache) get(k cacheKey, gen uint64) *parsed {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil {
		return nil
	}
	e.used = max(e.used, gen)
	return e.p
}

func (c *Cache) put(k cacheKey, p *parsed, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[k] = &cacheEntry{p: p, used: gen}
}

// sweep drops the entries no Load of generation gen or later has used.
func (c *Cache) sweep(gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if e.used < gen {
			delete(c.entries, k)
		}
	}
}

// parsed is the per-module summary computed from one file alone.
type parsed struct {
	tree   *ast.Module
	src    []byte
	scopes *resolve.Scopes
	errs   []FileError
	lines  int
	ok     bool // analysable (possibly with syntax errors)
}

// Load analyses every .py under paths (files or directories) as one
// program. An error is returned only for unusable input (a path that does
// not exist); per-file problems go to Result.Errors and never stop the
// others.
func Load(paths []string, opts Options) (*Result, error) {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tables := opts.Tables
	if tables == nil {
		tables = api.Default()
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := resolve.Discover(paths, opts.Exclude)
	if err != nil {
		return nil, err
	}
	overlay := map[string][]byte{}
	for p, b := range opts.Overlay {
		overlay[filepath.Clean(p)] = b
	}
	namer := resolve.NewNamer()
	mods := make([]*resolve.Module, len(files))
	for i, f := range files {
		mods[i] = namer.Name(f)
	}
	resolve.AddImportRoots(mods, namer, func(top string) bool { return knownExternal[top] || libraryTop(tables, top) })
	roots := rootDirs(paths)
	began := time.Now()
	if opts.Cache != nil {
		if r := opts.Cache.reuse(files, mods, overlay, roots, tables, opts.PyCGSelf); r != nil {
			return r, nil
		}
	}
	total := sourceBytes(files)
	if opts.Pretouch {
		pretouch(total)
	}

	// Every discovered module is part of the program for imports, even
	// one that turns out not to parse (it then has no names): the call
	// graph is built while later files are still being parsed.
	table := resolve.NewTable(mods)
	vals := model.NewValues(tables)
	cgOpts := callgraph.Options{Canonical: tables.Canonical, Hooks: vals, SelfInstances: opts.PyCGSelf, Reexported: tables.Covers}
	if opts.Context != nil {
		cgOpts.Stop = func() bool { return ctx.Err() != nil }
	}
	cg := callgraph.NewBuilder(mods, table, cgOpts, int(total/bytesPerLine))

	var gen uint64
	if opts.Cache != nil {
		gen = opts.Cache.begin()
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]*parsed, len(files))
	stats := make([]fileStat, len(files))
	done := make([]chan struct{}, len(files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	p := pool.New().WithMaxGoroutines(jobs)
	go func() {
		for i := range files {
			p.Go(func() {
				defer close(done[i])
				if ctx.Err() != nil {
					results[i] = &parsed{} // cancelled: not analysed
					return
				}
				results[i], stats[i] = parseOne(files[i].Path, mods[i], overlay, opts.Cache, gen)
			})
		}
		p.Wait()
	}()

	// Modules go to the call graph in path order, each as soon as it is
	// parsed: its constraints are generated while the pool parses the
	// files after it.
	res := &Result{}
	var inputs []*callgraph.ModuleInput
	var rfiles []*rules.File
	for i := range files {
		<-done[i]
		if ctx.Err() != nil {
			// The parses still queued return at once; wait for them so
			// that nothing outlives Load.
			for _, d := range done[i+1:] {
				<-d
			}
			return nil, ctx.Err()
		}
		r := results[i]
		res.Errors = append(res.Errors, r.errs...)
		if !r.ok {
			continue
		}
		res.Files++
		res.Bytes += stats[i].size
		res.Lines += r.lines
		in := &callgraph.ModuleInput{Mod: mods[i], AST: r.tree, Scopes: r.scopes}
		inputs = append(inputs, in)
		rfiles = append(rfiles, &rules.File{Path: files[i].Path, Lang: rules.Python, Src: r.src})
		cg.Add(in)
	}
	if opts.Cache != nil {
		opts.Cache.sweep(gen)
	}
	sort.SliceStable(res.Errors, func(i, j int) bool {
		a, b := res.Errors[i], res.Errors[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})

	// What the model needs from each module's syntax alone is computed
	// on the spare core while the (single-threaded) solver runs.
	prepared := make(chan *model.Prepared, 1)
	go func() { prepared <- model.Prepare(inputs, rfiles, tables) }()
	g := cg.Finish()
	if g.Stopped() || ctx.Err() != nil {
		<-prepared
		return nil, ctx.Err()
	}
	res.Graph = g
	res.Program = model.Build(model.Input{
		Graph:    g,
		Modules:  inputs,
		Files:    rfiles,
		Tables:   tables,
		Values:   vals,
		Roots:    roots,
		Prepared: <-prepared,
		Stop:     cgOpts.Stop,
	})
	if res.Program == nil {
		return nil, ctx.Err()
	}
	if opts.Cache != nil {
		// The snapshot keeps the model, not the call graph: the graph is
		// most of an analysis's memory (185 MB of torch's 210), and only
		// the debug export, which runs without a cache, reads it.
		kept := *res
		kept.Graph = nil
		snap := &snapshot{files: make([]fileState, len(files)), project: projectSum(roots), roots: roots, tables: tables, pycg: opts.PyCGSelf, result: &kept, taken: began}
		for i, f := range files {
			st := stats[i]
			snap.files[i] = fileState{path: f.Path, module: mods[i].Name, overlay: st.overlay, size: st.size, mtime: st.mtime, sum: st.sum}
			if r := results[i]; r != nil && r.ok && len(r.errs) == 0 {
				snap.files[i].src = r.src
			}
		}
		opts.Cache.remember(snap)
	}
	return res, nil
}

// fileStat is what parseOne saw of a file before reading it: its size and
// modification time (zero for an open buffer) and, with a cache, the
// content hash.
type fileStat struct {
	size    int64
	mtime   time.Time
	overlay bool
	sum     [32]byte
}

// bytesPerLine is the average line length of Python source (the torch
// package: 15.0 MB in 380k lines), for sizing tables before parsing.
const bytesPerLine = 40

// sourceBytes is the total size of the files (those that can be
// analysed), by one stat each.
func sourceBytes(files []resolve.SourceFile) int64 {
	var total int64
	for _, f := range files {
		if st, err := os.Stat(f.Path); err == nil && st.Mode().IsRegular() && st.Size() <= MaxFileSize {
			total += st.Size()
		}
	}
	return total
}

// knownExternal: top-level modules a namespace directory of the program
// must not take the name of (resolve.AddImportRoots), besides the API
// tables' libraries: the standard library modules the analysis reads.
var knownExternal = map[string]bool{
	"threading": true, "concurrent": true, "asyncio": true, "multiprocessing": true, "queue": true,
	"signal": true, "os": true, "sys": true, "functools": true, "contextlib": true, "subprocess": true,
	"time": true, "socket": true, "collections": true, "typing": true, "random": true, "logging": true,
}

// libraryTop reports whether top is the first component of one of the
// API tables' library modules (torch for torch.distributed).
func libraryTop(t *api.Tables, top string) bool {
	for _, l := range t.Libraries {
		for _, m := range l.Modules {
			if first, _, _ := strings.Cut(m, "."); first == top {
				return true
			}
		}
	}
	return false
}

// rootDirs returns the directories the project files (pyproject.toml,
// requirements*.txt, setup.cfg) are looked for in.
func rootDirs(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = filepath.Clean(p)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			p = filepath.Dir(p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// parseOne reads, decodes, parses and scopes one file.
func parseOne(path string, mod *resolve.Module, overlay map[string][]byte, cache *Cache, gen uint64) (*parsed, fileStat) {
	raw, inOverlay := overlay[path]
	fs := fileStat{overlay: inOverlay}
	if !inOverlay {
		st, err := os.Stat(path)
		if err != nil {
			return &parsed{errs: []FileError{{Path: path, Msg: readMsg(err), Kind: "read"}}}, fs
		}
		fs.size, fs.mtime = st.Size(), st.ModTime()
		if st.Size() > MaxFileSize {
			return &parsed{errs: []FileError{{Path: path, Msg: fmt.Sprintf("file too large to analyse (%d bytes; limit %d)", st.Size(), MaxFileSize), Kind: "too-large"}}}, fs
		}
		raw, err = os.ReadFile(path)
		if err != nil {
			return &parsed{errs: []FileError{{Path: path, Msg: readMsg(err), Kind: "read"}}}, fs
		}
	}
	if cache != nil {
		fs.sum = sha256.Sum256(raw)
	}
	if len(raw) > MaxFileSize {
		return &parsed{errs: []FileError{{Path: path, Msg: fmt.Sprintf("file too large to analyse (%d bytes; limit %d)", len(raw), MaxFileSize), Kind: "too-large"}}}, fs
	}
	fs.size = int64(len(raw))
	if bytes.IndexByte(raw, 0) >= 0 {
		return &parsed{errs: []FileError{{Path: path, Msg: "binary file (contains NUL bytes)", Kind: "binary"}}}, fs
	}
	var key cacheKey
	if cache != nil {
		key = cacheKey{path: path, module: mod.Name, sum: fs.sum}
		if e := cache.get(key, gen); e != nil {
			return e, fs
		}
	}
	r := parseSource(path, mod, raw)
	if cache != nil {
		cache.put(key, r, gen)
	}
	return r, fs
}

// newestMinor is the newest Python 3 minor version the parser follows.
const newestMinor = 13

func parseSource(path string, mod *resolve.Module, raw []byte) (r *parsed) {
	defer func() {
		if x := recover(); x != nil {
			r = &parsed{errs: []FileError{{Path: path, Msg: fmt.Sprintf("internal error while analysing: %v", x), Kind: "skipped"}}}
		}
	}()
	f, errs := parser.Parse(path, raw, parser.Options{})
	if len(errs) > 0 && f != nil && f.Src != nil {
		// Code written for a newer Python: type statements and PEP 695
		// generics (3.12), PEP 701 f-strings, type parameter defaults
		// (3.13). The 3.11 grammar stays the first choice (it is the one
		// whose errors and positions are checked against CPython's); a
		// file valid only in the newer one is analysed as such.
		if f13, errs13 := parser.Parse(path, raw, parser.Options{Minor: newestMinor}); len(errs13) == 0 {
			f, errs = f13, nil
		}
	}
	r = &parsed{}
	if f == nil || (f.Src == nil && len(errs) > 0) {
		kind := "decode"
		msg := "cannot decode file"
		if len(errs) > 0 {
			msg = errs[0].Msg
			if strings.Contains(msg, "null bytes") {
				kind = "binary"
			}
		}
		r.errs = append(r.errs, FileError{Path: path, Line: 1, Col: 1, Msg: msg, Kind: kind})
		return r
	}
	for _, e := range errs {
		r.errs = append(r.errs, FileError{Path: path, Line: e.Line, Col: e.Col + 1, Msg: e.Msg, Kind: "syntax"})
	}
	r.tree = f.Module
	if r.tree == nil {
		r.tree = &ast.Module{}
	}
	r.src = f.Src
	r.lines = countLines(f.Src)
	r.scopes = resolve.BuildScopes(mod.Name, r.tree)
	r.ok = true
	return r
}

func readMsg(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
