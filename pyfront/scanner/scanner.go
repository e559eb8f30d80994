// Package scanner decodes Python source files and splits them into tokens
// the way CPython's tokenizer does: INDENT/DEDENT from leading whitespace
// (tabs to multiples of 8, form feeds resetting the column), implicit line
// joining inside brackets, backslash continuations, every string prefix,
// triple quotes, and f-strings scanned as one String token (PEP 701 nesting
// of quotes and replacement fields included). Comments are kept in a list
// of their own.
package scanner

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Error is a tokenizer error at a position.
type Error struct {
	Line, Col int // 1-based line, 0-based byte column
	Msg       string
}

func (e Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col+1, e.Msg) }

// Result is a tokenized file.
type Result struct {
	Src        []byte  // decoded UTF-8 source with "\n" line endings
	Tokens     []Token // ends with EOF; no Comment tokens
	Comments   []Token // every comment, in order
	LineStarts []int32 // byte offset of each line's first byte (index 0 = line 1)
	Errors     []Error
}

// Text returns the source text of t.
func (r *Result) Text(t Token) string { return string(r.Src[t.Off:t.EndOff]) }

// Options adjusts positions for sub-scans (expressions inside f-strings):
// every line number is shifted by LineDelta and tokens on the first line
// get FirstColDelta added to their columns.
type Options struct {
	LineDelta     int32
	FirstColDelta int32
	// NoImplicitNewline suppresses the Newline token added at EOF.
	NoImplicitNewline bool
}

// maxParenLevel is CPython's MAXLEVEL: deeper bracket nesting is an error.
const maxParenLevel = 200

type scanner struct {
	src        []byte
	off        int
	line       int32
	lineStart  int
	opt        Options
	res        *Result
	indents    []int
	altIndents []int
	parens     []byte
	parenLines []int32
	parenCols  []int32
	atBOL      bool
	contLine   bool
	pendingErr bool
}

// Tokenize scans decoded source text (see Decode).
func Tokenize(src []byte, opt Options) *Result {
	return TokenizeInto(nil, src, opt)
}

// TokenizeInto is Tokenize appending to buf[:0], so callers can reuse
// token buffers between files.
func TokenizeInto(buf []Token, src []byte, opt Options) *Result {
	s := &scanner{src: src, line: 1, opt: opt, atBOL: true, indents: []int{0}, altIndents: []int{0}}
	s.res = &Result{Src: src}
	if cap(buf) < len(src)/5+8 {
		buf = make([]Token, 0, len(src)/5+8)
	}
	s.res.Tokens = buf[:0]
	s.res.LineStarts = append(make([]int32, 0, len(src)/30+2), 0)
	s.run()
	return s.res
}

func (s *scanner) errorf(off int, format string, args ...any) {
	line, col := s.line, int32(off-s.lineStart)
	s.res.Errors = append(s.res.Errors, Error{Line: int(s.adjLine(line)), Col: int(s.adjCol(line, col)), Msg: fmt.Sprintf(format, args...)})
}

func (s *scanner) adjLine(l int32) int32 { return l + s.opt.LineDelta }

func (s *scanner) adjCol(l, c int32) int32 {
	if l == 1 {
		return c + s.opt.FirstColDelta
	}
	return c
}

func (s *scanner) newline(at int) {
	s.line++
	s.lineStart = at + 1
	s.res.LineStarts = append(s.res.LineStarts, int32(at+1))
}

// emit appends a token from start (with its line/col already known) to
// the current offset.
func (s *scanner) emit(k Kind, start int, line, col int32) {
	endCol := int32(s.off - s.lineStart)
	t := Token{Kind: k, Off: int32(start), EndOff: int32(s.off),
		Line: s.adjLine(line), Col: s.adjCol(line, col), EndLine: s.adjLine(s.line), EndCol: s.adjCol(s.line, endCol)}
	if k == Comment {
		s.res.Comments = append(s.res.Comments, t)
		return
	}
	s.res.Tokens = append(s.res.Tokens, t)
}

func (s *scanner) run() {
	src := s.src
	for {
		if s.atBOL {
			s.atBOL = false
			if s.indentation() {
				continue
			}
		}
		// Skip blanks.
		for s.off < len(src) && (src[s.off] == ' ' || src[s.off] == '\t' || src[s.off] == '\f') {
			s.off++
		}
		if s.off >= len(src) {
			s.finish()
			return
		}
		start := s.off
		line, col := s.line, int32(s.off-s.lineStart)
		c := src[s.off]
		switch {
		case c == '#':
			for s.off < len(src) && src[s.off] != '\n' {
				s.off++
			}
			s.emit(Comment, start, line, col)
		case c == '\n':
			s.off++
			if len(s.parens) > 0 && s.defOrClassFollows() {
				// "def"/"class" cannot occur inside brackets: the bracket
				// was never closed. Report it and resume at this line so
				// that later definitions still parse.
				i := len(s.parens) - 1
				s.res.Errors = append(s.res.Errors, Error{Line: int(s.adjLine(s.parenLines[i])), Col: int(s.parenCols[i]),
					Msg: fmt.Sprintf("'%c' was never closed", s.parens[i])})
				s.parens, s.parenLines, s.parenCols = s.parens[:0], s.parenLines[:0], s.parenCols[:0]
			}
			if len(s.parens) == 0 {
				s.emit(Newline, start, line, col)
				s.atBOL = true
			}
			s.newline(start)
		case c == '\\':
			s.off++
			if s.off < len(src) && src[s.off] == '\n' {
				s.newline(s.off)
				s.off++
				if s.off >= len(src) {
					s.errorf(s.off, "unexpected EOF while parsing")
				}
				continue
			}
			s.errorf(start, "unexpected character after line continuation character")
			s.emit(ErrorToken, start, line, col)
		case isIdentStart(c):
			s.nameOrString(start, line, col)
		case c >= '0' && c <= '9' || c == '.' && s.off+1 < len(src) && src[s.off+1] >= '0' && src[s.off+1] <= '9':
			s.number(start, line, col)
		case c == '"' || c == '\'':
			s.str(start, line, col, 0)
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(src[s.off:])
			if isIDStartRune(r) {
				s.nameOrString(start, line, col)
			} else {
				s.off += n
				s.errorf(start, "invalid character '%c' (U+%04X)", r, r)
				s.emit(ErrorToken, start, line, col)
			}
		default:
			s.operator(start, line, col)
		}
	}
}

// indentation handles the start of a line. It returns true when the line
// was blank (only whitespace or a comment) and has been consumed up to
// (not including) its newline, or the file ended.
func (s *scanner) indentation() bool {
	src := s.src
	col, alt := 0, 0
	for s.off < len(src) {
		switch src[s.off] {
		case ' ':
			col++
			alt++
		case '\t':
			col = (col/8 + 1) * 8
			alt++
		case '\f':
			col, alt = 0, 0
		default:
			goto done
		}
		s.off++
	}
done:
	if len(s.parens) > 0 {
		return false
	}
	if s.off >= len(src) {
		return false
	}
	if src[s.off] == '#' || src[s.off] == '\n' {
		// Blank or comment-only line: no indentation change, no NEWLINE.
		if src[s.off] == '#' {
			start := s.off
			line, c := s.line, int32(s.off-s.lineStart)
			for s.off < len(src) && src[s.off] != '\n' {
				s.off++
			}
			s.emit(Comment, start, line, c)
		}
		if s.off < len(src) {
			s.newline(s.off)
			s.off++
			s.atBOL = true
			return true
		}
		return false
	}
	line, c := s.line, int32(s.off-s.lineStart)
	top := s.indents[len(s.indents)-1]
	switch {
	case col > top:
		if alt <= s.altIndents[len(s.altIndents)-1] {
			s.errorf(s.off, "inconsistent use of tabs and spaces in indentation")
		}
		s.indents = append(s.indents, col)
		s.altIndents = append(s.altIndents, alt)
		s.emit(Indent, s.off-int(c), line, 0)
		s.res.Tokens[len(s.res.Tokens)-1].EndCol = s.adjCol(line, c)
	case col < top:
		for len(s.indents) > 1 && col < s.indents[len(s.indents)-1] {
			s.indents = s.indents[:len(s.indents)-1]
			s.altIndents = s.altIndents[:len(s.altIndents)-1]
			s.emit(Dedent, s.off, line, c)
		}
		if col != s.indents[len(s.indents)-1] {
			s.errorf(s.off, "unindent does not match any outer indentation level")
		} else if alt != s.altIndents[len(s.altIndents)-1] {
			s.errorf(s.off, "inconsistent use of tabs and spaces in indentation")
		}
	default:
		if alt != s.altIndents[len(s.altIndents)-1] {
			s.errorf(s.off, "inconsistent use of tabs and spaces in indentation")
		}
	}
	return false
}

// defOrClassFollows reports whether the line starting at s.off begins
// with the keyword def or class.
func (s *scanner) defOrClassFollows() bool {
	i := s.off
	for i < len(s.src) && (s.src[i] == ' ' || s.src[i] == '\t' || s.src[i] == '\f') {
		i++
	}
	rest := s.src[i:]
	for _, kw := range [...]string{"def ", "class ", "async def "} {
		if len(rest) >= len(kw) && string(rest[:len(kw)]) == kw {
			return true
		}
	}
	return false
}

func (s *scanner) finish() {
	line, col := s.line, int32(s.off-s.lineStart)
	if len(s.parens) > 0 {
		i := len(s.parens) - 1
		s.res.Errors = append(s.res.Errors, Error{Line: int(s.adjLine(s.parenLines[i])), Col: int(s.parenCols[i]),
			Msg: fmt.Sprintf("'%c' was never closed", s.parens[i])})
	}
	if !s.opt.NoImplicitNewline {
		n := len(s.res.Tokens)
		if n > 0 && s.res.Tokens[n-1].Kind != Newline && s.res.Tokens[n-1].Kind != Dedent && s.res.Tokens[n-1].Kind != Indent {
			s.emit(Newline, s.off, line, col)
		}
	}
	for len(s.indents) > 1 {
		s.indents = s.indents[:len(s.indents)-1]
		s.emit(Dedent, s.off, line, col)
	}
	s.emit(EOF, s.off, line, col)
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

func isIDStartRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinueRune(r rune) bool {
	return isIDStartRune(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || unicode.Is(unicode.Other_ID_Continue, r)
}

func (s *scanner) nameOrString(start int, line, col int32) {
	src := s.src
	for s.off < len(src) {
		c := src[s.off]
		if isIdentByte(c) {
			s.off++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(src[s.off:])
			if isIDContinueRune(r) {
				s.off += n
				continue
			}
		}
		break
	}
	// A string prefix directly followed by a quote.
	if s.off < len(src) && (src[s.off] == '"' || src[s.off] == '\'') && s.off-start <= 2 {
		if flags, ok := stringPrefix(src[start:s.off]); ok {
			s.str(start, line, col, flags)
			return
		}
	}
	s.emit(Name, start, line, col)
	if k := lookupKeyword(src[start:s.off]); k != Name {
		s.res.Tokens[len(s.res.Tokens)-1].Kind = k
	}
}

// String prefix flags.
const (
	flagRaw = 1 << iota
	flagBytes
	flagF
	flagU
)

func stringPrefix(p []byte) (int, bool) {
	f := 0
	for _, c := range p {
		switch c {
		case 'r', 'R':
			if f&flagRaw != 0 {
				return 0, false
			}
			f |= flagRaw
		case 'b', 'B':
			if f&(flagBytes|flagF|flagU) != 0 {
				return 0, false
			}
			f |= flagBytes
		case 'f', 'F':
			if f&(flagBytes|flagF|flagU) != 0 {
				return 0, false
			}
			f |= flagF
		case 'u', 'U':
			if f != 0 {
				return 0, false
			}
			f |= flagU
		default:
			return 0, false
		}
	}
	if f&flagU != 0 && len(p) > 1 {
		return 0, false
	}
	return f, true
}

// str scans a string literal starting at s.off (the opening quote).
func (s *scanner) str(start int, line, col int32, flags int) {
	if !s.scanStr(flags, 0) {
		s.emit(ErrorToken, start, line, col)
		return
	}
	s.emit(String, start, line, col)
}

// scanStr scans from the opening quote to past the closing one. It
// reports errors itself and returns false on an unterminated string.
func (s *scanner) scanStr(flags int, depth int) bool {
	src := s.src
	q := src[s.off]
	triple := s.off+2 < len(src) && src[s.off+1] == q && src[s.off+2] == q
	qStart, qLine, qCol := s.off, s.line, int32(s.off-s.lineStart)
	if triple {
		s.off += 3
	} else {
		s.off++
	}
	fstr := flags&flagF != 0
	for {
		if s.off >= len(src) {
			s.unterminated(qStart, qLine, qCol, triple)
			return false
		}
		c := src[s.off]
		switch {
		case c == q:
			if !triple {
				s.off++
				return true
			}
			if s.off+2 < len(src) && src[s.off+1] == q && src[s.off+2] == q {
				s.off += 3
				return true
			}
			s.off++
		case c == '\\':
			s.off++
			if s.off < len(src) {
				if src[s.off] == '\n' {
					s.newline(s.off)
				}
				if fstr && (src[s.off] == '{' || src[s.off] == '}') {
					// "\{" is a backslash then a brace: let the brace be seen.
					continue
				}
				s.off++
			}
		case c == '\n':
			if !triple {
				s.unterminated(qStart, qLine, qCol, triple)
				return false
			}
			s.newline(s.off)
			s.off++
		case fstr && c == '{':
			if s.off+1 < len(src) && src[s.off+1] == '{' {
				s.off += 2
				continue
			}
			s.off++
			if !s.replacementField(q, triple, depth) {
				return false
			}
		default:
			s.off++
		}
	}
}

func (s *scanner) unterminated(off int, line, col int32, triple bool) {
	msg := "unterminated string literal (detected at line %d)"
	if triple {
		msg = "unterminated triple-quoted string literal (detected at line %d)"
	}
	s.res.Errors = append(s.res.Errors, Error{Line: int(s.adjLine(line)), Col: int(s.adjCol(line, col)), Msg: fmt.Sprintf(msg, s.adjLine(s.line))})
	if !triple {
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			s.off++
		}
	}
}

// replacementField skips an f-string replacement field after its '{' up
// to and including the matching '}', allowing nested brackets, strings of
// any quote (PEP 701), comments and nested format specs.
func (s *scanner) replacementField(q byte, triple bool, depth int) bool {
	src := s.src
	nest := 0
	if depth > 20 {
		s.errorf(s.off, "f-string: expressions nested too deeply")
		return false
	}
	for s.off < len(src) {
		c := src[s.off]
		switch {
		case c == '\n':
			s.newline(s.off)
			s.off++
		case c == '#':
			for s.off < len(src) && src[s.off] != '\n' {
				s.off++
			}
		case c == '(' || c == '[' || c == '{':
			nest++
			s.off++
		case c == ')' || c == ']':
			nest--
			s.off++
		case c == '}':
			s.off++
			if nest == 0 {
				return true
			}
			nest--
		case c == q && !triple && nest >= 0 && s.quoteEndsString(q):
			// The enclosing string's quote closes it (pre-3.12 reading).
			return true
		case c == '"' || c == '\'':
			if !s.scanStr(0, depth+1) {
				return false
			}
		case isIdentStart(c):
			st := s.off
			for s.off < len(src) && isIdentByte(src[s.off]) {
				s.off++
			}
			if s.off < len(src) && (src[s.off] == '"' || src[s.off] == '\'') && s.off-st <= 2 {
				if fl, ok := stringPrefix(src[st:s.off]); ok {
					if !s.scanStr(fl, depth+1) {
						return false
					}
				}
			}
		case c == ':' && nest == 0 && !(s.off+1 < len(src) && src[s.off+1] == '='):
			// Format spec: literal text with nested fields, up to '}'.
			s.off++
			for s.off < len(src) {
				d := src[s.off]
				if d == '{' {
					s.off++
					if !s.replacementField(q, triple, depth+1) {
						return false
					}
					continue
				}
				if d == '}' {
					s.off++
					return true
				}
				if d == q && (!triple || s.off+2 < len(src) && src[s.off+1] == q && src[s.off+2] == q) {
					return true // let the string scanner report the problem
				}
				if d == '\n' {
					if !triple {
						return true
					}
					s.newline(s.off)
				}
				if d == '\\' && s.off+1 < len(src) && src[s.off+1] != '{' && src[s.off+1] != '}' {
					s.off++
				}
				s.off++
			}
		default:
			s.off++
		}
	}
	return true
}

// quoteEndsString is a heuristic for single-quoted f-strings: a quote
// equal to the enclosing one inside a replacement field starts a nested
// string (PEP 701) only when it is followed on the same line by more text
// that closes the field; otherwise it closes the f-string.
func (s *scanner) quoteEndsString(q byte) bool {
	src := s.src
	i := s.off + 1
	// Find the matching quote of a nested string on this line.
	for i < len(src) && src[i] != q && src[i] != '\n' {
		if src[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(src) || src[i] == '\n' {
		return true
	}
	return false
}

func (s *scanner) number(start int, line, col int32) {
	src := s.src
	digits := func(ok func(byte) bool) {
		for s.off < len(src) && (ok(src[s.off]) || src[s.off] == '_' && s.off+1 < len(src) && ok(src[s.off+1])) {
			s.off++
		}
	}
	dec := func(c byte) bool { return c >= '0' && c <= '9' }
	if src[s.off] == '0' && s.off+1 < len(src) && (src[s.off+1]|0x20 == 'x' || src[s.off+1]|0x20 == 'o' || src[s.off+1]|0x20 == 'b') {
		var ok func(byte) bool
		switch src[s.off+1] | 0x20 {
		case 'x':
			ok = func(c byte) bool { return dec(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		default:
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		s.off += 2
		if s.off < len(src) && src[s.off] == '_' {
			s.off++
		}
		if s.off >= len(src) || !ok(src[s.off]) {
			names := map[byte]string{'x': "hexadecimal", 'o': "octal", 'b': "binary"}
			s.errorf(start, "invalid %s literal", names[src[start+1]|0x20])
		}
		digits(ok)
	} else {
		digits(dec)
		if s.off < len(src) && src[s.off] == '.' {
			s.off++
			digits(dec)
		}
		if s.off < len(src) && src[s.off]|0x20 == 'e' {
			save := s.off
			s.off++
			if s.off < len(src) && (src[s.off] == '+' || src[s.off] == '-') {
				s.off++
			}
			if s.off < len(src) && dec(src[s.off]) {
				digits(dec)
			} else {
				s.off = save
			}
		}
		if s.off < len(src) && src[s.off]|0x20 == 'j' {
			s.off++
		}
	}
	if s.off < len(src) && (isIdentByte(src[s.off]) || src[s.off] >= utf8.RuneSelf) {
		// "1if x else y" is accepted by CPython (with a warning); other
		// letters glued to a number are errors.
		rest := src[s.off:]
		okKw := false
		for _, kw := range []string{"and", "else", "for", "if", "in", "is", "not", "or"} {
			if len(rest) >= len(kw) && string(rest[:len(kw)]) == kw {
				okKw = true
			}
		}
		if !okKw {
			s.errorf(start, "invalid decimal literal")
		}
	}
	s.emit(Number, start, line, col)
}

func (s *scanner) operator(start int, line, col int32) {
	src := s.src
	rest := src[s.off:]
	k, n := lookupOperator(rest)
	if n == 0 {
		r, sz := utf8.DecodeRune(rest)
		s.off += sz
		s.errorf(start, "invalid character '%c' (U+%04X)", r, r)
		s.emit(ErrorToken, start, line, col)
		return
	}
	s.off += n
	switch k {
	case LPar, LSqb, LBrace:
		if len(s.parens) >= maxParenLevel {
			s.errorf(start, "too many nested parentheses")
		}
		s.parens = append(s.parens, rest[0])
		s.parenLines = append(s.parenLines, line)
		s.parenCols = append(s.parenCols, col)
	case RPar, RSqb, RBrace:
		if len(s.parens) == 0 {
			s.errorf(start, "unmatched '%c'", rest[0])
		} else {
			open := s.parens[len(s.parens)-1]
			if !(open == '(' && rest[0] == ')' || open == '[' && rest[0] == ']' || open == '{' && rest[0] == '}') {
				s.errorf(start, "closing parenthesis '%c' does not match opening parenthesis '%c'", rest[0], open)
			}
			s.parens = s.parens[:len(s.parens)-1]
			s.parenLines = s.parenLines[:len(s.parenLines)-1]
			s.parenCols = s.parenCols[:len(s.parenCols)-1]
		}
	}
	s.emit(k, start, line, col)
}

// lookupOperator returns the longest operator at the start of b and its
// length (0 when there is none).
func lookupOperator(b []byte) (Kind, int) {
	c := b[0]
	var c1, c2 byte
	if len(b) > 1 {
		c1 = b[1]
	}
	if len(b) > 2 {
		c2 = b[2]
	}
	switch c {
	case '(':
		return LPar, 1
	case ')':
		return RPar, 1
	case '[':
		return LSqb, 1
	case ']':
		return RSqb, 1
	case '{':
		return LBrace, 1
	case '}':
		return RBrace, 1
	case ',':
		return Comma, 1
	case ';':
		return Semi, 1
	case '~':
		return Tilde, 1
	case ':':
		if c1 == '=' {
			return ColonEq, 2
		}
		return Colon, 1
	case '.':
		if c1 == '.' && c2 == '.' {
			return Ellipsis, 3
		}
		return Dot, 1
	case '+':
		if c1 == '=' {
			return PlusEq, 2
		}
		return Plus, 1
	case '-':
		if c1 == '=' {
			return MinusEq, 2
		}
		if c1 == '>' {
			return RArrow, 2
		}
		return Minus, 1
	case '*':
		if c1 == '*' {
			if c2 == '=' {
				return DoubleStarEq, 3
			}
			return DoubleStar, 2
		}
		if c1 == '=' {
			return StarEq, 2
		}
		return Star, 1
	case '/':
		if c1 == '/' {
			if c2 == '=' {
				return DoubleSlashEq, 3
			}
			return DoubleSlash, 2
		}
		if c1 == '=' {
			return SlashEq, 2
		}
		return Slash, 1
	case '|':
		if c1 == '=' {
			return VBarEq, 2
		}
		return VBar, 1
	case '&':
		if c1 == '=' {
			return AmperEq, 2
		}
		return Amper, 1
	case '^':
		if c1 == '=' {
			return CircumflexEq, 2
		}
		return Circumflex, 1
	case '%':
		if c1 == '=' {
			return PercentEq, 2
		}
		return Percent, 1
	case '@':
		if c1 == '=' {
			return AtEq, 2
		}
		return At, 1
	case '=':
		if c1 == '=' {
			return EqEqual, 2
		}
		return Equal, 1
	case '!':
		if c1 == '=' {
			return NotEqual, 2
		}
		return Exclamation, 1
	case '<':
		if c1 == '<' {
			if c2 == '=' {
				return LShiftEq, 3
			}
			return LShift, 2
		}
		if c1 == '=' {
			return LessEq, 2
		}
		return Less, 1
	case '>':
		if c1 == '>' {
			if c2 == '=' {
				return RShiftEq, 3
			}
			return RShift, 2
		}
		if c1 == '=' {
			return GreaterEq, 2
		}
		return Greater, 1
	}
	return 0, 0
}

// lookupKeyword returns the keyword kind of word, or Name.
func lookupKeyword(w []byte) Kind {
	if len(w) < 2 || len(w) > 8 || w[0] < 'F' || w[0] > 'y' {
		return Name
	}
	switch w[0] {
	case 'F', 'N', 'T', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'l', 'n', 'o', 'p', 'r', 't', 'w', 'y':
		if k, ok := Keywords[string(w)]; ok {
			return k
		}
	}
	return Name
}
