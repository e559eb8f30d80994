package parser_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

// FuzzParse checks that no input makes the parser panic (the internal
// recover turns a panic into an "internal parser error", which fails
// here), hang (the fuzzer's own timeout) or report a position outside the
// file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = 1\n",
		"def f(a, /, b=1, *c, d, **e) -> int:\n    return a if b else c\n",
		"class A(B, metaclass=M):\n    @d\n    async def g(self): await x\n",
		"match p:\n    case {'a': [1, *r]} | C(x=0) as z if z: pass\n",
		"with (a as b, c): pass\ntry: pass\nexcept* E as e: raise\n",
		"x = f'{a!r:>{w}} {b=} {{c}}' rb'\\d' '''t\n'''\n",
		"type X[T: int, *Ts, **P] = list[T]\n",
		"lambda *a, k=1, **kw: [i async for i in z if i]\n",
		"if x:\n\tpass\n\f\nelif y: pass\nelse:\n  del a[1:2, ::3], b.c\n",
		"def broken(:\n    pass\ndef ok(): pass\n",
		"x = (1,\n",
		"# coding: latin-1\nx = '\xe9'\n",
		"f'{'\n",
		"\\\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan bool)
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("parse of %q takes over 5s", src))
			}
		}()
		for _, minor := range []int{11, 12} {
			file, errs := parser.Parse("fuzz.py", src, parser.Options{Minor: minor})
			for _, e := range errs {
				if strings.Contains(e.Msg, "internal parser error") {
					t.Fatalf("%v", e)
				}
			}
			if file.Src == nil {
				continue
			}
			nlines := int32(bytes.Count(file.Src, []byte("\n")) + 1)
			ast.Inspect(file.Module, func(n ast.Node) bool {
				if n == nil {
					return false
				}
				p := n.Span()
				if p == (ast.Pos{}) {
					return true
				}
				if p.Lineno < 1 || p.EndLineno < p.Lineno || p.EndLineno > nlines || p.ColOffset < 0 || p.EndColOffset < 0 {
					t.Fatalf("%T at %+v outside the file (%d lines)", n, p, nlines)
				}
				return true
			})
			if minor == 11 && len(errs) == 0 {
				// A tree without errors must also dump without trouble.
				ast.Dump(file.Module, ast.DumpOptions{Attributes: true})
			}
		}
	})
}
