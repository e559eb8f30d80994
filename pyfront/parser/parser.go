// Package parser is a hand-written recursive-descent parser for Python
// 3.8–3.13 that builds pyfront/ast trees identical to CPython's ast.parse,
// positions included. It never panics on bad input: syntax errors come
// back in an ErrorList, and the tree still holds every statement that
// parsed (the parser resynchronises at the next statement).
//
// Files are split by production family: stmt.go (statements), expr.go
// (expressions), args.go (parameters and call arguments), pattern.go
// (match patterns), strings.go (string literals and f-strings), target.go
// (assignment targets and their contexts).
package parser

import (
	"fmt"
	"sort"
	"sync"

	"golang.org/x/text/unicode/norm"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// Error is one syntax error; Line is 1-based and Col 0-based (bytes).
type Error struct {
	Filename string
	Line     int
	Col      int
	Msg      string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Filename, e.Line, e.Col+1, e.Msg)
}

// ErrorList is a list of syntax errors sorted by line, column, message.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Msg < b.Msg
	})
}

// Options selects the language version the parser follows.
type Options struct {
	// Minor is the Python 3 minor version (8–13); 0 means 11. It selects
	// which syntax is accepted (type statements from 12) and how f-string
	// expression positions are computed (the 3.11 algorithm before 12,
	// exact PEP 701 positions from 12).
	Minor int
}

// File is a parsed file with its decoded source.
type File struct {
	Module   *ast.Module
	Src      []byte // decoded UTF-8 source
	Comments []scanner.Token
	Lines    []int32 // byte offset of each line start
	Tokens   int     // number of tokens
}

// Text returns the source text of a token of f (a comment, say: comments
// are kept in f.Comments for "# collvet: ignore[...]" and similar).
func (f *File) Text(t scanner.Token) string { return string(f.Src[t.Off:t.EndOff]) }

// ParseFile parses a Python 3.11 source file.
func ParseFile(filename string, src []byte) (*ast.Module, ErrorList) {
	f, errs := Parse(filename, src, Options{})
	return f.Module, errs
}

// Parse parses a source file with options and returns the tree together
// with the decoded source, its comments and line table.
func Parse(filename string, src []byte, opt Options) (f *File, errs ErrorList) {
	f = &File{Module: &ast.Module{}}
	if opt.Minor == 0 {
		opt.Minor = 11
	}
	text, _, err := scanner.Decode(src)
	if err != nil {
		return f, ErrorList{{Filename: filename, Line: 1, Msg: err.Error()}}
	}
	for i, c := range text {
		if c == 0 {
			return f, ErrorList{{Filename: filename, Line: 1 + countLines(text[:i]), Msg: "source code cannot contain null bytes"}}
		}
	}
	bufp := tokenPool.Get().(*[]scanner.Token)
	res := scanner.TokenizeInto(*bufp, text, scanner.Options{})
	defer func() {
		// Trees never point into the token buffer, so it can be reused.
		*bufp = res.Tokens[:0]
		tokenPool.Put(bufp)
	}()
	f.Src, f.Comments, f.Lines, f.Tokens = res.Src, res.Comments, res.LineStarts, len(res.Tokens)
	p := newParser(filename, res, opt)
	// Identifier tables are reused between files: strings are immutable,
	// so sharing them across trees is safe and saves memory.
	internp := internPool.Get().(*map[string]string)
	if len(*internp) > 1<<16 {
		clear(*internp)
	}
	p.intern = *internp
	defer internPool.Put(internp)
	defer func() {
		if r := recover(); r != nil {
			// Last resort: an internal error must not crash the caller.
			p.errs = append(p.errs, &Error{Filename: filename, Line: 1, Msg: fmt.Sprintf("internal parser error: %v", r)})
			errs = p.errs
			errs.sort()
		}
	}()
	f.Module = p.parseModule()
	ast.NumberExprs(f.Module)
	errs = p.errs
	errs.sort()
	return f, errs
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

var internPool = sync.Pool{New: func() any { m := make(map[string]string, 1024); return &m }}

var tokenPool = sync.Pool{New: func() any { b := make([]scanner.Token, 0, 4096); return &b }}

// maxDepth caps the parser's recursion (brackets are limited to 200
// levels by the tokenizer, as in CPython; this bounds chains such as
// "- - - x" or nested lambdas and conditional expressions).
const maxDepth = 3000

type parser struct {
	filename string
	src      []byte
	toks     []scanner.Token
	pos      int
	errs     ErrorList
	minor    int
	depth    int
	intern   map[string]string
	// fstring holds the token of the f-string whose expression is being
	// parsed by a sub-parser (3.11 positions), else nil.
	inFString bool
	// lastFail is the token index of the furthest syntax error seen
	// during a failed speculative parse.
	sub bool
}

// bailout unwinds the parser to the nearest statement boundary after an
// error has been recorded.
type bailout struct{}

func newParser(filename string, res *scanner.Result, opt scanner_opt) *parser {
	p := &parser{filename: filename, src: res.Src, toks: res.Tokens, minor: opt.Minor}
	for _, e := range res.Errors {
		p.errs = append(p.errs, &Error{Filename: filename, Line: e.Line, Col: e.Col, Msg: e.Msg})
	}
	return p
}

type scanner_opt = Options

// ---- token helpers ----

func (p *parser) tok() *scanner.Token { return &p.toks[p.pos] }

func (p *parser) kind() scanner.Kind { return p.toks[p.pos].Kind }

func (p *parser) peekKind(n int) scanner.Kind {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n].Kind
	}
	return scanner.EOF
}

func (p *parser) next() {
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
}

func (p *parser) at(k scanner.Kind) bool { return p.toks[p.pos].Kind == k }

func (p *parser) accept(k scanner.Kind) bool {
	if p.toks[p.pos].Kind == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(k scanner.Kind) {
	if !p.accept(k) {
		p.errorExpected("'" + k.String() + "'")
	}
}

// text returns a name token's identifier, NFKC-normalised as CPython
// does for non-ASCII identifiers.
func (p *parser) text(t *scanner.Token) string {
	b := p.src[t.Off:t.EndOff]
	for _, c := range b {
		if c >= 0x80 {
			return p.internBytes(norm.NFKC.Bytes(b))
		}
	}
	return p.internBytes(b)
}

func (p *parser) internBytes(b []byte) string {
	if s, ok := p.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	p.intern[s] = s
	return s
}

// isSoft reports whether the current token is the soft keyword kw.
func (p *parser) isSoft(kw string) bool {
	t := &p.toks[p.pos]
	return t.Kind == scanner.Name && int(t.EndOff-t.Off) == len(kw) && string(p.src[t.Off:t.EndOff]) == kw
}

// ---- positions ----

// span returns the position from the start of token start to the end of
// the last non-whitespace token before the current one, as CPython's
// EXTRA macro does.
func (p *parser) span(start int) ast.Pos {
	s := &p.toks[start]
	e := p.pos - 1
	for e > start && (p.toks[e].Kind == scanner.Newline || p.toks[e].Kind == scanner.Indent || p.toks[e].Kind == scanner.Dedent) {
		e--
	}
	if e < start {
		e = start
	}
	t := &p.toks[e]
	return ast.Pos{Lineno: s.Line, ColOffset: s.Col, EndLineno: t.EndLine, EndColOffset: t.EndCol}
}

func tokPos(t *scanner.Token) ast.Pos {
	return ast.Pos{Lineno: t.Line, ColOffset: t.Col, EndLineno: t.EndLine, EndColOffset: t.EndCol}
}

// ---- errors ----

func (p *parser) errorAt(t *scanner.Token, format string, args ...any) {
	p.errs = append(p.errs, &Error{Filename: p.filename, Line: int(t.Line), Col: int(t.Col), Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) errorNode(n ast.Node, format string, args ...any) {
	s := n.Span()
	p.errs = append(p.errs, &Error{Filename: p.filename, Line: int(s.Lineno), Col: int(s.ColOffset), Msg: fmt.Sprintf(format, args...)})
}

// fail records an error at the current token and unwinds.
func (p *parser) fail(format string, args ...any) {
	p.errorAt(p.tok(), format, args...)
	panic(bailout{})
}

// failNode records an error at a node and unwinds.
func (p *parser) failNode(n ast.Node, format string, args ...any) {
	p.errorNode(n, format, args...)
	panic(bailout{})
}

func (p *parser) errorExpected(what string) {
	t := p.tok()
	switch t.Kind {
	case scanner.Indent:
		p.fail("unexpected indent")
	case scanner.Dedent:
		p.fail("unindent does not match any outer indentation level")
	case scanner.EOF:
		p.fail("invalid syntax: unexpected EOF, expected %s", what)
	case scanner.ErrorToken:
		p.fail("invalid syntax")
	}
	p.fail("invalid syntax: expected %s", what)
}

// try runs f speculatively: on a bailout it restores the position and
// the error list and returns false.
func (p *parser) try(f func()) (ok bool) {
	pos, nerr, depth := p.pos, len(p.errs), p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(bailout); !is {
				panic(r)
			}
			p.pos, p.errs, p.depth = pos, p.errs[:nerr], depth
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("too many nested parentheses")
	}
}

func (p *parser) leave() { p.depth-- }
