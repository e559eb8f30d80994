package ast

import (
	"sync"
	"sync/atomic"
)

// nextNum is the last expression number given out in this process.
var nextNum atomic.Uint32

// numberPool keeps the lists NumberExprs collects the expressions in.
var numberPool = sync.Pool{New: func() any { s := make([]*Pos, 0, 4096); return &s }}

// NumberExprs gives each expression of the tree rooted at root a number
// unique in the process, consecutive in Inspect order, so that analyses
// can keep per-expression facts in arrays indexed by number instead of
// in maps keyed by node (Pos.Num). A tree is numbered once, when it is
// parsed; trees built otherwise, and numbers past the 32-bit range, stay
// unnumbered (0), which such tables must accept.
func NumberExprs(root Node) {
	if root == nil {
		return
	}
	listp := numberPool.Get().(*[]*Pos)
	list := (*listp)[:0]
	defer func() {
		clear(list)
		*listp = list[:0]
		numberPool.Put(listp)
	}()
	Inspect(root, func(x Node) bool {
		if e, ok := x.(Expr); ok {
			list = append(list, e.Addr())
		}
		return true
	})
	n := uint32(len(list))
	if n == 0 || int(n) != len(list) {
		return
	}
	end := nextNum.Add(n)
	if end < n {
		// The counter wrapped (after four billion expressions, in a
		// long editor session): leave this tree unnumbered. Later trees
		// may get numbers older trees hold; the tables tell them apart
		// by address.
		return
	}
	next := end - n
	for _, p := range list {
		next++
		p.num = next
	}
}
