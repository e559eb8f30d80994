package callgraph

import (
	"strings"

	"strconv"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/resolve"
)

// Options configure Build.
type Options struct {
	// Canonical maps an external qualified name to its canonical one
	// (api.Tables.Canonical); nil: identity.
	Canonical func(string) string
	// Hooks give external calls their results; may be nil.
	Hooks Hooks
	// SelfInstances follows PyCG's convention for exported call graphs:
	// a method's first parameter also holds an instance of the class it
	// is defined in (a classmethod's, the class itself), whether or not a
	// call on such a receiver is seen. The rules do not use it: it adds
	// receivers no caller passes, and with them call edges that make
	// contexts reach code they never run.
	SelfInstances bool
	// Reexported reports whether a program module that star-imports the
	// external module should hand its names to other modules (see
	// bindExtStars); nil: every external module. Load passes the API
	// tables' libraries: re-exporting torch.distributed matters to the
	// rules, torch's own "from torch._C import *" does not, and following
	// it costs a sixth of the analysis of the torch tree.
	Reexported func(module string) bool
	// Stop, when set, is polled while the constraints are solved; once it
	// reports true the solve ends early and the Graph is incomplete (an
	// editor's newer edit has made the analysis obsolete).
	Stop func() bool
}

// Build analyses the modules (in the given order) as one program.
func Build(mods []*ModuleInput, table *resolve.Table, opts Options) *Graph {
	all := make([]*resolve.Module, len(mods))
	lines := 0
	for i, m := range mods {
		all[i] = m.Mod
		if n := len(m.AST.Body); n > 0 {
			lines += int(m.AST.Body[n-1].Span().EndLineno)
		}
	}
	b := NewBuilder(all, table, opts, lines)
	for _, m := range mods {
		b.Add(m)
	}
	return b.Finish()
}

// Builder builds a Graph one module at a time, so that a caller can
// generate a module's constraints while later modules are still being
// parsed. Modules must be added in a fixed order (Load uses path order)
// for the numbering of functions, values and slots, and so the output,
// to be deterministic.
//
// A module's constraints depend on no other module's syntax: other
// modules' globals are slots keyed by module, created on first
// reference, whether or not that module has been added yet. The one
// exception is "from X import *": which names it binds depends on X (and
// on X's own star imports), so a module that star-imports is set aside
// and built in Finish, once every module is known.
type Builder struct {
	g        *Graph
	deferred []*ModuleInput
}

// NewBuilder starts a Graph for a program whose modules are all (the
// modules of the program, parsed or not: imports of them resolve inside
// the program). lines estimates the program's size, to presize tables;
// 0 is fine.
func NewBuilder(all []*resolve.Module, table *resolve.Table, opts Options, lines int) *Builder {
	g := &Graph{
		table: table, hooks: opts.Hooks, canon: opts.Canonical, selfInstances: opts.SelfInstances, reexported: opts.Reexported, stop: opts.Stop,
		modFunc: map[*resolve.Module]*Func{}, modByName: make(map[string]*resolve.Module, len(all)),
		funcByNode: map[ast.Node]*Func{}, classByNode: map[ast.Node]*Class{},
		opaque: map[string]ValueID{}, spaces: map[*resolve.Scope]int32{},
		modSpaces: make(map[*resolve.Module]int32, len(all)),
		starNames: map[*resolve.Module]map[string]bool{}, extStars: map[*resolve.Module][]string{},
		extRoots:  map[*resolve.Module]map[string]bool{},
		importExt: map[*resolve.Module]map[string]bool{}, allNames: map[*resolve.Module][]string{},
	}
	// Presize the big maps from the program's line count: growing them
	// step by step re-hashes and clears hundreds of megabytes on large
	// programs. Ratios from the torch package (380k lines: 93k named
	// slots, 168k copy edges, 134k values). A map's tables come in
	// powers of two, so a hint just past one doubles its memory: the
	// hints are the measured ratios, not ratios with headroom. A map that
	// outgrows its hint splits only the tables that fill. (The recorded
	// expressions, 373k, and calls, 93k, are in exprs, by number.)
	g.exprs = exprTable{}
	g.valueIDs = make(map[valueKey]ValueID, lines*2/5)
	g.attrMemo = make(map[attrKey]ValueID, lines/5)
	g.constSlots = make(map[ValueID]slotID, lines/5)
	g.nodeIDs = make(map[*ast.Pos]int, lines/8)
	if g.canon == nil {
		g.canon = func(s string) string { return s }
	}
	g.s.init()
	g.s.keys = make(map[slotKey]slotID, lines/4)
	g.s.copies = make(map[uint64]struct{}, lines/2)
	g.Values = append(g.Values, &Value{}) // ValueID 0 is "none"
	for _, m := range all {
		g.modByName[m.Name] = m
	}
	return &Builder{g: g}
}

// Add declares a module's functions and classes and generates its
// constraints (or sets it aside until Finish; see Builder).
func (b *Builder) Add(m *ModuleInput) {
	g := b.g
	g.mods = append(g.mods, m)
	for _, sc := range m.Scopes.All {
		if sc.Kind == resolve.ModuleScope {
			g.spaces[sc] = g.modSpace(m.Mod)
		} else {
			g.spaces[sc] = g.newSpace()
		}
	}
	g.declare(m)
	if g.scanStars(m) {
		b.deferred = append(b.deferred, m)
		return
	}
	g.buildModule(m)
	// Solve as modules arrive: the values found so far flow into the new
	// module's constraints while the pool parses the files after it
	// (8% less wall time on the torch tree than one solve at the end).
	// An inclusion analysis reaches the same fixed point in any order;
	// only slots that hit maxVals keep a different subset of values.
	g.s.budget = g.workBudget()
	g.run()
}

// workBudget is the solver's budget for the constraints generated so
// far: about 40 value applications per constraint, never less than 4M.
func (g *Graph) workBudget() int {
	return max(4_000_000, 40*(g.s.ncons+g.s.ncopy))
}

// Finish binds star imports, builds the modules set aside for them and
// solves the constraints.
func (b *Builder) Finish() *Graph {
	g := b.g
	g.starImports()
	g.bindExtStars()
	for _, m := range b.deferred {
		g.buildModule(m)
	}
	b.deferred = nil
	g.bindUnbound()
	g.s.budget = g.workBudget()
	g.run()
	for round := 0; round < 4 && !g.stopped; round++ {
		open := g.openWorldReceivers()
		if !g.annotatedInstances() && !open {
			break
		}
		g.run()
	}
	return g
}

// Stopped reports whether Options.Stop ended the solve early: the Graph
// is then incomplete and must not be reported from.
func (g *Graph) Stopped() bool { return g.stopped }

// openWorldReceivers gives the methods of classes that the program never
// instantiates, directly or through a subclass, an instance of their
// class as receiver, and reports whether it gave any. Such classes are
// instantiated by code outside the analysed tree (a library's classes,
// built by its users' scripts or by a registry): without a receiver,
// self.method and self.attr would resolve to nothing in them, and hooks
// and threads they start (p.register_hook(self._hook)) would go unseen.
// Classes the program does instantiate get their receivers from the
// calls that are seen, and only from them.
func (g *Graph) openWorldReceivers() bool {
	if g.selfInstances {
		return false // every method already has its class's receiver
	}
	added := g.frameworkForwards()
	added = g.threadRuns() || added
	added = g.frameworkHooks() || added
	added = g.uncalledSpawners() || added
	var open []*Class
	for _, c := range g.Classes {
		if !c.openSelf && !instantiated(c, map[*Class]bool{}) {
			c.openSelf = true
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		return added
	}
	for _, f := range g.Funcs {
		if c := f.Class; c != nil && c.openSelf && !c.openDone && !f.Static {
			if f.ClassMethod {
				// Called on the class from outside too (a process
				// entry point: TensorRT-LLM's worker_main builds its
				// worker with cls(...)).
				g.addSelf(f, g.classValue(c))
			} else {
				g.addSelf(f, g.instanceValue(c))
			}
			added = true
		}
	}
	for _, c := range open {
		c.openDone = true
	}
	return g.templateReceivers(open) || added
}

// templateReceivers gives each method of a program ancestor that calls a
// method of its instance no class of its own line defines (a template
// method: `BaseTrainer.test` calling `self.forward_pass()`, which only a
// sibling mixin or a subclass defines) the instances of the open leaf
// classes below it: the subclass a configuration instantiates
// (`class DistCTCTrainer(BaseDistTrainer, CTCTrainer)`, SpeeQ) supplies
// the method through its own MRO. Methods whose calls all resolve keep
// their own class's receiver alone. It reports whether it added any.
func (g *Graph) templateReceivers(open []*Class) bool {
	added := false
	var methods map[*Class][]*Func
	for _, c := range open {
		if len(c.subs) > 0 {
			continue
		}
		mro := g.mro(c)
		if len(mro) < 2 {
			continue
		}
		if methods == nil {
			methods = map[*Class][]*Func{}
			for _, f := range g.Funcs {
				if f.Class != nil && !f.Static && !f.ClassMethod {
					methods[f.Class] = append(methods[f.Class], f)
				}
			}
		}
		for _, e := range mro[1:] {
			if e.cls == nil {
				continue
			}
			for _, f := range methods[e.cls] {
				if g.callsUndeclared(f, e.cls, methods) {
					g.addSelf(f, g.instanceValue(c))
					added = true
				}
			}
		}
	}
	return added
}

// callsUndeclared reports whether method f of class c calls a method of
// its receiver (`self.name(…)`) that neither c nor any class of its MRO
// declares, or declares only as an abstract stub (`@abstractmethod`, a
// body of pass, ... or raise NotImplementedError), with no external base
// that might. Memoized per method.
func (g *Graph) callsUndeclared(f *Func, c *Class, methods map[*Class][]*Func) bool {
	if v, ok := g.undeclaredCalls[f]; ok {
		return v
	}
	if g.undeclaredCalls == nil {
		g.undeclaredCalls = map[*Func]bool{}
	}
	g.undeclaredCalls[f] = false
	args := argsOf(f.Node)
	if args == nil {
		return false
	}
	self := firstParam(args)
	if self == "" {
		return false
	}
	var mro []mroEntry
	for _, e := range g.mro(c) {
		if e.cls == nil {
			if !bareBases[e.ext] {
				return false // an external base may define it
			}
			continue
		}
		mro = append(mro, e)
	}
	found := false
	for _, st := range ast.DefBody(f.Node) {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Call:
				a, ok := n.Func.(*ast.Attribute)
				if !ok {
					return true
				}
				if r, ok := a.Value.(*ast.Name); !ok || r.Id != self || isDunder(a.Attr) {
					return true
				}
				declared := false
				for _, e := range mro {
					if g.declares(e.cls, a.Attr) {
						declared = !abstractIn(methods[e.cls], a.Attr)
						break
					}
				}
				found = !declared
			}
			return true
		})
		if found {
			break
		}
	}
	g.undeclaredCalls[f] = found
	return found
}

// bareBases are external bases that define no methods a subclass would
// call on itself.
var bareBases = map[string]bool{
	"abc.ABC": true, "<builtin>.object": true, "object": true, "typing.Generic": true, "typing.Protocol": true,
}

// Abstract reports a method declared only to be overridden (an abstract
// stub: abstractStub).
func (f *Func) Abstract() bool {
	d, ok := f.Node.(*ast.FunctionDef)
	return ok && f.Class != nil && abstractStub(d)
}

// abstractIn reports whether the method called name among a class's
// methods is an abstract stub.
func abstractIn(methods []*Func, name string) bool {
	for _, m := range methods {
		if d, ok := m.Node.(*ast.FunctionDef); ok && d.Name == name {
			return abstractStub(d)
		}
	}
	return false
}

// abstractStub reports a method declared only to be overridden:
// decorated @abstractmethod, or whose body (past a docstring) is pass,
// ... or raise NotImplementedError.
func abstractStub(d *ast.FunctionDef) bool {
	for _, dec := range d.DecoratorList {
		if lastName(dec) == "abstractmethod" {
			return true
		}
	}
	body := d.Body
	if len(body) > 0 {
		if e, ok := body[0].(*ast.ExprStmt); ok {
			if k, ok := e.Value.(*ast.Constant); ok && k.Type == ast.ConstStr {
				body = body[1:]
			}
		}
	}
	if len(body) != 1 {
		return false
	}
	switch s := body[0].(type) {
	case *ast.Pass:
		return true
	case *ast.ExprStmt:
		k, ok := s.Value.(*ast.Constant)
		return ok && k.Type == ast.ConstEllipsis
	case *ast.Raise:
		x := s.Exc
		if c, ok := x.(*ast.Call); ok {
			x = c.Func
		}
		return lastName(x) == "NotImplementedError"
	}
	return false
}

// lastName is the last name of a name or attribute (`abstractmethod` of
// abc.abstractmethod), or "".
func lastName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Name:
		return x.Id
	case *ast.Attribute:
		return x.Attr
	}
	return ""
}

// annotatedInstances gives each parameter annotated with a program class
// whose slot holds nothing an instance of that class, and reports whether
// it gave any. Its function is called from outside the analysed code (a
// monkey patch installed on a class, `def patched(self: "Engine", …)`,
// Engine.update = patched; a callback a library calls), or only by
// callers that pass what the analysis has no value for (an untyped
// attribute filled outside the program: MagiAttention's manager hands its
// runtime to `dist_attn_func(…, runtime: DistAttnRuntime)`). A parameter
// its calls fill keeps only what they pass.
func (g *Graph) annotatedInstances() bool {
	added := false
	for i := range g.annotated {
		a := &g.annotated[i]
		if a.done {
			continue
		}
		slot := g.scopeSlot(a.fn.Scope, a.param)
		if len(g.s.vals(slot)) > 0 {
			continue
		}
		a.done = true
		for _, v := range g.s.vals(a.class) {
			if val := g.Values[v]; val.Kind == KClass && val.Class != nil {
				g.s.add(slot, g.instanceValue(val.Class))
				added = true
			}
		}
	}
	return added
}

// frameworkForwards gives the forward of a torch.nn.Module subclass that
// the program instantiates but never calls the instances as receiver,
// and reports whether it gave any: a wrapper outside the program calls
// it (DistributedDataParallel(model)(x), FSDP, DeepSpeed's engine, a
// Lightning trainer), and self.layers in it are the instance's.
func (g *Graph) frameworkForwards() bool {
	added := false
	for _, c := range g.Classes {
		if c.instance == 0 || c.forwardSelf || !g.hasBase(c, isTorchModule) {
			continue
		}
		c.forwardSelf = true
		added = g.selfForUncalled(c, "forward") || added
	}
	return added
}

// frameworkHooks gives the methods of an instantiated subclass of a
// framework class that calls them by name (a LightningModule's
// training_step and on_* hooks, which the Lightning trainer calls; a
// transformers Trainer subclass's compute_loss or a TrainerCallback's
// on_save) its instances as receiver when no call site of the program
// reaches them, and reports whether it gave any: the framework outside
// the program calls them on the instance the program made, so self.log
// and self.model in them are that instance's. Methods of the class's
// program bases are given the same receiver.
func (g *Graph) frameworkHooks() bool {
	added := false
	for _, c := range g.Classes {
		if c.instance == 0 || c.hooksSelf || !g.hasBase(c, isHookFramework) {
			continue
		}
		c.hooksSelf = true
		classes := map[*Class]bool{}
		for _, e := range g.mro(c) {
			if e.cls != nil {
				classes[e.cls] = true
			}
		}
		for _, f := range g.Funcs {
			if f.Class == nil || !classes[f.Class] || f.called || f.Static || f.ClassMethod || f.Property {
				continue
			}
			name := f.Name[strings.LastIndexByte(f.Name, '.')+1:]
			if strings.HasPrefix(name, "__") {
				continue // dunders: construction and operators, called as such
			}
			g.addSelf(f, c.instance)
			added = true
		}
	}
	return added
}

// isHookFramework reports an external base class whose framework calls
// its subclasses' methods by name.
func isHookFramework(ext string) bool {
	for _, p := range []string{"lightning.", "pytorch_lightning.", "lightning_fabric."} {
		if strings.HasPrefix(ext, p) {
			return true
		}
	}
	switch ext {
	case "transformers.Trainer", "transformers.trainer.Trainer", "transformers.TrainerCallback",
		"transformers.trainer_callback.TrainerCallback", "transformers.Seq2SeqTrainer",
		"transformers.trainer_seq2seq.Seq2SeqTrainer":
		return true
	}
	return strings.HasPrefix(ext, "trl.")
}

// threadRuns gives the run method of a threading.Thread subclass that the
// program instantiates its instances as receiver, and reports whether it
// gave any: Thread.start() calls it on the new thread, outside the
// program (FedML's MPIReceiveThread keeps its communicator in self.comm).
func (g *Graph) threadRuns() bool {
	added := false
	for _, c := range g.Classes {
		if c.instance == 0 || c.runSelf || !g.hasBase(c, isThread) {
			continue
		}
		c.runSelf = true
		added = g.selfForUncalled(c, "run") || added
	}
	return added
}

// selfForUncalled gives the program's definitions of method name of an
// instantiated class c that no call site reaches c's instances as
// receiver, and reports whether it gave any.
func (g *Graph) selfForUncalled(c *Class, name string) bool {
	fns, ext := g.Lookup(c, name)
	if ext != "" {
		return false
	}
	added := false
	for _, f := range fns {
		if f.Class != nil && !f.called && !f.Static && !f.ClassMethod {
			g.addSelf(f, c.instance)
			added = true
		}
	}
	return added
}

// uncalledSpawners gives the methods of instantiated classes that no call
// site reaches, and that hand work to another thread (`self.pool.submit(
// self.gather_async, t)`, `threading.Thread(target=self._loop)`, a
// registered hook), an instance of their class as receiver, and reports
// whether it gave any. Such a method is called from outside the analysed
// tree (a library's public API); without a receiver the function it
// hands over resolves to nothing, and the thread it starts goes unseen.
func (g *Graph) uncalledSpawners() bool {
	added := false
	for _, f := range g.Funcs {
		c := f.Class
		if c == nil || c.instance == 0 || f.called || f.spawnerSeen || f.Static || f.ClassMethod || f.Property {
			continue
		}
		f.spawnerSeen = true // its syntax answers once
		if name := f.Name[strings.LastIndexByte(f.Name, '.')+1:]; strings.HasPrefix(name, "__") || !handsToThread(f.Node) {
			continue
		}
		g.addSelf(f, c.instance)
		added = true
	}
	return added
}

// threadHandOffs are the method names that run a callable given to them
// on another thread: executors, threads and timers, autograd hooks.
var threadHandOffs = map[string]bool{"submit": true, "Thread": true, "Timer": true, "start_new_thread": true,
	"apply_async": true, "register_hook": true, "register_post_accumulate_grad_hook": true,
	"register_full_backward_hook": true, "register_backward_hook": true, "register_multi_grad_hook": true,
	"queue_callback": true}

// handsToThread reports whether a def's own statements call one of
// threadHandOffs with a method of self among its arguments.
func handsToThread(def ast.Node) bool {
	found := false
	ast.Inspect(def, func(n ast.Node) bool {
		if found {
			return false
		}
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		if !threadHandOffs[ast.CalleeName(c)] {
			return true
		}
		for _, a := range c.Args {
			found = found || selfMethod(a)
		}
		for _, k := range c.Keywords {
			found = found || selfMethod(k.Value)
		}
		return true
	})
	return found
}

// selfMethod reports self.name.
func selfMethod(e ast.Expr) bool {
	a, ok := e.(*ast.Attribute)
	if !ok {
		return false
	}
	n, ok := a.Value.(*ast.Name)
	return ok && n.Id == "self"
}

// isThread tests an external base's canonical name, as isTorchModule
// does.
func isThread(ext string) bool { return ext == "threading.Thread" }

// hasBase reports whether an external class among c's bases (canonical
// name) satisfies is.
func (g *Graph) hasBase(c *Class, is func(ext string) bool) bool {
	for _, e := range g.mro(c) {
		if e.ext != "" && is(g.canon(e.ext)) {
			return true
		}
	}
	return false
}

// instantiated reports whether c or one of its subclasses has instances.
func instantiated(c *Class, seen map[*Class]bool) bool {
	if c.instance != 0 {
		return true
	}
	seen[c] = true
	for _, s := range c.subs {
		if !seen[s] && instantiated(s, seen) {
			return true
		}
	}
	return false
}

func (g *Graph) buildModule(m *ModuleInput) {
	b := &builder{g: g, mod: m.Mod, scopes: m.Scopes, modAST: m.AST}
	b.stmts(unit{fn: g.modFunc[m.Mod], scope: m.Scopes.Module}, m.AST.Body)
}

// newSpace allocates the slot namespace of one scope.
func (g *Graph) newSpace() int32 {
	g.scopeSlots = append(g.scopeSlots, nil)
	return int32(len(g.scopeSlots) - 1)
}

// modSpace is the namespace of a module's globals, allocated on first
// reference (possibly before the module itself is added).
func (g *Graph) modSpace(m *resolve.Module) int32 {
	if sp, ok := g.modSpaces[m]; ok {
		return sp
	}
	sp := g.newSpace()
	g.modSpaces[m] = sp
	return sp
}

// modSlot is the slot of a module's global name.
func (g *Graph) modSlot(m *resolve.Module, name string) slotID {
	sp := g.modSpace(m)
	if g.extStarsBound {
		if _, ok := g.scopeSlots[sp][name]; !ok {
			id := g.spaceSlot(sp, name)
			g.bindExtStar(m, name, id)
			return id
		}
	}
	return g.spaceSlot(sp, name)
}

// bindExtStars gives the names other modules read from a module that
// star-imports an external one ("from torch.distributed import *" in a
// project's distributed.py, used as dist.all_reduce elsewhere) the
// external symbol, when the module does not bind them itself. Names read
// later (by attribute loads while solving) get it in modSlot.
func (g *Graph) bindExtStars() {
	for _, m := range g.mods {
		if len(g.extStars[m.Mod]) == 0 {
			continue
		}
		slots := g.scopeSlots[g.modSpace(m.Mod)]
		names := make([]string, 0, len(slots))
		for name := range slots {
			names = append(names, name)
		}
		sortStrings(names)
		for _, name := range names {
			g.bindExtStar(m.Mod, name, slots[name])
		}
	}
	g.extStarsBound = true
}

func (g *Graph) bindExtStar(m *resolve.Module, name string, slot slotID) {
	ext := g.extStars[m]
	if len(ext) == 0 || g.starNames[m][name] || g.reexported != nil && !g.reexported(ext[0]) {
		return
	}
	if f := g.modFunc[m]; f != nil && f.Scope.Bound[name] {
		return
	}
	g.s.add(slot, g.External(ext[0]+"."+name))
}

// scopeSlot is the slot of a name in a scope. Each scope has its own
// small map: lookups stay within one scope's names, which is faster than
// one program-wide map of (scope, name) keys.
func (g *Graph) scopeSlot(sc *resolve.Scope, name string) slotID {
	sp, ok := g.spaces[sc]
	if !ok {
		return g.s.slotFor(slotKey{space: 0, name: name}) // a scope from outside the program (never expected)
	}
	return g.spaceSlot(sp, name)
}

// spaceSlot is the slot of a name in the namespace sp.
func (g *Graph) spaceSlot(sp int32, name string) slotID {
	m := g.scopeSlots[sp]
	if id, ok := m[name]; ok {
		return id
	}
	if m == nil {
		m = make(map[string]slotID, 4)
		g.scopeSlots[sp] = m
	}
	id := g.s.newSlot()
	m[name] = id
	return id
}

// lookupScopeSlot is scopeSlot without creating the slot.
func (g *Graph) lookupScopeSlot(sc *resolve.Scope, name string) (slotID, bool) {
	sp, ok := g.spaces[sc]
	if !ok {
		return g.s.lookupSlot(slotKey{space: 0, name: name})
	}
	id, ok := g.scopeSlots[sp][name]
	return id, ok
}

func (g *Graph) constSlot(v ValueID) slotID {
	if s, ok := g.constSlots[v]; ok {
		return s
	}
	s := g.s.newSlot()
	g.s.add(s, v)
	g.constSlots[v] = s
	return s
}

// declare creates the Funcs and Classes of a module's scopes.
func (g *Graph) declare(m *ModuleInput) {
	funcOf := map[*resolve.Scope]*Func{}
	classOf := map[*resolve.Scope]*Class{}
	for _, sc := range m.Scopes.All {
		switch sc.Kind {
		case resolve.ModuleScope:
			f := g.newFunc(sc.Name, m.AST, sc, m.Mod, nil)
			g.modFunc[m.Mod] = f
			funcOf[sc] = f
		case resolve.FunctionScope, resolve.LambdaScope:
			parent := enclosingFunc(sc.Parent, funcOf)
			f := g.newFunc(sc.Name, sc.Node, sc, m.Mod, parent)
			f.Generator = sc.Generator
			f.identity = returnsFirstParam(sc)
			if sc.Parent != nil && sc.Parent.Kind == resolve.ClassScope {
				f.Class = classOf[sc.Parent]
			}
			f.decorations()
			funcOf[sc] = f
		case resolve.ClassScope:
			cd, _ := sc.Node.(*ast.ClassDef)
			c := &Class{ID: len(g.Classes), Name: sc.Name, Node: cd, Scope: sc, Module: m.Mod, Func: enclosingFunc(sc.Parent, funcOf)}
			g.Classes = append(g.Classes, c)
			g.classByNode[cd] = c
			classOf[sc] = c
		}
	}
}

func enclosingFunc(sc *resolve.Scope, funcOf map[*resolve.Scope]*Func) *Func {
	for ; sc != nil; sc = sc.Parent {
		if f, ok := funcOf[sc]; ok {
			return f
		}
	}
	return nil
}

func (g *Graph) newFunc(name string, n ast.Node, sc *resolve.Scope, m *resolve.Module, parent *Func) *Func {
	f := &Func{ID: len(g.Funcs), Name: name, Node: n, Scope: sc, Module: m, Parent: parent}
	f.ret = g.s.newSlot()
	f.yld = g.s.newSlot()
	g.Funcs = append(g.Funcs, f)
	g.funcByNode[n] = f
	return f
}

// decorations reads the decorators that change how a method binds.
func (f *Func) decorations() {
	var decos []ast.Expr
	switch n := f.Node.(type) {
	case *ast.FunctionDef:
		decos = n.DecoratorList
	case *ast.AsyncFunctionDef:
		decos = n.DecoratorList
	}
	f.Decorated = len(decos) > 0
	for _, d := range decos {
		switch bindingDecorator(d) {
		case "staticmethod":
			f.Static = true
		case "classmethod":
			f.ClassMethod = true
		case "property":
			f.Property = true
		}
	}
}

// bindingDecorator recognises staticmethod, classmethod and property
// (including x.setter and functools.cached_property) by their spelling.
func bindingDecorator(d ast.Expr) string {
	switch d := d.(type) {
	case *ast.Name:
		switch d.Id {
		case "staticmethod", "classmethod", "property", "cached_property", "abstractproperty":
			if d.Id == "staticmethod" || d.Id == "classmethod" {
				return d.Id
			}
			return "property"
		}
	case *ast.Attribute:
		switch d.Attr {
		case "setter", "getter", "deleter", "cached_property", "abstractproperty":
			return "property"
		case "staticmethod", "classmethod", "abstractstaticmethod", "abstractclassmethod":
			if d.Attr == "abstractclassmethod" {
				return "classmethod"
			}
			if d.Attr == "abstractstaticmethod" {
				return "staticmethod"
			}
			return d.Attr
		}
	}
	return ""
}

// starImport is one "from X import *" of the program.
type starImport struct {
	into *resolve.Module
	from *resolve.Module
}

// scanStars records a module's __all__ and its star imports, and reports
// whether it has any (its names then depend on other modules).
func (g *Graph) scanStars(m *ModuleInput) bool {
	for _, st := range m.AST.Body {
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 {
			if n, ok := a.Targets[0].(*ast.Name); ok && n.Id == "__all__" {
				g.allNames[m.Mod] = append(g.allNames[m.Mod], ast.ConstStrings(a.Value)...)
			}
		}
		if a, ok := st.(*ast.AugAssign); ok {
			if n, ok := a.Target.(*ast.Name); ok && n.Id == "__all__" {
				g.allNames[m.Mod] = append(g.allNames[m.Mod], ast.ConstStrings(a.Value)...)
			}
		}
	}
	found := false
	ast.InspectStmts(m.AST.Body, func(n ast.Stmt) bool {
		imp, ok := n.(*ast.ImportFrom)
		if !ok {
			return true
		}
		if len(imp.Names) != 1 || imp.Names[0].Name != "*" {
			return false
		}
		found = true
		abs, ok := resolve.Absolute(m.Mod, imp.Level, imp.Module)
		if !ok {
			return false
		}
		if x := g.table.Lookup(abs, m.Mod); x != nil && x != m.Mod {
			g.stars = append(g.stars, starImport{into: m.Mod, from: x})
		} else if x == nil {
			g.extStars[m.Mod] = append(g.extStars[m.Mod], g.canon(abs))
		}
		return false
	})
	if len(g.extStars[m.Mod]) > 0 {
		g.scanExtRoots(m)
	}
	return found
}

// scanExtRoots records the top-level packages outside the program that a
// module with a star import from outside it imports parts of itself
// (`import torch.distributed as dist`, `from torch.optim import AdamW`).
// Such a module often gets the package's own name from the star import
// (LucaOne's trainer reads `torch.nn.parallel` with `torch` bound only by
// `from common.multi_task_loss import *`); the name then means that
// package, not a name of the star-imported module.
func (g *Graph) scanExtRoots(m *ModuleInput) {
	add := func(dotted string) {
		root, _, _ := strings.Cut(dotted, ".")
		if root == "" || g.table.Lookup(root, m.Mod) != nil || g.table.IsPackagePrefix(root) {
			return
		}
		if g.extRoots[m.Mod] == nil {
			g.extRoots[m.Mod] = map[string]bool{}
		}
		g.extRoots[m.Mod][root] = true
	}
	ast.InspectStmts(m.AST.Body, func(n ast.Stmt) bool {
		switch n := n.(type) {
		case *ast.Import:
			for _, a := range n.Names {
				add(a.Name)
			}
		case *ast.ImportFrom:
			if n.Level == 0 && n.Module != "" {
				add(n.Module)
			}
		}
		return true
	})
}

// starImports binds the names "from X import *" brings into each module.
func (g *Graph) starImports() {
	exported := func(x *resolve.Module) []string {
		if names, ok := g.allNames[x]; ok {
			return names
		}
		var out []string
		var bound map[string]bool
		if f := g.modFunc[x]; f != nil { // nil: a module that did not parse
			bound = f.Scope.Bound
		}
		for name := range bound {
			if name != "" && name[0] != '_' {
				out = append(out, name)
			}
		}
		for name := range g.starNames[x] {
			if name[0] != '_' && !bound[name] {
				out = append(out, name)
			}
		}
		sortStrings(out)
		return out
	}
	// Chains of star imports: iterate until no module gains a name.
	for round := 0; round < 8; round++ {
		changed := false
		for _, s := range g.stars {
			set := g.starNames[s.into]
			if set == nil {
				set = map[string]bool{}
				g.starNames[s.into] = set
			}
			for _, name := range exported(s.from) {
				if !set[name] {
					set[name] = true
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, s := range g.stars {
		for _, name := range exported(s.from) {
			g.copy(g.modSlot(s.from, name), g.modSlot(s.into, name))
			if sub := g.table.Lookup(s.from.Name+"."+name, s.from); sub != nil {
				g.s.add(g.modSlot(s.into, name), g.moduleValue(sub.Name))
			}
		}
	}
}

// unit is where code being generated runs: the function its calls belong
// to, and the scope its names resolve in (a class or comprehension scope
// inside that function, or the function's own).
type unit struct {
	fn    *Func
	scope *resolve.Scope
}

type builder struct {
	g      *Graph
	mod    *resolve.Module
	scopes *resolve.Scopes
	// testing > 0 while the condition of an if or while is built: the
	// receivers of its attribute reads keep their slots (ExprValues), so
	// that the model can tell whose attribute a condition reads.
	testing int
	// locals: the slots of the assignments and reads of the local
	// variables that splitLocals splits (locals.go).
	locals map[*ast.Name]slotID
	// modAST and trueFlags: the module's tree, and the argparse options
	// it always finds true (alwaysTrueOptions, computed on first use).
	modAST    *ast.Module
	trueFlags map[string]bool
}

// flags returns the module's always-true argparse options.
func (b *builder) flags() map[string]bool {
	if b.trueFlags == nil {
		b.trueFlags = alwaysTrueOptions(b.modAST)
	}
	return b.trueFlags
}

func (b *builder) stmts(u unit, list []ast.Stmt) {
	for _, s := range list {
		b.stmt(u, s)
		if terminates(s) {
			// What follows a return, raise, break, continue or
			// `assert False` in the same block never runs: its calls
			// are no edges (nnscaler's hook path after `assert False`;
			// python -O would strip the assert, which training jobs do
			// not run with).
			return
		}
	}
}

// terminates reports a statement after which the rest of its block is
// dead.
func terminates(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.Return, *ast.Raise, *ast.Break, *ast.Continue:
		return true
	case *ast.Assert:
		k, ok := s.Test.(*ast.Constant)
		return ok && (k.Type == ast.ConstBool && !k.Bool || k.Type == ast.ConstInt && k.Big == nil && k.Int == 0 || k.Type == ast.ConstNone)
	}
	return false
}

func (b *builder) stmt(u unit, st ast.Stmt) {
	g := b.g
	switch n := st.(type) {
	case *ast.FunctionDef:
		b.funcDef(u, n, n.Name, n.Args, n.Body, n.DecoratorList)
	case *ast.AsyncFunctionDef:
		b.funcDef(u, n, n.Name, n.Args, n.Body, n.DecoratorList)
	case *ast.ClassDef:
		b.classDef(u, n)
	case *ast.Return:
		if n.Value != nil {
			g.copy(b.expr(u, n.Value), u.fn.ret)
		}
	case *ast.Assign:
		b.assignStmt(u, n.Targets, n.Value)
	case *ast.AnnAssign:
		if n.Value != nil {
			b.assignStmt(u, []ast.Expr{n.Target}, n.Value)
			b.factoryInstance(u, n)
		}
	case *ast.AugAssign:
		v := b.expr(u, n.Value)
		b.assign(u, n.Target, v)
	case *ast.For:
		b.forLoop(u, n.Target, n.Iter, n.Body, n.Orelse)
	case *ast.AsyncFor:
		b.forLoop(u, n.Target, n.Iter, n.Body, n.Orelse)
	case *ast.While:
		b.testing++
		b.expr(u, n.Test)
		b.testing--
		b.stmts(u, n.Body)
		b.stmts(u, n.Orelse)
	case *ast.If:
		b.testing++
		b.expr(u, n.Test)
		b.predicateOperands(u, n.Test)
		b.testing--
		dead := deadArm(n.Test, b.flags())
		if dead != deadThen {
			b.stmts(u, n.Body)
		}
		if dead != deadElse {
			b.stmts(u, n.Orelse)
		}
	case *ast.With:
		b.with(u, n.Items, n.Body)
	case *ast.AsyncWith:
		b.with(u, n.Items, n.Body)
	case *ast.Match:
		b.expr(u, n.Subject)
		for _, c := range n.Cases {
			if c.Guard != nil {
				b.expr(u, c.Guard)
			}
			b.stmts(u, c.Body)
		}
	case *ast.Raise:
		if n.Exc != nil {
			if _, isCall := n.Exc.(*ast.Call); isCall {
				b.expr(u, n.Exc)
			} else {
				s := b.expr(u, n.Exc)
				cs := g.implicitCall(CallRaise, u.fn, n.Exc)
				cs.callee = s
				g.use(s, constraint{kind: cCall, cs: cs})
			}
		}
		if n.Cause != nil {
			b.expr(u, n.Cause)
		}
	case *ast.Try:
		b.try(u, n.Body, n.Handlers, n.Orelse, n.Finalbody)
	case *ast.TryStar:
		b.try(u, n.Body, n.Handlers, n.Orelse, n.Finalbody)
	case *ast.Assert:
		b.expr(u, n.Test)
		if n.Msg != nil {
			b.expr(u, n.Msg)
		}
	case *ast.Import:
		b.importStmt(u, n)
	case *ast.ImportFrom:
		b.importFrom(u, n)
	case *ast.ExprStmt:
		b.expr(u, n.Value)
	case *ast.Delete:
		for _, t := range n.Targets {
			if a, ok := t.(*ast.Attribute); ok {
				b.expr(u, a.Value)
			}
		}
	}
}

func (b *builder) try(u unit, body []ast.Stmt, handlers []*ast.ExceptHandler, orelse, final []ast.Stmt) {
	b.stmts(u, body)
	for _, h := range handlers {
		if h.Type != nil {
			b.expr(u, h.Type)
		}
		b.stmts(u, h.Body)
	}
	b.stmts(u, orelse)
	b.stmts(u, final)
}

func (b *builder) with(u unit, items []*ast.WithItem, body []ast.Stmt) {
	managers := make([]slotID, len(items))
	for i, it := range items {
		s := b.expr(u, it.ContextExpr)
		b.g.setExprSlot(it.ContextExpr, s)
		managers[i] = s
		// A program class's context manager runs its __enter__ here (a
		// thread it starts runs from this point on) and binds what it
		// returns; other managers bind themselves, as before.
		enter := b.withCall(u, s, "__enter__", it.ContextExpr)
		if it.OptionalVars != nil {
			b.assign(u, it.OptionalVars, s)
			b.assign(u, it.OptionalVars, enter)
		}
	}
	b.stmts(u, body)
	for i := len(items) - 1; i >= 0; i-- {
		b.withCall(u, managers[i], "__exit__", items[i].ContextExpr)
	}
}

// withCall calls method name of the instances of program classes in
// slot s (a with statement's manager) and returns the result's slot.
func (b *builder) withCall(u unit, s slotID, name string, at ast.Node) slotID {
	g := b.g
	callee := g.s.newSlot()
	g.use(s, constraint{kind: cLoadDunder, name: name, dst: callee})
	cs := g.implicitCall(CallWith, u.fn, at)
	cs.callee = callee
	g.use(callee, constraint{kind: cCall, cs: cs})
	return cs.result
}

func (b *builder) forLoop(u unit, target, iter ast.Expr, body, orelse []ast.Stmt) {
	g := b.g
	s := b.expr(u, iter)
	if _, name := iter.(*ast.Name); name || isAttr(iter) {
		g.setExprSlot(iter, s) // what the loop iterates (a class's own __iter__: model.IterGenerators)
	}
	t := g.s.newSlot()
	g.use(s, constraint{kind: cIter, dst: t, iter: &iterSite{caller: u.fn, at: iter}})
	b.assign(u, target, t)
	b.stmts(u, body)
	b.stmts(u, orelse)
}

func (b *builder) funcDef(u unit, n ast.Node, name string, args *ast.Arguments, body []ast.Stmt, decos []ast.Expr) {
	g := b.g
	f := g.funcByNode[n]
	if f == nil {
		return
	}
	b.defaults(u, f, args)
	b.annotatedParams(u, f, args)
	if g.selfInstances && f.Class != nil && !f.Static {
		if f.ClassMethod {
			g.addSelf(f, g.classValue(f.Class))
		} else {
			g.addSelf(f, g.instanceValue(f.Class))
		}
	}
	cur := g.constSlot(g.funcValue(f))
	cur = b.decorate(u, decos, cur, g.funcValue(f))
	g.copy(cur, b.bindSlot(u, name))
	b.splitLocals(f, body)
	b.stmts(unit{fn: f, scope: f.Scope}, body)
}

// decorate applies decorators bottom-up; a decorator the analysis cannot
// see into (external, unresolved) is assumed to return a wrapper that
// calls the function, so the name keeps the function.
func (b *builder) decorate(u unit, decos []ast.Expr, cur slotID, self ValueID) slotID {
	g := b.g
	slots := make([]slotID, len(decos))
	for i, d := range decos {
		slots[i] = b.expr(u, d)
	}
	for i := len(decos) - 1; i >= 0; i-- {
		if bindingDecorator(decos[i]) != "" {
			continue
		}
		cs := g.implicitCall(CallDecorator, u.fn, decos[i])
		cs.callee = slots[i]
		cs.args = []slotID{cur}
		g.use(slots[i], constraint{kind: cCall, cs: cs})
		if b.opaqueDecorator(u, decos[i]) {
			// What an external decorator returns is not followed: the
			// name keeps the definition.
			cur = g.s.newSlot()
			g.s.add(cur, self)
			continue
		}
		cur = cs.result
	}
	return cur
}

// opaqueDecorator reports whether d's root name is bound by an import of
// a module outside the program, is a builtin, or is not bound at all.
func (b *builder) opaqueDecorator(u unit, d ast.Expr) bool {
	for {
		switch x := d.(type) {
		case *ast.Call:
			d = x.Func
			continue
		case *ast.Attribute:
			d = x.Value
			continue
		case *ast.Name:
			def := u.scope.Lookup(x.Id)
			if def.Kind != resolve.ModuleScope {
				return false
			}
			if b.g.importExt[b.mod][x.Id] {
				return true
			}
			return !def.Bound[x.Id] && !b.g.starNames[b.mod][x.Id]
		}
		return true
	}
}

func (b *builder) defaults(u unit, f *Func, args *ast.Arguments) {
	if args == nil {
		return
	}
	g := b.g
	pos := args.Positional()
	off := len(pos) - len(args.Defaults)
	for i, d := range args.Defaults {
		s := b.expr(u, d)
		if j := off + i; j >= 0 && j < len(pos) {
			g.copy(s, g.scopeSlot(f.Scope, pos[j].Arg))
		}
	}
	for i, d := range args.KwDefaults {
		if d != nil && i < len(args.KwOnlyArgs) {
			g.copy(b.expr(u, d), g.scopeSlot(f.Scope, args.KwOnlyArgs[i].Arg))
		}
	}
}

// annotatedParams records the parameters of f annotated with a name
// (`eng: Engine`, `self: "Engine"`, `Optional[Engine]`, `Engine | None`)
// and the slot that name reads in the enclosing scope, for
// annotatedInstances. A method's receiver is left to openWorldReceivers.
func (b *builder) annotatedParams(u unit, f *Func, args *ast.Arguments) {
	if args == nil || b.g.selfInstances {
		return
	}
	params := append(args.Positional(), args.KwOnlyArgs...)
	for i, p := range params {
		if p.Annotation == nil || i == 0 && f.Class != nil && !f.Static {
			continue
		}
		name := annotationName(p.Annotation)
		if name == "" {
			continue
		}
		if s := b.nameSlot(u, name); s >= 0 {
			b.g.annotated = append(b.g.annotated, annotatedParam{fn: f, param: p.Arg, class: s})
		}
	}
}

// annotationName is the class name an annotation names, or "".
func annotationName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Name:
		return x.Id
	case *ast.Constant:
		if x.Type != ast.ConstStr {
			return ""
		}
		inner := strings.TrimSpace(x.Str)
		if before, after, ok := strings.Cut(inner, "|"); ok {
			switch {
			case strings.TrimSpace(after) == "None":
				inner = strings.TrimSpace(before)
			case strings.TrimSpace(before) == "None":
				inner = strings.TrimSpace(after)
			default:
				return ""
			}
		}
		if !isIdentifier(inner) {
			return ""
		}
		return inner
	case *ast.Subscript:
		if n, ok := x.Value.(*ast.Name); ok && n.Id == "Optional" {
			return annotationName(x.Slice)
		}
		if a, ok := x.Value.(*ast.Attribute); ok && a.Attr == "Optional" {
			return annotationName(x.Slice)
		}
	case *ast.BinOp:
		if x.Op != ast.BitOr {
			return ""
		}
		if k, ok := x.Right.(*ast.Constant); ok && k.Type == ast.ConstNone {
			return annotationName(x.Left)
		}
		if k, ok := x.Left.(*ast.Constant); ok && k.Type == ast.ConstNone {
			return annotationName(x.Right)
		}
	}
	return ""
}

// isIdentifier reports whether s is an ASCII Python identifier.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

func (b *builder) classDef(u unit, n *ast.ClassDef) {
	g := b.g
	c := g.classByNode[n]
	if c == nil {
		return
	}
	for _, base := range n.Bases {
		if call, ok := base.(*ast.Call); ok && len(call.Args) > 1 && isWithMetaclass(call.Func) {
			// class C(with_metaclass(Meta, A, B)): Python 2/3 compatibility
			// helpers (six, future, torch._six) make a temporary class
			// whose bases are A and B; C's MRO continues with them.
			b.expr(u, base)
			for _, a := range call.Args[1:] {
				s := b.expr(u, a)
				c.bases = append(c.bases, s)
				g.use(s, constraint{kind: cBase, cls: c})
			}
			continue
		}
		if sub, ok := base.(*ast.Subscript); ok {
			// class Trainer(Base[Model, Ctx]): a generic base
			// parametrised; the class derives from Base itself.
			b.expr(u, sub.Slice)
			base = sub.Value
		}
		s := b.expr(u, base)
		c.bases = append(c.bases, s)
		g.use(s, constraint{kind: cBase, cls: c})
	}
	for _, k := range n.Keywords {
		b.expr(u, k.Value)
	}
	b.stmts(unit{fn: u.fn, scope: c.Scope}, n.Body)
	cv := g.classValue(c)
	cur := b.decorate(u, n.DecoratorList, g.constSlot(cv), cv)
	if len(n.DecoratorList) > 0 {
		g.s.add(cur, cv)
	}
	g.copy(cur, b.bindSlot(u, n.Name))
}

func (b *builder) bindSlot(u unit, name string) slotID {
	return b.g.scopeSlot(u.scope.BindingScope(name), name)
}

func (b *builder) importStmt(u unit, n *ast.Import) {
	g := b.g
	for _, a := range n.Names {
		b.imports(u, a.Name)
		if a.Asname != "" {
			v := b.moduleRef(a.Name)
			g.s.add(b.bindSlot(u, a.Asname), v)
			if g.Values[v].Kind == KExternal {
				b.markExt(u, a.Asname)
			}
			continue
		}
		top := a.Name
		for i := 0; i < len(top); i++ {
			if top[i] == '.' {
				top = top[:i]
				break
			}
		}
		v := b.moduleRef(top)
		g.s.add(b.bindSlot(u, top), v)
		if g.Values[v].Kind == KExternal {
			b.markExt(u, top)
		}
	}
}

// imports records that u's statement imports the dotted module name: the
// bodies of the program's modules among its prefixes run.
func (b *builder) imports(u unit, name string) {
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' {
			continue
		}
		if m := b.g.table.Lookup(name[:i], b.mod); m != nil && m != b.mod {
			b.g.Imports = append(b.g.Imports, Import{From: u.fn, Module: m})
		}
	}
}

func (b *builder) markExt(u unit, name string) {
	if u.scope.BindingScope(name).Kind != resolve.ModuleScope {
		return
	}
	m := b.g.importExt[b.mod]
	if m == nil {
		m = map[string]bool{}
		b.g.importExt[b.mod] = m
	}
	m[name] = true
}

// moduleRef is the value of an imported module name: a module of the
// program, a namespace package, or an external symbol.
func (b *builder) moduleRef(name string) ValueID {
	g := b.g
	if m := g.table.Lookup(name, b.mod); m != nil {
		// The module the lookup chose, not whichever file has its name:
		// two projects analysed together may each have a utils.py.
		return g.moduleValueOf(m)
	}
	if g.table.IsPackagePrefix(name) {
		return g.moduleValue(name)
	}
	return g.External(name)
}

func (b *builder) importFrom(u unit, n *ast.ImportFrom) {
	g := b.g
	abs, ok := resolve.Absolute(b.mod, n.Level, n.Module)
	if !ok {
		return
	}
	src := g.table.Lookup(abs, b.mod)
	internal := src != nil || g.table.IsPackagePrefix(abs)
	if internal {
		b.imports(u, abs)
	}
	for _, a := range n.Names {
		if a.Name == "*" {
			continue
		}
		if internal {
			if m := g.table.Lookup(abs+"."+a.Name, b.mod); m != nil {
				g.Imports = append(g.Imports, Import{From: u.fn, Module: m})
			}
		}
		local := a.Asname
		if local == "" {
			local = a.Name
		}
		dst := b.bindSlot(u, local)
		if !internal {
			g.s.add(dst, g.External(abs+"."+a.Name))
			b.markExt(u, local)
			continue
		}
		if src != nil {
			g.copy(g.modSlot(src, a.Name), dst)
		}
		sub := abs + "." + a.Name
		if m := g.table.Lookup(sub, b.mod); m != nil {
			g.s.add(dst, g.moduleValue(m.Name))
		} else if g.table.IsPackagePrefix(sub) {
			g.s.add(dst, g.moduleValue(sub))
		} else {
			g.unbound = append(g.unbound, unboundImport{from: src, name: a.Name, qual: sub, dst: dst})
		}
	}
}

// unboundImport is "from P import name" where P is a package of the
// program (from: its __init__, nil for a namespace package) that has no
// submodule name in the analysed files.
type unboundImport struct {
	from       *resolve.Module
	name, qual string
	dst        slotID
}

// bindUnbound gives each unboundImport whose package does not bind the
// name either the external symbol P.name: a submodule outside the
// analysed files (a partial checkout, a compiled extension such as
// torch._C) resolves like any module outside the program, by its
// qualified name, rather than to nothing. Whether P binds the name is
// known only once every module is in (star imports included), hence
// Finish.
func (g *Graph) bindUnbound() {
	for _, u := range g.unbound {
		if x := u.from; x != nil {
			f := g.modFunc[x]
			if f == nil || f.Scope.Bound[u.name] || g.starNames[x][u.name] || len(g.extStars[x]) > 0 {
				continue // bound there, or it may be (a module that did not parse, an external star import)
			}
		}
		g.s.add(u.dst, g.External(u.qual))
	}
	g.unbound = nil
}

func (b *builder) assignStmt(u unit, targets []ast.Expr, value ast.Expr) {
	// Element-wise "a, b = x, y" keeps each name precise.
	if len(targets) == 1 {
		if lt, rt := ast.SeqElts(targets[0]), ast.SeqElts(value); lt != nil && rt != nil && len(lt) == len(rt) && !hasStarred(lt) && !hasStarred(rt) {
			for i := range lt {
				b.assign(u, lt[i], b.expr(u, rt[i]))
			}
			return
		}
	}
	// `self.lrank = self.topology.lrank`: what an instance keeps from
	// another object's attribute, the model asks whose attribute it was
	// (ExprValues of the receiver), as for a condition.
	keeps := len(targets) == 1 && isNameAttr(targets[0])
	if keeps {
		b.testing++
	}
	v := b.expr(u, value)
	if keeps {
		b.testing--
	}
	b.g.setExprSlot(value, v)
	for _, t := range targets {
		b.assign(u, t, v)
	}
}

// isNameAttr reports an attribute of a plain name (self.x, cfg.x).
func isNameAttr(e ast.Expr) bool {
	a, ok := e.(*ast.Attribute)
	if !ok {
		return false
	}
	_, ok = a.Value.(*ast.Name)
	return ok
}

func hasStarred(list []ast.Expr) bool {
	for _, e := range list {
		if _, ok := e.(*ast.Starred); ok {
			return true
		}
	}
	return false
}

// assign makes target ⊇ slot v.
func (b *builder) assign(u unit, target ast.Expr, v slotID) {
	g := b.g
	switch t := target.(type) {
	case *ast.Name:
		if s, ok := b.locals[t]; ok {
			g.copy(v, s)
			return
		}
		g.copy(v, b.bindSlot(u, t.Id))
	case *ast.Attribute:
		base := b.expr(u, t.Value)
		if base >= 0 {
			g.setExprSlot(t.Value, base) // whose attribute is stored (ExprValues)
		}
		if v >= 0 {
			g.use(base, constraint{kind: cStoreAttr, name: t.Attr, src: v})
		}
	case *ast.Subscript:
		base := b.expr(u, t.Value)
		idx, key := b.index(u, t.Slice)
		if v >= 0 {
			g.use(base, constraint{kind: cStoreIndex, idx: int32(idx), name: key, src: v})
		}
	case *ast.Tuple, *ast.List:
		for i, e := range ast.SeqElts(t) {
			if st, ok := e.(*ast.Starred); ok {
				b.assign(u, st.Value, v)
				continue
			}
			tmp := g.s.newSlot()
			if v >= 0 {
				g.use(v, constraint{kind: cLoadIndex, idx: int32(i), dst: tmp})
			}
			b.assign(u, e, tmp)
		}
	case *ast.Starred:
		b.assign(u, t.Value, v)
	}
}

// index evaluates a subscript and returns its constant index or key.
func (b *builder) index(u unit, s ast.Expr) (int, string) {
	if t, ok := s.(*ast.Tuple); ok && len(t.Elts) > 1 {
		// mesh["dp_replicate", "dp_shard"]: the key is the names joined
		// by commas (a sub-mesh of those dimensions).
		names := make([]string, 0, len(t.Elts))
		for _, e := range t.Elts {
			c, ok := e.(*ast.Constant)
			if !ok || c.Type != ast.ConstStr {
				b.expr(u, s)
				return -1, ""
			}
			names = append(names, c.Str)
		}
		return -1, strings.Join(names, ",")
	}
	if c, ok := s.(*ast.Constant); ok {
		switch c.Type {
		case ast.ConstInt:
			if c.Big == nil && c.Int >= 0 && c.Int < 1<<20 {
				return int(c.Int), ""
			}
		case ast.ConstStr:
			return -1, c.Str
		}
		return -1, ""
	}
	b.expr(u, s)
	return -1, ""
}

// nameSlot is the slot a name use reads.
func (b *builder) nameSlot(u unit, name string) slotID {
	g := b.g
	def := u.scope.Lookup(name)
	if def.Kind == resolve.ModuleScope && !def.Bound[name] && !g.starNames[b.mod][name] {
		if builtinNames[name] {
			return g.constSlot(g.intern(Value{Kind: KExternal, Name: "<builtin>." + name}))
		}
		if ext := g.extStars[b.mod]; len(ext) > 0 {
			if g.extRoots[b.mod][name] {
				return g.constSlot(g.External(g.canon(name)))
			}
			return g.constSlot(g.External(ext[0] + "." + name))
		}
		return noSlot
	}
	return g.scopeSlot(def, name)
}

// predicateOperands keeps the slots of the test's bare operands named
// like predicates (`if not tpc.is_first_stage:`, `if is_main and …`), so
// that the model can tell a test of a function object, which is always
// true, from a test of a value (ExprValues).
func (b *builder) predicateOperands(u unit, test ast.Expr) {
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			b.predicateOperands(u, t.Operand)
		}
	case *ast.BoolOp:
		for _, v := range t.Values {
			b.predicateOperands(u, v)
		}
	case *ast.Name:
		if predicateName(t.Id) {
			b.g.setExprSlot(t, b.expr(u, t))
		}
	case *ast.Attribute:
		if predicateName(t.Attr) {
			b.g.setExprSlot(t, b.expr(u, t))
		}
	}
}

// predicateName: is_…, has_…, should_…, can_….
func predicateName(name string) bool {
	for _, p := range []string{"is_", "has_", "should_", "can_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (b *builder) expr(u unit, e ast.Expr) slotID {
	g := b.g
	switch n := e.(type) {
	case nil:
		return noSlot
	case *ast.Name:
		if s, ok := b.locals[n]; ok {
			return s
		}
		return b.nameSlot(u, n.Id)
	case *ast.Attribute:
		base := b.expr(u, n.Value)
		if base < 0 {
			return noSlot
		}
		if b.testing > 0 {
			g.setExprSlot(n.Value, base)
		}
		dst := g.s.newSlot()
		g.use(base, constraint{kind: cLoadAttr, name: n.Attr, dst: dst})
		return dst
	case *ast.Call:
		return b.call(u, n)
	case *ast.Lambda:
		f := g.funcByNode[n]
		if f == nil {
			return noSlot
		}
		b.defaults(u, f, n.Args)
		g.copy(b.expr(unit{fn: f, scope: f.Scope}, n.Body), f.ret)
		return g.constSlot(g.funcValue(f))
	case *ast.Constant:
		if n.Type == ast.ConstStr {
			return g.constSlot(g.intern(Value{Kind: KStr}))
		}
		return noSlot
	case *ast.JoinedStr:
		for _, v := range n.Values {
			b.expr(u, v)
		}
		return g.constSlot(g.intern(Value{Kind: KStr}))
	case *ast.FormattedValue:
		b.expr(u, n.Value)
		return noSlot
	case *ast.List:
		return b.seq(u, n, n.Elts, "list")
	case *ast.Tuple:
		return b.seq(u, n, n.Elts, "tuple")
	case *ast.Set:
		return b.seq(u, n, n.Elts, "set")
	case *ast.Dict:
		c := g.Container(n, "dict")
		for i, v := range n.Values {
			if _, isConst := v.(*ast.Constant); isConst {
				continue
			}
			vs := b.expr(u, v)
			if n.Keys[i] == nil {
				tmp := g.s.newSlot()
				g.use(vs, constraint{kind: cLoadIndex, idx: -1, dst: tmp})
				g.copy(tmp, g.elemSlot(c, "?"))
				g.copy(tmp, g.elemSlot(c, "*"))
				continue
			}
			idx, key := b.index(u, n.Keys[i])
			switch {
			case idx >= 0:
				g.copy(vs, g.elemSlot(c, "["+strconv.Itoa(idx)+"]"))
			case key != "":
				g.copy(vs, g.elemSlot(c, "{"+key+"}"))
			default:
				g.copy(vs, g.elemSlot(c, "?"))
			}
			g.copy(vs, g.elemSlot(c, "*"))
		}
		return g.constSlot(c)
	case *ast.ListComp:
		return b.comp(u, n, n.Generators, n.Elt, "list")
	case *ast.SetComp:
		return b.comp(u, n, n.Generators, n.Elt, "set")
	case *ast.GeneratorExp:
		return b.comp(u, n, n.Generators, n.Elt, "list")
	case *ast.DictComp:
		return b.comp(u, n, n.Generators, n.Value, "dict", n.Key)
	case *ast.Subscript:
		base := b.expr(u, n.Value)
		if sl, isSlice := n.Slice.(*ast.Slice); isSlice {
			b.expr(u, n.Slice)
			return b.slice(n, sl, base)
		}
		idx, key := b.index(u, n.Slice)
		if base < 0 {
			return noSlot
		}
		dst := g.s.newSlot()
		g.use(base, constraint{kind: cLoadIndex, idx: int32(idx), name: key, dst: dst})
		return dst
	case *ast.Slice:
		b.expr(u, n.Lower)
		b.expr(u, n.Upper)
		b.expr(u, n.Step)
		return noSlot
	case *ast.IfExp:
		b.expr(u, n.Test)
		if types, mode, ok := b.narrowing(u, n.Test, n.Orelse); ok {
			// `x.module if isinstance(x, DDP) else x`: the else arm is
			// never a DDP (nor, after hasattr(x, "module"), a wrapper).
			orelse := b.expr(u, n.Orelse)
			narrowed := g.s.newSlot()
			g.use(orelse, constraint{kind: cNarrow, src: types, dst: narrowed, mode: mode})
			return b.union(b.expr(u, n.Body), narrowed)
		}
		return b.union(b.expr(u, n.Body), b.expr(u, n.Orelse))
	case *ast.BoolOp:
		out := noSlot
		for _, v := range n.Values {
			out = b.union(out, b.expr(u, v))
		}
		return out
	case *ast.BinOp:
		l, r := b.expr(u, n.Left), b.expr(u, n.Right)
		if n.Op == ast.Add {
			return b.union(l, r)
		}
		return noSlot
	case *ast.UnaryOp:
		b.expr(u, n.Operand)
		return noSlot
	case *ast.Compare:
		b.expr(u, n.Left)
		for _, c := range n.Comparators {
			b.expr(u, c)
		}
		return noSlot
	case *ast.NamedExpr:
		v := b.expr(u, n.Value)
		if t, ok := n.Target.(*ast.Name); ok {
			g.copy(v, g.scopeSlot(u.scope.Named().BindingScope(t.Id), t.Id))
		}
		return v
	case *ast.Await:
		return b.expr(u, n.Value)
	case *ast.Yield:
		if n.Value != nil {
			g.copy(b.expr(u, n.Value), u.fn.yld)
		}
		return noSlot
	case *ast.YieldFrom:
		s := b.expr(u, n.Value)
		g.use(s, constraint{kind: cIter, dst: u.fn.yld, iter: &iterSite{caller: u.fn, at: n}})
		return noSlot
	case *ast.Starred:
		return b.expr(u, n.Value)
	}
	return noSlot
}

// slice evaluates x[lo:hi] (step 1) to a new container whose constant
// indices are the base's shifted by lo; other slices keep the base.
func (b *builder) slice(n *ast.Subscript, sl *ast.Slice, base slotID) slotID {
	g := b.g
	lo := 0
	if sl.Lower != nil {
		c, ok := sl.Lower.(*ast.Constant)
		if !ok || c.Type != ast.ConstInt || c.Big != nil || c.Int < 0 || c.Int >= 1<<20 {
			return base
		}
		lo = int(c.Int)
	}
	if sl.Step != nil || base < 0 {
		return base
	}
	c := g.Container(n, "list")
	g.use(base, constraint{kind: cSlice, idx: int32(lo), recv: c})
	return g.constSlot(c)
}

// narrowing reads a test that rules a type out of the else arm when that
// arm is the tested name: `isinstance(x, T)` (one type, not a tuple; the
// slot of T, mode narrowType) or `hasattr(x, "module")` (mode
// narrowWrapper: no ModuleWrapper).
func (b *builder) narrowing(u unit, test, other ast.Expr) (types slotID, mode uint8, ok bool) {
	c, isCall := test.(*ast.Call)
	if !isCall || len(c.Args) != 2 || len(c.Keywords) != 0 {
		return noSlot, 0, false
	}
	f, isName := c.Func.(*ast.Name)
	x, ok1 := c.Args[0].(*ast.Name)
	o, ok2 := other.(*ast.Name)
	if !isName || !ok1 || !ok2 || x.Id != o.Id {
		return noSlot, 0, false
	}
	switch f.Id {
	case "isinstance":
		switch c.Args[1].(type) {
		case *ast.Name, *ast.Attribute:
			return b.expr(u, c.Args[1]), narrowType, true
		}
	case "hasattr":
		if k, isConst := c.Args[1].(*ast.Constant); isConst && k.Type == ast.ConstStr && k.Str == "module" {
			return noSlot, narrowWrapper, true
		}
	}
	return noSlot, 0, false
}

// union returns a slot holding both a's and b's values.
func (b *builder) union(x, y slotID) slotID {
	switch {
	case x < 0:
		return y
	case y < 0:
		return x
	}
	s := b.g.s.newSlot()
	b.g.copy(x, s)
	b.g.copy(y, s)
	return s
}

// maxIndexed is how many leading elements of a literal keep their own
// index slot; the rest are "somewhere in the container" (large literal
// tables would otherwise cost a slot per element).
const maxIndexed = 16

func (b *builder) seq(u unit, n ast.Expr, elts []ast.Expr, kind string) slotID {
	g := b.g
	c := g.Container(n, kind)
	hasStr := false
	for i, e := range elts {
		if st, ok := e.(*ast.Starred); ok {
			s := b.expr(u, st.Value)
			tmp := g.s.newSlot()
			g.use(s, constraint{kind: cLoadIndex, idx: -1, dst: tmp})
			g.copy(tmp, g.elemSlot(c, "?"))
			g.copy(tmp, g.elemSlot(c, "*"))
			continue
		}
		if k, ok := e.(*ast.Constant); ok {
			// Literal tables of strings and numbers: one str value at
			// most, no per-element slots.
			if k.Type == ast.ConstStr && !hasStr {
				hasStr = true
				g.s.add(g.elemSlot(c, "*"), g.intern(Value{Kind: KStr}))
			}
			continue
		}
		s := b.expr(u, e)
		if s < 0 {
			continue
		}
		g.setExprSlot(e, s)
		if i < maxIndexed {
			g.copy(s, g.elemSlot(c, "["+strconv.Itoa(i)+"]"))
		} else {
			g.copy(s, g.elemSlot(c, "?"))
		}
		g.copy(s, g.elemSlot(c, "*"))
	}
	return g.constSlot(c)
}

func (b *builder) comp(u unit, n ast.Expr, gens []*ast.Comprehension, elt ast.Expr, kind string, extra ...ast.Expr) slotID {
	g := b.g
	cu := u
	if sc := b.scopeOf(n); sc != nil {
		cu = unit{fn: u.fn, scope: sc}
	}
	for i, gen := range gens {
		iu := cu
		if i == 0 {
			iu = u
		}
		s := b.expr(iu, gen.Iter)
		t := g.s.newSlot()
		g.use(s, constraint{kind: cIter, dst: t, iter: &iterSite{caller: u.fn, at: gen.Iter}})
		b.assign(cu, gen.Target, t)
		for _, c := range gen.Ifs {
			b.expr(cu, c)
		}
	}
	for _, x := range extra {
		b.expr(cu, x)
	}
	c := g.Container(n, kind)
	e := b.expr(cu, elt)
	g.copy(e, g.elemSlot(c, "*"))
	g.copy(e, g.elemSlot(c, "?"))
	return g.constSlot(c)
}

func (b *builder) scopeOf(n ast.Node) *resolve.Scope {
	return b.scopes.ByNode[n]
}

func (b *builder) call(u unit, n *ast.Call) slotID {
	g := b.g
	if name, ok := n.Func.(*ast.Name); ok && name.Id == "super" && b.nameSlot(u, "super") == g.constSlot(g.intern(Value{Kind: KExternal, Name: "<builtin>.super"})) {
		return b.super(u, n)
	}
	var callee slotID
	if a, ok := n.Func.(*ast.Attribute); ok {
		base := b.expr(u, a.Value)
		g.setExprSlot(a.Value, base)
		callee = noSlot
		if base >= 0 {
			callee = g.s.newSlot()
			g.use(base, constraint{kind: cLoadAttr, name: a.Attr, dst: callee})
		}
	} else {
		callee = b.expr(u, n.Func)
	}
	g.setExprSlot(n.Func, callee)
	cs := &CallSite{Kind: CallExplicit, Node: n, At: n, Caller: u.fn, callee: callee, result: g.s.newSlot()}
	for _, a := range n.Args {
		if st, ok := a.(*ast.Starred); ok {
			s := b.expr(u, st.Value)
			g.setExprSlot(a, s)
			cs.stars = append(cs.stars, s)
			continue
		}
		s := b.expr(u, a)
		g.setExprSlot(a, s)
		cs.args = append(cs.args, s)
	}
	for _, k := range n.Keywords {
		s := b.expr(u, k.Value)
		g.setExprSlot(k.Value, s)
		if k.Arg == "" {
			cs.kwStar = append(cs.kwStar, s)
			continue
		}
		cs.kwNames = append(cs.kwNames, k.Arg)
		cs.kwSlots = append(cs.kwSlots, s)
	}
	// Numbered when added: the arguments' own calls were added first.
	cs.ID = len(g.Calls)
	g.Calls = append(g.Calls, cs)
	u.fn.Calls = append(u.fn.Calls, cs)
	g.exprs.setCall(n.Addr(), cs.ID)
	g.use(callee, constraint{kind: cCall, cs: cs})
	b.superSetattr(u, n, cs)
	b.classFromDict(u, n, cs)
	if mod := importedByCall(n); mod != "" {
		// importlib.import_module("torch.distributed"), or a project's
		// import_optional("torch"): the module named.
		b.imports(u, mod)
		g.s.add(cs.result, b.moduleRef(mod))
	}
	return cs.result
}

// classFromDict handles Horovod's DistributedOptimizer factory,
// `cls = type(name, (optimizer.__class__,), dict(_DistributedOptimizer.__dict__))`:
// a class made at run time from another class's namespace has that
// class's methods, so calling it runs that class's __init__ (and its
// instances' methods are its). The made class stands for the one whose
// namespace it copies.
func (b *builder) classFromDict(u unit, n *ast.Call, cs *CallSite) {
	f, ok := n.Func.(*ast.Name)
	if !ok || f.Id != "type" || len(n.Args) != 3 || len(n.Keywords) != 0 {
		return
	}
	g := b.g
	if b.nameSlot(u, "type") != g.constSlot(g.intern(Value{Kind: KExternal, Name: "<builtin>.type"})) {
		return
	}
	ns := n.Args[2]
	if c, ok := ns.(*ast.Call); ok && len(c.Args) == 1 && len(c.Keywords) == 0 {
		if d, ok := c.Func.(*ast.Name); ok && d.Id == "dict" {
			ns = c.Args[0]
		}
	}
	a, ok := ns.(*ast.Attribute)
	if !ok || a.Attr != "__dict__" {
		return
	}
	if s := b.expr(u, a.Value); s >= 0 {
		g.copy(s, cs.result)
	}
}

// factoryInstance handles `trainer: Trainer = instantiate(cfg.trainer,
// model=model)`: a configuration factory (hydra's instantiate) builds the
// annotated class with the keyword arguments it is given, so the class
// is called with them (pangaea-bench's trainer gets its DDP model so).
func (b *builder) factoryInstance(u unit, n *ast.AnnAssign) {
	c, ok := n.Value.(*ast.Call)
	if !ok || lastName(c.Func) != "instantiate" || len(c.Args) == 0 {
		return
	}
	switch n.Annotation.(type) {
	case *ast.Name, *ast.Attribute:
	default:
		return
	}
	g := b.g
	cls := b.expr(u, n.Annotation)
	if cls < 0 {
		return
	}
	cs := g.implicitCall(CallCallback, u.fn, c)
	cs.callee = cls
	for _, a := range c.Args[1:] {
		if _, star := a.(*ast.Starred); star {
			return
		}
		s, _ := g.exprSlotOf(a)
		cs.args = append(cs.args, s)
	}
	for _, k := range c.Keywords {
		if k.Arg == "" {
			return // **overrides: which parameters they fill is unknown
		}
		s, _ := g.exprSlotOf(k.Value)
		cs.kwNames = append(cs.kwNames, k.Arg)
		cs.kwSlots = append(cs.kwSlots, s)
	}
	g.use(cls, constraint{kind: cCall, cs: cs})
	b.assign(u, n.Target, cs.result)
}

// importCalls are the functions whose call with a constant module name
// imports it: importlib's, and the helpers projects write around it for
// optional dependencies (cugraph's import_optional, MONAI's
// optional_import returns a tuple and is not one).
var importCalls = map[string]bool{
	"import_module": true, "import_optional": true, "try_import": true, "lazy_import": true, "safe_import": true,
}

// importedByCall returns the module a call imports by name, or "".
func importedByCall(n *ast.Call) string {
	var name string
	switch f := n.Func.(type) {
	case *ast.Name:
		name = f.Id
	case *ast.Attribute:
		name = f.Attr
	}
	if !importCalls[name] || len(n.Args) == 0 {
		return ""
	}
	k, ok := n.Args[0].(*ast.Constant)
	if !ok || k.Type != ast.ConstStr || k.Str == "" || strings.HasPrefix(k.Str, ".") || strings.ContainsAny(k.Str, " /") {
		return ""
	}
	return k.Str
}

// superSetattr makes super().__setattr__("x", v) in a method store v like
// self.x = v (a class that overrides __setattr__ sets its own attributes
// that way, ChainerMN's double-buffering optimizer its thread pool).
func (b *builder) superSetattr(u unit, n *ast.Call, cs *CallSite) {
	a, ok := n.Func.(*ast.Attribute)
	if !ok || a.Attr != "__setattr__" || !isSuperMethod(n) || len(n.Args) != 2 || len(cs.args) != 2 {
		return
	}
	c, ok := n.Args[0].(*ast.Constant)
	if !ok || c.Type != ast.ConstStr || u.fn.Scope == nil || len(u.fn.Scope.Params) == 0 {
		return
	}
	b.g.use(b.nameSlot(u, u.fn.Scope.Params[0]), constraint{kind: cStoreAttr, name: c.Str, src: cs.args[1]})
}

// isSuperMethod reports a call of a method of super(…): super().m(…).
func isSuperMethod(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	sc, ok := a.Value.(*ast.Call)
	if !ok {
		return false
	}
	n, ok := sc.Func.(*ast.Name)
	return ok && n.Id == "super"
}

// super evaluates super() inside a method: the enclosing class seen from
// the method's first parameter.
func (b *builder) super(u unit, n *ast.Call) slotID {
	g := b.g
	for _, a := range n.Args {
		b.expr(u, a)
	}
	f := u.scope.Named()
	if f.Kind != resolve.FunctionScope || f.Parent == nil || f.Parent.Kind != resolve.ClassScope || len(f.Params) == 0 {
		return noSlot
	}
	cd, _ := f.Parent.Node.(*ast.ClassDef)
	cls := g.classByNode[cd]
	if cls == nil {
		return noSlot
	}
	dst := g.s.newSlot()
	// PyCG records super() itself as a call of <builtin>.super.
	cs := &CallSite{ID: len(g.Calls), Kind: CallExplicit, Node: n, At: n, Caller: u.fn, callee: noSlot, result: dst}
	g.addTarget(cs, Target{External: "<builtin>.super"})
	g.Calls = append(g.Calls, cs)
	u.fn.Calls = append(u.fn.Calls, cs)
	g.exprs.setCall(n.Addr(), cs.ID)
	self := g.scopeSlot(f, f.Params[0])
	g.s.add(dst, g.intern(Value{Kind: KSuper, Class: cls, Recv: ValueID(self)}))
	return dst
}

var builtinNames = map[string]bool{}

func init() {
	for _, n := range []string{
		"abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
		"callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod",
		"enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals",
		"hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
		"list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow",
		"print", "property", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
		"staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "__import__",
		"BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError",
		"BlockingIOError", "BrokenPipeError", "BufferError", "ChildProcessError", "ConnectionError",
		"EOFError", "EnvironmentError", "FileExistsError", "FileNotFoundError", "FloatingPointError",
		"GeneratorExit", "IOError", "ImportError", "IndentationError", "IndexError", "InterruptedError",
		"IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
		"ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError", "OSError",
		"OverflowError", "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError",
		"RuntimeError", "StopAsyncIteration", "StopIteration", "SyntaxError", "SystemError", "SystemExit",
		"TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
		"UnicodeError", "ValueError", "ZeroDivisionError", "Warning", "UserWarning", "DeprecationWarning",
		"RuntimeWarning", "FutureWarning",
	} {
		builtinNames[n] = true
	}
}

// returnsFirstParam reports whether a function returns its first
// parameter unchanged on every return (identity decorators such as
// "def register(fn): REGISTRY.append(fn); return fn"): calls of such
// functions are given their argument back, call site by call site, instead
// of the union of every argument ever passed.
func returnsFirstParam(sc *resolve.Scope) bool {
	var body []ast.Stmt
	switch n := sc.Node.(type) {
	case *ast.FunctionDef:
		body = n.Body
	case *ast.AsyncFunctionDef:
		body = n.Body
	default:
		return false
	}
	if len(sc.Params) == 0 || sc.Generator {
		return false
	}
	p := sc.Params[0]
	// The returns first, over the statements only (cheap; most functions
	// fail here); then the whole body, for stores to the parameter.
	returns, ok := 0, true
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Return:
			returns++
			if x, isName := s.Value.(*ast.Name); !isName || x.Id != p {
				ok = false
			}
		}
		return ok
	})
	if !ok || returns == 0 {
		return false
	}
	returns = 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Return:
			returns++
			if x, isName := n.Value.(*ast.Name); !isName || x.Id != p {
				ok = false
			}
		case *ast.Name:
			if n.Id == p && n.Ctx != ast.Load {
				ok = false
			}
		}
		return true
	}
	for _, st := range body {
		ast.Inspect(st, visit)
	}
	return ok && returns > 0
}

// isWithMetaclass reports whether f names a with_metaclass helper
// (six.with_metaclass, future.utils.with_metaclass, torch._six's).
func isWithMetaclass(f ast.Expr) bool {
	switch f := f.(type) {
	case *ast.Name:
		return f.Id == "with_metaclass"
	case *ast.Attribute:
		return f.Attr == "with_metaclass"
	}
	return false
}

func isAttr(e ast.Expr) bool {
	_, ok := e.(*ast.Attribute)
	return ok
}
