package resolve

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Module is one analysed Python file seen as a module.
type Module struct {
	Name      string   // primary dotted name (pkg.mod; pkg for pkg/__init__.py)
	Aliases   []string // other names the file is importable as (relative to the given root)
	Path      string   // as given, cleaned
	IsPackage bool     // an __init__.py
	absDir    string
	absRoot   string // the given root it was found under ("" when given as a file)
	// topDir: the directory the primary name starts from (the first one
	// above the file without __init__.py).
	topDir string
	// hiddenBelow, when set, is a directory below the given root whose
	// name for the module (its primary Name) is also an installed
	// library's (a nested utils/torch.py named "torch"): only importers
	// inside it, scripts run from there, see the module by that name.
	hiddenBelow string
}

// Package returns the package relative imports start from: the module
// itself for a package's __init__, else its parent.
func (m *Module) Package() string {
	if m.IsPackage {
		return m.Name
	}
	if i := strings.LastIndexByte(m.Name, '.'); i >= 0 {
		return m.Name[:i]
	}
	// A file in no __init__.py package that is importable as pkg.mod from
	// the given root (a namespace package, PEP 420): its relative imports
	// work only when it is imported that way.
	for _, a := range m.Aliases {
		if i := strings.LastIndexByte(a, '.'); i >= 0 {
			return a[:i]
		}
	}
	return ""
}

// Namer computes module names the way Python's import system would find
// the files: a file inside a chain of __init__.py packages is named from
// the parent of the topmost package (this handles src/ layouts and a
// package given directly as the root); a file outside any package is named
// from its own directory (a script's directory is on sys.path). The path
// relative to the given root is registered as an alias (namespace
// packages, root used as an import root). Namer caches directory lookups
// and is safe for concurrent use.
type Namer struct {
	mu      sync.Mutex
	hasInit map[string]bool
}

// NewNamer returns an empty Namer.
func NewNamer() *Namer { return &Namer{hasInit: map[string]bool{}} }

func (n *Namer) dirHasInit(dir string) bool {
	n.mu.Lock()
	v, ok := n.hasInit[dir]
	n.mu.Unlock()
	if ok {
		return v
	}
	v = fileExists(filepath.Join(dir, "__init__.py"))
	n.mu.Lock()
	n.hasInit[dir] = v
	n.mu.Unlock()
	return v
}

// Name returns the module for f.
func (n *Namer) Name(f SourceFile) *Module {
	m := &Module{Path: f.Path}
	base := strings.TrimSuffix(filepath.Base(f.Path), ".py")
	absFile, err := filepath.Abs(f.Path)
	if err != nil {
		absFile = f.Path
	}
	dir := filepath.Dir(absFile)
	m.absDir = dir
	var parts []string
	if base == "__init__" {
		m.IsPackage = true
	} else {
		parts = []string{base}
	}
	d := dir
	for n.dirHasInit(d) {
		parts = append([]string{filepath.Base(d)}, parts...)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if len(parts) == 0 {
		parts = []string{filepath.Base(dir)}
	}
	m.Name = strings.Join(parts, ".")
	m.topDir = d
	if !f.Explicit {
		if absRoot, err := filepath.Abs(f.Root); err == nil {
			m.absRoot = absRoot
			if rel, err := filepath.Rel(absRoot, absFile); err == nil && !strings.HasPrefix(rel, "..") {
				rel = strings.TrimSuffix(filepath.ToSlash(rel), ".py")
				rel = strings.TrimSuffix(rel, "/__init__")
				if rel != "__init__" {
					// A src/ layout installs what is under src/: its
					// namespace packages (no __init__.py) are imported
					// from there, and that name comes first, the one
					// relative imports start from (Package).
					if in, ok := strings.CutPrefix(rel, "src/"); ok && in != "__init__" {
						if alias := strings.ReplaceAll(in, "/", "."); alias != m.Name {
							m.Aliases = append(m.Aliases, alias)
						}
					}
					if alias := strings.ReplaceAll(rel, "/", "."); alias != m.Name {
						m.Aliases = append(m.Aliases, alias)
					}
				}
			}
		}
	}
	return m
}

// AddImportRoots names modules the way a run may see them. Python finds
// a module from every directory on sys.path: the directory of the script
// it runs, the working directory (python -m, a launcher's cwd), the
// PYTHONPATH a job script sets. Which directories of the program those
// are is not written down, so every directory under the given roots that
// is not itself a package is taken as one: a file below it is importable
// by its path from there, through namespace packages (no __init__.py) too
// (`python tools/evalkit/run.py` imports tools/evalkit/pkg/sub/misc.py as
// pkg.sub.misc). Those names become aliases; a module's own name wins
// where both exist (NewTable), and the nearest module to the importer
// wins among aliases (Lookup). A namespace package loses to a regular
// package of the same name anywhere on sys.path, so a directory without
// __init__.py named like an installed library (external reports those:
// examples/deepspeed/) names nothing.
func AddImportRoots(mods []*Module, n *Namer, external func(top string) bool) {
	for _, m := range mods {
		if m.absRoot == "" {
			continue
		}
		// A directory below the root that is not a package names its
		// files by their own names, and a file there named like an
		// installed library (GeoTransformer's geotransformer/utils/torch.py,
		// copied without its __init__.py) would otherwise take that
		// library's name for the whole program: every `import torch`
		// would find it. Python finds it first only from that directory.
		top, _, _ := strings.Cut(m.Name, ".")
		if m.topDir != m.absRoot && strings.HasPrefix(m.topDir, m.absRoot+string(filepath.Separator)) && external(top) {
			m.hiddenBelow = m.topDir
		}
		// The file's path below each directory above it.
		rel := []string{}
		if !m.IsPackage {
			rel = append(rel, strings.TrimSuffix(filepath.Base(m.Path), ".py"))
		}
		for d := m.absDir; ; {
			if len(rel) > 1 && !n.dirHasInit(d) && (n.dirHasInit(filepath.Join(d, rel[0])) || !external(rel[0])) {
				alias := strings.Join(rel, ".")
				if alias != m.Name && !slices.Contains(m.Aliases, alias) {
					m.Aliases = append(m.Aliases, alias)
				}
			}
			if d == m.absRoot {
				break
			}
			parent := filepath.Dir(d)
			if parent == d || !strings.HasPrefix(d, m.absRoot) {
				break
			}
			rel = append([]string{filepath.Base(d)}, rel...)
			d = parent
		}
	}
}

// Table indexes modules by every name they are importable as.
type Table struct {
	Modules []*Module
	byName  map[string][]*Module
	// prefixes holds every dotted prefix of a module name (packages that
	// exist only as directories: namespace packages).
	prefixes map[string]bool
}

// NewTable indexes mods (in the given, deterministic order).
func NewTable(mods []*Module) *Table {
	t := &Table{Modules: mods, byName: map[string][]*Module{}, prefixes: map[string]bool{}}
	add := func(name string, m *Module) {
		t.byName[name] = append(t.byName[name], m)
		for i := strings.IndexByte(name, '.'); i >= 0; {
			t.prefixes[name[:i]] = true
			j := strings.IndexByte(name[i+1:], '.')
			if j < 0 {
				break
			}
			i += j + 1
		}
	}
	for _, m := range mods {
		add(m.Name, m)
	}
	for _, m := range mods {
		for _, a := range m.Aliases {
			if _, primary := t.byName[a]; primary {
				continue
			}
			add(a, m)
		}
	}
	return t
}

// Lookup returns the module named name as seen from the module from (nil
// for none): when several files claim the name, the one nearest to from
// in the directory tree wins.
func (t *Table) Lookup(name string, from *Module) *Module {
	c := t.byName[name]
	if from != nil && slices.ContainsFunc(c, func(m *Module) bool { return m.hiddenFrom(name, from) }) {
		c = slices.DeleteFunc(slices.Clone(c), func(m *Module) bool { return m.hiddenFrom(name, from) })
	}
	switch len(c) {
	case 0:
		return nil
	case 1:
		return c[0]
	}
	if from == nil {
		return c[0]
	}
	best, bestLen := c[0], -1
	for _, m := range c {
		if l := commonPrefix(m.absDir, from.absDir); l > bestLen {
			best, bestLen = m, l
		}
	}
	return best
}

// hiddenFrom reports whether from, importing name, does not see m by it
// (Module.hiddenBelow).
func (m *Module) hiddenFrom(name string, from *Module) bool {
	if m.hiddenBelow == "" || m == from {
		return false
	}
	if name != m.Name && !strings.HasPrefix(name, m.Name+".") {
		return false
	}
	return from.absDir != m.hiddenBelow && !strings.HasPrefix(from.absDir, m.hiddenBelow+string(filepath.Separator))
}

// IsPackagePrefix reports whether name is a package of the program (a
// directory some module lives under), with or without __init__.py.
func (t *Table) IsPackagePrefix(name string) bool { return t.prefixes[name] }

// Names returns every importable name, sorted.
func (t *Table) Names() []string {
	out := make([]string, 0, len(t.byName))
	for n := range t.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Absolute turns a relative import (level dots, then mod) seen from m
// into an absolute module name; ok is false when it climbs above the top.
func Absolute(m *Module, level int, mod string) (string, bool) {
	if level == 0 {
		return mod, true
	}
	pkg := m.Package()
	for i := 1; i < level; i++ {
		j := strings.LastIndexByte(pkg, '.')
		if j < 0 {
			if pkg == "" {
				return "", false
			}
			pkg = ""
			continue
		}
		pkg = pkg[:j]
	}
	switch {
	case pkg == "":
		return mod, mod != ""
	case mod == "":
		return pkg, true
	}
	return pkg + "." + mod, true
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func fileExists(p string) bool {
	st, err := osStat(p)
	return err == nil && !st.IsDir()
}
