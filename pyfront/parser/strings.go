package parser

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// number converts a Number token to a Constant.
func (p *parser) number(t *scanner.Token) ast.Expr {
	raw := p.src[t.Off:t.EndOff]
	s := string(raw)
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	c := &ast.Constant{Pos: tokPos(t)}
	last := s[len(s)-1] | 0x20
	isHex := len(s) > 1 && s[0] == '0' && (s[1]|0x20 == 'x')
	switch {
	case last == 'j' && !isHex:
		c.Type = ast.ConstComplex
		c.Float = parseFloat(s[:len(s)-1])
	case len(s) > 1 && s[0] == '0' && (s[1]|0x20 == 'x' || s[1]|0x20 == 'o' || s[1]|0x20 == 'b'):
		base := 16
		switch s[1] | 0x20 {
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		c.Type = ast.ConstInt
		setInt(c, s[2:], base)
	case strings.ContainsAny(s, ".eE"):
		c.Type = ast.ConstFloat
		c.Float = parseFloat(s)
	default:
		c.Type = ast.ConstInt
		if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0") != "" {
			p.errorAt(t, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
			panic(bailout{})
		}
		setInt(c, s, 10)
	}
	return c
}

func setInt(c *ast.Constant, digits string, base int) {
	if v, err := strconv.ParseInt(digits, base, 64); err == nil {
		c.Int = v
		return
	}
	b, ok := new(big.Int).SetString(digits, base)
	if !ok {
		b = new(big.Int)
	}
	c.Big = b
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0
	}
	return f
}

// strPiece is one part of a concatenated string: literal text or a
// replacement field.
type strPiece struct {
	lit  string
	expr *ast.FormattedValue
	// pos is the literal's own source span (used from 3.12 on, where
	// merged literals span from the first piece's start to the last
	// piece's end).
	pos ast.Pos
	// keep keeps an empty literal (3.12's trailing '' in format specs).
	keep bool
}

// strings parses one or more adjacent String tokens into a Constant or,
// when any is an f-string, a JoinedStr.
func (p *parser) strings() ast.Expr {
	first := p.pos
	for p.at(scanner.String) {
		p.next()
	}
	span := p.span(first)
	toks := p.toks[first:p.pos]
	bytesMode := -1
	fmode := false
	kind := ""
	for i := range toks {
		fl, _ := p.prefix(&toks[i])
		if fl&flagF != 0 {
			fmode = true
		}
		b := 0
		if fl&flagBytes != 0 {
			b = 1
		}
		if bytesMode >= 0 && bytesMode != b {
			p.errorAt(&toks[i], "cannot mix bytes and nonbytes literals")
			panic(bailout{})
		}
		bytesMode = b
		if i == 0 && fl&flagU != 0 {
			kind = "u"
		}
	}
	if !fmode {
		var b strings.Builder
		for i := range toks {
			t := &toks[i]
			fl, body := p.prefix(t)
			s, err := decodeLiteral(body, fl&flagRaw != 0, fl&flagBytes != 0)
			if err != "" {
				p.errorAt(t, "%s", err)
				panic(bailout{})
			}
			if len(toks) == 1 {
				c := &ast.Constant{Pos: span, Str: s, Kind: kind, Type: ast.ConstStr}
				if bytesMode == 1 {
					c.Type = ast.ConstBytes
				}
				return c
			}
			b.WriteString(s)
		}
		c := &ast.Constant{Pos: span, Str: b.String(), Kind: kind, Type: ast.ConstStr}
		if bytesMode == 1 {
			c.Type = ast.ConstBytes
		}
		return c
	}
	var pieces []strPiece
	for i := range toks {
		t := &toks[i]
		fl, body := p.prefix(t)
		raw := fl&flagRaw != 0
		if fl&flagF == 0 {
			s, err := decodeLiteral(body, raw, false)
			if err != "" {
				p.errorAt(t, "%s", err)
				panic(bailout{})
			}
			pieces = append(pieces, strPiece{lit: s, pos: tokPos(t)})
			continue
		}
		fs := &fstringParser{p: p, tok: t, raw: raw, span: span}
		bodyOff := len(p.src[t.Off:t.EndOff]) - len(body) // bytes before the body
		if raw || true {
			bodyOff = p.bodyStart(t)
		}
		pieces = fs.parse(pieces, body, bodyOff, 0)
	}
	return &ast.JoinedStr{Pos: span, Values: joinPieces(pieces, span, p.minor >= 12)}
}

// joinPieces merges adjacent literals and drops empty ones. Before 3.12
// every literal is placed at span; from 3.12 at its own source span.
func joinPieces(pieces []strPiece, span ast.Pos, exact bool) []ast.Expr {
	return joinPiecesTail(pieces, span, span, exact)
}

// joinPiecesTail is joinPieces where, before 3.12, the literal left after
// the last field is placed at tail (CPython 3.11 flushes it when
// finishing a format spec, with that string token's position).
func joinPiecesTail(pieces []strPiece, span, tail ast.Pos, exact bool) []ast.Expr {
	out := make([]ast.Expr, 0, len(pieces))
	var lit strings.Builder
	hasLit, keep := false, false
	var litPos ast.Pos
	flush := func() {
		if hasLit && (lit.Len() > 0 || keep) {
			c := &ast.Constant{Pos: span, Type: ast.ConstStr, Str: lit.String()}
			if exact {
				c.Pos = litPos
			}
			out = append(out, c)
		}
		lit.Reset()
		hasLit, keep = false, false
	}
	for _, pc := range pieces {
		if pc.expr == nil {
			if !hasLit {
				litPos = pc.pos
			} else {
				litPos.EndLineno, litPos.EndColOffset = pc.pos.EndLineno, pc.pos.EndColOffset
			}
			lit.WriteString(pc.lit)
			hasLit = true
			keep = keep || pc.keep
			continue
		}
		flush()
		out = append(out, pc.expr)
	}
	span = tail
	flush()
	return out
}

// String prefix flags.
const (
	flagRaw = 1 << iota
	flagBytes
	flagF
	flagU
)

// prefix returns the flags of a string token and its body (between the
// quotes).
func (p *parser) prefix(t *scanner.Token) (int, string) {
	s := p.src[t.Off:t.EndOff]
	fl := 0
	i := 0
	for ; i < len(s) && s[i] != '"' && s[i] != '\''; i++ {
		switch s[i] | 0x20 {
		case 'r':
			fl |= flagRaw
		case 'b':
			fl |= flagBytes
		case 'f':
			fl |= flagF
		case 'u':
			fl |= flagU
		}
	}
	q := 1
	if len(s)-i >= 6 && s[i+1] == s[i] && s[i+2] == s[i] {
		q = 3
	}
	if len(s) < i+2*q {
		return fl, ""
	}
	return fl, string(s[i+q : len(s)-q])
}

// bodyStart returns the offset of a string token's body within its text.
func (p *parser) bodyStart(t *scanner.Token) int {
	s := p.src[t.Off:t.EndOff]
	i := 0
	for i < len(s) && s[i] != '"' && s[i] != '\'' {
		i++
	}
	if len(s)-i >= 6 && s[i+1] == s[i] && s[i+2] == s[i] {
		return i + 3
	}
	return i + 1
}

// decodeLiteral decodes the body of a str or bytes literal; a non-empty
// second result is a syntax error message.
func decodeLiteral(body string, raw, isBytes bool) (string, string) {
	if isBytes {
		for i := 0; i < len(body); i++ {
			if body[i] >= 0x80 {
				return "", "bytes can only contain ASCII literal characters"
			}
		}
	}
	if raw || strings.IndexByte(body, '\\') < 0 {
		return body, ""
	}
	b := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		if i >= len(body) {
			b = append(b, '\\')
			break
		}
		c = body[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			b = append(b, c)
		case 'a':
			b = append(b, 7)
		case 'b':
			b = append(b, 8)
		case 'f':
			b = append(b, 12)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for k := 0; k < 2 && i+1 < len(body) && body[i+1] >= '0' && body[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(body[i]-'0')
			}
			if isBytes {
				b = append(b, byte(v))
			} else {
				b = ast.AppendWTF8(b, rune(v))
			}
		case 'x':
			if i+2 >= len(body)+0 && i+2 > len(body)-0 {
				return "", "(value error) invalid \\x escape at position " + strconv.Itoa(i-1)
			}
			v, ok := hexVal(body[i+1 : min(i+3, len(body))])
			if !ok || i+3 > len(body) {
				return "", "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\xXX escape"
			}
			i += 2
			if isBytes {
				b = append(b, byte(v))
			} else {
				b = ast.AppendWTF8(b, rune(v))
			}
		case 'u', 'U', 'N':
			if isBytes {
				b = append(b, '\\', c)
				continue
			}
			if c == 'N' {
				if i+1 >= len(body) || body[i+1] != '{' {
					return "", "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape"
				}
				end := strings.IndexByte(body[i:], '}')
				if end < 0 {
					return "", "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape"
				}
				name := body[i+2 : i+end]
				r, ok := lookupRuneName(name)
				if !ok {
					return "", "(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name"
				}
				b = ast.AppendWTF8(b, r)
				i += end
				continue
			}
			n := 4
			if c == 'U' {
				n = 8
			}
			if i+n >= len(body) { // fewer than n characters after the letter
				return "", "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\" + string(c) + strings.Repeat("X", n) + " escape"
			}
			v, ok := hexVal(body[i+1 : i+1+n])
			if !ok || v > 0x10ffff {
				return "", "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\" + string(c) + strings.Repeat("X", n) + " escape"
			}
			b = ast.AppendWTF8(b, rune(v))
			i += n
		default:
			// Unknown escapes stay as written (CPython only warns).
			b = append(b, '\\', c)
		}
	}
	return string(b), ""
}

func hexVal(s string) (int, bool) {
	v := 0
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			v = v*16 + int(c|0x20-'a') + 10
		default:
			return 0, false
		}
	}
	return v, true
}

var (
	runeNamesOnce sync.Once
	runeNames     map[string]rune
)

// lookupRuneName resolves a \N{...} name (case-insensitive).
func lookupRuneName(name string) (rune, bool) {
	runeNamesOnce.Do(func() {
		runeNames = make(map[string]rune, 40000)
		for r := rune(0); r <= 0x10ffff; r++ {
			if r >= 0xd800 && r <= 0xdfff {
				continue
			}
			if n := runenames.Name(r); n != "" && n[0] != '<' {
				runeNames[n] = r
			}
		}
	})
	u := strings.ToUpper(name)
	if r, ok := runeNames[u]; ok {
		return r, true
	}
	const cjk = "CJK UNIFIED IDEOGRAPH-"
	if strings.HasPrefix(u, cjk) {
		if v, ok := hexVal(u[len(cjk):]); ok {
			return rune(v), true
		}
	}
	return 0, false
}
