package callgraph

import (
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

// exprTable answers as a map keyed by node would: for numbered
// expressions, copies of them (which carry the same number), nodes built
// by hand, trees numbered before the first one stored, and slots and
// calls set apart.
func TestExprTable(t *testing.T) {
	parse := func(src string) []ast.Expr {
		f, errs := parser.Parse("m.py", []byte(src), parser.Options{})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var out []ast.Expr
		ast.Inspect(f.Module, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				out = append(out, e)
			}
			return true
		})
		return out
	}
	var big []byte
	for range 3000 {
		big = append(big, "f(x, y.z)\n"...)
	}
	older := parse(string(big)) // numbered first, stored last: pages below the first
	newer := parse("a = g(b)[0]\nh(*c, k=d)\n")
	var nodes []ast.Expr
	nodes = append(nodes, newer...)
	nodes = append(nodes, older...)
	var call *ast.Call
	for _, e := range newer {
		if c, ok := e.(*ast.Call); ok && call == nil {
			call = c
		}
	}
	cp := *call // a copy: same number, another address
	built := &ast.Name{Id: "q"}
	nodes = append(nodes, &cp, built)

	var tab exprTable
	want := map[*ast.Pos]slotID{}
	wantCall := map[*ast.Pos]int{}
	// The node claims its number's entry before its copy comes.
	tab.setCall(call.Addr(), 99)
	wantCall[call.Addr()] = 99
	for i, e := range nodes {
		if i%3 != 2 {
			tab.setSlot(e.Addr(), slotID(i))
			want[e.Addr()] = slotID(i)
		}
		if i%4 == 0 {
			tab.setCall(e.Addr(), 1000+i)
			wantCall[e.Addr()] = 1000 + i
		}
	}
	// Set again: the later value wins.
	tab.setSlot(cp.Addr(), 7)
	want[cp.Addr()] = 7
	tab.setSlot(built.Addr(), 8)
	want[built.Addr()] = 8
	for _, e := range nodes {
		s, ok := tab.slot(e.Addr())
		w, wok := want[e.Addr()]
		if s != w || ok != wok {
			t.Errorf("slot(%T %d) = %d %v, want %d %v", e, e.Addr().Num(), s, ok, w, wok)
		}
		c, ok := tab.call(e.Addr())
		wc, wok := wantCall[e.Addr()]
		if c != wc || ok != wok {
			t.Errorf("call(%T %d) = %d %v, want %d %v", e, e.Addr().Num(), c, ok, wc, wok)
		}
	}
	if cp.Addr().Num() != call.Addr().Num() || call.Addr().Num() == 0 {
		t.Fatalf("numbers: copy %d, node %d", cp.Addr().Num(), call.Addr().Num())
	}
	if len(tab.slots) != 2 {
		t.Errorf("%d slots in the map, want 2 (the copy and the built node)", len(tab.slots))
	}
	if _, ok := tab.slot(nil); ok {
		t.Error("nil has a slot")
	}
}
