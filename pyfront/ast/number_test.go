package ast

import "testing"

// NumberExprs numbers every expression, and only expressions, with
// numbers unique across trees; Span leaves the number out and SetSpan
// keeps it.
func TestNumberExprs(t *testing.T) {
	a, b := sampleTree(), sampleTree()
	NumberExprs(a)
	NumberExprs(b)
	seen := map[uint32]bool{}
	exprs := 0
	for _, tree := range []*Module{a, b} {
		Inspect(tree, func(n Node) bool {
			if n == nil {
				return false
			}
			num := n.Addr().Num()
			if _, isExpr := n.(Expr); !isExpr {
				if num != 0 {
					t.Errorf("%T numbered %d", n, num)
				}
				return true
			}
			exprs++
			if num == 0 || seen[num] {
				t.Errorf("%T numbered %d (seen: %v)", n, num, seen[num])
			}
			seen[num] = true
			if sp := n.Span(); sp.num != 0 {
				t.Errorf("Span of %T carries its number", n)
			}
			sp := n.Span()
			sp.Lineno = 7
			n.SetSpan(sp)
			if n.Addr().Num() != num || n.Span().Lineno != 7 {
				t.Errorf("SetSpan on %T: number %d, line %d", n, n.Addr().Num(), n.Span().Lineno)
			}
			return true
		})
	}
	if exprs != 10 {
		t.Errorf("%d expressions, want 10", exprs)
	}
	if (&Name{}).Num() != 0 {
		t.Error("a built node has a number")
	}
}
