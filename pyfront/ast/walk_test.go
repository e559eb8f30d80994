package ast_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

// InspectStmts reaches statements in every kind of body, in source
// order, and skips a statement's body when f returns false.
func TestInspectStmts(t *testing.T) {
	src := `import a
if x:
    import b
else:
    import c
try:
    import d
except E:
    import e
finally:
    import f
for i in y:
    import g
while z:
    import h
with w:
    import i
match v:
    case 1:
        import j
def fn():
    import k
class C:
    import l
    def m(self):
        import skipped
`
	tree, errs := parser.ParseFile("m.py", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	ast.InspectStmts(tree.Body, func(s ast.Stmt) bool {
		if imp, ok := s.(*ast.Import); ok {
			got = append(got, imp.Names[0].Name)
		}
		if f, ok := s.(*ast.FunctionDef); ok && f.Name == "m" {
			return false
		}
		return true
	})
	if want := "a b c d e f g h i j k l"; strings.Join(got, " ") != want {
		t.Errorf("visited %q, want %q", strings.Join(got, " "), want)
	}
}

// InspectBody stays in the body's own scope: names inside nested
// functions, classes and lambdas are not visited, the rest are.
func TestInspectBody(t *testing.T) {
	src := "a = b\nif c:\n    d(e)\ndef f():\n    g\nclass H:\n    i = j\nk = lambda m: n\n"
	mod, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var names []string
	ast.InspectBody(mod.Body, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			names = append(names, nm.Id)
		}
		return true
	})
	if got := strings.Join(names, " "); got != "a b c d e k" {
		t.Errorf("names = %q, want %q", got, "a b c d e k")
	}
}
