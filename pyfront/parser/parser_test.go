package parser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

func parse(t *testing.T, src string) *ast.Module {
	t.Helper()
	m, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) > 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	return m
}

func TestPositions(t *testing.T) {
	m := parse(t, "x = (a).b(c, *d, k=1)[1:2]\ndef f(a, *, b: int = 2): pass\n")
	asg := m.Body[0].(*ast.Assign)
	sub := asg.Value.(*ast.Subscript)
	call := sub.Value.(*ast.Call)
	attr := call.Func.(*ast.Attribute)
	name := attr.Value.(*ast.Name)
	for _, tc := range []struct {
		n    ast.Node
		want ast.Pos
	}{
		{asg, ast.Pos{Lineno: 1, ColOffset: 0, EndLineno: 1, EndColOffset: 26}},
		{sub, ast.Pos{Lineno: 1, ColOffset: 4, EndLineno: 1, EndColOffset: 26}},
		{call, ast.Pos{Lineno: 1, ColOffset: 4, EndLineno: 1, EndColOffset: 21}},
		// The attribute starts at the parenthesis, the name inside it.
		{attr, ast.Pos{Lineno: 1, ColOffset: 4, EndLineno: 1, EndColOffset: 9}},
		{name, ast.Pos{Lineno: 1, ColOffset: 5, EndLineno: 1, EndColOffset: 6}},
		{sub.Slice, ast.Pos{Lineno: 1, ColOffset: 22, EndLineno: 1, EndColOffset: 25}},
		{call.Keywords[0], ast.Pos{Lineno: 1, ColOffset: 17, EndLineno: 1, EndColOffset: 20}},
		{m.Body[1].(*ast.FunctionDef).Args.KwOnlyArgs[0], ast.Pos{Lineno: 2, ColOffset: 12, EndLineno: 2, EndColOffset: 18}},
	} {
		if got := tc.n.Span(); got != tc.want {
			t.Errorf("%T: %+v, want %+v", tc.n, got, tc.want)
		}
	}
	if name.Ctx != ast.Load || asg.Targets[0].(*ast.Name).Ctx != ast.Store {
		t.Error("wrong expression contexts")
	}
}

// An unexpected indent is one error: the dedent that closes the
// over-indented block is not a second one, and the code after it parses.
func TestUnexpectedIndentIsOneError(t *testing.T) {
	for _, src := range []string{
		"def f():\n    x = 1\n        g()\nz = 3\n",
		"def f():\n    x = 1\n        g()\n        h()\n    y = 2\nz = 3\n",
		"x = 1\n    y = 2\nz = 3\n",
		"class C:\n    def f(self):\n        a = 1\n            if a:\n                b()\n        return a\n\ndef later():\n    pass\n",
	} {
		m, errs := parser.ParseFile("t.py", []byte(src))
		if len(errs) != 1 || errs[0].Msg != "unexpected indent" {
			t.Errorf("%q: errors %v, want one \"unexpected indent\"", src, errs)
			continue
		}
		last := m.Body[len(m.Body)-1]
		switch last := last.(type) {
		case *ast.Assign:
			if last.Targets[0].(*ast.Name).Id != "z" {
				t.Errorf("%q: last statement assigns %s, want z", src, last.Targets[0].(*ast.Name).Id)
			}
		case *ast.FunctionDef:
			if last.Name != "later" {
				t.Errorf("%q: last definition %s, want later", src, last.Name)
			}
		default:
			t.Errorf("%q: last statement %T", src, last)
		}
	}
}

func TestErrorRecovery(t *testing.T) {
	src := `import os

def broken(:
    return 1

class Later:
    def method(self):
        x = = 2
        return x

    def ok(self):
        return 3

def last():
    pass
`
	m, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) < 2 {
		t.Fatalf("want at least 2 errors, got %v", errs)
	}
	if errs[0].Line != 3 || errs[len(errs)-1].Line != 8 {
		t.Errorf("error lines: %v", errs)
	}
	for i := 1; i < len(errs); i++ {
		if errs[i-1].Line > errs[i].Line {
			t.Errorf("errors not sorted: %v", errs)
		}
	}
	var names []string
	ast.Inspect(m, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef:
			names = append(names, fmt.Sprintf("def %s@%d", n.Name, n.Lineno))
		case *ast.ClassDef:
			names = append(names, fmt.Sprintf("class %s@%d", n.Name, n.Lineno))
		}
		return true
	})
	want := "[class Later@6 def method@7 def ok@11 def last@14]"
	if fmt.Sprint(names) != want {
		t.Errorf("definitions after recovery: %v, want %s", names, want)
	}
	// The method's statement after the broken one survives too.
	meth := m.Body[1].(*ast.ClassDef).Body[0].(*ast.FunctionDef)
	if len(meth.Body) != 1 {
		t.Errorf("method body has %d statements, want 1 (the return)", len(meth.Body))
	}
}

func TestRejects(t *testing.T) {
	for _, src := range []string{
		"1 = x\n",
		"from import x\n",
		"from import x as y\n",
		"f() = 1\n",
		"x + 1 += 1\n",
		"del f()\n",
		"(a, b): int = 1\n",
		"for 1 in x: pass\n",
		"with a as 1: pass\n",
		"[x for 1 in y]\n",
		"def f(a=1, b): pass\n",
		"def f(*): pass\n",
		"def f(**k, a): pass\n",
		"f(a=1, b)\n",
		"f(**k, *a)\n",
		"f(x for x in y, 1)\n",
		"x = 1 if y\n",
		"print 'hello'\n",
		"if x\n    pass\n",
		"def f():\nreturn\n",
		"  x = 1\n",
		"x = (1, 2\n",
		"x = 'abc\n",
		"a b\n",
		"*a\n",
		"x := 1\n",
		"try:\n    pass\n",
		"try:\n  pass\nexcept* E:\n  pass\nexcept F:\n  pass\n",
		"f'{}'\n",
		"f'{x!z}'\n",
		"f'}'\n",
		"b'\xc3\xa9'\n",
		"'a' b'b'\n",
		"x = 0777\n",
		"from x import a,\n",
		"lambda: (yield)\nclass\n",
		"match x:\n    case a if: pass\n",
		"x = [1, 2\ny = 3\n",
		"return\x00\n",
		"case x:\n    pass\n",
		"x = '\\u000'\n",     // truncated \u escape (found by FuzzParse: it panicked)
		"x = '\\U0001F60'\n", // truncated \U escape
	} {
		_, errs := parser.ParseFile("t.py", []byte(src))
		if len(errs) == 0 {
			t.Errorf("accepted invalid program %q", src)
		}
		for _, e := range errs {
			if strings.Contains(e.Msg, "internal parser error") {
				t.Errorf("%q: %v (a recovered panic, not a syntax error)", src, e)
			}
		}
	}
}

func TestAccepts(t *testing.T) {
	for _, src := range []string{
		"yield x\n", // module-level yield is a compile-time, not a parse, error
		"from . import x\nfrom .. import (y,)\nfrom ...a.b import *\n",
		"await x\n",
		"return 1\n",
		"match = case = type = _ = 1\nmatch(x)\nmatch[x]\n",
		"match x:\n    case _: pass\n",
		"with (a, b): pass\nwith (a, b) as c: pass\nwith (yield): pass\n",
		"x = *a, *b\nprint(*a, *b, **c, **d)\n",
		"@x[0].y(z)\ndef f(): pass\n",
		"if (n := len(a)) > 10: pass\n",
		"def f(a, /, b, *, c): pass\n",
		"async def f():\n    async with a: pass\n    async for x in y: pass\n    return [i async for i in z]\n",
		"x = 1if y else 2\n",
		"print(f'{x!r:>{w}} {y=} {{z}}')\n",
		"x = '''a\n  b''' \"c\" r'\\d'\n",
		"global a, b\nnonlocal_ = 1\n",
		"class A(B, metaclass=M, **kw): pass\n",
		"a[1:2, ::3, ...]\n",
		"x = \\\n  1\n",
		"\ufeffx = 1\n",
	} {
		if _, errs := parser.ParseFile("t.py", []byte(src)); len(errs) > 0 {
			t.Errorf("rejected valid program %q: %v", src, errs)
		}
	}
}

func TestDeepNestingDoesNotCrash(t *testing.T) {
	src := strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n"
	if _, errs := parser.ParseFile("t.py", []byte(src)); len(errs) == 0 {
		t.Error("accepted 5000 nested parentheses (CPython refuses them)")
	}
	src = "x = " + strings.Repeat("-", 100000) + "1\n"
	parser.ParseFile("t.py", []byte(src))
}

func TestDumpConstants(t *testing.T) {
	m := parse(t, "x = (1e16, 1e-05, 0.1, 2.0, 10**0, 1e400, 3j, 1.5e20j, 123456789012345678901234567890, 0xff, '\\'\"', b'\\x00\\'', '\\u00e9\\x7f\\ud800', u'k', ...)\n")
	got := ast.Dump(m.Body[0].(*ast.Assign).Value, ast.DumpOptions{})
	for _, want := range []string{
		"Constant(value=1e+16)", "Constant(value=1e-05)", "Constant(value=0.1)", "Constant(value=2.0)",
		"Constant(value=inf)", "Constant(value=3j)", "Constant(value=1.5e+20j)",
		"Constant(value=123456789012345678901234567890)", "Constant(value=255)",
		`Constant(value='\'"')`, `Constant(value=b"\x00'")`, `Constant(value='é\x7f\ud800')`,
		"Constant(value='k', kind='u')", "Constant(value=Ellipsis)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("dump lacks %s:\n%s", want, got)
		}
	}
}

func TestComments(t *testing.T) {
	src := "x = f(a)  # collvet: ignore[CV101] reason\n# trailing\n"
	f, errs := parser.Parse("t.py", []byte(src), parser.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(f.Comments) != 2 || f.Text(f.Comments[0]) != "# collvet: ignore[CV101] reason" ||
		f.Comments[0].Line != 1 || f.Comments[0].Col != 10 || f.Text(f.Comments[1]) != "# trailing" {
		t.Errorf("comments = %+v", f.Comments)
	}
	if len(f.Lines) != 3 || f.Lines[1] != int32(strings.IndexByte(src, '\n')+1) {
		t.Errorf("line table = %v", f.Lines)
	}
}
