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

// A class's MRO watchers are registered once each, in first-registration
// order, below and past the count at which they are indexed.
func TestClassWatchersDeduplicated(t *testing.T) {
	for _, n := range []int{1, linearWatchers - 1, linearWatchers, 3 * linearWatchers} {
		g := &Graph{}
		c := &Class{}
		for round := 0; round < 3; round++ {
			for i := 0; i < n; i++ {
				g.watchClass(c, watcher{c: constraintID(i), v: ValueID(i % 5)})
			}
		}
		if len(c.watch) != n {
			t.Fatalf("%d watchers registered three times: %d kept, want %d", n, len(c.watch), n)
		}
		for i, w := range c.watch {
			if w.c != constraintID(i) {
				t.Fatalf("%d watchers: watcher %d is constraint %d, want first-registration order", n, i, w.c)
			}
		}
	}
}
