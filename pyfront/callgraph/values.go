package callgraph

import (
	"strconv"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/resolve"
)

type valueKey struct {
	kind ValueKind
	a    int64
	b    ValueID
	name string
}

func (g *Graph) intern(v Value) ValueID {
	k := valueKey{kind: v.Kind, b: v.Recv, name: v.Name}
	switch v.Kind {
	case KFunc, KGenerator, KBound:
		k.a = int64(v.Fn.ID)
	case KClass, KInstance, KSuper:
		k.a = int64(v.Class.ID)
	case KContainer:
		k.a = int64(g.nodeID(v.Node))
	case KPartial:
		// One value per functools.partial call: what it binds by keyword
		// (group=g) differs between them.
		k.a = int64(g.nodeID(v.Node))<<16 | int64(v.Args&0xffff)
	case KModule:
		// Two files of one name (each project's utils.py) are two
		// modules: their namespaces differ.
		if v.Module != nil && g.modByName[v.Name] != v.Module {
			k.a = int64(g.modSpace(v.Module)) + 1
		}
	}
	if id, ok := g.valueIDs[k]; ok {
		return id
	}
	id := ValueID(len(g.Values))
	v.ID = id
	g.Values = append(g.Values, g.newValue(v))
	g.valueIDs[k] = id
	return id
}

// newValue stores v in the graph's value slab. Interning a value that
// exists allocates nothing: v stays on the caller's stack unless it is
// new, and new ones are allocated a thousand at a time.
func (g *Graph) newValue(v Value) *Value {
	if len(g.valueSlab) == cap(g.valueSlab) {
		g.valueSlab = make([]Value, 0, 1024)
	}
	g.valueSlab = append(g.valueSlab, v)
	return &g.valueSlab[len(g.valueSlab)-1]
}

func (g *Graph) nodeID(n ast.Node) int {
	k := nodeKey(n)
	if id, ok := g.nodeIDs[k]; ok {
		return id
	}
	id := len(g.nodeIDs) + 1
	g.nodeIDs[k] = id
	return id
}

// The values of functions and classes are asked for at every definition,
// reference and binding; each is interned once and kept on its Func or
// Class.
func (g *Graph) funcValue(f *Func) ValueID {
	if f.value == 0 {
		f.value = g.intern(Value{Kind: KFunc, Fn: f})
	}
	return f.value
}
func (g *Graph) classValue(c *Class) ValueID {
	if c.value == 0 {
		c.value = g.intern(Value{Kind: KClass, Class: c})
	}
	return c.value
}
func (g *Graph) instanceValue(c *Class) ValueID {
	if c.instance == 0 {
		c.instance = g.intern(Value{Kind: KInstance, Class: c})
	}
	return c.instance
}

// External returns the value of an external symbol (canonicalised).
func (g *Graph) External(name string) ValueID {
	return g.intern(Value{Kind: KExternal, Name: g.canon(name)})
}

// Opaque returns the opaque value with the given identity key; typ names
// its type for method look-ups (typ.method). data is kept from the first
// call.
func (g *Graph) Opaque(key, typ string, data any) ValueID {
	if id, ok := g.opaque[key]; ok {
		return id
	}
	id := ValueID(len(g.Values))
	g.Values = append(g.Values, g.newValue(Value{ID: id, Kind: KOpaque, Name: typ, Data: data}))
	g.opaque[key] = id
	return id
}

// Container returns the container value allocated at node n.
func (g *Graph) Container(n ast.Node, kind string) ValueID {
	return g.intern(Value{Kind: KContainer, Node: n, Name: kind})
}

func (g *Graph) moduleValue(name string) ValueID {
	v := Value{Kind: KModule, Name: name}
	if m := g.modByName[name]; m != nil {
		v.Module = m
	}
	return g.intern(v)
}

// moduleValueOf is the value of program module m itself, also where
// another file of the program has the same name.
func (g *Graph) moduleValueOf(m *resolve.Module) ValueID {
	return g.intern(Value{Kind: KModule, Name: m.Name, Module: m})
}

// elemSlot is a container's slot for an index/key ("[0]", "{k}", "*", "?").
func (g *Graph) elemSlot(c ValueID, key string) slotID {
	switch key {
	case "*":
		return g.anyElemSlot(c, 0, key)
	case "?":
		return g.anyElemSlot(c, 1, key)
	}
	return g.s.slotFor(slotKey{space: -int32(c), name: key})
}

// anyElemSlot is elemSlot for the two keys every container operation
// uses ("*", "?"), remembered by value: the solver asks for them at every
// element load, store and iteration, and hashing the key each time was a
// tenth of the map work. The slot is still named in the slot table, for
// look-ups by key.
func (g *Graph) anyElemSlot(c ValueID, i int, key string) slotID {
	if int(c) >= len(g.anyElems) {
		g.anyElems = append(g.anyElems, make([][2]slotID, int(c)+1-len(g.anyElems)+len(g.anyElems)/2)...)
	}
	if s := g.anyElems[c][i]; s != 0 {
		return s - 1
	}
	s := g.s.slotFor(slotKey{space: -int32(c), name: key})
	g.anyElems[c][i] = s + 1
	return s
}

// attrSlot is where "v.name = …" stores: module globals, class attributes
// (instance attributes live on the class, as in PyCG).
func (g *Graph) attrSlot(v ValueID, name string) slotID {
	val := g.Values[v]
	switch val.Kind {
	case KModule:
		if val.Module != nil {
			return g.modSlot(val.Module, name)
		}
	case KClass, KInstance:
		return g.scopeSlot(val.Class.Scope, name)
	case KContainer:
		return g.elemSlot(v, "."+name)
	case KOpaque:
		if val.Name == autogradCtxType {
			return g.elemSlot(v, "."+name)
		}
	}
	return noSlot
}

// storeSlot is the slot a store of attribute name on value v writes: for
// an instance, the slot a load of that name on it reads (lookupClass), so
// that `self.pg = …` in a base class's __init__, run for an instance of a
// subclass, is what `obj.pg` on that instance finds, whether or not the
// base class is ever instantiated itself.
func (g *Graph) storeSlot(cid constraintID, v ValueID, name string) slotID {
	if val := g.Values[v]; val.Kind == KInstance {
		if s, ext, ok := g.lookupClass(val.Class, name, &watcher{c: cid, v: v}); ok && ext == "" && s >= 0 {
			return s
		}
	}
	return g.attrSlot(v, name)
}

// autogradCtxType is the type of the ctx that an autograd Function's
// forward, setup_context and backward receive: one object per
// application at run time, the same one for all three, so what forward
// stores on it (ctx.group = group) is what backward reads.
const autogradCtxType = "torch.autograd.function.FunctionCtx"

// autogradCtx gives the forward, setup_context and backward of f's class
// (f is the forward that Function.apply runs) one ctx value as their first
// parameter, once per class.
func (g *Graph) autogradCtx(f *Func) {
	c := f.Class
	if c == nil || c.ctxDone {
		return
	}
	c.ctxDone = true
	ctx := g.Opaque("autograd-ctx#"+strconv.Itoa(c.ID), autogradCtxType, nil)
	for _, m := range g.Funcs {
		if m.Class != c || m.Scope == nil {
			continue
		}
		switch m.Name[strings.LastIndexByte(m.Name, '.')+1:] {
		case "forward", "setup_context", "backward":
			if args := argsOf(m.Node); args != nil {
				if first := firstParam(args); first != "" {
					g.s.add(g.scopeSlot(m.Scope, first), ctx)
				}
			}
		}
	}
}

func (g *Graph) loadAttr(cid constraintID, v ValueID, name string, dst slotID) {
	val := g.Values[v]
	switch val.Kind {
	case KModule:
		if val.Module != nil {
			g.copy(g.modSlot(val.Module, name), dst)
		}
		sub := val.Name + "." + name
		if g.modByName[sub] != nil || g.table.IsPackagePrefix(sub) {
			g.s.add(dst, g.moduleValue(sub))
		} else if m := g.table.Lookup(sub, nil); m != nil {
			// A module importable only by a path below an import root,
			// through a namespace package (`import api.trainer` for
			// api/trainer.py, api/ without __init__.py: srl).
			g.s.add(dst, g.moduleValueOf(m))
		} else if val.Module == nil {
			// A namespace package of the program (a directory without
			// __init__.py) that has no such module: the analysed tree
			// holds part of an installed package (torch/distributed/
			// checkpoint/examples/ fetched alone), whose other names are
			// the installed package's.
			g.s.add(dst, g.External(sub))
		}
	case KClass, KInstance:
		s, ext, ok := g.lookupClass(val.Class, name, &watcher{c: cid, v: v})
		if !ok {
			return
		}
		if val.Kind == KInstance && ext == "" && !strings.HasPrefix(name, "__") {
			// Python asks __getattr__ for a name the instance's class
			// does not have: a wrapper that hands every such name to an
			// object it holds (`return getattr(self.accelerator, name)`)
			// gives that object's attribute. (The delegate is cached per
			// class, so classes without one pay no MRO walk here.)
			if field := g.getattrDelegate(val.Class); field != "" && field != name && !g.declaredAlong(val.Class, name) {
				held := g.s.newSlot()
				g.loadAttr(cid, v, field, held)
				g.use(held, constraint{kind: cLoadAttr, name: name, dst: dst})
			}
		}
		if ext != "" {
			if val.Kind == KClass && g.canon(ext) == autogradApply {
				// Cls.apply keeps its class: calling it runs Cls.forward.
				g.s.add(dst, g.intern(Value{Kind: KBoundExternal, Name: autogradApply, Recv: v}))
				return
			}
			g.s.add(dst, g.External(ext))
			if c := g.canon(ext); val.Kind == KInstance && (moduleContainerMethod(c) || moduleSelfMethod(c)) {
				g.s.add(dst, g.intern(Value{Kind: KBoundExternal, Name: g.canon(ext), Recv: v}))
			}
			return
		}
		mode := uint8(0)
		if val.Kind == KInstance {
			mode = 1
		}
		g.use(s, constraint{kind: cBindCopy, dst: dst, recv: v, mode: mode})
	case KSuper:
		// super() in a method of val.Class: look name up along the
		// class's MRO after it; the method's receiver (val.Recv is the
		// method's first-parameter slot) flows to the found method's.
		entries := g.mro(val.Class)
		for _, e := range entries[1:] {
			if e.cls != nil && g.declares(e.cls, name) {
				g.use(g.scopeSlot(e.cls.Scope, name), constraint{kind: cSuperBind, src: slotID(val.Recv), dst: dst})
				return
			}
			if e.ext != "" {
				g.s.add(dst, g.External(e.ext+"."+name))
				if m := g.canon(e.ext + "." + name); moduleContainerMethod(m) {
					// super().__init__(modules), super().__iter__() in a
					// subclass of ModuleList: bound to the receiver.
					g.use(slotID(val.Recv), constraint{kind: cBindExternal, name: m, dst: dst})
				}
				return
			}
		}
		g.watchClass(val.Class, watcher{c: cid, v: v})
	case KExternal, KStr, KOpaque:
		if val.Kind == KOpaque && val.Name == autogradCtxType {
			g.copy(g.elemSlot(v, "."+name), dst) // what forward stored on ctx
		}
		g.s.add(dst, g.attrValue(v, name))
	case KContainer:
		g.copy(g.elemSlot(v, "."+name), dst)
		g.s.add(dst, g.attrValue(v, name))
	}
}

// getattrDelegate returns the instance attribute that class c's
// __getattr__ (its own, or the first along its MRO) hands every unknown
// name to, `def __getattr__(self, name): return getattr(self.inner,
// name)`, after any guards that raise; "" for a class without one or
// with any other __getattr__.
func (g *Graph) getattrDelegate(c *Class) string {
	if field, ok := g.delegates[c]; ok {
		return field
	}
	field := ""
	for _, e := range g.mro(c) {
		if e.cls == nil {
			continue
		}
		if def := classMethod(e.cls.Node, "__getattr__"); def != nil {
			field = delegatedField(def)
			break
		}
	}
	if g.delegates == nil {
		g.delegates = map[*Class]string{}
	}
	g.delegates[c] = field
	return field
}

// declaredAlong reports a name that a program class along c's MRO
// declares.
func (g *Graph) declaredAlong(c *Class, name string) bool {
	for _, e := range g.mro(c) {
		if e.cls != nil && g.declares(e.cls, name) {
			return true
		}
	}
	return false
}

// classMethod returns the def of the method name in a class body, or nil.
func classMethod(cls *ast.ClassDef, name string) *ast.FunctionDef {
	if cls == nil {
		return nil
	}
	for _, st := range cls.Body {
		if d, ok := st.(*ast.FunctionDef); ok && d.Name == name {
			return d
		}
	}
	return nil
}

// delegatedField reads `return getattr(self.<field>, <name>)` as the last
// statement of a __getattr__(self, name) whose earlier statements only
// raise (`if name.startswith("_"): raise AttributeError(name)`).
func delegatedField(def *ast.FunctionDef) string {
	params := def.Args.Positional()
	if len(params) != 2 || len(def.Body) == 0 {
		return ""
	}
	self, name := params[0].Arg, params[1].Arg
	for _, st := range def.Body[:len(def.Body)-1] {
		switch st := st.(type) {
		case *ast.ExprStmt: // a docstring
			if _, ok := st.Value.(*ast.Constant); !ok {
				return ""
			}
		case *ast.If:
			if len(st.Body) != 1 || len(st.Orelse) != 0 {
				return ""
			}
			if _, ok := st.Body[0].(*ast.Raise); !ok {
				return ""
			}
		default:
			return ""
		}
	}
	ret, ok := def.Body[len(def.Body)-1].(*ast.Return)
	if !ok || ret.Value == nil {
		return ""
	}
	call, ok := ret.Value.(*ast.Call)
	if !ok || len(call.Args) != 2 || len(call.Keywords) != 0 {
		return ""
	}
	if f, ok := call.Func.(*ast.Name); !ok || f.Id != "getattr" {
		return ""
	}
	held, ok := call.Args[0].(*ast.Attribute)
	if !ok {
		return ""
	}
	if r, ok := held.Value.(*ast.Name); !ok || r.Id != self {
		return ""
	}
	if n, ok := call.Args[1].(*ast.Name); !ok || n.Id != name {
		return ""
	}
	return held.Attr
}

func builtinTypeName(kind string) string {
	switch kind {
	case "dict":
		return "<**PyDict**>"
	case "set":
		return "<**PySet**>"
	case "tuple":
		return "<**PyTuple**>"
	}
	return "<**PyList**>"
}

// bindValue adds w, loaded from a class through a receiver, to dst:
// functions become bound methods of instances (mode 1), class methods are
// bound to the class, static methods stay plain, properties yield what
// their getter returns.
func (g *Graph) bindValue(w, recv ValueID, dst slotID, mode uint8) {
	val := g.Values[w]
	if val.Kind != KFunc || recv == 0 {
		g.s.add(dst, w)
		return
	}
	f := val.Fn
	r := g.Values[recv]
	switch {
	case f.Static:
		g.s.add(dst, w)
	case f.ClassMethod:
		if r.Class == nil {
			g.s.add(dst, w)
			return
		}
		g.addSelf(f, g.classValue(r.Class))
		g.s.add(dst, g.boundValue(f))
	case f.Property && mode == 1:
		g.addSelf(f, recv)
		g.copy(f.ret, dst)
	case mode == 1:
		g.addSelf(f, recv)
		g.s.add(dst, g.boundValue(f))
	default:
		g.s.add(dst, w)
	}
}

// boundValue is f as a bound method. Bound methods do not carry their
// receiver: the receiver is added to f's first parameter when the
// method is looked up (addSelf), which keeps the value count linear in
// the number of methods.
func (g *Graph) boundValue(f *Func) ValueID { return g.intern(Value{Kind: KBound, Fn: f}) }

// addSelf passes a receiver to f's first parameter.
func (g *Graph) addSelf(f *Func, recv ValueID) {
	if f.Scope == nil || f.Static {
		return
	}
	if args := argsOf(f.Node); args != nil {
		if first := firstParam(args); first != "" {
			g.s.add(g.scopeSlot(f.Scope, first), recv)
		}
	}
}

// superBind adds function w found through super() to dst as a method
// bound to the values of the calling method's receiver slot.
func (g *Graph) superBind(w ValueID, self, dst slotID) {
	val := g.Values[w]
	if val.Kind != KFunc {
		g.s.add(dst, w)
		return
	}
	f := val.Fn
	if f.Static {
		g.s.add(dst, w)
		return
	}
	if args := argsOf(f.Node); args != nil && f.Scope != nil {
		if first := firstParam(args); first != "" {
			g.copy(self, g.scopeSlot(f.Scope, first))
		}
	}
	g.s.add(dst, g.boundValue(f))
}

func (g *Graph) declares(c *Class, name string) bool {
	if c.Scope.Bound[name] {
		return true
	}
	for _, a := range c.Scope.SelfAttrs {
		if a == name {
			return true
		}
	}
	return false
}

// lookupClass finds name along c's MRO: the slot of the first class that
// declares it, or the qualified name through the first external base.
// Names no class declares resolve to c's own slot (attributes stored from
// outside the class). w, when set, is re-run when c's MRO changes.
func (g *Graph) lookupClass(c *Class, name string, w *watcher) (slotID, string, bool) {
	if w != nil {
		g.watchClass(c, *w)
	}
	for _, e := range g.mro(c) {
		if e.cls != nil {
			if g.declares(e.cls, name) {
				return g.scopeSlot(e.cls.Scope, name), "", true
			}
			continue
		}
		return noSlot, e.ext + "." + name, true
	}
	if isDunder(name) {
		return noSlot, "", false
	}
	return g.scopeSlot(c.Scope, name), "", true
}

func isDunder(s string) bool {
	return len(s) > 4 && s[:2] == "__" && s[len(s)-2:] == "__"
}

// watchClass registers w to be re-run when c's MRO changes (once: a
// watcher already registered is not added again).
func (g *Graph) watchClass(c *Class, w watcher) {
	if c.watchSet != nil {
		if _, ok := c.watchSet[w]; ok {
			return
		}
		c.watchSet[w] = struct{}{}
		c.watch = append(c.watch, w)
		return
	}
	for _, x := range c.watch {
		if x == w {
			return
		}
	}
	c.watch = append(c.watch, w)
	// Widely used classes collect thousands of watchers (every attribute
	// load on their instances): past a few, look them up in a set, or
	// registering them is quadratic.
	if len(c.watch) >= linearWatchers {
		c.watchSet = make(map[watcher]struct{}, 2*len(c.watch))
		for _, x := range c.watch {
			c.watchSet[x] = struct{}{}
		}
	}
}

// linearWatchers is how many watchers a class keeps before it indexes
// them.
const linearWatchers = 16

// mro computes C3 linearisation from the current base values (falling
// back to depth-first order when C3 fails).
func (g *Graph) mro(c *Class) []mroEntry {
	if c.mroOK {
		return c.mro
	}
	c.mroOK = true
	c.mro = []mroEntry{{cls: c}} // guards against cycles while computing
	var seqs [][]mroEntry
	var direct []mroEntry
	for _, b := range c.bases {
		for _, v := range g.s.vals(b) {
			val := g.Values[v]
			switch val.Kind {
			case KClass:
				if val.Class == c {
					continue
				}
				direct = append(direct, mroEntry{cls: val.Class})
				seqs = append(seqs, g.mro(val.Class))
			case KExternal:
				if val.Name == "<builtin>.object" {
					continue
				}
				direct = append(direct, mroEntry{ext: val.Name})
				seqs = append(seqs, []mroEntry{{ext: val.Name}})
			}
		}
	}
	seqs = append(seqs, direct)
	out := []mroEntry{{cls: c}}
	if merged, ok := c3(seqs); ok {
		out = append(out, merged...)
	} else {
		seen := map[mroEntry]bool{{cls: c}: true}
		for _, s := range seqs {
			for _, e := range s {
				if !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
		}
	}
	c.mro = out
	return out
}

func c3(seqs [][]mroEntry) ([]mroEntry, bool) {
	var out []mroEntry
	for guard := 0; guard < 10000; guard++ {
		empty := true
		for _, s := range seqs {
			if len(s) > 0 {
				empty = false
			}
		}
		if empty {
			return out, true
		}
		var cand mroEntry
		found := false
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			h := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[min(1, len(t)):] {
					if x == h {
						inTail = true
					}
				}
			}
			if !inTail {
				cand, found = h, true
				break
			}
		}
		if !found {
			return nil, false
		}
		out = append(out, cand)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == cand {
				seqs[i] = s[1:]
			}
		}
	}
	return nil, false
}

// baseChanged invalidates c's MRO (and its subclasses') and re-runs the
// look-ups that depended on it.
func (g *Graph) baseChanged(c *Class) {
	for _, b := range c.bases {
		for _, v := range g.s.vals(b) {
			if val := g.Values[v]; val.Kind == KClass && val.Class != c {
				p := val.Class
				if p.subSet == nil {
					p.subSet = map[*Class]bool{}
				}
				if !p.subSet[c] {
					p.subSet[c] = true
					p.subs = append(p.subs, c)
				}
			}
		}
	}
	if c.mroOK {
		old := c.mro
		c.mroOK = false
		if sameMRO(old, g.mro(c)) {
			return
		}
	}
	seen := map[*Class]bool{}
	var visit func(*Class)
	var affected []*Class
	visit = func(k *Class) {
		if seen[k] {
			return
		}
		seen[k] = true
		k.mroOK = false
		affected = append(affected, k)
		for _, s := range k.subs {
			visit(s)
		}
	}
	visit(c)
	for _, k := range affected {
		for _, w := range k.watch {
			g.apply(w.c, []ValueID{w.v})
		}
	}
}

func (g *Graph) loadIndex(v ValueID, idx int, key string, dst slotID) {
	val := g.Values[v]
	switch val.Kind {
	case KContainer:
		switch {
		case idx >= 0:
			g.copy(g.elemSlot(v, "["+strconv.Itoa(idx)+"]"), dst)
			g.copy(g.elemSlot(v, "?"), dst)
		case key != "":
			g.copy(g.elemSlot(v, "{"+key+"}"), dst)
			g.copy(g.elemSlot(v, "?"), dst)
		default:
			g.copy(g.elemSlot(v, "*"), dst)
		}
	case KOpaque:
		if g.hooks != nil {
			k := key
			if idx >= 0 {
				k = strconv.Itoa(idx)
			}
			for _, r := range g.hooks.Index(g, v, k) {
				g.s.add(dst, r)
			}
		}
	}
}

func (g *Graph) storeIndex(v ValueID, idx int, key string, src slotID) {
	if g.Values[v].Kind != KContainer {
		return
	}
	switch {
	case idx >= 0:
		g.copy(src, g.elemSlot(v, "["+strconv.Itoa(idx)+"]"))
	case key != "":
		g.copy(src, g.elemSlot(v, "{"+key+"}"))
	default:
		g.copy(src, g.elemSlot(v, "?"))
	}
	g.copy(src, g.elemSlot(v, "*"))
}

// iterate makes dst ⊇ the elements of iterating v (containers, generator
// objects, instances with __iter__/__next__).
func (g *Graph) iterate(v ValueID, dst slotID, caller *Func, at ast.Node) {
	val := g.Values[v]
	switch val.Kind {
	case KContainer:
		g.copy(g.elemSlot(v, "*"), dst)
	case KGenerator:
		g.copy(val.Fn.yld, dst)
	case KInstance:
		cs := g.implicitCall(CallIter, caller, at)
		callee := g.s.newSlot()
		cs.callee = callee
		g.use(callee, constraint{kind: cCall, cs: cs})
		tmp := g.s.newSlot()
		g.s.add(tmp, v)
		g.use(tmp, constraint{kind: cLoadAttr, name: "__iter__", dst: callee})
		g.use(cs.result, constraint{kind: cIterNext, dst: dst, iter: &iterSite{caller: caller, at: at}})
	}
}

func (g *Graph) iterNext(v ValueID, dst slotID, caller *Func, at ast.Node) {
	val := g.Values[v]
	if val.Kind != KInstance {
		g.iterate(v, dst, caller, at)
		return
	}
	cs := g.implicitCall(CallIter, caller, at)
	callee := g.s.newSlot()
	cs.callee = callee
	g.use(callee, constraint{kind: cCall, cs: cs})
	tmp := g.s.newSlot()
	g.s.add(tmp, v)
	g.use(tmp, constraint{kind: cLoadAttr, name: "__next__", dst: callee})
	g.copy(cs.result, dst)
}

func (g *Graph) implicitCall(kind CallKind, caller *Func, at ast.Node) *CallSite {
	cs := &CallSite{ID: len(g.Calls), Kind: kind, At: at, Caller: caller, callee: noSlot, result: g.s.newSlot()}
	g.Calls = append(g.Calls, cs)
	if caller != nil {
		caller.Calls = append(caller.Calls, cs)
	}
	return cs
}

func (g *Graph) addTarget(cs *CallSite, t Target) {
	// Most calls have a handful of targets: a linear scan beats a map
	// per call site; megamorphic ones switch to a map.
	if cs.seen != nil {
		if cs.seen[t] {
			return
		}
		cs.seen[t] = true
	} else {
		for _, x := range cs.Targets {
			if x == t {
				return
			}
		}
		if len(cs.Targets) >= 16 {
			cs.seen = make(map[Target]bool, 32)
			for _, x := range cs.Targets {
				cs.seen[x] = true
			}
			cs.seen[t] = true
		}
	}
	cs.Targets = append(cs.Targets, t)
	if t.Fn != nil {
		t.Fn.called = true
	}
}

// sliceInto copies container v's elements into the slice container c,
// shifting constant indices down by lo.
func (g *Graph) sliceInto(v ValueID, lo int, c ValueID) {
	val := g.Values[v]
	if val.Kind != KContainer {
		return
	}
	g.copy(g.elemSlot(v, "*"), g.elemSlot(c, "*"))
	g.copy(g.elemSlot(v, "?"), g.elemSlot(c, "?"))
	n := 0
	switch x := val.Node.(type) {
	case *ast.List:
		n = len(x.Elts)
	case *ast.Tuple:
		n = len(x.Elts)
	}
	for i := lo; i < n; i++ {
		g.copy(g.elemSlot(v, "["+strconv.Itoa(i)+"]"), g.elemSlot(c, "["+strconv.Itoa(i-lo)+"]"))
	}
}

func sameMRO(a, b []mroEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// maxExternalName bounds external qualified names built from attribute
// chains (a.b.c.d…) on values the analysis cannot see into.
const maxExternalName = 96

type attrKey struct {
	v    ValueID
	name string
}

// attrValue is the value of attribute name of an external, str,
// container or opaque value, memoised (the names are built once).
func (g *Graph) attrValue(v ValueID, name string) ValueID {
	k := attrKey{v, name}
	if r, ok := g.attrMemo[k]; ok {
		return r
	}
	val := g.Values[v]
	var r ValueID
	switch val.Kind {
	case KExternal:
		if len(val.Name) > maxExternalName {
			break // attribute chains on external values stop here
		}
		r = g.External(val.Name + "." + name)
	case KStr:
		r = g.intern(Value{Kind: KExternal, Name: "<**PyStr**>." + name})
	case KContainer:
		r = g.intern(Value{Kind: KBoundExternal, Name: builtinTypeName(val.Name) + "." + name, Recv: v})
	case KOpaque:
		r = g.intern(Value{Kind: KBoundExternal, Name: val.Name + "." + name, Recv: v})
	}
	g.attrMemo[k] = r
	return r
}

// instanceOfAny reports whether value v is an instance of one of the
// types in slot types: a program class (or a subclass of it), or an
// external class, whose instances the model makes as opaque values typed
// "Name()" (a DistributedDataParallel(...) result) or "Name".
func (g *Graph) instanceOfAny(v ValueID, types slotID) bool {
	val := g.Values[v]
	for _, t := range g.s.vals(types) {
		tv := g.Values[t]
		switch tv.Kind {
		case KExternal:
			switch val.Kind {
			case KOpaque:
				if val.Name == tv.Name+"()" || val.Name == tv.Name {
					return true
				}
			case KInstance:
				for _, m := range g.mro(val.Class) {
					if m.ext != "" && g.canon(m.ext) == tv.Name {
						return true
					}
				}
			}
		case KClass:
			if val.Kind == KInstance {
				for _, m := range g.mro(val.Class) {
					if m.cls == tv.Class {
						return true
					}
				}
			}
		}
	}
	return false
}
