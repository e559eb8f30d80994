package parser

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// fstringParser splits the body of one f-string token into literal text
// and replacement fields, parsing each field's expression with a
// sub-parser. Positions follow CPython: in 3.11 mode every JoinedStr part
// spans the whole concatenated string and expressions are placed by
// CPython 3.11's fstring_find_expr_location; from 3.12 expressions get
// their exact positions.
type fstringParser struct {
	p    *parser
	tok  *scanner.Token
	raw  bool
	span ast.Pos
	// debugEnd is the token-text offset where the last field's "=" debug
	// text ended.
	debugEnd int
}

func (f *fstringParser) fail(msg string) {
	f.p.errorAt(f.tok, "%s", msg)
	panic(bailout{})
}

// parse appends the pieces of body (which starts at offset bodyOff of the
// token text) to pieces.
func (f *fstringParser) parse(pieces []strPiece, body string, bodyOff int, level int) []strPiece {
	pieces, end := f.run(pieces, body, 0, bodyOff, level)
	if end < len(body) {
		f.fail("f-string: single '}' is not allowed")
	}
	return pieces
}

// run parses literal text and fields from s[i:]; at level > 0 (a format
// spec) it stops at the '}' that closes the enclosing field.
func (f *fstringParser) run(pieces []strPiece, s string, i, bodyOff, level int) ([]strPiece, int) {
	for i < len(s) {
		var lit string
		st := i
		lit, i = f.literal(s, i, level)
		if lit != "" {
			pieces = append(pieces, strPiece{lit: lit, pos: f.spanAt(bodyOff+st, bodyOff+i)})
		}
		if i >= len(s) {
			break
		}
		if s[i] == '}' {
			if level > 0 {
				return pieces, i
			}
			f.fail("f-string: single '}' is not allowed")
		}
		var fv *ast.FormattedValue
		var debug string
		brace := i
		fv, debug, i = f.field(s, i, bodyOff, level)
		if debug != "" {
			// 3.12 places the debug text at its source span after '{'.
			pieces = append(pieces, strPiece{lit: debug, pos: f.spanAt(bodyOff+brace+1, f.debugEnd)})
		}
		pieces = append(pieces, strPiece{expr: fv})
	}
	return pieces, i
}

// literal scans literal text from s[i:] up to a field's '{' (or, in a
// format spec, the closing '}') and returns it decoded.
func (f *fstringParser) literal(s string, i, level int) (string, int) {
	var out strings.Builder
	start := i
	flush := func(end int) {
		if end > start {
			d, err := decodeLiteral(s[start:end], f.raw, false)
			if err != "" {
				f.fail(err)
			}
			out.WriteString(d)
		}
	}
	for i < len(s) {
		c := s[i]
		if c == '\\' && !f.raw && i+1 < len(s) {
			if s[i+1] == 'N' && i+2 < len(s) && s[i+2] == '{' {
				j := strings.IndexByte(s[i:], '}')
				if j < 0 {
					i = len(s)
					break
				}
				i += j + 1
				continue
			}
			if s[i+1] == '{' || s[i+1] == '}' {
				i++
				continue
			}
			i += 2
			continue
		}
		if c == '{' || c == '}' {
			if level == 0 && i+1 < len(s) && s[i+1] == c {
				flush(i + 1)
				i += 2
				start = i
				continue
			}
			break
		}
		i++
	}
	flush(i)
	return out.String(), i
}

// field parses a replacement field starting at s[i] == '{'.
func (f *fstringParser) field(s string, i, bodyOff, level int) (*ast.FormattedValue, string, int) {
	if level >= 2 && f.p.minor < 12 || level > 150 {
		f.fail("f-string: expressions nested too deeply")
	}
	brace := i
	j := i + 1
	depth := 0
	var quote byte
	triple := false
	for ; j < len(s); j++ {
		c := s[j]
		if quote != 0 {
			if c == '\\' && f.p.minor < 12 {
				f.fail("f-string expression part cannot include a backslash")
			}
			if c == '\\' {
				j++
				continue
			}
			if c == quote {
				if !triple {
					quote = 0
				} else if j+2 < len(s) && s[j+1] == quote && s[j+2] == quote {
					j += 2
					quote = 0
				}
			}
			continue
		}
		if c == '\\' && f.p.minor < 12 {
			f.fail("f-string expression part cannot include a backslash")
		}
		switch c {
		case '\'', '"':
			quote = c
			triple = j+2 < len(s) && s[j+1] == c && s[j+2] == c
			if triple {
				j += 2
			}
			continue
		case '[', '(', '{':
			depth++
			continue
		case ']', ')':
			depth--
			continue
		case '#':
			if f.p.minor < 12 {
				f.fail("f-string expression part cannot include '#'")
			}
			k := strings.IndexByte(s[j:], '\n')
			if k < 0 {
				j = len(s) - 1
			} else {
				j += k - 1
			}
			continue
		case '}':
			if depth > 0 {
				depth--
				continue
			}
		}
		if depth != 0 {
			continue
		}
		if c == '!' || c == ':' || c == '}' || c == '=' || c == '<' || c == '>' {
			if j+1 < len(s) {
				n := s[j+1]
				if c == '!' && n == '=' || c == '=' && n == '=' || c == '<' && n == '=' || c == '>' && n == '=' {
					j++
					continue
				}
			}
			if c == '<' || c == '>' {
				continue
			}
			break
		}
	}
	if quote != 0 {
		f.fail("f-string: unterminated string")
	}
	if j >= len(s) {
		f.fail("f-string: expecting '}'")
	}
	exprText := s[i+1 : j]
	if strings.TrimLeft(exprText, " \t\n\r\f\v") == "" {
		f.fail("f-string: empty expression not allowed")
	}
	value := f.compile(exprText, bodyOff+brace)
	debug := ""
	if s[j] == '=' {
		j++
		hasComment := false
		for j < len(s) {
			if strings.IndexByte(" \t\n\r\f\v", s[j]) >= 0 {
				j++
			} else if s[j] == '#' && f.p.minor >= 12 {
				// A comment may follow the '=' (PEP 701); it is not part
				// of the debug text.
				hasComment = true
				for j < len(s) && s[j] != '\n' {
					j++
				}
			} else {
				break
			}
		}
		debug = s[i+1 : j]
		f.debugEnd = bodyOff + j
		if hasComment {
			debug = stripComments(debug)
		}
	}
	conv := -1
	if j < len(s) && s[j] == '!' {
		j++
		if j >= len(s) {
			f.fail("f-string: expecting '}'")
		}
		switch s[j] {
		case 's', 'r', 'a':
			conv = int(s[j])
		default:
			f.fail("f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		j++
		if f.p.minor >= 12 {
			// 3.12 allows whitespace after the conversion character.
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f') {
				j++
			}
		}
	}
	var spec ast.Expr
	if j < len(s) && s[j] == ':' {
		// CPython 3.11 places a format spec (and what is nested in it) at
		// its own string token, not at the whole concatenation; 3.12 from
		// the ':' to the end of the spec.
		colon := j
		inner := *f
		var pieces []strPiece
		pieces, j = inner.run(nil, s, j+1, bodyOff, level+1)
		specPos, tail := tokPos(f.tok), tokPos(f.tok)
		if f.p.minor >= 12 {
			specPos = f.spanAt(bodyOff+colon, bodyOff+max(j, colon+1))
			if f.p.minor == 12 && len(pieces) > 0 && pieces[len(pieces)-1].expr != nil {
				// 3.12 ends a spec that ends in a field with an empty literal.
				pieces = append(pieces, strPiece{pos: f.spanAt(bodyOff+j, bodyOff+j), keep: true})
			}
		}
		// Before 3.12 literals flushed by a nested field and the fields
		// take the whole string's span, the final literal and the spec
		// itself the token's.
		spec = &ast.JoinedStr{Pos: specPos, Values: joinPiecesTail(pieces, f.span, tail, f.p.minor >= 12)}
	}
	if j >= len(s) || s[j] != '}' {
		f.fail("f-string: expecting '}'")
	}
	j++
	if debug != "" && conv == -1 && spec == nil {
		conv = 'r'
	}
	if debug != "" {
		d, _ := decodeLiteral(debug, true, false)
		debug = d
	}
	fvPos := f.span
	if f.p.minor >= 12 {
		fvPos = f.spanAt(bodyOff+brace, bodyOff+j)
	}
	return &ast.FormattedValue{Pos: fvPos, Value: value, Conversion: conv, FormatSpec: spec}, debug, j
}

// spanAt returns the source span between two byte offsets of the token
// text (exact 3.12 positions).
func (f *fstringParser) spanAt(from, to int) ast.Pos {
	l1, c1 := f.posAt(from)
	l2, c2 := f.posAt(to)
	return ast.Pos{Lineno: l1, ColOffset: c1, EndLineno: l2, EndColOffset: c2}
}

// posAt converts an offset of the token text to a line and column.
func (f *fstringParser) posAt(k int) (int32, int32) {
	text := f.p.src[f.tok.Off:f.tok.EndOff]
	if k > len(text) {
		k = len(text)
	}
	n, last := int32(0), -1
	for i := 0; i < k; i++ {
		if text[i] == '\n' {
			n++
			last = i
		}
	}
	if n == 0 {
		return f.tok.Line, f.tok.Col + int32(k)
	}
	return f.tok.Line + n, int32(k - last - 1)
}

// compile parses the expression text of a field whose '{' is at offset
// brace of the token text.
func (f *fstringParser) compile(exprText string, brace int) ast.Expr {
	p := f.p
	text := p.src[f.tok.Off:f.tok.EndOff]
	lines := int32(0)
	lastNL := -1
	for k := 0; k < brace; k++ {
		if text[k] == '\n' {
			lines++
			lastNL = k
		}
	}
	var lineDelta, colDelta int32
	if p.minor >= 12 {
		lineDelta = f.tok.Line + lines - 1
		if lines == 0 {
			colDelta = f.tok.Col + int32(brace)
		} else {
			colDelta = int32(brace - lastNL - 1)
		}
	} else {
		// CPython 3.11 fstring_find_expr_location.
		nlAfter := true
		for k := brace + 1; k < len(text) && text[k] != '}' && text[k] != '\n'; k++ {
			if text[k] != ' ' && text[k] != '\t' && text[k] != '\f' {
				nlAfter = false
				break
			}
		}
		cols := int32(0)
		if !nlAfter {
			st := brace
			for st > 0 && text[st] != '\n' {
				st--
			}
			cols = int32(brace - st)
			if text[st] == '\n' {
				cols--
			}
		}
		lineDelta = f.tok.Line + lines - 1
		colDelta = f.tok.Col + cols
		if lines != 0 {
			colDelta = cols
		}
	}
	src := make([]byte, 0, len(exprText)+2)
	src = append(src, '(')
	src = append(src, exprText...)
	src = append(src, ')')
	res := scanner.Tokenize(src, scanner.Options{LineDelta: lineDelta, FirstColDelta: colDelta, NoImplicitNewline: true})
	sub := &parser{filename: p.filename, src: res.Src, toks: res.Tokens, minor: p.minor, intern: p.intern, depth: p.depth + 1}
	for _, e := range res.Errors {
		p.errs = append(p.errs, &Error{Filename: p.filename, Line: e.Line, Col: e.Col, Msg: "f-string: " + e.Msg})
	}
	if len(res.Errors) > 0 {
		panic(bailout{})
	}
	var e ast.Expr
	func() {
		defer func() {
			if r := recover(); r != nil {
				p.errs = append(p.errs, sub.errs...)
				panic(r)
			}
		}()
		if p.minor >= 12 {
			// PEP 701: the field holds (yield_expr | star_expressions)
			// itself; the added parentheses only keep the tokenizer in
			// bracket mode.
			sub.next()
			if sub.at(scanner.KwYield) {
				e = sub.yieldExpr()
			} else {
				e = sub.starExpressions()
			}
			sub.expect(scanner.RPar)
		} else {
			e = sub.starExpressions()
		}
		if !sub.at(scanner.EOF) {
			sub.fail("f-string: invalid syntax")
		}
	}()
	p.errs = append(p.errs, sub.errs...)
	return e
}

// stripComments removes "#…" up to each line end from debug text.
func stripComments(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		k := strings.IndexByte(s, '#')
		if k < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:k])
		s = s[k:]
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			s = s[nl:]
		} else {
			s = ""
		}
	}
	return b.String()
}
