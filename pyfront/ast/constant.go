package ast

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ConstType is the Python type of a Constant's value.
type ConstType uint8

// Constant value types.
const (
	ConstNone ConstType = iota
	ConstBool
	ConstInt
	ConstFloat
	ConstComplex
	ConstStr
	ConstBytes
	ConstEllipsis
)

// Constant is a literal. Which value field is meaningful depends on Type:
//
//	ConstBool     Bool
//	ConstInt      Int, or Big when the value does not fit in int64
//	ConstFloat    Float
//	ConstComplex  Float (the imaginary part; the real part is 0)
//	ConstStr      Str (UTF-8; lone surrogates encoded as 3-byte WTF-8)
//	ConstBytes    Str (raw bytes)
//
// Kind is CPython's kind field: "u" for u-prefixed strings, else "".
type Constant struct {
	Pos
	Type  ConstType
	Bool  bool
	Int   int64
	Big   *big.Int
	Float float64
	Str   string
	Kind  string
}

// Repr returns the value as Python's repr() prints it (Python 3.12's
// Unicode data; see ReprShape).
func (c *Constant) Repr() string { return c.ReprShape(Shape312) }

// ReprShape is Repr for the Python version of shape (its Unicode data
// decides which characters of a str are escaped).
func (c *Constant) ReprShape(shape Shape) string {
	switch c.Type {
	case ConstNone:
		return "None"
	case ConstBool:
		if c.Bool {
			return "True"
		}
		return "False"
	case ConstInt:
		if c.Big != nil {
			return c.Big.String()
		}
		return strconv.FormatInt(c.Int, 10)
	case ConstFloat:
		return FloatRepr(c.Float)
	case ConstComplex:
		return ComplexRepr(c.Float)
	case ConstStr:
		return strRepr(c.Str, shape)
	case ConstBytes:
		return BytesRepr(c.Str)
	case ConstEllipsis:
		return "Ellipsis"
	}
	return "?"
}

// FloatRepr formats f as Python's repr(float) does: the shortest digits
// that round-trip, positional for exponents in [-4, 16), scientific
// otherwise, always with a '.0' or exponent.
func FloatRepr(f float64) string { return floatRepr(f, true) }

// ComplexRepr formats the pure-imaginary complex 0+fj as Python's repr does.
func ComplexRepr(f float64) string { return floatRepr(f, false) + "j" }

func floatRepr(f float64, addDot bool) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	// decpt is the position of the decimal point relative to digits.
	decpt := exp + 1
	if -4 < decpt && decpt <= 16 {
		switch {
		case decpt <= 0:
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -decpt))
			b.WriteString(digits)
		case decpt >= len(digits):
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", decpt-len(digits)))
			if addDot {
				b.WriteString(".0")
			}
		default:
			b.WriteString(digits[:decpt])
			b.WriteByte('.')
			b.WriteString(digits[decpt:])
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteByte('e')
	e := decpt - 1
	if e < 0 {
		b.WriteByte('-')
		e = -e
	} else {
		b.WriteByte('+')
	}
	if e < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(e))
	return b.String()
}

// StrRepr returns Python's repr of a str whose code points are s (UTF-8,
// with surrogates in WTF-8), with Python 3.12's Unicode data (15.0).
func StrRepr(s string) string { return strRepr(s, Shape312) }

// strRepr is StrRepr with the Unicode version of the given Python: 3.11
// has Unicode 14.0, 3.12 15.0 and 3.13 15.1, which changes which code
// points repr escapes.
func strRepr(s string, shape Shape) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < ' ' || c == 0x7f:
				b.WriteString(`\x`)
				b.WriteString(hex2(int(c)))
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, n := DecodeWTF8(s[i:])
		if isPrintableIn(r, shape) {
			b.WriteString(s[i : i+n])
		} else {
			switch {
			case r <= 0xff:
				b.WriteString(`\x`)
				b.WriteString(hex2(int(r)))
			case r <= 0xffff:
				b.WriteString(`\u`)
				b.WriteString(hexN(int(r), 4))
			default:
				b.WriteString(`\U`)
				b.WriteString(hexN(int(r), 8))
			}
		}
		i += n
	}
	b.WriteByte(quote)
	return b.String()
}

// DecodeWTF8 decodes one code point from s, accepting encoded surrogates
// (U+D800–U+DFFF as ED A0..BF xx). Invalid bytes decode as U+FFFD, 1 byte.
func DecodeWTF8(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2]&0xc0 == 0x80 {
		return rune(0xd000) | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	return utf8.DecodeRuneInString(s)
}

// AppendWTF8 appends the encoding of r, surrogates included.
func AppendWTF8(b []byte, r rune) []byte {
	if r >= 0xd800 && r <= 0xdfff {
		return append(b, 0xed, byte(0x80|(r>>6)&0x3f), byte(0x80|r&0x3f))
	}
	return utf8.AppendRune(b, r)
}

// isPrintableIn is isPrintable adjusted to the Unicode version of shape.
func isPrintableIn(r rune, shape Shape) bool {
	switch {
	case shape < Shape312 && inRanges(r, unicode15Added):
		return false
	case shape >= Shape313 && inRanges(r, unicode151Added):
		return true
	}
	return isPrintable(r)
}

func inRanges(r rune, rs [][2]rune) bool {
	if r < rs[0][0] {
		return false
	}
	for _, x := range rs {
		if r >= x[0] && r <= x[1] {
			return true
		}
	}
	return false
}

// unicode15Added lists the printable code points Unicode 15.0 assigned
// (unassigned, hence escaped by repr, in Python 3.11's Unicode 14.0).
var unicode15Added = [][2]rune{
	{0xcf3, 0xcf3}, {0xece, 0xece}, {0x10efd, 0x10eff}, {0x1123f, 0x11241}, {0x11b00, 0x11b09},
	{0x11f00, 0x11f10}, {0x11f12, 0x11f3a}, {0x11f3e, 0x11f59}, {0x1342f, 0x1342f}, {0x13440, 0x13455},
	{0x1b132, 0x1b132}, {0x1b155, 0x1b155}, {0x1d2c0, 0x1d2d3}, {0x1df25, 0x1df2a}, {0x1e030, 0x1e06d},
	{0x1e08f, 0x1e08f}, {0x1e4d0, 0x1e4f9}, {0x1f6dc, 0x1f6dc}, {0x1f774, 0x1f776}, {0x1f77b, 0x1f77f},
	{0x1f7d9, 0x1f7d9}, {0x1fa75, 0x1fa77}, {0x1fa87, 0x1fa88}, {0x1faad, 0x1faaf}, {0x1fabb, 0x1fabd},
	{0x1fabf, 0x1fabf}, {0x1face, 0x1facf}, {0x1fada, 0x1fadb}, {0x1fae8, 0x1fae8}, {0x1faf7, 0x1faf8},
	{0x2b739, 0x2b739}, {0x31350, 0x323af},
}

// unicode151Added lists the printable code points Unicode 15.1 assigned
// (Python 3.13); Go's tables are Unicode 15.0.
var unicode151Added = [][2]rune{{0x2ffc, 0x2fff}, {0x31ef, 0x31ef}, {0x2ebf0, 0x2ee5d}}

// isPrintable mirrors Python's str.isprintable for one code point: every
// character except categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other
// than the space.
func isPrintable(r rune) bool {
	if r == ' ' {
		return true
	}
	if r >= 0xd800 && r <= 0xdfff {
		return false
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Zl, unicode.Zp, unicode.Zs) {
		return false
	}
	// Unassigned code points (Cn) are not printable.
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S)
}

// BytesRepr returns Python's repr of a bytes value.
func BytesRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 3)
	b.WriteByte('b')
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(int(c)))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

const hexDigits = "0123456789abcdef"

func hex2(v int) string { return string([]byte{hexDigits[v>>4&15], hexDigits[v&15]}) }

func hexN(v, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return string(b)
}
