package driver

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/collvet/collvet/cmd/collvet/internal/config"
)

// defaultExcludes are directory names never walked into (as ruff's
// defaults): VCS metadata, virtual environments, caches, build outputs.
var defaultExcludes = map[string]bool{
	".bzr": true, ".direnv": true, ".eggs": true, ".git": true, ".hg": true,
	".mypy_cache": true, ".nox": true, ".pants.d": true, ".pytype": true,
	".ruff_cache": true, ".svn": true, ".tox": true, ".venv": true,
	"__pypackages__": true, "__pycache__": true, "_build": true,
	"buck-out": true, "node_modules": true, "venv": true,
}

// excluder decides which files and directories a directory walk skips:
// default excludes, the configuration's exclude globs and .gitignore files.
// Paths named explicitly on the command line are never excluded (ruff's
// behaviour): the user asked for them.
type excluder struct {
	cfg      *config.Config
	explicit map[string]bool // absolute paths named by the user
	roots    []string        // absolute analysed roots

	mu       sync.Mutex
	ignores  map[string][]gitPattern // directory -> its .gitignore patterns
	repoRoot map[string]string       // directory -> enclosing repository root ("" none)
	dirState map[string]bool         // directory -> ignored
}

func newExcluder(cfg *config.Config, paths []string) *excluder {
	e := &excluder{
		cfg:      cfg,
		explicit: map[string]bool{},
		ignores:  map[string][]gitPattern{},
		repoRoot: map[string]string{},
		dirState: map[string]bool{},
	}
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			e.explicit[abs] = true
			e.roots = append(e.roots, abs)
		}
	}
	return e
}

// Exclude is the walker callback (pyfront.Options.Exclude).
func (e *excluder) Exclude(path string, isDir bool) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if e.explicit[abs] {
		return false
	}
	if isDir && defaultExcludes[filepath.Base(abs)] {
		return true
	}
	if e.cfg.Excluded(path) {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if isDir {
		return e.dirIgnored(abs)
	}
	return e.gitIgnored(abs, false)
}

// dirIgnored reports whether directory abs, or one of its ancestors below
// the repository root, is ignored. Memoized: walks ask for every file.
func (e *excluder) dirIgnored(abs string) bool {
	if v, ok := e.dirState[abs]; ok {
		return v
	}
	v := false
	parent := filepath.Dir(abs)
	base := e.base(abs)
	if !e.explicit[abs] && base != "" && abs != base && parent != abs {
		v = e.dirIgnored(parent) || e.gitIgnored(abs, true)
	}
	e.dirState[abs] = v
	return v
}

// gitIgnored applies the .gitignore files from the base directory down to
// abs's parent; the last matching pattern wins.
func (e *excluder) gitIgnored(abs string, isDir bool) bool {
	base := e.base(abs)
	if base == "" {
		return false
	}
	if !isDir && e.dirIgnored(filepath.Dir(abs)) {
		return true
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	// Directories from base to abs's parent, each with its .gitignore.
	dirs := []string{base}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i := 0; i < len(parts)-1; i++ {
		dirs = append(dirs, filepath.Join(dirs[len(dirs)-1], parts[i]))
	}
	ignored := false
	for _, d := range dirs {
		pats := e.load(d)
		if len(pats) == 0 {
			continue
		}
		r, err := filepath.Rel(d, abs)
		if err != nil {
			continue
		}
		r = filepath.ToSlash(r)
		for _, p := range pats {
			if p.dirOnly && !isDir {
				continue
			}
			if ok, _ := doublestar.Match(p.glob, r); ok {
				ignored = !p.negate
			}
		}
	}
	return ignored
}

// base returns the directory whose .gitignore files apply to abs: the
// enclosing git repository's root, or else the analysed root containing abs.
func (e *excluder) base(abs string) string {
	dir := filepath.Dir(abs)
	if r := e.findRepo(dir); r != "" {
		return r
	}
	for _, root := range e.roots {
		if abs == root || strings.HasPrefix(abs, root+string(filepath.Separator)) {
			if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
				return filepath.Dir(root)
			}
			return root
		}
	}
	return ""
}

func (e *excluder) findRepo(dir string) string {
	if r, ok := e.repoRoot[dir]; ok {
		return r
	}
	r := ""
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		r = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		r = e.findRepo(parent)
	}
	e.repoRoot[dir] = r
	return r
}

func (e *excluder) load(dir string) []gitPattern {
	if p, ok := e.ignores[dir]; ok {
		return p
	}
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	var pats []gitPattern
	if err == nil {
		pats = parseGitignore(data)
	}
	e.ignores[dir] = pats
	return pats
}

// gitPattern is one .gitignore line, compiled to a doublestar glob relative
// to the .gitignore's directory.
type gitPattern struct {
	glob    string
	negate  bool
	dirOnly bool
}

// parseGitignore implements the gitignore(5) pattern rules collvet needs:
// comments, negation, escaped leading # and !, trailing-slash directory
// patterns, anchoring by an inner or leading slash, and ** segments.
func parseGitignore(data []byte) []gitPattern {
	var out []gitPattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if !strings.HasSuffix(line, `\ `) {
			line = strings.TrimRight(line, " \t")
		}
		if line == "" || line[0] == '#' {
			continue
		}
		var p gitPattern
		if line[0] == '!' {
			p.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		if !anchored {
			line = "**/" + line
		}
		if !doublestar.ValidatePattern(line) {
			continue
		}
		p.glob = line
		out = append(out, p)
	}
	return out
}
