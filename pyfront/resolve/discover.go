package resolve

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SourceFile is one Python file found under the analysed paths.
type SourceFile struct {
	Path     string // cleaned, as given (relative stays relative)
	Root     string // the command-line path (directory) it was found under; the file itself when named explicitly
	Explicit bool   // named on the command line
}

// skipDirs are directory names never entered (unless named explicitly).
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "venv": true, ".venv": true,
	"build": true, "node_modules": true, "site-packages": true,
	"__pycache__": true, ".tox": true, ".nox": true, ".mypy_cache": true,
}

// Discover lists the .py files under paths (files or directories), in a
// deterministic order (sorted by path, duplicates removed). A path that
// does not exist is an error; directories that cannot be read are
// skipped. exclude, when not nil, is asked about every path met while
// walking (never about the given paths themselves).
func Discover(paths []string, exclude func(path string, isDir bool) bool) ([]SourceFile, error) {
	seen := map[string]bool{}
	var out []SourceFile
	for _, p := range paths {
		p = filepath.Clean(p)
		st, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &os.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
			}
			return nil, err
		}
		if !st.IsDir() {
			if !seen[p] {
				seen[p] = true
				out = append(out, SourceFile{Path: p, Root: p, Explicit: true})
			}
			continue
		}
		root := p
		_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() && path != root {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path == root {
					return nil
				}
				name := d.Name()
				if skipDirs[name] || isVenv(path) || (exclude != nil && exclude(path, true)) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".py") || !d.Type().IsRegular() {
				return nil
			}
			if exclude != nil && exclude(path, false) {
				return nil
			}
			if !seen[path] {
				seen[path] = true
				out = append(out, SourceFile{Path: path, Root: root})
			}
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// isVenv reports whether dir is a virtual environment (holds pyvenv.cfg).
func isVenv(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}
