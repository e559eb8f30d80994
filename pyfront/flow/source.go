package flow

import (
	"bytes"

	"github.com/collvet/collvet/pyfront/ast"
	"sync"

	"github.com/collvet/collvet/rules"
)

// source indexes the lines of a file once; Lower runs once per function,
// so the index is shared by all functions of a file.
type source struct {
	src    []byte
	starts []int
}

var sources sync.Map // *rules.File -> *source

func sourceOf(f *rules.File) *source {
	if s, ok := sources.Load(f); ok {
		return s.(*source)
	}
	s := &source{src: f.Src, starts: []int{0}}
	for i, b := range f.Src {
		if b == '\n' {
			s.starts = append(s.starts, i+1)
		}
	}
	v, _ := sources.LoadOrStore(f, s)
	return v.(*source)
}

// line returns 1-based line n without its line ending ("" when out of range).
func (s *source) line(n int) string {
	if n < 1 || n > len(s.starts) {
		return ""
	}
	b := s.src[s.starts[n-1]:]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimSuffix(b, []byte("\r")))
}

// mentions reports whether the text of span (lines Lineno..EndLineno)
// contains word, ignoring ASCII case. A zero span (Module) means the
// whole file.
func (s *source) mentions(span ast.Pos, word string) bool {
	from, to := 0, len(s.src)
	if span.Lineno > 0 && int(span.Lineno) <= len(s.starts) {
		from = s.starts[span.Lineno-1]
		if n := int(span.EndLineno); n >= 1 && n < len(s.starts) {
			to = s.starts[n]
		}
	}
	if from > to {
		return true
	}
	return bytes.Contains(bytes.ToLower(s.src[from:to]), []byte(word))
}
