// Package textpos converts between the position representations collvet
// meets: byte offsets, 1-based (line, byte column) as the model stores them,
// and (line, UTF-16 column) as LSP and SARIF require. It is the one place
// where these conversions happen.
package textpos

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Mapper indexes the line starts of one source text.
type Mapper struct {
	src   []byte
	lines []int // byte offset of the start of each line (0-based line index)
}

// New returns a Mapper for src. Lines end at \n, \r\n or a lone \r, as
// CPython counts them.
func New(src []byte) *Mapper {
	m := &Mapper{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			m.lines = append(m.lines, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// LineCount returns the number of lines (a trailing newline starts an empty last line).
func (m *Mapper) LineCount() int { return len(m.lines) }

// Line returns the text of 1-based line n without its line ending.
func (m *Mapper) Line(n int) []byte {
	if n < 1 || n > len(m.lines) {
		return nil
	}
	start := m.lines[n-1]
	end := len(m.src)
	if n < len(m.lines) {
		end = m.lines[n]
	}
	for end > start && (m.src[end-1] == '\n' || m.src[end-1] == '\r') {
		end--
	}
	return m.src[start:end]
}

// Offset returns the byte offset of 1-based line and 1-based byte column,
// clamped to the text.
func (m *Mapper) Offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(m.lines) {
		return len(m.src)
	}
	off := m.lines[line-1] + col - 1
	if off < m.lines[line-1] {
		off = m.lines[line-1]
	}
	if off > len(m.src) {
		off = len(m.src)
	}
	return off
}

// Position returns the 1-based line and 1-based byte column of offset.
func (m *Mapper) Position(offset int) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(m.src) {
		offset = len(m.src)
	}
	i := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > offset }) - 1
	return i + 1, offset - m.lines[i] + 1
}

// UTF16Col converts a 1-based byte column on 1-based line to a 0-based
// UTF-16 column (LSP's Position.character). SARIF's 1-based UTF-16 column
// is this plus one.
func (m *Mapper) UTF16Col(line, col int) int {
	text := m.Line(line)
	n := col - 1
	if n > len(text) {
		n = len(text)
	}
	if n < 0 {
		n = 0
	}
	return utf16Len(text[:n])
}

// ByteCol converts a 0-based UTF-16 column on 1-based line to a 1-based
// byte column.
func (m *Mapper) ByteCol(line, utf16Col int) int {
	text := m.Line(line)
	units, i := 0, 0
	for i < len(text) && units < utf16Col {
		r, size := utf8.DecodeRune(text[i:])
		units += utf16.RuneLen(r)
		if r == utf8.RuneError && size == 1 {
			units = units - utf16.RuneLen(r) + 1
		}
		i += size
	}
	return i + 1
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
		b = b[size:]
	}
	return n
}
