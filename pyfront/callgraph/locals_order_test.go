package callgraph

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/resolve"
)

// The slots splitLocals makes for the reads of a split local are numbered
// in the order the reads are met, not in map order: the solve's order,
// and with it which values an overflowing slot keeps, follows slot
// numbers, and the graph must be the same on every run.
func TestSplitSlotsInReadOrder(t *testing.T) {
	src := "def f(c):\n"
	for i := 0; i < 12; i++ {
		src += "    if c:\n        x = object()\n    else:\n        x = list()\n    print(x)\n"
	}
	root := t.TempDir()
	m := resolve.NewNamer().Name(resolve.SourceFile{Path: filepath.Join(root, "m.py"), Root: root})
	tree, errs := parser.ParseFile("m.py", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	scopes := resolve.BuildScopes(m.Name, tree)
	bl := NewBuilder([]*resolve.Module{m}, resolve.NewTable([]*resolve.Module{m}), Options{}, 0)
	bl.Add(&ModuleInput{Mod: m, AST: tree, Scopes: scopes})
	fd := tree.Body[0].(*ast.FunctionDef)
	f := bl.g.funcByNode[fd]
	for run := 0; run < 5; run++ {
		b := &builder{g: bl.g, mod: m, scopes: scopes}
		b.splitLocals(f, fd.Body)
		var reads []*ast.Name
		ast.InspectBody(fd.Body, func(n ast.Node) bool {
			if x, ok := n.(*ast.Name); ok && x.Id == "x" && x.Ctx == ast.Load {
				reads = append(reads, x)
			}
			return true
		})
		if len(reads) != 12 {
			t.Fatalf("%d reads of x", len(reads))
		}
		var slots []slotID
		for _, r := range reads {
			s, ok := b.locals[r]
			if !ok {
				t.Fatalf("read at line %d has no slot of its own", r.Lineno)
			}
			slots = append(slots, s)
		}
		if !slices.IsSorted(slots) {
			t.Fatalf("run %d: read slots %v are not in source order", run, slots)
		}
	}
}
