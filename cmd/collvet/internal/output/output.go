// Package output renders an analysis report in collvet's formats:
//
//	text    path:line:col: CV101 message [name], related locations indented
//	json    the contract's shape (design.md), with stats
//	sarif   SARIF 2.1.0, one run, for GitHub code scanning and other viewers
//	github  GitHub Actions workflow annotations (::error file=…)
//	gitlab  a GitLab Code Quality report (merge-request widget)
//
// and renders rule documentation (explain, SARIF help, LSP hover). Positions
// in the report are 1-based byte columns; SARIF and GitHub columns are
// converted to UTF-16 with rules/textpos.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// Formats lists the accepted --format values.
var Formats = []string{"text", "json", "sarif", "github", "gitlab"}

// Options control rendering.
type Options struct {
	Color bool // ANSI colour (text format)
	// Root is the directory SARIF URIs are relative to (the repository
	// root); "" means the current directory.
	Root    string
	Version string // collvet's version, for SARIF
}

// Write renders rep in format to w.
func Write(w io.Writer, format string, rep *driver.Report, opts Options) error {
	switch format {
	case "text", "":
		return Text(w, rep, opts)
	case "json":
		return JSON(w, rep)
	case "sarif":
		return SARIF(w, rep, opts)
	case "github":
		return GitHub(w, rep, opts)
	case "gitlab":
		return GitLab(w, rep, opts)
	}
	return fmt.Errorf("unknown format %q (want text, json, sarif, github or gitlab)", format)
}

// Valid reports whether format is known.
func Valid(format string) bool {
	for _, f := range Formats {
		if f == format {
			return true
		}
	}
	return false
}

// mappers lazily builds textpos mappers for the report's files, reading
// files that the report lacks (a CV000 file) from disk.
type mappers struct {
	files map[string]*rules.File
	m     map[string]*textpos.Mapper
}

func newMappers(rep *driver.Report) *mappers {
	ms := &mappers{files: map[string]*rules.File{}, m: map[string]*textpos.Mapper{}}
	for _, f := range rep.Files {
		ms.files[f.Path] = f
	}
	return ms
}

// maxReadForColumns bounds what is read from disk only to convert columns.
const maxReadForColumns = 16 << 20

func (ms *mappers) get(path string) *textpos.Mapper {
	if m, ok := ms.m[path]; ok {
		return m
	}
	var m *textpos.Mapper
	if f := ms.files[path]; f != nil {
		m = textpos.New(f.Src)
	} else if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() < maxReadForColumns {
		if b, err := os.ReadFile(path); err == nil {
			m = textpos.New(b)
		}
	}
	ms.m[path] = m
	return m
}

// utf16 converts a 1-based byte column to a 1-based UTF-16 column.
func (ms *mappers) utf16(path string, line, col int) int {
	if col <= 0 {
		return col
	}
	m := ms.get(path)
	if m == nil || line < 1 || line > m.LineCount() {
		return col
	}
	return m.UTF16Col(line, col) + 1
}

// lineText returns the text of a line, or "".
func (ms *mappers) lineText(path string, line int) string {
	m := ms.get(path)
	if m == nil {
		return ""
	}
	return string(m.Line(line))
}

// end returns the end of p, defaulting to its start.
func end(p rules.Pos) (int, int) {
	if p.EndLine <= 0 {
		return p.Line, p.Col
	}
	return p.EndLine, p.EndCol
}

// RepoRoot returns the root of the git repository enclosing dir, or dir.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

// sortedRules returns every registered rule, by code.
func sortedRules() []*rules.Rule {
	rs := rules.All()
	sort.Slice(rs, func(i, j int) bool { return rs[i].Code < rs[j].Code })
	return rs
}

// relativizer returns a function making paths relative to root
// (slash-separated); paths outside root, or when root is "", stay as given.
func relativizer(root string) func(string) string {
	if root == "" {
		return filepath.ToSlash
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return filepath.ToSlash
	}
	return func(path string) string {
		abs, err := filepath.Abs(path)
		if err != nil {
			return filepath.ToSlash(path)
		}
		r, err := filepath.Rel(absRoot, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(path)
		}
		return filepath.ToSlash(r)
	}
}

// writeJSON writes v as indented JSON, with <, > and & left as they are
// (messages quote code).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
