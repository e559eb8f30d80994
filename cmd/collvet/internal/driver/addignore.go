package driver

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// Adding suppressions for existing findings (`collvet --add-ignore
// REASON`, ruff's --add-noqa): how a project adopts collvet with findings
// it has triaged, or accepts for now, while new code is held to the rules.
// Each line with findings gets one trailing directive naming its codes,
// with the reason the user gave:
//
//	dist.all_reduce(t)  # collvet: ignore[CV101] legacy, see #123
//	C.ncclAllReduce(…) //collvet:ignore CV105 legacy, see #123
//
// A directive is only planned where it provably works: the file with all
// its directives added is scanned again, and a file where any of them
// would not cover its line (the line ends inside a string, or after a
// backslash continuation) is skipped whole, never half-annotated.

// planned is one directive SuppressionFixes adds: at the end of the
// finding's line, or (own) on a line of its own above it.
type planned struct {
	d         rules.Diagnostic // the line's first finding
	line, col int              // the finding's line; the insertion's column
	codes     []string
	own       bool
	text      string
	at        int // byte offset of the insertion
}

// place sets where and what p inserts.
func (p *planned) place(f *rules.File, m *textpos.Mapper, reason string, own bool) {
	codes := strings.Join(p.codes, ",")
	text := "# collvet: ignore[" + codes + "] " + reason
	if f.Lang == rules.Go {
		text = "//collvet:ignore " + codes + " " + reason
	}
	line := m.Line(p.line)
	p.own = own
	if own {
		indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		p.col, p.text = 1, string(indent)+text+"\n"
	} else {
		p.col, p.text = len(line)+1, "  "+text
		if f.Lang == rules.Go {
			p.text = " " + text
		}
	}
	p.at = m.Offset(p.line, p.col)
}

// newLine is p's line once every directive of plan is inserted: each one
// on its own line at or above it pushes it down.
func (p *planned) newLine(plan []*planned) int {
	n := p.line
	for _, q := range plan {
		if q.own && q.line <= p.line {
			n++
		}
	}
	return n
}

func (p *planned) covers(codes []string) bool {
	for _, c := range p.codes {
		if !slices.Contains(codes, c) {
			return false
		}
	}
	return true
}

// endsWithBackslash: a Python line continued by a backslash, after which
// no comment can come.
func endsWithBackslash(f *rules.File, line []byte) bool {
	return f.Lang != rules.Go && bytes.HasSuffix(bytes.TrimRight(line, " \t"), []byte("\\"))
}

// withInserts returns f with the planned directives inserted.
func withInserts(f *rules.File, plan []*planned) *rules.File {
	var b []byte
	last := 0
	for _, p := range plan {
		b = append(b, f.Src[last:p.at]...)
		b = append(b, p.text...)
		last = p.at
	}
	b = append(b, f.Src[last:]...)
	return &rules.File{Path: f.Path, Lang: f.Lang, Src: b}
}

// IgnoreSkip is a finding that --add-ignore leaves alone, and why.
type IgnoreSkip struct {
	Pos    rules.Pos
	Reason string
}

// CheckIgnoreReason rejects a reason a directive could not carry.
func CheckIgnoreReason(reason string) error {
	r := strings.TrimSpace(reason)
	switch {
	case r == "":
		return fmt.Errorf("a suppression needs a reason: --add-ignore \"why these findings are accepted\"")
	case strings.ContainsFunc(r, unicode.IsControl):
		return fmt.Errorf("the reason must fit on one line")
	case strings.Contains(r, "#"):
		// A Python directive's reason ends at the next comment marker.
		return fmt.Errorf("the reason must not contain '#'")
	}
	return nil
}

// SuppressionFixes returns, for every line of files with findings in
// diags, a diagnostic whose one fix adds a directive that silences them
// (for fix.Plan to apply or diff), and the findings it cannot silence
// that way. The driver's own findings (syntax errors, directives) are not
// suppressible and are left out.
//
// An empty reason leaves the directive for its author to finish (the
// editor's quick fix): until a reason is written after it, it is reported
// as CV001 and suppresses nothing.
func SuppressionFixes(files []*rules.File, diags []rules.Diagnostic, reason string) ([]rules.Diagnostic, []IgnoreSkip) {
	reason = strings.TrimSpace(reason)
	// Placement is checked with a complete directive.
	checkReason := reason
	if checkReason == "" {
		checkReason = "reason"
	}
	byPath := map[string]*rules.File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	type lineKey struct {
		path string
		line int
	}
	codes := map[lineKey][]string{}
	first := map[lineKey]rules.Diagnostic{}
	var keys []lineKey
	var skips []IgnoreSkip
	for _, d := range diags {
		switch d.Rule {
		case SyntaxError.Code, InvalidSuppression.Code, UnusedSuppression.Code:
			continue
		}
		if byPath[d.Pos.Path] == nil || d.Pos.Line <= 0 {
			skips = append(skips, IgnoreSkip{d.Pos, "the finding is not in an analysed file"})
			continue
		}
		k := lineKey{d.Pos.Path, d.Pos.Line}
		if _, ok := codes[k]; !ok {
			keys = append(keys, k)
			first[k] = d
		}
		if !slices.Contains(codes[k], d.Rule) {
			codes[k] = append(codes[k], d.Rule)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].path != keys[j].path {
			return keys[i].path < keys[j].path
		}
		return keys[i].line < keys[j].line
	})

	var out []rules.Diagnostic
	for start := 0; start < len(keys); {
		path := keys[start].path
		end := start
		for end < len(keys) && keys[end].path == path {
			end++
		}
		f := byPath[path]
		m := textpos.New(f.Src)
		covered := map[int]bool{}
		for _, s := range findSuppressions(f) {
			covered[s.line] = true
		}
		var plan []*planned
		for _, k := range keys[start:end] {
			cs := codes[k]
			sort.Strings(cs)
			d := first[k]
			if covered[k.line] {
				// Merging into a directive would pin a new code to
				// someone else's reason.
				skips = append(skips, IgnoreSkip{d.Pos, "the line already has a suppression directive; add " + strings.Join(cs, ",") + " to it by hand"})
				continue
			}
			p := &planned{d: d, line: k.line, codes: cs}
			p.place(f, m, checkReason, endsWithBackslash(f, m.Line(k.line)))
			plan = append(plan, p)
		}
		// Verify: with the directives in place, each must cover its line
		// with its codes. A trailing one that does not (the line ends
		// inside a string) moves to its own line above; one that still
		// does not is dropped, and the rest are checked again.
		for len(plan) > 0 {
			works := map[int][]string{}
			for _, s := range findSuppressions(withInserts(f, plan)) {
				if s.problem == "" {
					works[s.line] = append(works[s.line], s.codes...)
				}
			}
			// Judged before any moves: a move shifts the lines below.
			bad := map[*planned]bool{}
			for _, p := range plan {
				bad[p] = !p.covers(works[p.newLine(plan)])
			}
			changed := false
			var keep []*planned
			for _, p := range plan {
				if !bad[p] {
					keep = append(keep, p)
					continue
				}
				changed = true
				if !p.own && !endsWithBackslash(f, m.Line(p.line-1)) {
					p.place(f, m, checkReason, true)
					keep = append(keep, p)
					continue
				}
				skips = append(skips, IgnoreSkip{p.d.Pos, "no comment placed at or above this line would be read as a directive (a string or a continuation spans it)"})
			}
			plan = keep
			if !changed {
				break
			}
		}
		for _, p := range plan {
			if reason != checkReason {
				p.place(f, m, reason, p.own)
			}
			out = append(out, rules.Diagnostic{
				Rule: p.d.Rule, Severity: p.d.Severity, Pos: p.d.Pos, Message: p.d.Message,
				Fixes: []rules.Fix{{Title: "Suppress " + strings.Join(p.codes, ","), Edits: []rules.Edit{{
					Pos:     rules.Pos{Path: path, Line: p.line, Col: p.col, EndLine: p.line, EndCol: p.col},
					NewText: p.text,
				}}}},
			})
		}
		start = end
	}
	return out, skips
}

// codingCookie matches a PEP 263 source-encoding declaration, which must
// stay on the first or second line.
var codingCookie = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+`)

// FileSuppressionFix returns the fix that adds a file-ignore directive for
// code to f, without a reason (the editor's quick fix: the author types
// it, and until then CV001 says it is missing). The directive goes on
// the first line, below a shebang and an encoding declaration, which
// must keep their places.
func FileSuppressionFix(f *rules.File, code string) rules.Fix {
	directive := "# collvet: file-ignore[" + code + "] "
	if f.Lang == rules.Go {
		directive = "//collvet:file-ignore " + code + " "
	}
	line, off := 1, 0
	if f.Lang != rules.Go {
		src := f.Src
		for line <= 2 && off < len(src) {
			end := bytes.IndexByte(src[off:], '\n')
			if end < 0 {
				end = len(src) - off
			}
			text := src[off : off+end]
			if !(line == 1 && bytes.HasPrefix(text, []byte("#!")) || codingCookie.Match(text)) {
				break
			}
			line++
			off += end + 1
		}
		if off > len(src) { // the skipped line ends the file without a newline
			m := textpos.New(src)
			l, c := m.Position(len(src))
			return rules.Fix{Title: "Ignore " + code + " in this file, then write why", Edits: []rules.Edit{{
				Pos: rules.Pos{Path: f.Path, Line: l, Col: c, EndLine: l, EndCol: c}, NewText: "\n" + directive}}}
		}
	}
	return rules.Fix{Title: "Ignore " + code + " in this file, then write why", Edits: []rules.Edit{{
		Pos: rules.Pos{Path: f.Path, Line: line, Col: 1, EndLine: line, EndCol: 1}, NewText: directive + "\n"}}}
}
