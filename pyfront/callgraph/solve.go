package callgraph

import "github.com/collvet/collvet/pyfront/ast"

type slotID int32

const noSlot slotID = -1

// slotKey names a slot: a namespace (a scope, or a container value as a
// negative number) and a name in it.
type slotKey struct {
	space int32
	name  string
}

// maxVals caps a slot's value set: beyond it, new values are dropped (a
// loss of recall on pathological code, never a blow-up).
const maxVals = 64

// A slot's values are a plain slice: with at most maxVals of them a linear
// scan is as fast as a hash lookup and needs no per-slot map (building
// those maps was a tenth of the whole load on the torch tree).
type slot struct {
	vals []ValueID
	uses []use // in the order they were attached: propagation order decides which values a full slot keeps
	done int32 // vals[:done] have been propagated to uses
	inQ  bool
	// indexed: the copies set holds every copy edge from this slot (set
	// once the slot has linearUses uses).
	indexed bool
}

type consKind uint8

const (
	cCopy consKind = iota
	cLoadAttr
	cStoreAttr
	cLoadIndex
	cStoreIndex
	cIter
	cIterNext
	cCall
	cBindCopy
	cBase
	cInit
	cPartial
	cCallback
	cSuper
	cSlice
	cSuperBind
	cBindExternal
	// cLoadDunder: dst gets the method name of a program class's
	// instance, bound to it (with statements' __enter__ and __exit__);
	// nothing for other values.
	cLoadDunder
	// cNarrow: dst gets the values that are not instances of the types in
	// slot src (the else arm of `x.module if isinstance(x, DDP) else x`).
	cNarrow
)

type constraintID int32

// cNarrow modes: not an instance of the types in src (isinstance), not
// a ModuleWrapper (hasattr(x, "module")).
const (
	narrowType uint8 = iota
	narrowWrapper
)

// ModuleWrapper marks an opaque value (Value.Data) that holds the module
// it wraps in its .module attribute (DDP, FSDP, DeepSpeed's engine): the
// else arm of `x.module if hasattr(x, "module") else x` is never one.
type ModuleWrapper struct{}

// exactKey is the cLoadIndex mode that reads a dict's constant key only,
// not the values stored under keys the analysis could not read.
const exactKey uint8 = 1

// cInit modes: __init__ run by instantiation (0), __call__ of an
// instance (1), forward run by torch.autograd.Function.apply.
const initApply uint8 = 2

// autogradApply is the canonical name of torch.autograd.Function.apply.
const autogradApply = "torch.autograd.Function.apply"

// A use is what a slot's values flow into: a constraint (u >= 0, its
// constraintID) or, for the most common kind, a plain copy edge to slot
// ^u (u < 0). Copy edges are most of the constraints (495k of 789k on the
// torch package) and need no 100-byte constraint record.
type use int32

func copyUse(dst slotID) use { return use(^int32(dst)) }

// Large programs hold millions of constraints, so the struct is kept to
// 64 bytes: fields that no kind uses together share storage.
type constraint struct {
	kind consKind
	mode uint8
	dst  slotID
	src  slotID
	recv ValueID
	idx  int32  // index kinds: the constant index; -1 unknown
	name string // attribute kinds: the name; index kinds: the constant key
	cs   *CallSite
	cls  *Class
	iter *iterSite // cIter, cIterNext
}

// iterSite is where an iteration happens: the function and the node the
// implicit __iter__/__next__ calls are recorded at.
type iterSite struct {
	caller *Func
	at     ast.Node
}

type solver struct {
	// work counts value applications; past budget the solver stops
	// (exhausted), leaving a sound-as-far-as-it-got partial result rather
	// than running away on pathological programs.
	work, budget int
	exhausted    bool
	// slots and cons grow in fixed-size chunks: appending to one huge
	// slice re-copies (and page-faults in) hundreds of megabytes on large
	// programs.
	slots  [][]slot
	nslots int
	keys   map[slotKey]slotID
	cons   [][]constraint
	ncons  int
	ncopy  int // copy edges (uses, not constraints)
	queue  []slotID
	copies map[uint64]struct{} // src<<32 | dst of the copy edges of slots with linearUses or more uses
}

func (s *solver) init() {
	s.keys = map[slotKey]slotID{}
	s.copies = map[uint64]struct{}{}
}

func (s *solver) newSlot() slotID {
	if s.nslots%chunk == 0 {
		s.slots = append(s.slots, make([]slot, 0, chunk))
	}
	last := &s.slots[len(s.slots)-1]
	*last = append(*last, slot{})
	s.nslots++
	return slotID(s.nslots - 1)
}

func (s *solver) slotFor(k slotKey) slotID {
	if id, ok := s.keys[k]; ok {
		return id
	}
	id := s.newSlot()
	s.keys[k] = id
	return id
}

func (s *solver) lookupSlot(k slotKey) (slotID, bool) {
	id, ok := s.keys[k]
	return id, ok
}

func (s *solver) vals(id slotID) []ValueID {
	if id < 0 || int(id) >= s.nslots {
		return nil
	}
	return s.slot(id).vals
}

func (s *solver) has(id slotID, v ValueID) bool {
	for _, x := range s.slot(id).vals {
		if x == v {
			return true
		}
	}
	return false
}

// add puts v in slot id; it reports whether the slot changed.
func (s *solver) add(id slotID, v ValueID) bool {
	if id < 0 || v <= 0 {
		return false
	}
	sl := s.slot(id)
	// A full slot takes nothing, present or not: no need to scan it (a
	// fifth of the torch tree's slot values sit in full slots).
	if len(sl.vals) >= maxVals || s.has(id, v) {
		return false
	}
	sl.vals = append(sl.vals, v)
	if !sl.inQ && len(sl.uses) > 0 {
		sl.inQ = true
		s.queue = append(s.queue, id)
	}
	return true
}

// use attaches constraint c to slot id and returns it; c sees the slot's
// already propagated values at once (apply), the rest when they are.
func (g *Graph) use(id slotID, c constraint) constraintID {
	s := &g.s
	if s.ncons%chunk == 0 {
		s.cons = append(s.cons, make([]constraint, 0, chunk))
	}
	last := &s.cons[len(s.cons)-1]
	*last = append(*last, c)
	s.ncons++
	cid := constraintID(s.ncons - 1)
	if id < 0 {
		return cid
	}
	s.slot(id).uses = append(s.slot(id).uses, use(cid))
	if done := s.slot(id).done; done > 0 {
		g.apply(cid, s.slot(id).vals[:done])
	}
	if sl := s.slot(id); !sl.inQ && len(sl.vals) > int(sl.done) {
		sl.inQ = true
		s.queue = append(s.queue, id)
	}
	return cid
}

// copy makes dst ⊇ src.
func (g *Graph) copy(src, dst slotID) {
	if src < 0 || dst < 0 || src == dst {
		return
	}
	s := &g.s
	if len(s.slot(dst).vals) >= maxVals {
		return // a full slot takes nothing: the edge would never carry a value
	}
	if s.hasCopy(src, dst) {
		return
	}
	// Same as use with a cCopy constraint, without storing one.
	s.ncopy++
	s.slot(src).uses = append(s.slot(src).uses, copyUse(dst))
	if done := s.slot(src).done; done > 0 {
		g.applyCopy(dst, s.slot(src).vals[:done])
	}
	if sl := s.slot(src); !sl.inQ && len(sl.vals) > int(sl.done) {
		sl.inQ = true
		s.queue = append(s.queue, src)
	}
}

// linearUses is how many uses a slot may have before its copy edges are
// indexed in the copies set: most slots have a handful, and scanning them
// is cheaper than hashing (and keeps the set small).
const linearUses = 8

func copyKey(src, dst slotID) uint64 { return uint64(uint32(src))<<32 | uint64(uint32(dst)) }

// hasCopy reports whether the copy edge src → dst exists; if not, the
// caller adds it, so the index is updated for it here.
func (s *solver) hasCopy(src, dst slotID) bool {
	sl := s.slot(src)
	if !sl.indexed {
		if len(sl.uses) < linearUses {
			want := copyUse(dst)
			for _, u := range sl.uses {
				if u == want {
					return true
				}
			}
			return false
		}
		// From now on the set holds every copy edge of src (constraint
		// uses may have pushed the count past linearUses meanwhile).
		for _, u := range sl.uses {
			if u < 0 {
				s.copies[copyKey(src, slotID(^u))] = struct{}{}
			}
		}
		sl.indexed = true
	}
	n := len(s.copies)
	s.copies[copyKey(src, dst)] = struct{}{}
	return len(s.copies) == n
}

// applyCopy is apply for a copy edge into dst (same work accounting).
func (g *Graph) applyCopy(dst slotID, delta []ValueID) {
	if g.s.work > g.s.budget {
		g.s.exhausted = true
		return
	}
	g.s.work += len(delta)
	if len(g.s.slot(dst).vals) >= maxVals {
		return // full: takes nothing
	}
	for _, v := range delta {
		g.s.add(dst, v)
	}
}

// stopPoll is how many slots the solver drains between polls of
// Options.Stop (a few milliseconds of work on large programs).
const stopPoll = 1 << 12

// run propagates until nothing changes (or Options.Stop says to stop).
func (g *Graph) run() {
	s := &g.s
	for n := 0; len(s.queue) > 0; n++ {
		if g.stop != nil && n%stopPoll == 0 && (g.stopped || g.stop()) {
			g.stopped = true
			return
		}
		id := s.queue[0]
		s.queue = s.queue[1:]
		sl := s.slot(id)
		sl.inQ = false
		for int(sl.done) < len(sl.vals) {
			from, to := int(sl.done), len(sl.vals)
			sl.done = int32(to)
			delta := sl.vals[from:to:to]
			for i := 0; i < len(s.slot(id).uses); i++ {
				if u := s.slot(id).uses[i]; u < 0 {
					g.applyCopy(slotID(^u), delta)
				} else {
					g.apply(constraintID(u), delta)
				}
			}
			sl = s.slot(id)
		}
	}
}

func (g *Graph) apply(cid constraintID, delta []ValueID) {
	if g.s.work > g.s.budget {
		g.s.exhausted = true
		return
	}
	g.s.work += len(delta)
	c := g.s.con(cid)
	for _, v := range delta {
		switch c.kind {
		case cCopy: // copy edges are uses (applyCopy); kept for completeness
			g.s.add(c.dst, v)
		case cLoadAttr:
			g.loadAttr(cid, v, c.name, c.dst)
		case cStoreAttr:
			if t := g.storeSlot(cid, v, c.name); t >= 0 {
				g.copy(c.src, t)
			}
		case cLoadIndex:
			if c.mode == exactKey {
				// f(**d) binding parameter name: d's value at that key.
				if g.Values[v].Kind == KContainer {
					g.copy(g.elemSlot(v, "{"+c.name+"}"), c.dst)
				}
				continue
			}
			g.loadIndex(v, int(c.idx), c.name, c.dst)
		case cStoreIndex:
			g.storeIndex(v, int(c.idx), c.name, c.src)
		case cIter:
			g.iterate(v, c.dst, c.iter.caller, c.iter.at)
		case cIterNext:
			g.iterNext(v, c.dst, c.iter.caller, c.iter.at)
		case cCall:
			g.call(cid, c.cs, v)
		case cBindCopy:
			g.bindValue(v, c.recv, c.dst, c.mode)
		case cBase:
			g.baseChanged(c.cls)
		case cInit:
			if val := g.Values[v]; val.Kind == KFunc {
				g.addTarget(c.cs, Target{Fn: val.Fn})
				if c.mode == initApply {
					g.bindArgs(c.cs, val.Fn, 1) // ctx comes from the engine
					g.autogradCtx(val.Fn)
				} else {
					g.addSelf(val.Fn, c.recv)
					g.bind(c.cs, val.Fn, true)
				}
			}
		case cPartial:
			pv := Value{Kind: KPartial, Recv: v, Args: int32(partialArgs(c.cs))}
			if c.cs.Node != nil {
				pv.Node = c.cs.Node
			}
			g.s.add(c.dst, g.intern(pv))
			g.preBind(c.cs, v)
		case cCallback:
			g.call(cid, c.cs, v)
		case cSlice:
			g.sliceInto(v, int(c.idx), c.recv)
		case cSuper:
			g.s.add(c.dst, g.intern(Value{Kind: KSuper, Class: c.cls, Recv: v}))
		case cSuperBind:
			g.superBind(v, c.src, c.dst)
		case cLoadDunder:
			if val := g.Values[v]; val.Kind == KInstance {
				if s, ext, ok := g.lookupClass(val.Class, c.name, &watcher{c: cid, v: v}); ok && ext == "" && s >= 0 {
					g.use(s, constraint{kind: cBindCopy, dst: c.dst, recv: v, mode: 1})
				}
			}
		case cNarrow:
			_, wrapper := g.Values[v].Data.(ModuleWrapper)
			if c.mode == narrowWrapper && !wrapper || c.mode == narrowType && !g.instanceOfAny(v, c.src) {
				g.s.add(c.dst, v)
			}
		case cBindExternal:
			if g.Values[v].Kind == KInstance {
				g.s.add(c.dst, g.intern(Value{Kind: KBoundExternal, Name: c.name, Recv: v}))
			}
		}
	}
}

const chunk = 1 << 14

func (s *solver) slot(id slotID) *slot { return &s.slots[id/chunk][id%chunk] }

func (s *solver) con(id constraintID) *constraint { return &s.cons[id/chunk][id%chunk] }
