// Package fix applies the fixes of collvet's findings to files, and renders
// them as unified diffs.
//
// Safety first: a file is only rewritten when its content on disk is still
// the content that was analysed (checked when the fix is planned, and again
// right before the rename); writes are atomic (a temporary file in the same
// directory, renamed over the original, permissions kept); overlapping fixes
// are skipped (the first, in position order, wins); and, when Validate is
// set, a fixed file that no longer parses is not written.
package fix

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	goparser "go/parser"
	"go/token"

	"github.com/collvet/collvet/cmd/collvet/internal/atomicfile"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// Validate checks a fixed file; a file whose fixed content fails it is
// left alone. The default re-parses Python (pyfront's parser) and Go
// (go/parser) files; nil disables the check.
var Validate = Reparse

// Reparse reports the first syntax error of a .py or .go source, or nil
// (also for other files).
func Reparse(path string, src []byte) error {
	switch {
	case strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi"):
		_, errs := parser.ParseFile(path, src)
		if len(errs) > 0 {
			return errs[0]
		}
	case strings.HasSuffix(path, ".go"):
		_, err := goparser.ParseFile(token.NewFileSet(), path, src, goparser.SkipObjectResolution)
		return err
	}
	return nil
}

// Change is the planned new content of one file.
type Change struct {
	Path  string
	Old   []byte // the content on disk when planned
	New   []byte
	Fixes int // fixes applied to this file
	mode  os.FileMode
}

// Skip is a fix or file that was not applied, and why.
type Skip struct {
	Path   string
	Reason string
}

// Plan computes the changes that applying the first fix of each
// diagnostic makes. files are the analysed sources (positions refer to
// their Src). Fixes that overlap an earlier one, or touch a file whose
// content changed since it was read, are skipped.
func Plan(files []*rules.File, diags []rules.Diagnostic) ([]*Change, []Skip) {
	src := map[string]*rules.File{}
	for _, f := range files {
		src[f.Path] = f
	}
	type span struct {
		start, end int
		text       string
	}
	edits := map[string][]span{}
	fixes := map[string]int{}
	var skips []Skip
	mappers := map[string]*textpos.Mapper{}
	mapper := func(path string) *textpos.Mapper {
		if m, ok := mappers[path]; ok {
			return m
		}
		var m *textpos.Mapper
		if f := src[path]; f != nil {
			m = textpos.New(f.Src)
		}
		mappers[path] = m
		return m
	}
	ordered := append([]rules.Diagnostic(nil), diags...)
	rules.SortDiagnostics(ordered)
	for _, d := range ordered {
		if len(d.Fixes) == 0 {
			continue
		}
		f := d.Fixes[0]
		var planned = map[string][]span{}
		ok := true
		for _, e := range f.Edits {
			m := mapper(e.Pos.Path)
			if m == nil {
				skips = append(skips, Skip{e.Pos.Path, fmt.Sprintf("%s fix edits a file that was not analysed", d.Rule)})
				ok = false
				break
			}
			el, ec := e.Pos.EndLine, e.Pos.EndCol
			if el <= 0 {
				el, ec = e.Pos.Line, e.Pos.Col
			}
			s := span{m.Offset(e.Pos.Line, e.Pos.Col), m.Offset(el, ec), e.NewText}
			if s.end < s.start {
				ok = false
				break
			}
			for _, o := range append(edits[e.Pos.Path], planned[e.Pos.Path]...) {
				if overlaps(s.start, s.end, o.start, o.end) {
					ok = false
				}
			}
			planned[e.Pos.Path] = append(planned[e.Pos.Path], s)
		}
		if !ok {
			skips = append(skips, Skip{d.Pos.Path, fmt.Sprintf("%s fix at %s overlaps another fix; run again", d.Rule, d.Pos)})
			continue
		}
		for p, ss := range planned {
			edits[p] = append(edits[p], ss...)
			fixes[p]++
		}
	}

	paths := make([]string, 0, len(edits))
	for p := range edits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []*Change
	for _, p := range paths {
		f := src[p]
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			skips = append(skips, Skip{p, "not a regular file on disk"})
			continue
		}
		disk, err := os.ReadFile(p)
		if err != nil {
			skips = append(skips, Skip{p, err.Error()})
			continue
		}
		bom, body := splitBOM(disk)
		if !utf8.Valid(body) {
			skips = append(skips, Skip{p, "not UTF-8 on disk; fixes are only applied to UTF-8 files"})
			continue
		}
		if !bytes.Equal(normalize(body), normalize(f.Src)) {
			skips = append(skips, Skip{p, "changed since it was analysed; not touched"})
			continue
		}
		// Apply on the disk text (line/byte-column positions are the same
		// in the normalized and the on-disk text, line endings aside).
		dm := textpos.New(body)
		sm := mapper(p)
		crlf := bytes.Contains(body, []byte("\r\n"))
		ss := edits[p]
		type abs struct {
			start, end int
			text       string
		}
		var as []abs
		for _, s := range ss {
			sl, sc := sm.Position(s.start)
			el, ec := sm.Position(s.end)
			t := s.text
			if crlf {
				t = strings.ReplaceAll(strings.ReplaceAll(t, "\r\n", "\n"), "\n", "\r\n")
			}
			as = append(as, abs{dm.Offset(sl, sc), dm.Offset(el, ec), t})
		}
		sort.SliceStable(as, func(i, j int) bool { return as[i].start < as[j].start })
		var nb bytes.Buffer
		nb.Write(bom)
		last := 0
		for _, a := range as {
			nb.Write(body[last:a.start])
			nb.WriteString(a.text)
			last = a.end
		}
		nb.Write(body[last:])
		newSrc := nb.Bytes()
		if Validate != nil && Validate(p, body) == nil {
			// Only a file that parsed before must parse after.
			if err := Validate(p, newSrc); err != nil {
				skips = append(skips, Skip{p, "the fixed file would not parse (" + err.Error() + "); not touched"})
				continue
			}
		}
		out = append(out, &Change{Path: p, Old: disk, New: newSrc, Fixes: fixes[p], mode: fi.Mode().Perm()})
	}
	return out, skips
}

func overlaps(a0, a1, b0, b1 int) bool {
	if a0 == a1 && b0 == b1 { // two insertions at one point: order is ambiguous
		return a0 == b0
	}
	return a0 < b1 && b0 < a1 || a0 == a1 && a0 > b0 && a0 < b1 || b0 == b1 && b0 > a0 && b0 < a1
}

func splitBOM(b []byte) (bom, body []byte) {
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return b[:3], b[3:]
	}
	return nil, b
}

// normalize turns \r\n and lone \r into \n and drops a BOM (what front
// ends do before positions are computed).
func normalize(b []byte) []byte {
	_, b = splitBOM(b)
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
}

// ErrChanged reports a file modified between planning and writing.
var ErrChanged = errors.New("changed on disk since it was read; not touched")

// Write applies c atomically: the new content goes to a temporary file in
// the same directory with the original permissions, and is renamed over
// the original only if the original still has the content c was planned
// from.
func (c *Change) Write() error {
	return atomicfile.Write(c.Path, c.New, c.mode, func() error {
		if now, err := os.ReadFile(c.Path); err != nil || !bytes.Equal(now, c.Old) {
			return ErrChanged
		}
		return nil
	})
}
