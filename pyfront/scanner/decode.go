package scanner

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/transform"
)

var cookieRE = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// Decode turns a Python source file's bytes into UTF-8 text the way
// CPython's tokenizer does: a UTF-8 BOM is dropped, a PEP 263 coding
// cookie on line 1 or 2 selects the encoding (UTF-8 by default), and
// "\r\n" and lone "\r" become "\n". It returns the text, the encoding name
// and an error for undecodable input or an unknown encoding.
func Decode(src []byte) ([]byte, string, error) {
	bom := false
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		src = src[3:]
		bom = true
	}
	enc := "utf-8"
	if name, ok := findCookie(src); ok {
		enc = normalizeEncoding(name)
		if bom && cpythonNormalName(name) != "utf-8" {
			return nil, enc, fmt.Errorf("encoding problem: %s with BOM", name)
		}
	}
	out := src
	if enc != "utf-8" {
		e, err := lookupEncoding(enc)
		if err != nil {
			return nil, enc, fmt.Errorf("unknown encoding: %s", enc)
		}
		if cm, ok := e.(*charmap.Charmap); ok && strings.HasPrefix(enc, "iso-8859") {
			out, err = decodeISO8859(cm, src), nil
		} else {
			out, err = e.NewDecoder().Bytes(src)
		}
		if err != nil {
			return nil, enc, fmt.Errorf("(unicode error) '%s' codec can't decode: %v", enc, err)
		}
	} else if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		return nil, enc, fmt.Errorf("(unicode error) 'utf-8' codec can't decode byte 0x%02x in line %d", src[off], line)
	}
	return normalizeNewlines(out), enc, nil
}

// findCookie looks for a coding cookie on the first two lines; the second
// line counts only when the first is blank or a comment.
func findCookie(src []byte) (string, bool) {
	line1, rest, _ := bytes.Cut(src, []byte("\n"))
	if m := cookieRE.FindSubmatch(line1); m != nil {
		return string(m[1]), true
	}
	t := bytes.TrimLeft(line1, " \t\f\r")
	if len(t) != 0 && t[0] != '#' {
		return "", false
	}
	line2, _, _ := bytes.Cut(rest, []byte("\n"))
	if m := cookieRE.FindSubmatch(line2); m != nil {
		return string(m[1]), true
	}
	return "", false
}

// normalizeEncoding maps Python's spellings to canonical names the way
// the tokenizer's get_normal_name does, plus common aliases.
func normalizeEncoding(s string) string {
	l := strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	switch {
	case l == "utf-8" || strings.HasPrefix(l, "utf-8-") || l == "utf8":
		return "utf-8"
	case l == "latin-1" || l == "iso-8859-1" || l == "iso-latin-1" || l == "latin1" || l == "l1" ||
		strings.HasPrefix(l, "latin-1-") || strings.HasPrefix(l, "iso-8859-1-") || strings.HasPrefix(l, "iso-latin-1-"):
		return "iso-8859-1"
	case l == "ascii" || l == "us-ascii":
		return "ascii"
	}
	return l
}

func lookupEncoding(name string) (encoding.Encoding, error) {
	switch name {
	case "iso-8859-1":
		return charmap.ISO8859_1, nil
	case "ascii":
		return asciiEncoding{}, nil
	case "cp1252":
		return charmap.Windows1252, nil
	}
	if strings.HasPrefix(name, "cp") {
		if e, err := ianaindex.IANA.Encoding("windows-" + name[2:]); err == nil && e != nil {
			return e, nil
		}
		if e, err := ianaindex.IANA.Encoding("IBM" + name[2:]); err == nil && e != nil {
			return e, nil
		}
	}
	e, err := ianaindex.IANA.Encoding(name)
	if err != nil || e == nil {
		return nil, fmt.Errorf("unknown encoding %s", name)
	}
	return e, nil
}

// asciiEncoding decodes ASCII strictly (bytes >= 0x80 are errors).
type asciiEncoding struct{ encoding.Encoding }

func (asciiEncoding) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: asciiStrict{}}
}

type asciiStrict struct{}

func (asciiStrict) Reset() {}

func (asciiStrict) Transform(dst, src []byte, atEOF bool) (int, int, error) {
	n := 0
	for n < len(src) {
		if src[n] >= 0x80 {
			return n, n, fmt.Errorf("ordinal not in range(128)")
		}
		if n >= len(dst) {
			return n, n, transform.ErrShortDst
		}
		dst[n] = src[n]
		n++
	}
	return n, n, nil
}

func normalizeNewlines(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			out = append(out, '\n')
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

// cpythonNormalName is the tokenizer's get_normal_name: only "utf-8" and
// "latin-1" spellings are canonicalised (a BOM requires exactly utf-8).
func cpythonNormalName(s string) string {
	l := strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	if l == "utf-8" || strings.HasPrefix(l, "utf-8-") {
		return "utf-8"
	}
	return l
}

// decodeISO8859 decodes with a single-byte ISO 8859 table, mapping the C1
// range 0x80–0x9F to U+0080–U+009F as Python's codecs do (x/text leaves
// those bytes undefined).
func decodeISO8859(cm *charmap.Charmap, src []byte) []byte {
	out := make([]byte, 0, len(src)+len(src)/4)
	for _, b := range src {
		r := cm.DecodeByte(b)
		if b >= 0x80 && b <= 0x9f {
			r = rune(b)
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
