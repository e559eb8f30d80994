package callgraph

import "testing"

// A copy edge is added once, also when a slot passed linearUses through
// constraint uses before its first copy edge was indexed.
func TestCopyEdgeDeduplicated(t *testing.T) {
	for _, constraints := range []int{0, linearUses - 1, linearUses, linearUses + 3} {
		g := &Graph{}
		g.s.init()
		src, dst, other := g.s.newSlot(), g.s.newSlot(), g.s.newSlot()
		g.copy(src, dst)
		for i := 0; i < constraints; i++ {
			g.use(src, constraint{kind: cLoadAttr, name: "x", dst: other})
		}
		g.copy(src, dst)
		g.copy(src, other)
		g.copy(src, dst)
		n := 0
		for _, u := range g.s.slot(src).uses {
			if u == copyUse(dst) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d constraint uses: copy edge src→dst present %d times, want 1", constraints, n)
		}
	}
}
