package callgraph

import (
	"math/bits"
	"slices"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/resolve"
)

// Flow-sensitive locals.
//
// The solve is flow-insensitive: a name is one slot, which holds every
// value any assignment gives it. For a function's local variable that is
// assigned more than once, that mixes values that never meet at run time:
//
//	for start in range(0, world, per_node):
//	    group = dist.new_group(intra_ranks(start))
//	    if rank in intra_ranks(start):
//	        _INTRA = group
//	for i in range(per_node):
//	    group = dist.new_group(inter_ranks(i))
//	    if i == local_rank:
//	        _INTER = group
//
// Both globals would hold both groups. So such a variable gets one slot
// per assignment, and each read the slots of the assignments that can
// reach it, found by a reaching-definitions pass over the function's
// statements (loops iterate to a fixed point; an exception may leave a
// try or with body after any of its assignments; return, raise, break
// and continue end a path).
//
// A name is split only where that is exact: a local of a function scope
// (not global or nonlocal), bound only by assignments to the bare name,
// never read by a nested function, lambda, class or generator expression
// (which may run after any assignment). Everything else keeps one slot.
// The name's own slot still receives every assignment (for a parameter,
// only what callers pass), so lookups by name see what they saw before.

// maxSplitDefs bounds the assignments of one name that get their own
// slots (a bit each in a uint64; bit 0 is a parameter's entry value).
const maxSplitDefs = 63

// maxSplitSteps bounds the statements one function's pass visits
// (nested loops are walked once per iteration of the fixed point); a
// function past it keeps one slot per name.
const maxSplitSteps = 50000

// splitLocals runs the reaching-definitions pass over f's body and
// records, in b.locals, the slot of each assignment and each read of the
// names it splits.
func (b *builder) splitLocals(f *Func, body []ast.Stmt) {
	sc := f.Scope
	if sc == nil || sc.Kind != resolve.FunctionScope || len(sc.Rebound) == 0 {
		return
	}
	var names []string
	for name := range sc.Rebound {
		if sc.Pinned[name] || sc.Global[name] || sc.Nonlocal[name] {
			continue
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names) // slot numbering follows this order
	w := &localWalk{fs: sc, scopes: b.scopes, flags: b.flags(), index: make(map[string]int, len(names))}
	for _, name := range names {
		w.index[name] = -1
	}
	for _, s := range body {
		w.captures(s, sc, false)
	}
	for _, name := range names {
		if w.index[name] == -1 {
			w.index[name] = len(w.names)
			w.names = append(w.names, name)
		}
	}
	if len(w.names) == 0 {
		return
	}
	w.defs = make([][]*ast.Name, len(w.names))
	w.param = make([]bool, len(w.names))
	for _, p := range sc.Params {
		if i, ok := w.index[p]; ok && i >= 0 {
			w.param[i] = true
		}
	}
	w.uses = map[*ast.Name]uint64{}
	w.defBit = map[*ast.Name]int{}
	st := w.newState()
	for i := range w.names {
		if w.param[i] {
			st.m[i] = 1
		}
	}
	w.stmts(st, body)
	if w.steps > maxSplitSteps {
		return
	}
	b.applySplit(w)
}

// applySplit gives the split names their slots.
func (b *builder) applySplit(w *localWalk) {
	g := b.g
	needed := make([]bool, len(w.names))
	full := make([]uint64, len(w.names))
	for i, defs := range w.defs {
		if len(defs) > maxSplitDefs || len(defs) == 0 {
			continue
		}
		full[i] = (uint64(1)<<(len(defs)+1) - 1) &^ 1
		if w.param[i] {
			full[i] |= 1
		}
	}
	for n, m := range w.uses {
		i := w.index[n.Id]
		if full[i] != 0 && m != 0 && m != full[i] {
			needed[i] = true
		}
	}
	if b.locals == nil {
		b.locals = map[*ast.Name]slotID{}
	}
	defSlots := make([][]slotID, len(w.names))
	canon := make([]slotID, len(w.names))
	for i, name := range w.names {
		if !needed[i] {
			continue
		}
		canon[i] = g.scopeSlot(w.fs, name)
		defSlots[i] = make([]slotID, len(w.defs[i]))
		for j, d := range w.defs[i] {
			s := g.s.newSlot()
			defSlots[i][j] = s
			b.locals[d] = s
			if !w.param[i] {
				g.copy(s, canon[i]) // lookups by name see every assignment
			}
		}
	}
	unions := map[[2]uint64]slotID{}
	for _, n := range w.useOrder {
		m := w.uses[n]
		i := w.index[n.Id]
		if !needed[i] {
			continue
		}
		if m == 0 || m == full[i] && !w.param[i] {
			// Unreachable, or every assignment reaches: the name's slot.
			if m == 0 && w.param[i] {
				m = full[i]
			} else {
				b.locals[n] = canon[i]
				continue
			}
		}
		b.locals[n] = b.unionSlot(unions, i, m, canon[i], defSlots[i])
	}
}

// unionSlot is the slot of the assignments in mask m of name i (bit 0:
// the parameter's entry value, in the name's own slot).
func (b *builder) unionSlot(unions map[[2]uint64]slotID, i int, m uint64, canon slotID, defs []slotID) slotID {
	if m&(m-1) == 0 { // one assignment
		if m == 1 {
			return canon
		}
		return defs[bits.TrailingZeros64(m)-1]
	}
	key := [2]uint64{uint64(i), m}
	if s, ok := unions[key]; ok {
		return s
	}
	s := b.g.s.newSlot()
	unions[key] = s
	for j := 0; j <= len(defs); j++ {
		if m&(1<<j) == 0 {
			continue
		}
		if j == 0 {
			b.g.copy(canon, s)
		} else {
			b.g.copy(defs[j-1], s)
		}
	}
	return s
}

// localWalk is the reaching-definitions pass of one function.
type localWalk struct {
	fs     *resolve.Scope
	scopes *resolve.Scopes
	flags  map[string]bool // the module's always-true options (deadArm)
	// index: candidate name → its position in names (-1 until the
	// candidates are numbered); -2 once a nested scope is found to read
	// it (then it is not split).
	index map[string]int
	names []string
	param []bool
	// defs[i]: the assignments of names[i], in the order met (bit j+1).
	defs   [][]*ast.Name
	defBit map[*ast.Name]int
	// uses: each read of a split name → the assignments that reach it;
	// useOrder: the reads in the order first met, so that the slots made
	// for them, and with them the solve, do not depend on map order.
	uses     map[*ast.Name]uint64
	useOrder []*ast.Name
	loops    []*loopExits
	// reads: the names read by the value of the assignment being walked
	// (bit i for names[i], the first 64).
	reads uint64
	// regions: the try and with bodies being walked, each collecting the
	// assignments made in it (an exception may leave after any of them).
	regions []*defState
	steps   int
}

// defState is, for each name, the assignments that may have given its
// current value; dead on a path that has returned, raised or jumped.
type defState struct {
	dead bool
	m    []uint64
}

type loopExits struct {
	breaks, continues *defState
}

func (w *localWalk) newState() *defState { return &defState{m: make([]uint64, len(w.names))} }

func (w *localWalk) deadState() *defState {
	s := w.newState()
	s.dead = true
	return s
}

func (s *defState) clone() *defState {
	return &defState{dead: s.dead, m: append([]uint64(nil), s.m...)}
}

func (s *defState) set(o *defState) {
	s.dead = o.dead
	copy(s.m, o.m)
}

// join makes s the union of s and o (a dead state adds nothing).
func (s *defState) join(o *defState) {
	if o.dead {
		return
	}
	if s.dead {
		s.set(o)
		return
	}
	for i, v := range o.m {
		s.m[i] |= v
	}
}

func (s *defState) equal(o *defState) bool {
	if s.dead != o.dead {
		return false
	}
	for i, v := range o.m {
		if s.m[i] != v {
			return false
		}
	}
	return true
}

// captures drops the candidates that a nested function, lambda, class or
// generator expression reads (deferred is true inside a generator
// expression, whose body runs when it is iterated). sc is the scope n is
// evaluated in: a comprehension's own variables shadow the function's.
func (w *localWalk) captures(n ast.Node, sc *resolve.Scope, deferred bool) {
	switch x := n.(type) {
	case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
		w.anyName(n)
		return
	case *ast.ListComp:
		w.compCaptures(n, x.Generators, sc, deferred, deferred, x.Elt)
		return
	case *ast.SetComp:
		w.compCaptures(n, x.Generators, sc, deferred, deferred, x.Elt)
		return
	case *ast.DictComp:
		w.compCaptures(n, x.Generators, sc, deferred, deferred, x.Key, x.Value)
		return
	case *ast.GeneratorExp:
		w.compCaptures(n, x.Generators, sc, deferred, true, x.Elt)
		return
	case *ast.Name:
		if deferred {
			if i, ok := w.index[x.Id]; ok && i != -2 && sc.Lookup(x.Id) == w.fs {
				w.index[x.Id] = -2
			}
		}
		return
	}
	ast.Children(n, func(c ast.Node) { w.captures(c, sc, deferred) })
}

// compCaptures is captures for a comprehension: its first iterable is
// evaluated in the enclosing scope when it is built (outer tells whether
// that is deferred); the rest in its own (inner).
func (w *localWalk) compCaptures(n ast.Node, gens []*ast.Comprehension, sc *resolve.Scope, outer, inner bool, elts ...ast.Expr) {
	cs := w.scopes.ByNode[n]
	if cs == nil {
		w.anyName(n)
		return
	}
	for i, g := range gens {
		if i == 0 {
			w.captures(g.Iter, sc, outer)
		} else {
			w.captures(g.Iter, cs, inner)
		}
		w.captures(g.Target, cs, inner)
		for _, c := range g.Ifs {
			w.captures(c, cs, inner)
		}
	}
	for _, e := range elts {
		w.captures(e, cs, inner)
	}
}

// anyName drops every candidate named anywhere under n.
func (w *localWalk) anyName(n ast.Node) {
	if x, ok := n.(*ast.Name); ok {
		if _, ok := w.index[x.Id]; ok {
			w.index[x.Id] = -2
		}
		return
	}
	ast.Children(n, func(c ast.Node) { w.anyName(c) })
}

// split reports the position of a name that is being split, or -1.
func (w *localWalk) split(name string) int {
	if i, ok := w.index[name]; ok && i >= 0 {
		return i
	}
	return -1
}

func (w *localWalk) stmts(st *defState, list []ast.Stmt) {
	for _, s := range list {
		w.stmt(st, s)
	}
}

func (w *localWalk) stmt(st *defState, s ast.Stmt) {
	w.steps++
	if w.steps > maxSplitSteps {
		return
	}
	switch n := s.(type) {
	case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
		// Their decorators, defaults and bodies name no split name
		// (captures); the name they bind is pinned.
	case *ast.Assign:
		w.assign(st, n.Targets, n.Value)
	case *ast.AnnAssign:
		if n.Value != nil {
			w.assign(st, []ast.Expr{n.Target}, n.Value)
		}
	case *ast.AugAssign:
		w.expr(st, n.Value, w.fs)
		w.target(st, n.Target) // a pinned name, or an attribute or item
	case *ast.For:
		w.forLoop(st, n.Target, n.Iter, n.Body, n.Orelse)
	case *ast.AsyncFor:
		w.forLoop(st, n.Target, n.Iter, n.Body, n.Orelse)
	case *ast.While:
		w.loop(st, func(s *defState) { w.expr(s, n.Test, w.fs) }, n.Body, n.Orelse)
	case *ast.If:
		w.expr(st, n.Test, w.fs)
		switch deadArm(n.Test, w.flags) {
		case deadElse:
			w.stmts(st, n.Body)
		case deadThen:
			w.stmts(st, n.Orelse)
		default:
			other := st.clone()
			w.stmts(st, n.Body)
			w.stmts(other, n.Orelse)
			st.join(other)
		}
	case *ast.With:
		w.with(st, n.Items, n.Body)
	case *ast.AsyncWith:
		w.with(st, n.Items, n.Body)
	case *ast.Try:
		w.try(st, n.Body, n.Handlers, n.Orelse, n.Finalbody)
	case *ast.TryStar:
		w.try(st, n.Body, n.Handlers, n.Orelse, n.Finalbody)
	case *ast.Match:
		w.expr(st, n.Subject, w.fs)
		out := st.clone() // no case matches
		for _, c := range n.Cases {
			cs := st.clone()
			w.expr(cs, c.Pattern, w.fs)
			if c.Guard != nil {
				w.expr(cs, c.Guard, w.fs)
			}
			w.stmts(cs, c.Body)
			out.join(cs)
		}
		st.set(out)
	case *ast.Return:
		if n.Value != nil {
			w.expr(st, n.Value, w.fs)
		}
		st.dead = true
	case *ast.Raise:
		ast.Children(n, func(c ast.Node) { w.expr(st, c, w.fs) })
		st.dead = true
	case *ast.Break:
		if k := len(w.loops); k > 0 {
			w.loops[k-1].breaks.join(st)
		}
		st.dead = true
	case *ast.Continue:
		if k := len(w.loops); k > 0 {
			w.loops[k-1].continues.join(st)
		}
		st.dead = true
	default:
		ast.Children(n, func(c ast.Node) { w.expr(st, c, w.fs) })
	}
}

// assign walks an assignment statement. An assignment whose value reads
// the name it assigns (`model = wrap(model)`, `x = x.to(device)`) adds
// to the values before it instead of replacing them: what a call outside
// the program returns is often its argument, and the analysis does not
// know it.
func (w *localWalk) assign(st *defState, targets []ast.Expr, value ast.Expr) {
	before := w.reads
	w.reads = 0
	w.expr(st, value, w.fs)
	for _, t := range targets {
		w.target(st, t)
	}
	w.reads = before
}

// target walks an assignment target: a split name is given a new
// assignment that replaces the ones before it.
func (w *localWalk) target(st *defState, t ast.Expr) {
	switch x := t.(type) {
	case *ast.Name:
		i := w.split(x.Id)
		if i < 0 {
			return
		}
		keep := i < 64 && w.reads&(1<<i) != 0
		j, seen := w.defBit[x]
		if !seen { // a loop's body is walked more than once
			w.defs[i] = append(w.defs[i], x)
			j = len(w.defs[i])
			w.defBit[x] = j
		}
		if j > maxSplitDefs {
			return // too many to tell apart (applySplit leaves the name whole)
		}
		bit := uint64(1) << j
		if keep {
			st.m[i] |= bit
		} else {
			st.m[i] = bit
		}
		for _, r := range w.regions {
			r.m[i] |= bit
		}
	case *ast.Tuple:
		for _, e := range x.Elts {
			w.target(st, e)
		}
	case *ast.List:
		for _, e := range x.Elts {
			w.target(st, e)
		}
	case *ast.Starred:
		w.target(st, x.Value)
	default:
		w.expr(st, t, w.fs) // an attribute's object, an item's container and key
	}
}

// expr records the reads of split names in n, evaluated in scope sc.
func (w *localWalk) expr(st *defState, n ast.Node, sc *resolve.Scope) {
	switch x := n.(type) {
	case nil:
		return
	case *ast.Name:
		if x.Ctx != ast.Load {
			return
		}
		if i := w.split(x.Id); i >= 0 && (sc == w.fs || sc.Lookup(x.Id) == w.fs) {
			if i < 64 {
				w.reads |= 1 << i
			}
			m := st.m[i]
			if st.dead {
				m = 0 // recorded, reached by nothing (applySplit falls back)
			}
			if _, seen := w.uses[x]; !seen {
				w.useOrder = append(w.useOrder, x)
			}
			w.uses[x] |= m
		}
		return
	case *ast.Lambda, *ast.GeneratorExp:
		return // names no split name (captures)
	case *ast.ListComp:
		w.comp(st, n, x.Generators, sc, x.Elt)
		return
	case *ast.SetComp:
		w.comp(st, n, x.Generators, sc, x.Elt)
		return
	case *ast.DictComp:
		w.comp(st, n, x.Generators, sc, x.Key, x.Value)
		return
	}
	ast.Children(n, func(c ast.Node) { w.expr(st, c, sc) })
}

// comp records the reads of a comprehension, which runs where it is.
func (w *localWalk) comp(st *defState, n ast.Node, gens []*ast.Comprehension, sc *resolve.Scope, elts ...ast.Expr) {
	cs := w.scopes.ByNode[n]
	if cs == nil {
		cs = sc
	}
	for i, g := range gens {
		if i == 0 {
			w.expr(st, g.Iter, sc)
		} else {
			w.expr(st, g.Iter, cs)
		}
		for _, c := range g.Ifs {
			w.expr(st, c, cs)
		}
	}
	for _, e := range elts {
		w.expr(st, e, cs)
	}
}

func (w *localWalk) forLoop(st *defState, target, iter ast.Expr, body, orelse []ast.Stmt) {
	w.expr(st, iter, w.fs)
	w.loop(st, func(s *defState) { w.target(s, target) }, body, orelse)
}

// loop walks a loop until the assignments that reach its head stop
// growing. head runs at the start of each iteration (a while loop's test,
// a for loop's target). The loop ends at its head (after a while loop's
// test); its else clause runs from there; a break leaves past it.
func (w *localWalk) loop(st *defState, head func(*defState), body, orelse []ast.Stmt) {
	before := st.clone()
	in := before.clone()
	exits := &loopExits{}
	w.loops = append(w.loops, exits)
	for {
		exits.breaks, exits.continues = w.deadState(), w.deadState()
		s := in.clone()
		head(s)
		w.stmts(s, body)
		next := before.clone()
		next.join(s)
		next.join(exits.continues)
		if next.equal(in) || w.steps > maxSplitSteps {
			break
		}
		in = next
	}
	w.loops = w.loops[:len(w.loops)-1]
	st.set(in)
	w.stmts(st, orelse)
	st.join(exits.breaks)
}

// try walks a try statement. A handler may run after any assignment of
// the body; a finally clause after any assignment of the whole statement.
func (w *localWalk) try(st *defState, body []ast.Stmt, handlers []*ast.ExceptHandler, orelse, final []ast.Stmt) {
	entry := st.clone()
	inBody := entry.clone()
	w.regions = append(w.regions, inBody)
	w.stmts(st, body)
	w.regions = w.regions[:len(w.regions)-1]
	inBody.dead = entry.dead
	anywhere := inBody.clone() // for finally: also the handlers' and else's assignments
	w.regions = append(w.regions, anywhere)
	out := st.clone()
	w.stmts(out, orelse)
	for _, h := range handlers {
		hs := inBody.clone()
		if h.Type != nil {
			w.expr(hs, h.Type, w.fs)
		}
		w.stmts(hs, h.Body)
		out.join(hs)
	}
	w.regions = w.regions[:len(w.regions)-1]
	if len(final) == 0 {
		st.set(out)
		return
	}
	fin := out.clone()
	fin.join(anywhere)
	w.stmts(fin, final)
	if out.dead {
		fin.dead = true
	}
	st.set(fin)
}

// with walks a with statement. Its manager may swallow an exception
// raised after any assignment of the body.
func (w *localWalk) with(st *defState, items []*ast.WithItem, body []ast.Stmt) {
	for _, it := range items {
		w.expr(st, it.ContextExpr, w.fs)
		if it.OptionalVars != nil {
			w.target(st, it.OptionalVars)
		}
	}
	inBody := st.clone()
	w.regions = append(w.regions, inBody)
	w.stmts(st, body)
	w.regions = w.regions[:len(w.regions)-1]
	st.join(inBody)
}
