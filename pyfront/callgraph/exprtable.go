package callgraph

import (
	"unsafe"

	"github.com/collvet/collvet/pyfront/ast"
)

// exprTable keeps, per expression, the slot that holds its values and
// the call site it is (the graph's exprSlot and callByNode). The torch
// package records 373,000 slots and 93,000 calls; in maps keyed by node
// each insertion cost a hash, a cache miss and, while the collector
// runs, a write barrier. Expressions the parser numbered (ast.Pos.Num)
// are instead kept in pages indexed by their number, which hold no
// pointers; an entry also holds its node's address, so that a copy of a
// node (which carries the same number) is told from the node. Nodes
// without a number, and copies, go to maps, as all nodes did before.
type exprTable struct {
	basePage uint32 // page number of pages[0]
	pages    []*exprPage
	slots    map[*ast.Pos]slotID
	calls    map[*ast.Pos]int32
}

const (
	exprPageBits = 10
	exprPageSize = 1 << exprPageBits
)

type exprPage [exprPageSize]exprEntry

// exprEntry is one expression's facts: its node's address (0 for an
// unused entry), 1 + its slot and 1 + its call site's ID (0 for none).
type exprEntry struct {
	owner uintptr
	slot  int32
	call  int32
}

// entry returns k's entry in the pages, or nil when it has none; with
// add, it makes a free entry for k where it can.
func (t *exprTable) entry(k *ast.Pos, add bool) *exprEntry {
	num := k.Num()
	if num == 0 {
		return nil
	}
	page := num >> exprPageBits
	if len(t.pages) == 0 {
		if !add {
			return nil
		}
		t.basePage = page
	}
	if page < t.basePage {
		if !add {
			return nil
		}
		// A tree numbered before the others (a cached one): move the
		// pages up.
		grown := make([]*exprPage, int(t.basePage-page)+len(t.pages))
		copy(grown[t.basePage-page:], t.pages)
		t.pages, t.basePage = grown, page
	}
	i := int(page - t.basePage)
	if i >= len(t.pages) {
		if !add {
			return nil
		}
		t.pages = append(t.pages, make([]*exprPage, i+1-len(t.pages))...)
	}
	p := t.pages[i]
	if p == nil {
		if !add {
			return nil
		}
		p = new(exprPage)
		t.pages[i] = p
	}
	e := &p[num&(exprPageSize-1)]
	addr := uintptr(unsafe.Pointer(k))
	switch {
	case e.owner == addr:
		return e
	case e.owner == 0 && add:
		e.owner = addr
		return e
	}
	return nil // another node's number (a copy of it): the maps
}

func (t *exprTable) setSlot(k *ast.Pos, s slotID) {
	if k != nil {
		if e := t.entry(k, true); e != nil {
			e.slot = int32(s) + 1
			return
		}
	}
	if t.slots == nil {
		t.slots = map[*ast.Pos]slotID{}
	}
	t.slots[k] = s
}

func (t *exprTable) slot(k *ast.Pos) (slotID, bool) {
	if k != nil {
		if e := t.entry(k, false); e != nil && e.slot != 0 {
			return slotID(e.slot - 1), true
		}
	}
	s, ok := t.slots[k]
	return s, ok
}

func (t *exprTable) setCall(k *ast.Pos, id int) {
	if k != nil {
		if e := t.entry(k, true); e != nil {
			e.call = int32(id) + 1
			return
		}
	}
	if t.calls == nil {
		t.calls = map[*ast.Pos]int32{}
	}
	t.calls[k] = int32(id)
}

func (t *exprTable) call(k *ast.Pos) (int, bool) {
	if k != nil {
		if e := t.entry(k, false); e != nil && e.call != 0 {
			return int(e.call - 1), true
		}
	}
	id, ok := t.calls[k]
	return int(id), ok
}
