package ast_test

import (
	"fmt"
	"os"
	"path/filepath"
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

// Inspect walks some nodes itself rather than through Children: it must
// visit exactly what a walk through Children visits, in the same order,
// with the same nil after each node's children, and honour a false return
// on every kind of node.
func TestInspectMatchesChildren(t *testing.T) {
	var reference func(n ast.Node, f func(ast.Node) bool)
	reference = func(n ast.Node, f func(ast.Node) bool) {
		if !f(n) {
			return
		}
		ast.Children(n, func(c ast.Node) { reference(c, f) })
		f(nil)
	}
	files, _ := filepath.Glob("../testdata/newsyntax/*.py")
	more, _ := filepath.Glob("../../testdata/rules/*/*.py")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d fixture files found", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree, _ := parser.ParseFile(path, src)
		if tree == nil {
			continue
		}
		for _, skip := range []string{"", "*ast.Call", "*ast.If", "*ast.Attribute", "*ast.Assign"} {
			trace := func(out *[]string) func(ast.Node) bool {
				return func(n ast.Node) bool {
					if n == nil {
						*out = append(*out, "nil")
						return true
					}
					kind := fmt.Sprintf("%T", n)
					*out = append(*out, fmt.Sprintf("%s@%v", kind, n.Span()))
					return kind != skip
				}
			}
			var got, want []string
			ast.Inspect(tree, trace(&got))
			reference(tree, trace(&want))
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("%s (skipping %q): Inspect visits %d nodes, the walk through Children %d, or in another order", path, skip, len(got), len(want))
			}
		}
	}
}
