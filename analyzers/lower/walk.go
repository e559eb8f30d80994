package lower

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/collvet/collvet/rules"
)

// walker is one traversal: of a context (model mode, ctx set) or of a
// function for its summary (sum set).
type walker struct {
	ctx    *rules.Context
	entry  *fn // the function ctx starts in, when the walk began there
	sum    *Summary
	seen   map[string]bool
	inLoop bool // the current chain passed through a call inside a loop
}

type ctxJob struct {
	ctx *rules.Context
	f   *fn
	en  env
}

const maxDepth = 24

// opInfo is what a site communicates.
type opInfo struct {
	api, op, kind, lib string
	noStream           bool
	inner              rules.Pos // wrappers: the innermost call
	innerAPI           string
}

// walk visits f's items under en.
func (b *builder) walk(w *walker, f *fn, en env, chain []*rules.Call, depth int) {
	key := envKey(f, en)
	if w.seen[key] || depth > maxDepth {
		return
	}
	w.seen[key] = true
	defer delete(w.seen, key) // a function may be reached again along another chain
	for _, it := range f.items {
		switch it.kind {
		case itSite:
			b.walkSite(w, f, it, en, chain)
		case itCall:
			call := b.edge(f, it, it.callee.rf, "")
			saved := w.inLoop
			w.inLoop = w.inLoop || it.loop
			b.walk(w, it.callee, b.bind(it.callee, it.ops, en), append(chain, call), depth+1)
			w.inLoop = saved
		case itLit:
			call := b.edge(f, it, it.callee.rf, "")
			b.walk(w, it.callee, b.bind(it.callee, nil, en), append(chain, call), depth+1)
		case itExt:
			b.walkExt(w, f, it, en, chain)
		case itSpawn:
			b.walkSpawn(w, f, it, en, chain)
		}
	}
}

// edge returns the model call edge for an item, made once.
func (b *builder) edge(f *fn, it *item, callee *rules.Function, external string) *rules.Call {
	k := edgeKey{f, it.at.Pos()}
	if c := b.edges[k]; c != nil {
		return c
	}
	c := &rules.Call{Caller: f.rf, Callee: callee, External: external, Pos: b.nodePos(it.at)}
	if callee != nil {
		c.External = ""
	}
	b.edges[k] = c
	f.rf.Calls = append(f.rf.Calls, c)
	return c
}

func (b *builder) walkSite(w *walker, f *fn, it *item, en env, chain []*rules.Call) {
	c := it.coll
	var g value
	switch {
	case c.ReceiverGroup && len(it.ops) > len(it.call.Args):
		g = b.valueOf(it.ops[0], en)
	case c.Group.Present():
		g = b.valueOf(argOf(it.call, c.Group), en)
	default:
		g = unknownV
	}
	s := value{kind: "none"}
	if c.Stream.Present() {
		s = b.valueOf(argOf(it.call, c.Stream), en)
	}
	if c.Kind == "init" && c.Library == "mpi" {
		lvl := c.Level
		if c.ThreadLevel.Present() {
			lvl = b.threadLevel(argOf(it.call, c.ThreadLevel))
		}
		b.noteLevel(w, lvl, it.call.Pos())
	}
	op := opInfo{api: it.name, op: c.Op, kind: c.Kind, lib: c.Library, noStream: !c.Stream.Present()}
	if w.sum != nil {
		if len(w.sum.Ops) < maxOps {
			w.sum.Ops = append(w.sum.Ops, OpSum{API: it.name, Op: c.Op, Kind: c.Kind, Library: c.Library,
				Group: b.toSum(g), Stream: b.toSum(s), Stream0: op.noStream, Pos: b.absPos(it.call.Pos())})
		}
		return
	}
	call := b.edge(f, it, nil, it.name)
	site := b.addSite(w, f, it, op, g, s, append(chain, call), false)
	if w.ctx != nil && w.ctx.Many && w.entry == f && c.Group.Present() && b.localOf(argOf(it.call, c.Group), f) {
		// The communicator is a variable of the goroutine's own function
		// (`var comm C.ncclComm_t; C.ncclCommInitRank(&comm, …)` in the
		// `go func(rank int)` body, or `comm := initRank(…)` there).
		perGoroutine(site.Group, f)
	}
	if c.Request.Present() && site.Work == nil {
		b.addWork(f, it, site, argOf(it.call, c.Request))
	}
}

// tempInit returns the expression a variable is declared with in n
// (`var _cgo0 T = comm.c`, `_cgo0 := comm.c`), or nil.
func tempInit(n ast.Node, info *types.Info, v *types.Var) ast.Expr {
	var out ast.Expr
	ast.Inspect(n, func(x ast.Node) bool {
		if out != nil {
			return false
		}
		switch d := x.(type) {
		case *ast.ValueSpec:
			for i, name := range d.Names {
				if info.Defs[name] == v && i < len(d.Values) {
					out = d.Values[i]
				}
			}
		case *ast.AssignStmt:
			for i, l := range d.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] == v && i < len(d.Rhs) && len(d.Lhs) == len(d.Rhs) {
					out = d.Rhs[i]
				}
			}
		}
		return out == nil
	})
	return out
}

// pointsOut reports a local pointer that its definition points at memory
// of the caller's: a conversion of a pointer parameter or of another
// non-local ((*C.MPI_Request)(request), unsafe.Pointer(out)).
func (b *builder) pointsOut(n ast.Node, v *types.Var) bool {
	init := tempInit(n, b.pass.TypesInfo, v)
	if init == nil {
		return false
	}
	if _, isAddr := ast.Unparen(init).(*ast.UnaryExpr); isAddr {
		return false // &local: a pointer to this function's own variable
	}
	ptrConv := false
	if c, ok := ast.Unparen(init).(*ast.CallExpr); ok && len(c.Args) == 1 {
		if _, star := ast.Unparen(c.Fun).(*ast.StarExpr); star {
			// (*T)(x): a pointer conversion, also where T is a C type the
			// analysis has no declaration of (a raw cgo file).
			ptrConv = true
			init = c.Args[0]
		}
	}
	rv, ok := b.rootObj(init).(*types.Var)
	if !ok || rv.Kind() == types.LocalVar {
		return false
	}
	_, isPtr := rv.Type().Underlying().(*types.Pointer)
	return isPtr || ptrConv
}

// makesUniqueID reports a function body that creates an NCCL unique id
// itself (C.ncclGetUniqueId, a binding's GetUniqueId / NewUniqueID).
func makesUniqueID(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return !found
		}
		name := ""
		fun := c.Fun
		for {
			p, ok := fun.(*ast.ParenExpr)
			if !ok {
				break
			}
			fun = p.X
		}
		switch fn := fun.(type) {
		case *ast.SelectorExpr:
			name = fn.Sel.Name
		case *ast.Ident:
			name = fn.Name
		}
		if strings.Contains(strings.ToLower(name), "uniqueid") {
			found = true
		}
		return !found
	})
	return found
}

// perGoroutine marks a communicator that each goroutine started from
// entry makes for itself: one per goroutine, and, when the unique id
// comes from outside entry (the same for all of them), the ranks of one
// communicator.
func perGoroutine(g *rules.Group, entry *fn) {
	if g.Kind != rules.GroupAlloc {
		return
	}
	g.PerIteration = true
	if !makesUniqueID(entry.node) {
		g.Clique = true
	}
}

// inside reports whether p lies in f's syntax.
func (b *builder) inside(f *fn, p PosSum) bool {
	if f.node == nil || p.File == "" {
		return false
	}
	start, end := b.pass.Fset.Position(f.node.Pos()), b.pass.Fset.Position(f.node.End())
	at := func(line, col int) int { return line<<16 | col }
	return p.File == start.Filename && at(start.Line, start.Column) <= at(p.Line, p.Col) && at(p.Line, p.Col) < at(end.Line, end.Column)
}

// localOf reports whether expression e (a communicator argument: comm,
// comm.c, &comm) is rooted at a variable declared inside f's own body.
func (b *builder) localOf(e ast.Expr, f *fn) bool {
	for e != nil {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			v, ok := b.pass.TypesInfo.ObjectOf(x).(*types.Var)
			if !ok || v.IsField() || f.node == nil {
				return false
			}
			for _, p := range f.params {
				if p == v {
					return false // handed in by the spawner
				}
			}
			if strings.HasPrefix(v.Name(), "_cgo") {
				// cgo passes each argument through a temporary of its
				// call: the argument is the temporary's initialiser.
				if init := tempInit(f.node, b.pass.TypesInfo, v); init != nil {
					e = init
					continue
				}
				return false
			}
			return f.node.Pos() <= v.Pos() && v.Pos() < f.node.End()
		default:
			return false
		}
	}
	return false
}

func (b *builder) noteLevel(w *walker, lvl string, p token.Pos) {
	if lvl == "" {
		return
	}
	if w.sum != nil {
		if w.sum.Level == "" {
			w.sum.Level, w.sum.LevelPos = lvl, b.absPos(p)
		}
		return
	}
	if b.level == "" {
		b.level, b.levelPos = lvl, b.pos(p, token.NoPos)
	}
}

// resolve is the caller-side value of a summarised operand.
func (b *builder) resolve(s ValSum, ops []ast.Expr, en env) value {
	if s.Param >= 0 {
		if s.Param < len(ops) {
			return b.valueOf(ops[s.Param], en).withPath(s.Path)
		}
		return unknownV
	}
	return b.fromSum(s)
}

func (b *builder) walkExt(w *walker, f *fn, it *item, en env, chain []*rules.Call) {
	sum := it.sum
	if sum.Level != "" {
		b.noteLevel(w, sum.Level, it.at.Pos())
	}
	b.extOps(w, f, it, sum.Ops, en, chain)
	for _, sp := range sum.Spawns {
		b.extSpawn(w, f, it, sp, en, chain, it.loop || w.inLoop)
	}
}

// extOps lowers the operations of a summarised callee at the call.
func (b *builder) extOps(w *walker, f *fn, it *item, ops []OpSum, en env, chain []*rules.Call) {
	if len(ops) == 0 {
		return
	}
	if w.sum != nil {
		for _, op := range ops {
			if len(w.sum.Ops) >= maxOps {
				break
			}
			op.Group = b.toSum(b.resolve(op.Group, it.ops, en))
			op.Stream = b.toSum(b.resolve(op.Stream, it.ops, en))
			w.sum.Ops = append(w.sum.Ops, op)
		}
		return
	}
	call := b.edge(f, it, nil, it.name)
	for _, op := range ops {
		g := b.resolve(op.Group, it.ops, en)
		s := value{kind: "none"}
		if !op.Stream0 {
			s = b.resolve(op.Stream, it.ops, en)
		}
		oi := opInfo{api: it.name, op: op.Op, kind: op.Kind, lib: op.Library, noStream: op.Stream0,
			inner: b.display(op.Pos), innerAPI: op.API}
		b.addSite(w, f, it, oi, g, s, append(chain, call), true)
	}
}

// extSpawn lowers a goroutine started inside a summarised callee.
func (b *builder) extSpawn(w *walker, f *fn, it *item, sp SpawnSum, en env, chain []*rules.Call, many bool) {
	if w.sum != nil {
		ns := sp
		ns.Many = ns.Many || many
		ns.Ops = nil
		for _, op := range sp.Ops {
			op.Group = b.toSum(b.resolve(op.Group, it.ops, en))
			op.Stream = b.toSum(b.resolve(op.Stream, it.ops, en))
			ns.Ops = append(ns.Ops, op)
		}
		w.sum.Spawns = append(w.sum.Spawns, ns)
		return
	}
	var ids string
	for _, op := range sp.Ops {
		ids += "|" + b.resolve(op.Group, it.ops, en).id()
	}
	key := fmt.Sprintf("fact:%s:%d:%d@%d%s", sp.Pos.File, sp.Pos.Line, sp.Pos.Col, it.at.Pos(), ids)
	ctx := b.ctxs[key]
	if ctx == nil {
		ctx = &rules.Context{Kind: rules.Goroutine, Spawn: b.display(sp.Pos), SpawnAPI: sp.API, Parent: w.ctx,
			Many: sp.Many || many, Joined: sp.Joined, LockedOSThread: sp.Locked}
		b.ctxs[key] = ctx
		b.prog.Contexts = append(b.prog.Contexts, ctx)
		if ctx.Many && !sp.Many {
			b.loopCtx[ctx] = true
		}
	}
	sub := &walker{ctx: ctx, seen: map[string]bool{}}
	b.extOps(sub, f, it, sp.Ops, en, chain)
}

func (b *builder) walkSpawn(w *walker, f *fn, it *item, en env, chain []*rules.Call) {
	b.spawned[it] = true
	many := it.many || w.inLoop
	if it.callee == nil && it.sum == nil {
		return
	}
	if w.sum != nil {
		sub := &walker{sum: &Summary{}, seen: map[string]bool{}}
		locked := false
		if it.callee != nil {
			b.walk(sub, it.callee, b.bind(it.callee, it.ops, en), nil, 0)
			locked = it.callee.locks
		} else {
			b.extOps(sub, f, it, it.sum.Ops, en, nil)
			for _, sp := range it.sum.Spawns {
				b.extSpawn(sub, f, it, sp, en, nil, false)
			}
			locked = it.sum.Locks
		}
		if len(sub.sum.Ops) > 0 {
			w.sum.Spawns = append(w.sum.Spawns, SpawnSum{API: it.name, Pos: b.absPos(it.at.Pos()), Many: many,
				Joined: it.joined, Locked: locked, Ops: sub.sum.Ops})
		}
		w.sum.Spawns = append(w.sum.Spawns, sub.sum.Spawns...)
		if sub.sum.Level != "" && w.sum.Level == "" {
			w.sum.Level, w.sum.LevelPos = sub.sum.Level, sub.sum.LevelPos
		}
		return
	}
	var bound env
	var keyFn string
	if it.callee != nil {
		bound = b.bind(it.callee, it.ops, en)
		keyFn = envKey(it.callee, bound)
	} else {
		bound = en
		for _, o := range it.ops {
			keyFn += "|" + b.valueOf(o, en).id()
		}
	}
	key := fmt.Sprintf("%d|%s", it.at.Pos(), keyFn)
	ctx := b.ctxs[key]
	if ctx != nil {
		return
	}
	ctx = &rules.Context{Kind: rules.Goroutine, Spawn: b.nodePos(it.at), SpawnAPI: it.name, Parent: w.ctx,
		Many: many, Joined: it.joined}
	if it.loop || w.inLoop {
		b.loopCtx[ctx] = true
	}
	b.ctxs[key] = ctx
	b.prog.Contexts = append(b.prog.Contexts, ctx)
	call := b.edge(f, it, nil, it.name)
	if it.callee != nil {
		ctx.Entry = it.callee.rf
		ctx.LockedOSThread = it.callee.locks
		if at := b.undoneAt(it.callee); at != nil {
			ctx.LockedOSThread, ctx.UnlockedAt = false, b.nodePos(at)
		}
		call.Callee, call.External = it.callee.rf, ""
		b.ctxOrder = append(b.ctxOrder, &ctxJob{ctx: ctx, f: it.callee, en: bound})
		return
	}
	ctx.LockedOSThread = it.sum.Locks
	sub := &walker{ctx: ctx, seen: map[string]bool{}}
	b.extOps(sub, f, it, it.sum.Ops, en, chain)
	for _, sp := range it.sum.Spawns {
		b.extSpawn(sub, f, it, sp, en, chain, false)
	}
}

// addSite makes (or finds) the site for a call, a communicator and a
// stream, and records that ctx reaches it along chain.
func (b *builder) addSite(w *walker, f *fn, it *item, op opInfo, g, s value, chain []*rules.Call, wrapper bool) *rules.Site {
	key := siteKey{pos: it.at.Pos(), group: g.id(), stream: s.id()}
	site := b.sites[key]
	if site == nil {
		site = &rules.Site{Func: f.rf, Pos: b.nodePos(it.at), API: op.api, Op: op.op, Kind: rules.OpKind(op.kind),
			Library: op.lib, Group: b.group(g, op.lib)}
		if !op.noStream {
			site.Stream = b.stream(s)
		}
		if wrapper {
			site.Wrapper = true
			site.Via = &rules.Site{Func: f.rf, Pos: op.inner, API: op.innerAPI, Op: op.op, Kind: site.Kind,
				Library: op.lib, Group: site.Group, Stream: site.Stream}
		}
		b.sites[key] = site
		if first := b.sitesAt[it.at.Pos()]; first == nil {
			b.sitesAt[it.at.Pos()] = site
		} else {
			site.Work = first.Work
		}
		b.prog.Sites = append(b.prog.Sites, site)
		f.rf.Sites = append(f.rf.Sites, site)
	}
	if w != nil && w.ctx != nil && w.ctx.Many && w.entry != nil && (g.kind == "var" || g.kind == "alloc") && b.inside(w.entry, g.abs) {
		// Made, or held by a variable declared, in the goroutine's own
		// function (`s := NewStrategy(…)` in the `go func(rank int)` body).
		perGoroutine(site.Group, w.entry)
	}
	if w != nil && w.ctx != nil {
		for _, r := range site.Reach {
			if r.Ctx == w.ctx {
				return site
			}
		}
		site.Reach = append(site.Reach, &rules.Reach{Ctx: w.ctx, Chain: append([]*rules.Call(nil), chain...)})
		// A call on no communicator (cudaSetDevice) shares none.
		if !g.indexed && g.kind != "unknown" {
			b.manyOK[w.ctx] = true
		}
	}
	return site
}

func (b *builder) group(v value, lib string) *rules.Group {
	id := v.id()
	if v.kind == "nil" || v.kind == "param" || v.kind == "stream" || v.kind == "none" {
		id = "unknown"
	}
	if g := b.groups[id]; g != nil {
		return g
	}
	g := &rules.Group{ID: id, Kind: rules.GroupUnknown, API: v.api, Backend: v.backend}
	switch {
	case id == "WORLD":
		g.Kind = rules.GroupWorld
	case id != "unknown":
		g.Kind, g.Pos = rules.GroupAlloc, v.pos
		if gc := b.tables.GroupCreators[v.api]; gc != nil && gc.Clique {
			// ncclCommInitAll: the handles are the ranks of one
			// communicator, one per device.
			g.PerIteration, g.Clique = true, true
		}
	}
	if g.Backend == "" && id != "unknown" {
		switch lib {
		case "nccl", "mpi":
			g.Backend = lib
		}
	}
	b.groups[id] = g
	return g
}

func (b *builder) stream(v value) *rules.Stream {
	id := v.id()
	if v.kind == "param" || v.unbound {
		// A parameter no caller in the analysed code binds (a binding's
		// method taking the stream): whatever the callers pass.
		id = "unknown"
	}
	if s := b.streams[id]; s != nil {
		return s
	}
	s := &rules.Stream{ID: id, Default: id == "default"}
	if v.kind == "stream" || v.kind == "var" || v.kind == "alloc" {
		s.Pos = v.pos
	}
	b.streams[id] = s
	return s
}

// addWork records the request of a nonblocking call and what happens to it
// in the calling function.
func (b *builder) addWork(f *fn, it *item, site *rules.Site, req ast.Expr) {
	wk := &rules.Work{Site: site}
	site.Async = true
	site.Work = wk
	b.prog.Works = append(b.prog.Works, wk)
	if req == nil {
		wk.Discarded = true
		return
	}
	if v := b.valueOf(req, nil); v.kind == "nil" {
		wk.Discarded = true
		return
	}
	obj := b.rootObj(req)
	if obj == nil {
		wk.Escapes = true
		return
	}
	wk.Var = obj.Name()
	if v, ok := obj.(*types.Var); !ok || v.Kind() != types.LocalVar {
		wk.Escapes = true
	}
	top := f
	for top.parent != nil {
		top = top.parent
	}
	if v, ok := obj.(*types.Var); ok && !wk.Escapes && b.pointsOut(top.node, v) {
		// p := (*C.MPI_Request)(request): the request is stored through
		// the caller's pointer, and the caller waits it.
		wk.Escapes = true
	}
	// Calls that use the request legitimately: the nonblocking calls
	// themselves and the waits.
	var spans [][2]token.Pos
	var visit func(g *fn)
	visit = func(g *fn) {
		for _, x := range g.items {
			switch x.kind {
			case itSite:
				spans = append(spans, [2]token.Pos{x.at.Pos(), x.at.End()})
			case itWait:
				spans = append(spans, [2]token.Pos{x.at.Pos(), x.at.End()})
				if b.rootObj(x.arg) == obj {
					wk.Waited = append(wk.Waited, b.nodePos(x.at))
				}
			case itLit:
				visit(x.callee)
			}
		}
	}
	visit(top)
	info := b.pass.TypesInfo
	ast.Inspect(top.node, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != obj {
			return true
		}
		for _, sp := range spans {
			if id.Pos() >= sp[0] && id.Pos() < sp[1] {
				return true
			}
		}
		wk.Escapes = true
		return true
	})
	sort.Slice(wk.Waited, func(i, j int) bool { return lessPos(wk.Waited[i], wk.Waited[j]) })
}

// lower builds the contexts and sites of the package.
func (b *builder) lower() {
	var mainFn *fn
	var inits []*fn
	for _, f := range b.funcs {
		if f.obj == nil || f.parent != nil || f.obj.Signature().Recv() != nil {
			continue
		}
		if b.pass.Pkg.Name() == "main" && f.obj.Name() == "main" {
			mainFn = f
		}
		if f.obj.Name() == "init" {
			inits = append(inits, f)
		}
	}
	b.main = &rules.Context{Kind: rules.Main}
	b.prog.Contexts = append(b.prog.Contexts, b.main)
	mw := &walker{ctx: b.main, seen: map[string]bool{}}
	for _, f := range inits {
		if f.locks {
			b.main.LockedOSThread = true
		}
		b.walk(mw, f, env{}, nil, 0)
	}
	if mainFn != nil {
		b.main.Entry = mainFn.rf
		if mainFn.locks {
			b.main.LockedOSThread = true
		}
		b.walk(mw, mainFn, env{}, nil, 0)
	} else {
		// A library: its exported functions run on their caller's goroutine.
		for _, f := range b.funcs {
			if f.obj != nil && f.parent == nil && f.obj.Exported() {
				b.walk(mw, f, env{}, nil, 0)
			}
		}
	}
	b.drain()
	// Spawns no context reached (unexported helpers, dead code) still
	// start goroutines when they run.
	for _, f := range b.funcs {
		for _, it := range f.items {
			if it.kind == itSpawn && !b.spawned[it] {
				b.walkSpawn(mw, f, it, env{}, nil)
				b.drain()
			}
		}
	}
	// Sites no context reaches still exist (CV401 reads their requests).
	nw := &walker{seen: map[string]bool{}}
	for _, f := range b.funcs {
		for _, it := range f.items {
			if it.kind == itSite && b.sitesAt[it.at.Pos()] == nil {
				b.walkSite(nw, f, it, env{}, nil)
			}
		}
	}
	// Goroutines started in a loop that each use their own element of a
	// communicator array (go worker(comms[i])) do not share one.
	for ctx := range b.loopCtx {
		if !b.manyOK[ctx] {
			ctx.Many = false
		}
	}
	b.events()
}

// drain walks queued goroutine contexts (which may queue more).
func (b *builder) drain() {
	for len(b.ctxOrder) > 0 {
		j := b.ctxOrder[0]
		b.ctxOrder = b.ctxOrder[1:]
		b.walk(&walker{ctx: j.ctx, entry: j.f, seen: map[string]bool{}}, j.f, j.en, nil, 0)
	}
}

// events lists each function's steps in source order for the flow rules.
// A stream waiting on an event recorded on another stream orders the two
// (EvWaitEvent, Stream waits for Other), whatever the order of the calls
// in the source: events are matched by variable, package-wide.
func (b *builder) events() {
	recorded := map[types.Object]value{}
	for _, f := range b.funcs {
		for _, it := range f.items {
			if it.kind == itRecord {
				if o := b.rootObj(it.ev); o != nil {
					recorded[o] = b.valueOf(it.arg, nil)
				}
			}
		}
	}
	for _, f := range b.funcs {
		for _, it := range f.items {
			switch it.kind {
			case itSite:
				if s := b.sitesAt[it.at.Pos()]; s != nil {
					f.rf.Events = append(f.rf.Events, &rules.Event{Kind: rules.EvCollective, Pos: s.Pos, Site: s})
				}
			case itExt:
				if s := b.sitesAt[it.at.Pos()]; s != nil {
					f.rf.Events = append(f.rf.Events, &rules.Event{Kind: rules.EvCollective, Pos: s.Pos, Site: s})
				}
			case itWait:
				ev := &rules.Event{Kind: rules.EvWait, Pos: b.nodePos(it.at)}
				if o := b.rootObj(it.arg); o != nil {
					ev.Var = o.Name()
				}
				f.rf.Events = append(f.rf.Events, ev)
			case itBlock:
				f.rf.Events = append(f.rf.Events, &rules.Event{Kind: rules.EvBlock, Pos: b.nodePos(it.at), Var: it.name})
			case itWaitEvent:
				if src, ok := recorded[b.rootObj(it.ev)]; ok {
					f.rf.Events = append(f.rf.Events, &rules.Event{Kind: rules.EvWaitEvent, Pos: b.nodePos(it.at),
						Stream: b.stream(b.valueOf(it.arg, nil)), Other: b.stream(src)})
				}
			}
		}
	}
}
