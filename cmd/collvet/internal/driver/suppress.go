package driver

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/config"
	"github.com/collvet/collvet/pyfront/scanner"
	"github.com/collvet/collvet/rules"
)

// A suppression is an inline directive that silences findings:
//
//	x = dist.all_reduce(t)  # collvet: ignore[CV101] only rank 0 runs this thread
//	# collvet: ignore[CV101,CV401] reason      (on its own line: covers the next line)
//	//collvet:ignore CV105 reason              (Go, as staticcheck's //lint:ignore)
//	# collvet: file-ignore[CV301] reason       (anywhere: covers the whole file)
//	//collvet:file-ignore CV105 reason         (Go, as staticcheck's //lint:file-ignore)
//
// A trailing directive covers its own line; a directive alone on its line
// covers the next line; a file-ignore directive covers every line of its
// file (generated code, a test of the hazards themselves: places where
// a per-line reason would only repeat). The reason is required. Malformed directives are
// reported as CV001 (invalid-suppression); directives, or codes in them,
// that silence nothing are reported as CV002 (unused-suppression).
type suppression struct {
	pos     rules.Pos // the comment
	line    int       // the line it covers (0 for a file-ignore directive)
	file    bool      // a file-ignore directive: covers every line
	codes   []string  // selectors (codes, prefixes, names)
	used    []bool
	reason  string
	problem string // non-empty: malformed, report CV001 and suppress nothing
}

var (
	pyDirectiveRE = regexp.MustCompile(`collvet\s*:\s*(file-)?ignore\b`)
	pyCodesRE     = regexp.MustCompile(`^collvet\s*:\s*(file-)?ignore\s*\[([^\]]*)\]\s*[:\-–—]?\s*(.*)$`)
	goDirectiveRE = regexp.MustCompile(`^//\s*collvet:(file-)?ignore\b`)
	goCodesRE     = regexp.MustCompile(`^//\s*collvet:(file-)?ignore\s+(\S+)\s*(.*)$`)
)

// comment is one comment: its start position and text (including the
// leading # or //).
type comment struct {
	line, col int
	text      string
	ownLine   bool // nothing but whitespace before it on its line
}

// findSuppressions parses the directives in f.
func findSuppressions(f *rules.File) []*suppression {
	if !bytes.Contains(f.Src, []byte("collvet")) {
		return nil // the common case: no directive, no tokenizing
	}
	var cs []comment
	switch f.Lang {
	case rules.Go:
		cs = goComments(f.Src)
	default:
		cs = pyComments(f.Src)
	}
	var out []*suppression
	for _, c := range cs {
		var s *suppression
		if f.Lang == rules.Go {
			s = parseGoDirective(c)
		} else {
			s = parsePyDirective(c)
		}
		if s == nil {
			continue
		}
		s.pos = rules.Pos{Path: f.Path, Line: c.line, Col: c.col, EndLine: c.line, EndCol: c.col + len(c.text)}
		switch {
		case s.file:
			s.line = 0
		case c.ownLine:
			s.line = c.line + 1
		default:
			s.line = c.line
		}
		s.used = make([]bool, len(s.codes))
		out = append(out, s)
	}
	return out
}

func parsePyDirective(c comment) *suppression {
	body := strings.TrimSpace(strings.TrimPrefix(c.text, "#"))
	loc := pyDirectiveRE.FindStringIndex(body)
	if loc == nil {
		return nil
	}
	body = body[loc[0]:]
	// Another comment-like directive may follow (# noqa ... # collvet: ...);
	// the reason ends at the next " #".
	if i := strings.Index(body, " #"); i >= 0 {
		body = body[:i]
	}
	m := pyCodesRE.FindStringSubmatch(body)
	if m == nil {
		if pyDirectiveRE.FindStringSubmatch(body)[1] != "" {
			return &suppression{file: true, problem: "malformed suppression: want `# collvet: file-ignore[CV101] reason`"}
		}
		if strings.Contains(body, "ignore-file") {
			return &suppression{problem: "malformed suppression: for the whole file write `# collvet: file-ignore[CV101] reason`"}
		}
		return &suppression{problem: "malformed suppression: want `# collvet: ignore[CV101] reason`"}
	}
	s := checkDirective(splitCodes(m[2]), strings.TrimSpace(m[3]))
	s.file = m[1] != ""
	return s
}

func parseGoDirective(c comment) *suppression {
	if !goDirectiveRE.MatchString(c.text) {
		return nil
	}
	m := goCodesRE.FindStringSubmatch(strings.TrimSpace(c.text))
	if m == nil {
		if goDirectiveRE.FindStringSubmatch(c.text)[1] != "" {
			return &suppression{file: true, problem: "malformed suppression: want `//collvet:file-ignore CV101 reason`"}
		}
		if strings.Contains(c.text, "ignore-file") {
			return &suppression{problem: "malformed suppression: for the whole file write `//collvet:file-ignore CV101 reason`"}
		}
		return &suppression{problem: "malformed suppression: want `//collvet:ignore CV101 reason`"}
	}
	s := checkDirective(splitCodes(m[2]), strings.TrimSpace(m[3]))
	s.file = m[1] != ""
	return s
}

func splitCodes(s string) []string {
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

func checkDirective(codes []string, reason string) *suppression {
	s := &suppression{codes: codes, reason: reason}
	switch {
	case len(codes) == 0:
		s.problem = "suppression names no rule code"
	case reason == "":
		s.problem = "suppression without a reason: say why the finding does not apply"
	default:
		for _, c := range codes {
			if err := config.CheckSelector(c); err != nil || c == "ALL" || !namesARule(c) {
				s.problem = "suppression names an unknown rule: " + c
				break
			}
		}
	}
	return s
}

// namesARule reports whether selector c matches a registered rule.
func namesARule(c string) bool {
	for _, r := range rules.All() {
		if config.Matches(c, r) {
			return true
		}
	}
	return false
}

// covers reports the index of the selector in s that silences d, or -1.
func (s *suppression) covers(d *rules.Diagnostic) int {
	if s.problem != "" || !s.file && d.Pos.Line != s.line {
		return -1
	}
	r := rules.Lookup(d.Rule)
	for i, c := range s.codes {
		if c == d.Rule || r != nil && config.Matches(c, r) {
			return i
		}
	}
	return -1
}

// pyComments returns the comments of Python source, from pyfront's
// tokenizer (a # inside a string, f-strings included, is not a comment).
func pyComments(src []byte) []comment {
	res := scanner.Tokenize(src, scanner.Options{})
	var out []comment
	for _, t := range res.Comments {
		line := int(t.Line)
		start := 0
		if line-1 < len(res.LineStarts) {
			start = int(res.LineStarts[line-1])
		}
		own := len(bytes.TrimSpace(res.Src[start:t.Off])) == 0
		out = append(out, comment{line: line, col: int(t.Col) + 1, text: res.Text(t), ownLine: own})
	}
	return out
}

// goComments returns the // comments of Go source, skipping strings, rune
// literals and /* */ comments.
func goComments(src []byte) []comment {
	var out []comment
	line, lineStart := 1, 0
	ownLine := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
			lineStart = i + 1
			ownLine = true
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			out = append(out, comment{line: line, col: i - lineStart + 1, text: string(src[i:j]), ownLine: ownLine})
			i = j - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for ; i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/'); i++ {
				if src[i] == '\n' {
					line++
					lineStart = i + 1
				}
			}
			i++
		case c == '`':
			ownLine = false
			for i++; i < len(src) && src[i] != '`'; i++ {
				if src[i] == '\n' {
					line++
					lineStart = i + 1
				}
			}
		case c == '"' || c == '\'':
			ownLine = false
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i < len(src) && src[i] == '\n' {
				i--
			}
		case c == ' ' || c == '\t' || c == '\r':
		default:
			ownLine = false
		}
	}
	return out
}
