package model

import (
	"bytes"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/sourcegraph/conc"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Input is what Build lowers.
type Input struct {
	Graph   *callgraph.Graph
	Modules []*callgraph.ModuleInput
	Files   []*rules.File
	Tables  *api.Tables
	Values  *Values
	// Roots are the directories searched for pyproject.toml,
	// requirements*.txt and setup.cfg.
	Roots []string
	// Prepared is Prepare's result for these modules and files; nil:
	// Build computes it.
	Prepared *Prepared
	// Stop, when set, is polled between Build's phases; once it reports
	// true Build returns nil (the analysis was cancelled).
	Stop func() bool
}

// builder holds the lowering state.
type builder struct {
	in       Input
	g        *callgraph.Graph
	t        *api.Tables
	prog     *rules.Program
	prepared *Prepared
	// methodNames: the names of the methods the program's classes define
	// (programMethod), made once: the statement walk asks from two
	// goroutines.
	methodNames     map[string]bool
	methodNamesOnce sync.Once
	// gradOff: the program turns autograd off for good (gradOffProgram).
	gradOff     bool
	gradOffOnce sync.Once
	// funcs holds the model function of each call-graph Func, by
	// Func.ID (rules.Function.ID is the same index).
	funcs []*rules.Function
	files map[string]*rules.File
	// entryReached: the functions the module bodies, threads and hooks
	// reach (reach), before library code gets roots of its own.
	entryReached map[*rules.Function]bool
	// namedClasses: whether the program names a class of this name
	// outside its definitions (classNamed).
	namedClasses map[string]bool
	// groupAt: the groups the solve allocated, by creation call (for
	// the walker to mark those made in loops).
	groupAt map[rules.Pos]*rules.Group
	groupFn map[*rules.Group]ast.Node // the function whose body creates each group
	// signalFlags: what signal handlers set (signalflags.go); built on
	// first use.
	signalFlags *signalFlags
	sites       map[*ast.Call]*rules.Site
	unknown     *rules.Group
	// syntactic facts from the statement walk
	info   map[*ast.Call]*callInfo
	joined map[*ast.Call]bool
	// loopCalls: calls of program functions in a loop or comprehension.
	loopCalls map[*ast.Call]bool
	main      *rules.Context
	spawns    []*spawn
	imports   map[string]map[string]string // module path → local name → qualified name
	// importedTops: the top-level packages some module imports.
	importedTops map[string]bool
	// rankParams: parameters that hold the process's rank on entry
	// (spawnRankParams).
	rankParams map[*rules.Function][]string
	// rankAttrs: per class, the attributes its methods assign a rank test
	// (selfRankAttrs).
	rankAttrs map[*callgraph.Class][]flow.RankAttr
	// rankAttrNames: the names in rankAttrs, of any class, and in
	// objRankAttrs (a quick no for resolver.InstanceRankAttr).
	rankAttrNames map[string]bool
	// objRankAttrs: per value, the attributes some function sets on it
	// to a rank test (objectRankAttrs).
	objRankAttrs map[callgraph.ValueID]map[string]bool
	// hostAttrs: per class, the attributes its methods other than
	// __init__ set from this host's file system (methodHostAttrs).
	hostAttrs map[*callgraph.Class][]string
	// callers indexes the explicit calls of each function (asyncCaller).
	callers map[*callgraph.Func][]*callgraph.CallSite
	// implicitCallees: the functions some call site other than a call
	// expression runs (calledImplicitly).
	implicitCallees map[*callgraph.Func]bool
	summary         map[summaryKey][]*rules.OpRef
	gates           map[*callgraph.Func]*funcGates // paramGates
	inProgress      map[summaryKey]bool
	groupSeen       map[*rules.Group]bool
	// backward() calls seen, and how many run with autograd
	// multithreading disabled around them.
	backwardCalls, backwardSingle int
	// backwardFns: the function nodes with a backward() call;
	// implicitOps: the calls that communicate without being sites (a
	// synchronised backward, an FSDP forward), and syncOps the same per
	// function node (see gradSync).
	backwardFns map[ast.Node]bool
	implicitOps map[*ast.Call]*rules.OpRef
	syncOps     map[ast.Node][]*rules.OpRef
	apiMemo     [][]string // by CallSite.ID
	apiDone     []bool
	siteSrc     map[*rules.Site]siteSource
	// bypassParams memoizes bypassedParam (CV304).
	bypassParams map[*callgraph.Func]string
	// sharded: fullyShardedClasses, once wrapsNothing has asked (nil
	// until then).
	sharded      map[*callgraph.Class]bool
	applyIdx     map[*callgraph.Class][]*callgraph.CallSite // see applyCalls
	selfStoreIdx map[*callgraph.Class]map[string][]ast.Expr // see selfStores
	methodsOf    map[*callgraph.Class][]*callgraph.Func     // the functions defined in each class, in Funcs order
	selfAnnIdx   map[*callgraph.Class]map[string]string     // see selfAttrClass
	selfMu       sync.Mutex                                 // guards selfStoreIdx, methodsOf, selfAnnIdx, propertyIdx, classConsts
	// propertyIdx: per class, its property-like methods by name (see
	// propertyDef).
	propertyIdx map[*callgraph.Class]map[string]*callgraph.Func
	registries  map[*callgraph.Class]map[string]bool     // see HandleRegistry
	counters    map[*callgraph.Class]map[string]bool     // see HostCounter
	classConsts map[*callgraph.Class]map[string]attrKind // see classConst
	syncReturns map[*callgraph.Func]bool                 // see returnsSyncForward
	bufferless  map[*callgraph.Class]bool                // see classWithoutBuffers
	bufferFree  map[*rules.Function]bool                 // per caller, see wrappedWithoutBuffers
	procs       *rules.Processes                         // which code can share a process
	spawnedBy   map[*rules.Site]*rules.Context           // sites a spawn runs directly (spawnedSite)
}

type siteSource struct {
	cs *callgraph.CallSite
	c  *api.Collective
}

// callInfo is what the statement walk learned about one call.
type callInfo struct {
	stmt                   ast.Stmt // the enclosing statement
	indent                 string
	inLoop                 bool
	stream                 *rules.Stream // enclosing stream context
	assigned               string        // the variable/attribute the result is bound to
	discarded              bool
	singleThreadedAutograd bool          // inside `with set_multithreading_enabled(False)`
	inWith                 bool          // the call is a with-item's context expression
	fnNode                 ast.Node      // the function (or module) the call is in
	notInst                []notInstance // names known not to hold an instance of a class there
}

// spawn is a context's spawn with what per-chain group refinement needs.
type spawn struct {
	ctx    *rules.Context
	cs     *callgraph.CallSite
	sp     *api.Spawner
	caller *callgraph.Func
	bound  bool // the entry is a bound method (its first parameter is the receiver)
	// args are the expressions passed to the entry's parameters, in order
	// (Thread args=(…), submit(fn, a, b)); kw by name.
	args []ast.Expr
	kw   map[string]ast.Expr
}

// Build lowers in into a Program (nil when in.Stop stopped it).
func Build(in Input) *rules.Program {
	b := &builder{
		in: in, g: in.Graph, t: in.Tables,
		prog:  &rules.Program{Files: in.Files},
		files: map[string]*rules.File{}, sites: map[*ast.Call]*rules.Site{},
		unknown: &rules.Group{ID: "unknown", Kind: rules.GroupUnknown},
		info:    map[*ast.Call]*callInfo{}, joined: map[*ast.Call]bool{}, loopCalls: map[*ast.Call]bool{},
		selfStoreIdx: map[*callgraph.Class]map[string][]ast.Expr{}, summary: map[summaryKey][]*rules.OpRef{}, gates: map[*callgraph.Func]*funcGates{}, inProgress: map[summaryKey]bool{},
		groupSeen: map[*rules.Group]bool{}, backwardFns: map[ast.Node]bool{}, groupFn: map[*rules.Group]ast.Node{},
		siteSrc: map[*rules.Site]siteSource{}, bypassParams: map[*callgraph.Func]string{},
		apiMemo: make([][]string, len(in.Graph.Calls)), apiDone: make([]bool, len(in.Graph.Calls)),
	}
	if b.t == nil {
		b.t = api.Default()
	}
	if in.Values == nil {
		in.Values = NewValues(b.t)
		b.in.Values = in.Values
	}
	for _, f := range in.Files {
		b.files[f.Path] = f
	}
	b.prepared = in.Prepared
	if b.prepared == nil {
		b.prepared = Prepare(in.Modules, in.Files, b.t)
	}
	b.importedTops = importedPackages(b.prepared)
	for _, g := range b.in.Values.groups {
		if g.Kind == rules.GroupAlloc {
			if b.groupAt == nil {
				b.groupAt = map[rules.Pos]*rules.Group{}
			}
			b.groupAt[g.Pos] = g
		}
	}
	// The statement walk and the lowering of the call graph's functions
	// read the solved graph and write disjoint state, so they run side by
	// side; the walk itself is split in two halves of the source, each
	// into its own facts, merged in order afterwards.
	var wg conc.WaitGroup
	wg.Go(b.functions)
	first, second := splitBySize(in.Modules, b.files)
	var firstFacts *walkFacts
	wg.Go(func() { firstFacts = b.walkModules(first) })
	secondFacts := b.walkModules(second)
	wg.Wait()
	b.mergeWalk(firstFacts)
	b.mergeWalk(secondFacts)
	for _, phase := range []func(){b.collectSites, b.facts, b.contexts, b.reach, b.finishGroups, b.processEntries, b.gradSync, b.runFlow, b.pairContextManagerRanks, b.gatedCreations, b.scalerSkips} {
		if in.Stop != nil && in.Stop() {
			return nil
		}
		phase()
	}
	return b.prog
}

// splitBySize cuts the modules, in order, where half of their source
// bytes lie before the cut.
func splitBySize(mods []*callgraph.ModuleInput, files map[string]*rules.File) (first, second []*callgraph.ModuleInput) {
	size := func(m *callgraph.ModuleInput) int {
		if f := files[m.Mod.Path]; f != nil {
			return len(f.Src)
		}
		return 0
	}
	total := 0
	for _, m := range mods {
		total += size(m)
	}
	sum := 0
	for i, m := range mods {
		if 2*sum >= total {
			return mods[:i], mods[i:]
		}
		sum += size(m)
	}
	return mods, nil
}

func (b *builder) pos(path string, n ast.Node) rules.Pos {
	if n == nil {
		return rules.Pos{Path: path}
	}
	sp := n.Span()
	return rules.Pos{Path: path, Line: int(sp.Lineno), Col: int(sp.ColOffset) + 1, EndLine: int(sp.EndLineno), EndCol: int(sp.EndColOffset) + 1}
}

// fn returns the model function of a call-graph function.
func (b *builder) fn(f *callgraph.Func) *rules.Function {
	if f == nil || f.ID < 0 || f.ID >= len(b.funcs) {
		return nil
	}
	return b.funcs[f.ID]
}

// fnOf returns the call-graph function a model function was made from.
func (b *builder) fnOf(rf *rules.Function) *callgraph.Func {
	if rf == nil || rf.ID < 0 || rf.ID >= len(b.funcs) || b.funcs[rf.ID] != rf {
		return nil
	}
	return b.g.Funcs[rf.ID]
}

// definesFunction reports a def among body's statements (nested blocks
// too): a __call__ that defines one is a decorator returning a wrapper.
func definesFunction(body []ast.Stmt) bool {
	found := false
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		switch s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef:
			found = true
		}
		return !found
	})
	return found
}

// dynamicGetattr reports a getattr with a computed name among body's
// statements: a visitor's __call__ dispatching on the node's type
// (getattr(self, "build_" + type(node).__name__)).
func dynamicGetattr(body []ast.Stmt) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok && len(c.Args) >= 2 {
				if f, ok := c.Func.(*ast.Name); ok && f.Id == "getattr" {
					if _, isConst := c.Args[1].(*ast.Constant); !isConst {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// initsAtTop reports a module-level call of init_process_group (or
// DeepSpeed's init_distributed), also inside top-level ifs and loops.
func initsAtTop(body []ast.Stmt) bool {
	for _, st := range body {
		switch st := st.(type) {
		case *ast.ExprStmt:
			if c, ok := st.Value.(*ast.Call); ok {
				switch lastName(pathText(c.Func)) {
				case "init_process_group", "init_distributed":
					return true
				}
			}
		case *ast.If:
			if initsAtTop(st.Body) || initsAtTop(st.Orelse) {
				return true
			}
		case *ast.Try:
			if initsAtTop(st.Body) {
				return true
			}
		}
	}
	return false
}

func (b *builder) functions() {
	// One allocation for all of them: large programs have ~100k.
	slab := make([]rules.Function, len(b.g.Funcs))
	b.funcs = make([]*rules.Function, len(b.g.Funcs))
	b.prog.Funcs = make([]*rules.Function, 0, len(b.g.Funcs))
	for i, f := range b.g.Funcs {
		rf := &slab[i]
		*rf = rules.Function{ID: i, Name: f.Name, Lang: rules.Python, Pos: b.pos(f.Module.Path, f.Node)}
		if m, isMod := f.Node.(*ast.Module); isMod {
			rf.Pos = rules.Pos{Path: f.Module.Path, Line: 1, Col: 1}
			rf.ModuleBody = true
			// A package's __main__.py is what `python -m pkg` runs.
			rf.Script = hasMainBlock(m) || filepath.Base(f.Module.Path) == "__main__.py"
			rf.MainBlock = mainBlockLines(m)
		}
		if fd, ok := f.Node.(*ast.FunctionDef); ok && fd.Name == "__call__" && fd.Args != nil {
			rf.Forwarder = fd.Args.Vararg != nil || fd.Args.Kwarg != nil || definesFunction(fd.Body) || dynamicGetattr(fd.Body)
		}
		b.prog.Funcs = append(b.prog.Funcs, rf)
		b.funcs[i] = rf
	}
	// A module that no module of the program imports and that sets up
	// torch.distributed in its own top-level code, with no __main__
	// guard, is a script too: `python train.py` is how it runs.
	imported := map[*resolve.Module]bool{}
	for _, im := range b.g.Imports {
		imported[im.Module] = true
	}
	for i, f := range b.g.Funcs {
		if m, isMod := f.Node.(*ast.Module); isMod && !b.funcs[i].Script && !imported[f.Module] && initsAtTop(m.Body) {
			b.funcs[i].Script = true
		}
	}
	// Calls are allocated in chunks too.
	var callSlab []rules.Call
	newCall := func(c rules.Call) *rules.Call {
		if len(callSlab) == cap(callSlab) {
			callSlab = make([]rules.Call, 0, 4096)
		}
		callSlab = append(callSlab, c)
		return &callSlab[len(callSlab)-1]
	}
	for _, f := range b.g.Funcs {
		rf := b.fn(f)
		n := 0
		for _, cs := range f.Calls {
			n += len(cs.Targets)
		}
		rf.Calls = make([]*rules.Call, 0, n)
		for _, cs := range f.Calls {
			p := b.pos(f.Module.Path, cs.At)
			for _, t := range cs.Targets {
				c := newCall(rules.Call{Caller: rf, Pos: p, Ref: int32(cs.ID) + 1})
				if t.Fn != nil {
					c.Callee = b.fn(t.Fn)
				} else {
					c.External = t.External
				}
				rf.Calls = append(rf.Calls, c)
			}
			for _, t := range b.selfAttrTargets(f, cs) {
				c := newCall(rules.Call{Caller: rf, Pos: p, Callee: b.fn(t), Ref: int32(cs.ID) + 1})
				rf.Calls = append(rf.Calls, c)
			}
		}
	}
}

// callSite returns the call graph's call site a model call was made
// from (nil for a call that came from none).
func (b *builder) callSite(c *rules.Call) *callgraph.CallSite {
	if c == nil || c.Ref <= 0 || int(c.Ref) > len(b.g.Calls) {
		return nil
	}
	return b.g.Calls[c.Ref-1]
}

// namesClass is isClassName less constants spelled in capitals
// (group.WORLD): a class (TorchCheckpointIO, Trainer), not a function,
// module or constant.
func namesClass(name string) bool {
	last := shortName(name)
	return isClassName(name) && strings.ToUpper(last) != last
}

// apis returns the canonical API names a call may invoke: its external
// targets, and — when the receiver is not understood — the table's
// any_receiver methods of the same name.
func (b *builder) apis(cs *callgraph.CallSite) []string {
	if cs.ID < 0 || cs.ID >= len(b.apiDone) {
		return b.computeAPIs(cs)
	}
	if b.apiDone[cs.ID] {
		return b.apiMemo[cs.ID]
	}
	r := b.computeAPIs(cs)
	b.apiMemo[cs.ID], b.apiDone[cs.ID] = r, true
	return r
}

// fittingFirst moves to the front, among collectives a call may be, the
// one whose stream argument the call's positional arguments reach last:
// one attribute holding a cupyx NCCLBackend on one path and a raw
// NcclCommunicator on another (xoscar's process group) calls reduce with
// five arguments in one place and seven in another, each with the stream
// last, and each call is read with its own signature.
func (b *builder) fittingFirst(apis []string, nargs int) {
	best, bestPos := -1, -1
	for i, name := range apis {
		c := b.t.Collectives[name]
		if c == nil || c.Stream.Pos < 0 || c.Stream.Pos >= nargs {
			continue
		}
		if c.Stream.Pos > bestPos {
			best, bestPos = i, c.Stream.Pos
		}
	}
	if best > 0 {
		apis[0], apis[best] = apis[best], apis[0]
	}
}

func (b *builder) computeAPIs(cs *callgraph.CallSite) []string {
	var out []string
	known := false
	for _, t := range cs.Targets {
		if t.Fn != nil {
			known = true
			continue
		}
		name := b.t.Canonical(t.External)
		if !b.inTables(name) {
			// accelerate.Accelerator().gather: a method of an instance of
			// an external class is the class's method entry.
			if m := b.instanceMethod(name); m != "" {
				if cls, _, ok := instanceCall(name); ok && len(cs.Targets) > 1 && cs.Node != nil && b.settingExcludes(cs, cls) {
					// The setting that made the instance rules it out here.
					continue
				}
				name = m
			} else if cls, ok := strings.CutSuffix(name, ".__init__"); ok && b.t.Spawners[b.t.Canonical(cls)] != nil {
				// super().__init__(module, ...) in a subclass of FSDP or
				// DDP (d2go's FSDPWrapper) constructs the wrapper.
				name = b.t.Canonical(cls)
			}
		}
		if b.inTables(name) {
			known = true
		}
		out = append(out, name)
	}
	if len(out) > 1 && cs.Node != nil {
		b.fittingFirst(out, len(cs.Node.Args))
	}
	if known || cs.Node == nil {
		return out
	}
	attr, ok := cs.Node.Func.(*ast.Attribute)
	if !ok {
		return out
	}
	// A receiver that holds only program objects without that attribute
	// calls nothing of the tables'; one that also holds values of
	// external types (a group the program got from torch, next to a
	// program class's instance the analysis let in) may.
	recvs := b.g.ExprValues(attr.Value)
	programOnly := len(recvs) > 0
	for _, v := range recvs {
		switch b.g.Value(v).Kind {
		case callgraph.KInstance, callgraph.KClass, callgraph.KModule:
		default:
			programOnly = false
		}
	}
	if programOnly {
		return out
	}
	for _, v := range recvs {
		switch val := b.g.Value(v); val.Kind {
		case callgraph.KExternal:
			if b.prepared.modules[b.t.Canonical(val.Name)] {
				// A function of an imported module the tables do not
				// describe (smp.allgather of SageMaker's library), not
				// a method of a communicator of unknown type.
				return out
			}
		}
	}
	// Horovod's module by its universal alias, kept on an object
	// (LoRA's `args.hvd = hvd`, then `args.hvd.allreduce(t,
	// name="barrier")` in a helper handed args): Horovod's function,
	// which blocks and returns the tensor.
	if len(recvs) == 0 {
		if p := pathText(attr.Value); p == "hvd" || strings.HasSuffix(p, ".hvd") {
			if m := b.t.Canonical("horovod.torch." + attr.Attr); b.inTables(m) {
				return append(out, m)
			}
		}
	}
	// A parameter annotated with a class the tables describe
	// (accelerator: Accelerator, trainer: "Trainer", engine:
	// Optional[DeepSpeedEngine]) is that class's instance, whatever the
	// call graph found for it.
	cls := b.annotatedClass(cs.Caller, attr.Value)
	if cls == "" {
		cls = b.selfAttrClass(cs.Caller, attr.Value)
	}
	if cls == "" && b.prepared.fsdpManaged[cs.Node] {
		cls = "torch.distributed.fsdp.FullyShardedDataParallel"
	}
	declared := false // the receiver is declared as a class that has no such entry
	if cls != "" {
		if m := b.t.Canonical(cls + "." + attr.Attr); b.inTables(m) || b.t.RankPredicates[m] != nil {
			return append(out, m)
		}
		declared = namesClass(cls) && b.t.Covers(cls)
	}
	// Of the libraries that have such a method, only those the program
	// imports (when its modules load, not only inside a function that
	// may never run) can have made the receiver: self.pg.allreduce(t) in a
	// torch program is ProcessGroup.allreduce, not mpi4py's
	// Comm.allreduce. When it imports none of them, a receiver that
	// holds no value at all (a parameter: the trainer, engine or
	// accelerator a script's helper is handed) may still be one of
	// them; one that holds a value of another library (verl's own
	// checkpoint manager) is not.
	var all, imported []string
	tops := map[string]bool{}
	for _, name := range b.t.MethodNames[attr.Attr] {
		if c := b.t.Collectives[name]; c != nil && c.IfImported && !b.prepared.eagerTops[topPackage(name)] {
			continue
		}
		if b.anyReceiver(name) {
			all = append(all, name)
			tops[topPackage(name)] = true
			if b.prepared.eagerTops[topPackage(name)] {
				imported = append(imported, name)
			}
		}
	}
	// A receiver that holds only objects of other libraries (Ray's
	// NCCLGroup, imported from a module outside the analysed tree) is no
	// communicator of these, whatever the program imports elsewhere: its
	// allreduce returns no work handle. (Stream methods are still
	// guessed: accelerator abstractions hand out torch streams.)
	if vals := b.g.ExprValues(attr.Value); len(vals) > 0 {
		foreign := true
		for _, v := range vals {
			if val := b.g.Value(v); val.Kind != callgraph.KExternal || tops[topPackage(b.t.Canonical(val.Name))] {
				foreign = false
				break
			}
		}
		// So is one that holds only instances of named classes of the
		// libraries the tables describe (self.io = TorchCheckpointIO()):
		// the tables list those libraries' classes whose methods
		// communicate (accelerate.Accelerator.gather), so a class whose
		// save_checkpoint they do not list has none that does. A class
		// of another package (the project's own, outside the analysed
		// paths) may. Hook and stream methods are still guessed: those
		// are torch.nn.Module's and the stream's, inherited by any
		// subclass.
		classes := true
		for _, v := range vals {
			name := b.t.Canonical(b.g.Value(v).Name)
			if b.g.Value(v).Kind != callgraph.KExternal || !namesClass(name) || !b.t.Covers(name) {
				classes = false
				break
			}
		}
		if foreign || classes {
			all, imported = notCollectives(b.t, all), notCollectives(b.t, imported)
		}
	}
	if len(b.g.ExprValues(attr.Value)) == 0 && cls == "" && b.programMethod(attr.Attr) {
		// A receiver that holds no value, where a class of the program
		// has a method of that name (a wrapper's blocking allreduce), is
		// more likely that class's instance than a library's communicator.
		all, imported = notCollectives(b.t, all), notCollectives(b.t, imported)
	}
	if declared {
		// io: CheckpointIO, self.io: CheckpointIO: a class of a described
		// library that the tables do not list for this method, as for
		// instances above.
		all, imported = notCollectives(b.t, all), notCollectives(b.t, imported)
	}
	// A receiver made by a class that is no stream
	// (cupy.cuda.Device(0).use()) has that class's method, not a
	// stream's.
	all, imported = b.notStreamMethods(attr.Value, all), b.notStreamMethods(attr.Value, imported)
	all, imported = byReceiverName(attr.Value, all), byReceiverName(attr.Value, imported)
	if len(imported) > 0 {
		return append(out, imported...)
	}
	if len(b.g.ExprValues(attr.Value)) == 0 {
		// Without an import to go by, a framework's object is guessed
		// only from a receiver named after it (trainer.save_checkpoint,
		// model_engine.save_checkpoint): mmengine's runner.save_checkpoint
		// is no Lightning Trainer's.
		recv := strings.ToLower(lastIdent(attr.Value))
		for _, name := range all {
			if !b.t.FrameworkMethod(name) || strings.Contains(recv, classHint(name)) {
				out = append(out, name)
			}
		}
	}
	return out
}

// programMethod reports a method of that name defined by a class of the
// program.
func (b *builder) programMethod(name string) bool {
	b.methodNamesOnce.Do(func() {
		b.methodNames = map[string]bool{}
		for _, f := range b.g.Funcs {
			if f.Class != nil {
				b.methodNames[f.Name[strings.LastIndexByte(f.Name, '.')+1:]] = true
			}
		}
	})
	return b.methodNames[name]
}

// lastIdent is the name a receiver ends in: x for x, m for self.m ("" for
// other expressions).
func lastIdent(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.Name:
		return v.Id
	case *ast.Attribute:
		return v.Attr
	}
	return ""
}

// receiverHints: a receiver whose name says which kind of communicator
// it is (self.mpi_comm, self.nccl_comm) has that library's method when
// several libraries have one of that name (bcast is mpi4py's pickling
// broadcast and CuPy NCCL's buffer broadcast).
var receiverHints = map[string]string{"mpi": "mpi4py", "nccl": "cupy"}

// byReceiverName keeps, of names from several libraries, those of the
// library recv's name points to (all of them when it points to none).
func byReceiverName(recv ast.Expr, names []string) []string {
	if len(names) < 2 {
		return names
	}
	last := strings.ToLower(lastIdent(recv))
	if last == "" {
		return names
	}
	for hint, top := range receiverHints {
		if !strings.Contains(last, hint) {
			continue
		}
		var keep []string
		for _, n := range names {
			if topPackage(n) == top {
				keep = append(keep, n)
			}
		}
		if len(keep) > 0 && len(keep) < len(names) {
			return keep
		}
	}
	return names
}

// notStreamMethods drops the stream API entries of names when every
// value of recv is an instance of a named external class that is no
// stream (a capitalised last component without "Stream": cupy.cuda.Device).
// Other entries stay: a subclass (torch.nn.Parameter) has its base's
// methods (Tensor.register_hook).
func (b *builder) notStreamMethods(recv ast.Expr, names []string) []string {
	vals := b.g.ExprValues(recv)
	if len(vals) == 0 || len(names) == 0 {
		return names
	}
	for _, v := range vals {
		val := b.g.Value(v)
		if val == nil || val.Kind != callgraph.KExternal {
			return names
		}
		cls := b.t.Canonical(strings.TrimSuffix(val.Name, "()"))
		last := cls[strings.LastIndexByte(cls, '.')+1:]
		if last == "" || !unicode.IsUpper(rune(last[0])) || strings.Contains(last, "Stream") {
			return names
		}
	}
	var out []string
	for _, n := range names {
		if b.t.Streams[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

// classHint is the last word of the class a method entry belongs to, in
// lower case: "trainer" for lightning.pytorch.Trainer.save_checkpoint,
// "engine" for deepspeed.DeepSpeedEngine.save_checkpoint.
func classHint(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return name
	}
	cls := parts[len(parts)-2]
	i := len(cls) - 1
	for i > 0 && !unicode.IsUpper(rune(cls[i])) {
		i--
	}
	return strings.ToLower(cls[i:])
}

// notCollectives returns the names that are not collectives of t.
func notCollectives(t *api.Tables, names []string) []string {
	var out []string
	for _, n := range names {
		if t.Collectives[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

// topPackage is the first component of a qualified name.
func topPackage(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

// importedPackages returns the top-level packages that some module of
// the program imports.
func importedPackages(p *Prepared) map[string]bool {
	tops := map[string]bool{}
	for _, names := range p.imports {
		for _, q := range names {
			tops[topPackage(q)] = true
		}
	}
	return tops
}

// instanceMethod maps "pkg.Class().method", the call graph's name for a
// method of an instance of an external class, to the tables' method
// entry "pkg.Class.method" (canonical), or "".
//
// An instance of an external class the tables do not describe has the
// class's own name ("torchmetrics.Accuracy.compute"): such names can
// match a "pkg.*.method" entry.
func (b *builder) instanceMethod(name string) string {
	cls, meth, ok := instanceCall(name) // accelerate.Accelerator().gather
	if !ok {
		i := strings.LastIndexByte(name, '.')
		if i <= 0 || strings.Contains(name, "()") {
			return ""
		}
		cls, meth = name[:i], name[i+1:]
	}
	m := b.t.ClassMethod(cls, meth)
	if m == "" {
		return ""
	}
	if c := b.t.Collectives[m]; c != nil && c.Method {
		return m
	}
	if s := b.t.Spawners[m]; s != nil && s.Method {
		return m
	}
	if s := b.t.Streams[m]; s != nil && s.Method {
		return m
	}
	return ""
}

// instanceCall splits the name of a method called on an instance of an
// external class, "pkg.Class().method", into the class and the method.
func instanceCall(name string) (cls, meth string, ok bool) {
	i := strings.LastIndex(name, "().")
	if i < 0 || strings.ContainsAny(name[i+3:], "().") {
		return "", "", false
	}
	return name[:i], name[i+3:], true
}

func (b *builder) inTables(name string) bool {
	return b.t.Declares(name)
}

func (b *builder) anyReceiver(name string) bool {
	if c := b.t.Collectives[name]; c != nil && c.AnyReceiver {
		return true
	}
	if s := b.t.Spawners[name]; s != nil && s.AnyReceiver {
		return true
	}
	if s := b.t.Streams[name]; s != nil && s.Method {
		return true
	}
	return false
}

func (b *builder) collectSites() {
	for _, f := range b.g.Funcs {
		rf := b.fn(f)
		for _, cs := range f.Calls {
			if cs.Node == nil {
				continue
			}
			for _, name := range b.apis(cs) {
				c := b.t.Collectives[name]
				if c == nil || b.narrowedOut(f, cs, name) || b.wrappedLater(f, cs, name) || b.viaReplaced(f, cs, c) || localOnly(cs.Node, c) || b.partialLocalOnly(cs, c) || b.preparesNoModel(cs, c) {
					continue
				}
				b.newSite(rf, f, cs, c)
				break
			}
		}
	}
}

// preparesNoModel reports accelerate's prepare() given only data loaders,
// optimizers and schedulers: it wraps them on this rank and communicates
// nothing (only a model becomes a DDP, FSDP or DeepSpeed module). Every
// argument must be known to be one of those.
func (b *builder) preparesNoModel(cs *callgraph.CallSite, c *api.Collective) bool {
	if c.Name != "accelerate.Accelerator.prepare" || len(cs.Node.Args) == 0 || len(cs.Node.Keywords) > 0 {
		return false
	}
	for i := range cs.Node.Args {
		vals, _ := b.g.ArgValues(cs, i, "")
		if len(vals) == 0 {
			return false
		}
		for _, v := range vals {
			val := b.g.Value(v)
			if val != nil && val.Kind == callgraph.KInstance && b.parameterFree(val.Class, 0) {
				continue // accelerate wraps a module in DDP only when it has parameters to train
			}
			if val == nil || val.Kind != callgraph.KOpaque && val.Kind != callgraph.KExternal || !notModel(val.Name) {
				return false
			}
		}
	}
	return true
}

// parameterFree reports a program nn.Module class whose code makes no
// parameter: its methods store in self only values that are no torch.nn
// layer or Parameter and no instance of a program class that makes one,
// and never call register_parameter or add_module (univnet's STFT, which
// registers buffers only). Its bases are torch.nn.Module or such classes.
func (b *builder) parameterFree(c *callgraph.Class, depth int) bool {
	if c == nil || c.Node == nil || depth > 3 {
		return false
	}
	mro, ext := b.g.MRO(c)
	if len(ext) == 0 {
		return false // not a module at all, or of unknown bases
	}
	for _, e := range ext {
		if n := b.t.Canonical(e); n != "torch.nn.Module" && n != "torch.nn.modules.module.Module" && n != "builtins.object" && n != "object" {
			return false
		}
	}
	for _, base := range mro {
		if base != c && !b.parameterFree(base, depth+1) {
			return false
		}
	}
	free := true
	visit := func(n ast.Node) bool {
		if !free {
			return false
		}
		switch x := n.(type) {
		case *ast.ClassDef:
			return false
		case *ast.Call:
			if a, ok := x.Func.(*ast.Attribute); ok && (a.Attr == "register_parameter" || a.Attr == "add_module" || a.Attr == "register_module") {
				free = false
			}
			// A layer made anywhere in the class (`self.layers.append(nn.Linear(…))`,
			// `setattr(self, name, nn.Conv1d(…))`) may be stored in it.
			if free && !b.holdsNoParameter(x, depth, false) {
				free = false
			}
		case *ast.Assign:
			stored := false
			for _, t := range x.Targets {
				if a, ok := t.(*ast.Attribute); ok && isName(a.Value, "self") {
					stored = true
				}
			}
			if stored && !b.holdsNoParameter(x.Value, depth, true) {
				free = false
			}
		}
		return free
	}
	// The class body's own statements, and each method's.
	ast.InspectBody(c.Node.Body, visit)
	for _, st := range c.Node.Body {
		ast.InspectBody(defBody(st), visit)
	}
	return free
}

// holdsNoParameter reports a value that is no parameter and no module
// that holds one: not a torch.nn layer or Parameter, not a program class
// that makes parameters, and, for a value stored in the module, not what
// a program function returns (it may build a module).
func (b *builder) holdsNoParameter(e ast.Expr, depth int, stored bool) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		c, isCall := n.(*ast.Call)
		if !ok || !isCall {
			return ok
		}
		cs := b.g.CallOf(c)
		if cs == nil {
			return true
		}
		for _, t := range cs.Targets {
			switch {
			case t.Fn != nil && t.Fn.Class != nil && strings.HasSuffix(t.Fn.Name, ".__init__"):
				ok = ok && b.parameterFree(t.Fn.Class, depth+1)
			case t.Fn != nil:
				ok = !stored
			default:
				// A class of torch.nn constructed: nn.Linear(…),
				// nn.Parameter(…); not a method (register_buffer) or a
				// function (functional, init).
				name := b.t.Canonical(t.External)
				last := lastName(name)
				if strings.HasPrefix(name, "torch.nn.") && last != "" && last[0] >= 'A' && last[0] <= 'Z' && last != "Module" {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// notModel reports the instance names of data loaders, samplers,
// optimizers and learning-rate schedulers.
func notModel(name string) bool {
	name = strings.TrimSuffix(name, "()")
	return strings.HasSuffix(name, "DataLoader") || strings.HasPrefix(name, "torch.optim.") ||
		strings.Contains(name, "lr_scheduler") || strings.HasPrefix(name, "torch.utils.data.")
}

// localOnly reports a call that passes its entry's unless argument a
// literal False or None, or its local_if argument a literal True: it
// then does not communicate (rpc.shutdown(graceful=False) stops the
// local agent without waiting for the others; prepare_model(m,
// evaluation_mode=True) wraps nothing, nor does Ray Train's
// prepare_model(m, parallel_strategy=None)).
func localOnly(call *ast.Call, c *api.Collective) bool {
	literal := func(a api.Arg, want bool) bool {
		if !a.Present() {
			return false
		}
		k, ok := argExpr(call, a).(*ast.Constant)
		return ok && (k.Type == ast.ConstBool && k.Bool == want || !want && k.Type == ast.ConstNone)
	}
	return literal(c.Unless, false) || literal(c.LocalIf, true) || !requiredGiven(call, c.Requires)
}

// requiredGiven reports a call that passes one of the arguments an entry
// requires (api.Collective.Requires) with a value that may ask for more
// than one rank; true when the entry requires none.
func requiredGiven(call *ast.Call, req []api.Arg) bool {
	if len(req) == 0 {
		return true
	}
	one := func(e ast.Expr) bool {
		k, ok := e.(*ast.Constant)
		return ok && (k.Type == ast.ConstInt && k.Int == 1 || k.Type == ast.ConstNone || k.Type == ast.ConstBool && !k.Bool)
	}
	for _, a := range req {
		x := argExpr(call, a)
		if x == nil || one(x) {
			continue
		}
		if d, ok := x.(*ast.Dict); ok {
			size := false
			for i, k := range d.Keys {
				if ks, ok := k.(*ast.Constant); ok && ks.Type == ast.ConstStr && ks.Str == "tp_size" && !one(d.Values[i]) {
					size = true
				}
			}
			if !size {
				continue
			}
		}
		return true
	}
	return false
}

// partialLocalOnly is localOnly for a call through functools.partial
// objects that all bind the argument by keyword (`save = partial(
// dcp.save, no_dist=True)`, then `save(state_dict=…)`: the binding is in
// the partial's construction, not in the call).
func (b *builder) partialLocalOnly(cs *callgraph.CallSite, c *api.Collective) bool {
	vals := b.g.CalleeValues(cs)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		val := b.g.Value(v)
		if val == nil || val.Kind != callgraph.KPartial {
			return false
		}
		pc, ok := val.Node.(*ast.Call)
		if !ok {
			return false
		}
		// Only keywords count: positional ones fill the first
		// parameters, whose positions the entry names from the call.
		kw := &ast.Call{Keywords: pc.Keywords}
		if !localOnly(kw, c) {
			return false
		}
	}
	return true
}

// narrowedOut reports a method API of a class that the call's receiver
// cannot be an instance of where the call is: `pg.barrier()` in the else
// of `if isinstance(pg, ProcessGroup):` is a store-based group's barrier,
// not ProcessGroup.barrier (vLLM's in_the_same_node_as).
func (b *builder) narrowedOut(f *callgraph.Func, cs *callgraph.CallSite, name string) bool {
	info := b.info[cs.Node]
	if info == nil || len(info.notInst) == 0 {
		return false
	}
	a, ok := cs.Node.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	x, ok := a.Value.(*ast.Name)
	if !ok {
		return false
	}
	for _, ni := range info.notInst {
		if ni.name != x.Id {
			continue
		}
		cls := b.t.Canonical(b.ref(f.Module.Path, ni.cls))
		if cls != "" && strings.HasPrefix(name, cls+".") {
			return true
		}
	}
	return false
}

// wrappedLater reports a method of a wrapper class (FSDP's
// load_state_dict) called, in a module's own statements, on a name that
// holds no wrapper where the call stands (wrapsNothingYet): a script's
// rank-0 `model.load_state_dict(…)` before `model = FSDP(model,
// sync_module_states=True)`, the idiom that fills one rank's module and
// lets the wrapper broadcast it. A module's names hold every value the
// module ever binds them to; inside a function, a local is the value of
// its binding at the call already.
//
// So is one on a constructor's attribute before the constructor wraps it
// (`self.model = model`, `self._load(path)`, then `self.model =
// FSDP(self.model)`; the official tutorials' snapshot loading), made in
// __init__ itself or in a method only __init__ calls, through self.
func (b *builder) wrappedLater(f *callgraph.Func, cs *callgraph.CallSite, name string) bool {
	recv, ok := b.wrapperReceiver(cs.Node, name)
	if !ok {
		return false
	}
	if _, module := f.Node.(*ast.Module); module {
		return b.wrapsNothingYet(recv, cs.Node)
	}
	a, ok := recv.(*ast.Attribute)
	if !ok || f.Class == nil {
		return false
	}
	if r, isName := a.Value.(*ast.Name); !isName || r.Id != receiverParamName(funcArgs(f.Node)) {
		return false
	}
	if shortName(f.Name) == "__init__" {
		return b.wrapsNothingYet(recv, cs.Node)
	}
	callers := b.callersOf(f)
	if len(callers) == 0 {
		return false
	}
	for _, up := range callers {
		init := up.Caller
		if init == nil || init.Class != f.Class || shortName(init.Name) != "__init__" || up.Node == nil {
			return false
		}
		m, ok := up.Node.Func.(*ast.Attribute)
		if !ok {
			return false
		}
		self, ok := m.Value.(*ast.Name)
		if !ok || self.Id != receiverParamName(funcArgs(init.Node)) {
			return false
		}
		if !b.wrapsNothingYet(&ast.Attribute{Value: self, Attr: a.Attr}, up.Node) {
			return false
		}
	}
	return true
}

// viaReplaced reports a call of a method that communicates through
// another method of its receiver (api.Collective.Via) after a statement
// of the same function replaced that method on the receiver
// (instructlab's `accelerator.get_state_dict = _copy_no_lora_dict`, then
// `accelerator.save_model(…)` on a state dict it already holds).
func (b *builder) viaReplaced(f *callgraph.Func, cs *callgraph.CallSite, c *api.Collective) bool {
	a, ok := cs.Node.Func.(*ast.Attribute)
	if c.Via == "" || !ok {
		return false
	}
	target := pathText(a.Value) + "." + c.Via
	if target == "."+c.Via {
		return false
	}
	line := int(cs.Node.Span().Lineno)
	replaced := false
	ast.InspectBody(ast.ScopeBody(f.Node), func(n ast.Node) bool {
		if as, ok := ast.AsAssign(n); ok && int(as.Span().Lineno) < line {
			for _, t := range as.Targets {
				replaced = replaced || pathText(t) == target
			}
		}
		return !replaced
	})
	return replaced
}

// wrapperReceiver returns the receiver of a call of API name when name
// is a method of a wrapper class, one whose construction synchronises
// gradients or forwards (FullyShardedDataParallel.load_state_dict).
func (b *builder) wrapperReceiver(call *ast.Call, name string) (ast.Expr, bool) {
	a, ok := call.Func.(*ast.Attribute)
	if !ok || !strings.HasSuffix(name, "."+a.Attr) {
		return nil, false
	}
	c := b.t.Collectives[strings.TrimSuffix(name, "."+a.Attr)]
	return a.Value, c != nil && (c.GradSync || c.ForwardSync)
}

// wrapperReceiverParam returns, for a site that calls a wrapper class's
// method on a parameter of its function (`def load_checkpoint(model,
// path): model.load_state_dict(…)`), that parameter: a call that passes a
// module no wrapper made does not reach it (OpRef.ModuleParam).
func (b *builder) wrapperReceiverParam(s *rules.Site) string {
	src, ok := b.siteSrc[s]
	if !ok || src.cs == nil || src.cs.Node == nil || src.cs.Caller == nil {
		return ""
	}
	recv, ok := b.wrapperReceiver(src.cs.Node, s.API)
	if !ok {
		return ""
	}
	if n, isName := recv.(*ast.Name); isName && isParam(funcArgs(src.cs.Caller.Node), n.Id) {
		return n.Id
	}
	return ""
}

func (b *builder) newSite(rf *rules.Function, f *callgraph.Func, cs *callgraph.CallSite, c *api.Collective) *rules.Site {
	s := &rules.Site{
		ID: len(b.prog.Sites), Func: rf, Pos: b.pos(f.Module.Path, cs.Node),
		API: c.Name, Op: c.Op, Kind: rules.OpKind(c.Kind), Library: c.Library, NameMatched: c.NameMatched, Lazy: c.Lazy, OpaqueSequence: c.OpaqueSequence,
	}
	if s.Kind == "" {
		s.Kind = rules.OpCollective
	}
	if sp := b.t.Spawners[c.Name]; sp != nil && sp.Context == string(rules.Background) {
		s.Offloaded = true
	}
	groups := b.siteGroups(cs, c)
	s.Group = groups[0]
	if len(groups) > 1 {
		s.Groups = groups
	}
	// Async: always, async_op=True, or sync_op=False.
	s.Async = c.AlwaysAsync
	if e := argExpr(cs.Node, c.Sync); e != nil {
		if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstBool {
			s.Async = !k.Bool
		}
	}
	info := b.info[cs.Node]
	if e := argExpr(cs.Node, c.Async); e != nil {
		switch k := e.(type) {
		case *ast.Constant:
			if k.Type == ast.ConstBool {
				s.Async = k.Bool
			}
		case *ast.Name:
			// async_op=async_op: async when a caller asks for it.
			if at, flag := b.asyncCaller(f, k.Id); at != nil {
				s.Async, s.AsyncWhen, s.AsyncFlag = true, at, flag
			}
		case *ast.Attribute, *ast.Subscript:
			// async_op=config.async_comm on a call whose result is
			// dropped: when the configuration asks for async work,
			// nothing can wait it. A kept result is left alone: it is
			// usually waited under the same flag, which is not tracked.
			if flag := b.exprText(f, e); flag != "" && info != nil && info.discarded {
				at := s.Pos
				s.Async, s.AsyncWhen, s.AsyncFlag = true, &at, flag
			}
		}
	}
	if c.Stream.Present() {
		if e := argExpr(cs.Node, c.Stream); e != nil {
			s.Stream = b.streamOf(e)
		}
	}
	if s.Stream == nil && info != nil {
		s.Stream = info.stream
	}
	if s.Async {
		w := &rules.Work{Site: s}
		if info != nil {
			w.Var, w.Discarded = info.assigned, info.discarded
		}
		s.Work = w
		b.prog.Works = append(b.prog.Works, w)
	}
	for _, a := range c.Inputs {
		if e := argExpr(cs.Node, a); e != nil {
			if p := pathText(e); p != "" {
				s.Inputs = append(s.Inputs, p)
			}
		}
	}
	for _, a := range c.Outputs {
		if e := argExpr(cs.Node, a); e != nil {
			if p := pathText(e); p != "" {
				s.Outputs = append(s.Outputs, p)
			}
		}
	}
	rf.Sites = append(rf.Sites, s)
	b.prog.Sites = append(b.prog.Sites, s)
	b.sites[cs.Node] = s
	b.siteSrc[s] = siteSource{cs: cs, c: c}
	return s
}

// siteGroups returns the groups a collective uses (never empty).
func (b *builder) siteGroups(cs *callgraph.CallSite, c *api.Collective) []*rules.Group {
	if c.ReceiverGroup {
		if attr, ok := cs.Node.Func.(*ast.Attribute); ok {
			if gs := b.groupsOf(b.g.ExprValues(attr.Value), attr.Value); len(gs) > 0 {
				return gs
			}
			if gs := b.selfStoreGroups(cs.Caller, attr.Value); len(gs) > 0 {
				return gs
			}
		}
		return []*rules.Group{b.unknown}
	}
	if c.ElementGroup.Present() && len(c.Inputs) > 0 {
		if gs := b.elementGroups(cs, c); len(gs) > 0 {
			return gs
		}
	}
	if !c.Group.Present() {
		if c.ImplicitGroup != "" {
			return []*rules.Group{b.in.Values.getterGroup(b.g, c.ImplicitGroup, b.t)}
		}
		return []*rules.Group{b.in.Values.world}
	}
	e := argExpr(cs.Node, c.Group)
	if e == nil {
		if gs := b.partialGroups(cs, c); len(gs) > 0 {
			return gs
		}
		if hasStarArgs(cs.Node) && !b.kwargsWithout(cs, c.Group.Name) {
			return []*rules.Group{b.unknown}
		}
		return []*rules.Group{b.in.Values.world}
	}
	if gs := b.groupsOf(b.g.ExprValues(e), e); len(gs) > 0 {
		return gs
	}
	if gs := b.selfStoreGroups(cs.Caller, e); len(gs) > 0 {
		return gs
	}
	if gs := b.ctxAttrGroups(cs, e); len(gs) > 0 {
		return gs
	}
	if gs := b.meshGroups(e); len(gs) > 0 {
		return gs
	}
	return []*rules.Group{b.unknown}
}

// elementGroups returns the groups the calls that make a collective's
// list argument pass (batch_isend_irecv([P2POp(isend, t, peer,
// group=g), …])): the list displayed in the call, or bound to the
// argument's name in the calling function (by assignment or append);
// WORLD for an entry that passes none, nil when no entry is found.
func (b *builder) elementGroups(cs *callgraph.CallSite, c *api.Collective) []*rules.Group {
	arg := argExpr(cs.Node, c.Inputs[0])
	if arg == nil {
		return nil
	}
	var entries []*ast.Call
	entry := func(e ast.Expr) {
		if call, ok := e.(*ast.Call); ok {
			entries = append(entries, call)
		}
	}
	// addElts takes the entries of a list display or comprehension (not
	// a call that returns the list: its entries are made elsewhere).
	addElts := func(e ast.Expr) {
		if lc, ok := e.(*ast.ListComp); ok {
			entry(lc.Elt)
			return
		}
		for _, x := range ast.SeqElts(e) {
			entry(x)
		}
	}
	// fill collects what a function's body puts in the list isList
	// matches: assigned displays (`ops = [...]`, `ops += [...]`) and
	// appended or extended entries.
	fill := func(fn ast.Node, isList func(ast.Expr) bool) {
		ast.Inspect(fn, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda, *ast.ClassDef:
				return x == fn
			case *ast.Assign:
				for _, t := range x.Targets {
					if isList(t) {
						addElts(x.Value)
					}
				}
			case *ast.AugAssign:
				if isList(x.Target) {
					addElts(x.Value)
				}
			case *ast.Call:
				if a, ok := x.Func.(*ast.Attribute); ok && isList(a.Value) && len(x.Args) == 1 {
					switch a.Attr {
					case "append":
						entry(x.Args[0])
					case "extend":
						addElts(x.Args[0])
					}
				}
			}
			return true
		})
	}
	if n, ok := arg.(*ast.Name); ok && cs.Caller != nil && cs.Caller.Node != nil {
		fill(cs.Caller.Node, func(e ast.Expr) bool { return isName(e, n.Id) })
	} else if attr, ok := b.selfAttrOf(cs.Caller, arg); ok {
		// batch_isend_irecv(self._ops): the entries the class's methods
		// put in that list (VILA's RingComm appends P2POps in send_recv
		// and commits them in commit).
		for _, f := range b.classMethods(cs.Caller.Class) {
			if f.Scope == nil || len(f.Scope.Params) == 0 || f.Static {
				continue
			}
			self := f.Scope.Params[0]
			fill(f.Node, func(e ast.Expr) bool {
				a, ok := e.(*ast.Attribute)
				return ok && a.Attr == attr && isName(a.Value, self)
			})
		}
	} else {
		addElts(arg)
	}
	var out []*rules.Group
	seen := map[*rules.Group]bool{}
	for _, e := range entries {
		gs := []*rules.Group{b.in.Values.world}
		if g := argExpr(e, c.ElementGroup); g != nil {
			if gs = b.groupsOf(b.g.ExprValues(g), g); len(gs) == 0 {
				gs = []*rules.Group{b.unknown}
			}
		} else if hasStarArgs(e) {
			gs = []*rules.Group{b.unknown}
		}
		for _, g := range gs {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// partialGroups returns the groups of a call of functools.partial
// objects that bind the collective's group by keyword
// (`op = functools.partial(dist.all_reduce, group=g)`, then `op(t)`):
// each partial's group, WORLD for one that binds none; nil when the
// callee is no partial.
func (b *builder) partialGroups(cs *callgraph.CallSite, c *api.Collective) []*rules.Group {
	if c.Group.Name == "" {
		return nil
	}
	var out []*rules.Group
	seen := map[*rules.Group]bool{}
	add := func(gs []*rules.Group) {
		for _, g := range gs {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	for _, v := range b.g.ExprValues(cs.Node.Func) {
		val := b.g.Value(v)
		if val.Kind != callgraph.KPartial {
			continue
		}
		pc, ok := val.Node.(*ast.Call)
		if !ok {
			return nil
		}
		var kw ast.Expr
		for _, k := range pc.Keywords {
			if k.Arg == c.Group.Name {
				kw = k.Value
			}
		}
		if kw == nil {
			add([]*rules.Group{b.in.Values.world})
		} else if gs := b.groupsOf(b.g.ExprValues(kw), kw); len(gs) > 0 {
			add(gs)
		} else {
			add([]*rules.Group{b.unknown})
		}
	}
	return out
}

// meshGroups reads the group forms that functional collectives
// (torch.distributed._functional_collectives, DTensor) accept besides a
// process group: a one-dimensional DeviceMesh, and a (mesh, dim) pair.
func (b *builder) meshGroups(e ast.Expr) []*rules.Group {
	meshExpr, dim := e, "0"
	pair, isPair := e.(*ast.Tuple)
	if isPair {
		if len(pair.Elts) != 2 {
			return nil
		}
		meshExpr, dim = pair.Elts[0], ""
		if k, ok := pair.Elts[1].(*ast.Constant); ok {
			switch k.Type {
			case ast.ConstInt:
				dim = strconv.FormatInt(k.Int, 10)
			case ast.ConstStr:
				dim = k.Str
			}
		}
	}
	var vals []callgraph.ValueID
	for _, v := range b.g.ExprValues(meshExpr) {
		m, ok := b.g.Value(v).Data.(*mesh)
		if !ok || !isPair && len(m.dims) > 1 {
			continue // a mesh of several dimensions needs its dimension named
		}
		vals = append(vals, b.in.Values.meshGroup(b.g, m, dim))
	}
	return b.groupsOf(vals, e)
}

// kwargsWithout reports a call whose star arguments are all `**name`
// dicts without the key param: a dict the caller builds once
// (flow.LocalDict), or the one dict display every return of the program
// function it is assigned from gives (flowprogen's `fsdp_config =
// setup_fsdp()` with mixed precision, sharding strategy and device id,
// then `FSDP(model, **fsdp_config)`).
func (b *builder) kwargsWithout(cs *callgraph.CallSite, param string) bool {
	if param == "" || cs.Caller == nil {
		return false
	}
	scope := cs.Caller.Node
	for _, a := range cs.Node.Args {
		if _, ok := a.(*ast.Starred); ok {
			return false
		}
	}
	for _, k := range cs.Node.Keywords {
		if k.Arg != "" {
			continue
		}
		n, ok := k.Value.(*ast.Name)
		if !ok {
			return false
		}
		if kw := flow.LocalDict(scope, n.Id); kw != nil {
			if kw(param) != nil {
				return false
			}
			continue
		}
		call, ok := flow.LocalValue(scope, n.Id).(*ast.Call)
		if !ok || !b.returnsDictWithout(b.g.CallOf(call), param) {
			return false
		}
	}
	return true
}

// returnsDictWithout reports a call of one program function whose every
// return is a dict display with constant keys, none of them param.
func (b *builder) returnsDictWithout(cs *callgraph.CallSite, param string) bool {
	if cs == nil || len(cs.Targets) != 1 || cs.Targets[0].Fn == nil {
		return false
	}
	returns, ok := 0, true
	ast.InspectBody(ast.DefBody(cs.Targets[0].Fn.Node), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Return:
			returns++
			d, isDict := n.Value.(*ast.Dict)
			if !isDict {
				ok = false
				return false
			}
			for _, key := range d.Keys {
				k, isConst := key.(*ast.Constant)
				if key == nil || !isConst || k.Type != ast.ConstStr || k.Str == param {
					ok = false
				}
			}
		}
		return ok
	})
	return ok && returns > 0
}

func hasStarArgs(call *ast.Call) bool {
	for _, a := range call.Args {
		if _, ok := a.(*ast.Starred); ok {
			return true
		}
	}
	for _, k := range call.Keywords {
		if k.Arg == "" {
			return true
		}
	}
	return false
}

// groupsOf maps values (and the expression, for None) to groups.
func (b *builder) groupsOf(vals []callgraph.ValueID, e ast.Expr) []*rules.Group {
	if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstNone {
		return []*rules.Group{b.in.Values.world}
	}
	var out []*rules.Group
	seen := map[*rules.Group]bool{}
	add := func(g *rules.Group) {
		if g != nil && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	for _, v := range vals {
		val := b.g.Value(v)
		switch val.Kind {
		case callgraph.KOpaque:
			if g, ok := val.Data.(*rules.Group); ok {
				add(g)
			}
		case callgraph.KBoundExternal:
			// get_tp_group().device_group: the NCCL group a vLLM or SGLang
			// group coordinator's own collectives use, the coordinator's
			// group. Its cpu_group is another communicator over the same
			// ranks, a gloo one.
			device := strings.HasSuffix(val.Name, ".GroupCoordinator.device_group")
			if !device && !strings.HasSuffix(val.Name, ".GroupCoordinator.cpu_group") {
				continue
			}
			if recv := b.g.Value(val.Recv); recv != nil && recv.Kind == callgraph.KOpaque {
				if g, ok := recv.Data.(*rules.Group); ok {
					if device {
						add(g)
					} else {
						add(b.in.Values.cpuGroup(g))
					}
				}
			}
		case callgraph.KExternal:
			name := b.t.Canonical(val.Name)
			if name == "torch.distributed.group.WORLD" || strings.HasSuffix(name, ".group.WORLD") {
				add(b.in.Values.world)
			} else if gc := b.t.GroupCreators[name]; gc != nil && gc.Returns == "world" {
				add(b.in.Values.world)
			} else if strings.HasSuffix(name, "COMM_WORLD") {
				add(b.in.Values.world)
			}
		}
	}
	return out
}

func (b *builder) streamOf(e ast.Expr) *rules.Stream {
	for _, v := range b.g.ExprValues(e) {
		if s, ok := b.g.Value(v).Data.(*rules.Stream); ok {
			return s
		}
	}
	return nil
}

// pathText renders a variable or attribute path ("x", "self.buf").
func pathText(e ast.Expr) string {
	// A device pointer names the array it points into: CuPy's NCCL calls
	// take x.data.ptr (x's memory), and x.ptr for a memory object.
	if a, ok := e.(*ast.Attribute); ok && a.Attr == "ptr" {
		e = a.Value
		if d, ok := e.(*ast.Attribute); ok && d.Attr == "data" {
			e = d.Value
		}
	}
	// So does a torch tensor's t.data_ptr(), handed to CuPy's NCCL.
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 && len(c.Keywords) == 0 {
		if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "data_ptr" {
			e = a.Value
		}
	}
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		if p := pathText(e.Value); p != "" {
			return p + "." + e.Attr
		}
	case *ast.Subscript:
		return pathText(e.Value)
	case *ast.Starred:
		return pathText(e.Value)
	}
	return ""
}

func (b *builder) finishGroups() {
	b.perThreadGroups()
	add := func(g *rules.Group) {
		if g != nil && !b.groupSeen[g] {
			b.groupSeen[g] = true
			b.prog.Groups = append(b.prog.Groups, g)
		}
	}
	add(b.in.Values.world)
	for _, g := range b.in.Values.groups {
		add(g)
	}
	for _, s := range b.prog.Sites {
		add(s.Group)
		for _, r := range s.Reach {
			add(r.Group)
		}
	}
	for _, c := range b.prog.Contexts {
		add(c.Group)
		for _, g := range c.Groups {
			add(g)
		}
	}
	b.prog.Streams = append(b.prog.Streams, b.in.Values.streams...)
}

// runFlow lowers the functions whose flow facts can matter: those that
// reach a collective site through their calls (their statements order
// collectives, waits and rank branches; a rank-only decorator matters only
// on such a function) and those that call an API of the tables (streams,
// spawners, rank predicates). The others — most of a large code base — would produce
// only tensor-use events and rank branches with no collective in either
// arm, which no rule reads; skipping them does not change any summary, as
// a function that reaches no site has an empty one in any order.
func (b *builder) runFlow() {
	b.spawnRankParams()
	r := &resolver{b: b}
	// The walk indexed every file's lines already.
	for _, f := range b.in.Files {
		if starts := b.prepared.lines[f.Path]; starts != nil {
			r.sources.Seed(f, starts, b.prepared.folded[f.Path])
		}
	}
	b.selfRankAttrs(r)
	b.objectRankAttrs(r)
	b.dataRankFields(r)
	b.methodHostAttrs(r)
	reaches := b.reachesSites()
	for _, init := range b.handedRanks(r, reaches) {
		// A constructor handed a rank keeps it in an attribute.
		f := b.fnOf(init)
		r.file = b.files[f.Module.Path]
		r.mod = f.Module.Path
		for _, a := range flow.SelfRankAttrs(init, f.Node, r, b.rankParams[init]) {
			b.addRankAttr(f.Class, a)
		}
	}
	// Stream work is looked for only in files that mention a stream or a
	// storage resize (most of a code base does not).
	streamyFile := b.prepared.streamy
	streamCalls := map[*callgraph.Func]bool{}
	for _, f := range b.g.Funcs {
		if streamyFile[f.Module.Path] && (b.callsStreamAPI(f) || freesStorage(f)) {
			streamCalls[f] = true
			if f.Class != nil && entersStream(f.Node) {
				if r.streamClasses == nil {
					r.streamClasses = map[*callgraph.Class]bool{}
				}
				r.streamClasses[f.Class] = true
			}
		}
	}
	// Module bodies that bind or import a rank name are lowered first, in
	// import order (rankimports.go).
	lowered := b.lowerRankModules(r)
	// Under Lightning's ZeRO-3 strategy a generate() on a submodule
	// gathers parameters per token (flow's zero3Generate): the functions
	// that call one are lowered too.
	generates := map[*callgraph.Func]bool{}
	if flow.LightningZero3(b.prog) {
		for _, f := range b.g.Funcs {
			if f.Class != nil && callsMethodNamed(f.Node, "generate") {
				generates[f] = true
			}
		}
	}
	for _, f := range b.g.Funcs {
		rf := b.fn(f)
		if lowered[f] {
			continue
		}
		// The methods of a class one of whose methods enters a stream
		// context are lowered too: what they write on the current
		// stream another method may read on its own (CV203's
		// classmate writes).
		if !reaches[rf] && !b.callsTableAPI(f) && !streamCalls[f] && len(b.syncOps[f.Node]) == 0 && !generates[f] &&
			!(f.Class != nil && r.streamClasses[f.Class]) &&
			!(streamyFile[f.Module.Path] && callsStreamCaller(f, streamCalls)) &&
			!readsAny(f.Node, r.rankGlobals[f.Module.Path]) {
			continue
		}
		r.file = b.files[f.Module.Path]
		r.mod = f.Module.Path
		flow.Lower(rf, f.Node, r)
	}
}

// entersStream reports a `with torch.cuda.stream(s):` among a function's
// own statements: a method whose class's other methods may write what it
// reads on its side stream (flow.StreamClasser).
func entersStream(n ast.Node) bool {
	found := false
	ast.InspectBody(defBody(n), func(x ast.Node) bool {
		if w, ok := x.(*ast.With); ok && !found {
			for _, it := range w.Items {
				if c, ok := it.ContextExpr.(*ast.Call); ok && ast.CalleeName(c) == "stream" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// callsMethodNamed reports a call of a method of this name among the
// function's own statements (x.generate(…)).
func callsMethodNamed(n ast.Node, name string) bool {
	found := false
	ast.InspectBody(defBody(n), func(x ast.Node) bool {
		if c, ok := x.(*ast.Call); ok && !found {
			if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// mayBindRank reports whether a module's own statements could bind a
// module-level name to the rank (RANK = int(os.environ["RANK"]), IS_MAIN
// = jax.process_index() == 0): its body is then lowered, so that its
// functions see those names as rank values (flow.RankGlobaler).
func mayBindRank(mod ast.Node) bool {
	m, ok := mod.(*ast.Module)
	if !ok {
		return false
	}
	var stmts func([]ast.Stmt) bool
	stmts = func(body []ast.Stmt) bool {
		for _, s := range body {
			var value ast.Expr
			switch s := s.(type) {
			case *ast.Assign:
				value = s.Value
			case *ast.AnnAssign:
				value = s.Value
			case *ast.If:
				if stmts(s.Body) || stmts(s.Orelse) {
					return true
				}
			case *ast.Try:
				if stmts(s.Body) {
					return true
				}
			}
			if value != nil && mentionsRank(value) {
				return true
			}
		}
		return false
	}
	return stmts(m.Body)
}

var rankWords = []string{"rank", "RANK", "Rank", "process_index", "is_main", "main_process"}

// mentionsRank reports whether an expression names a rank: an identifier
// or attribute with a rank word (get_rank, LOCAL_RANK, process_index),
// or a string naming a rank variable of the environment ("RANK",
// "SLURM_PROCID"). Text in other strings (docstrings) does not count.
func mentionsRank(e ast.Expr) bool {
	found := false
	has := func(s string) bool {
		for _, w := range rankWords {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Name:
			found = has(n.Id)
		case *ast.Attribute:
			found = has(n.Attr)
		case *ast.Constant:
			found = n.Type == ast.ConstStr && len(n.Str) < 32 && (strings.Contains(n.Str, "RANK") || n.Str == "SLURM_PROCID")
		}
		return !found
	})
	return found
}

// readsAny reports whether a def reads one of names (its own code, not
// nested definitions): a function testing a module-level rank value
// (if IS_MAIN:) is lowered for what its arms do.
func readsAny(def ast.Node, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	ast.InspectBody(ast.DefBody(def), func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Name:
			found = n.Ctx == ast.Load && names[n.Id]
		case *ast.Attribute:
			// dist_env.RANK, for a module imported whole.
			found = n.Ctx == ast.Load && names[pathText(n)]
		}
		return !found
	})
	return found
}

// freesStorage reports whether f releases a tensor's memory
// (x.untyped_storage().resize_(0)): CV203 checks the streams that used it.
func freesStorage(f *callgraph.Func) bool {
	for _, cs := range f.Calls {
		if flow.FreesStorage(cs.Node) {
			return true
		}
	}
	return false
}

// callsStreamCaller reports whether f calls a function of its own module
// that works on a stream or frees a tensor's memory: a method of the
// class (self.prefetch()) leaves effects that f's own statements meet
// (CV203 follows such calls, see flow's inlineCalls).
func callsStreamCaller(f *callgraph.Func, streamCalls map[*callgraph.Func]bool) bool {
	for _, cs := range f.Calls {
		for _, t := range cs.Targets {
			if t.Fn != nil && t.Fn != f && streamCalls[t.Fn] && t.Fn.Module == f.Module {
				return true
			}
		}
	}
	return false
}

// reachesSites returns the functions that issue a collective, directly or
// through the calls of the model.
func (b *builder) reachesSites() map[*rules.Function]bool {
	callers := map[*rules.Function][]*rules.Function{}
	var queue []*rules.Function
	out := map[*rules.Function]bool{}
	for _, rf := range b.prog.Funcs {
		for _, c := range rf.Calls {
			if c.Callee != nil && c.Callee != rf {
				callers[c.Callee] = append(callers[c.Callee], rf)
			}
		}
		if len(rf.Sites) > 0 || len(b.syncOps[b.g.Funcs[rf.ID].Node]) > 0 {
			out[rf] = true
			queue = append(queue, rf)
		}
	}
	for len(queue) > 0 {
		f := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, c := range callers[f] {
			if !out[c] {
				out[c] = true
				queue = append(queue, c)
			}
		}
	}
	return out
}

// callsTableAPI reports whether one of f's calls may invoke an API of the
// tables (any receiver-less match included).
func (b *builder) callsTableAPI(f *callgraph.Func) bool {
	for _, cs := range f.Calls {
		for _, name := range b.apis(cs) {
			if b.inTables(name) || b.t.RankPredicates[name] != nil {
				return true
			}
		}
	}
	return false
}

// callsStreamAPI reports whether one of f's calls may invoke a stream API
// of the tables.
func (b *builder) callsStreamAPI(f *callgraph.Func) bool {
	for _, cs := range f.Calls {
		for _, name := range b.apis(cs) {
			if b.t.Streams[name] != nil {
				return true
			}
		}
	}
	return false
}

// sortSites keeps program order for output.
func sortSites(s []*rules.Site) {
	sort.SliceStable(s, func(i, j int) bool {
		a, c := s[i].Pos, s[j].Pos
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		return a.Col < c.Col
	})
}

// asyncCaller returns the position of a call of f that passes a literal
// True for f's parameter param, or else one that passes a value read from
// the configuration (an attribute or subscript: args.async_comm), with
// that value's text; nil when none does. A collective whose async flag is
// that parameter (async_op=async_op) returns a work handle on such a call.
// A caller that forwards its own parameter is followed, a few calls up.
func (b *builder) asyncCaller(f *callgraph.Func, param string) (*rules.Pos, string) {
	return b.asyncCallerDepth(f, param, 0)
}

// exprText is the source text of a one-line expression of f's module,
// "" when it spans lines or the file is not at hand.
func (b *builder) exprText(f *callgraph.Func, e ast.Expr) string {
	file := b.files[f.Module.Path]
	if file == nil {
		return ""
	}
	return testText(file.Src, b.prepared.lines[file.Path], e)
}

// maxAsyncForwarding bounds how many forwarding callers asyncCaller
// follows (wrapper of a wrapper of a wrapper).
const maxAsyncForwarding = 3

func (b *builder) asyncCallerDepth(f *callgraph.Func, param string, depth int) (*rules.Pos, string) {
	if !isParam(funcArgs(f.Node), param) {
		return nil, "" // a local, not a parameter
	}
	var configured *rules.Pos
	var flag string
	for _, cs := range b.callersOf(f) {
		x, _, _ := boundArg(f, cs.Node, param)
		switch k := x.(type) {
		case *ast.Constant:
			if k.Type == ast.ConstBool && k.Bool {
				p := b.pos(cs.Caller.Module.Path, cs.Node)
				return &p, ""
			}
		case *ast.Name:
			// The caller forwards its own flag: ask its callers.
			if depth < maxAsyncForwarding && cs.Caller != f {
				if p, fl := b.asyncCallerDepth(cs.Caller, k.Id, depth+1); p != nil {
					if fl == "" {
						return p, ""
					}
					if configured == nil {
						configured, flag = p, fl
					}
				}
			}
		case *ast.Attribute, *ast.Subscript:
			if t := b.exprText(cs.Caller, x); t != "" && configured == nil {
				p := b.pos(cs.Caller.Module.Path, cs.Node)
				configured, flag = &p, t
			}
		}
	}
	return configured, flag
}

// callersOf returns the explicit calls that may call f.
func (b *builder) callersOf(f *callgraph.Func) []*callgraph.CallSite {
	if b.callers == nil {
		b.callers = map[*callgraph.Func][]*callgraph.CallSite{}
		for _, cs := range b.g.Calls {
			if cs.Node == nil || cs.Kind != callgraph.CallExplicit {
				continue
			}
			for _, t := range cs.Targets {
				if t.Fn != nil {
					b.callers[t.Fn] = append(b.callers[t.Fn], cs)
				}
			}
		}
	}
	return b.callers[f]
}

// calledImplicitly reports a function that some call site other than a
// call expression runs (a thread's target, a callback a library calls).
func (b *builder) calledImplicitly(f *callgraph.Func) bool {
	if b.implicitCallees == nil {
		b.implicitCallees = map[*callgraph.Func]bool{}
		for _, cs := range b.g.Calls {
			if cs.Kind == callgraph.CallExplicit {
				continue
			}
			for _, t := range cs.Targets {
				if t.Fn != nil {
					b.implicitCallees[t.Fn] = true
				}
			}
		}
	}
	return b.implicitCallees[f]
}

// isParam reports whether name is a parameter of a def with these
// arguments (positional or keyword-only).
func isParam(args *ast.Arguments, name string) bool {
	if args == nil {
		return false
	}
	for _, a := range allParams(args) {
		if a.Arg == name {
			return true
		}
	}
	return false
}

// boundArg returns what call passes to f's parameter param: the argument
// expression (by keyword, or by position, a method's receiver not counted),
// or, when the call does not pass it, the parameter's default (dflt).
// known is false when the call's starred arguments may pass it.
func boundArg(f *callgraph.Func, call *ast.Call, param string) (x, dflt ast.Expr, known bool) {
	args := funcArgs(f.Node)
	if args == nil || call == nil {
		return nil, nil, false
	}
	positional := args.Positional()
	pos := -1
	for i, a := range positional {
		if a.Arg == param {
			pos = i
			if first := len(positional) - len(args.Defaults); i >= first {
				dflt = args.Defaults[i-first]
			}
		}
	}
	for i, a := range args.KwOnlyArgs {
		if a.Arg == param && i < len(args.KwDefaults) {
			dflt = args.KwDefaults[i]
		}
	}
	at := pos
	if at >= 0 && f.Class != nil && !f.Static {
		at-- // self / cls
	}
	if a, ok := call.Func.(*ast.Attribute); ok && a.Attr == "apply" && f.Static && strings.HasSuffix(f.Name, ".forward") {
		at-- // Function.apply(x, …) runs forward(ctx, x, …)
	}
	known = true
	for _, k := range call.Keywords {
		switch k.Arg {
		case param:
			return k.Value, dflt, true
		case "":
			known = false // **kwargs may pass it
		}
	}
	for i, a := range call.Args {
		if _, isStar := a.(*ast.Starred); isStar {
			if i <= at {
				return nil, dflt, false
			}
			known = false
			continue
		}
		if i == at {
			return a, dflt, true
		}
	}
	return nil, dflt, known
}

// annotatedClass returns the qualified name of the class that recv, a
// parameter of f or of a function enclosing it, is annotated with (or,
// for an attribute of such a parameter, that class's attribute), or "".
// Optional[X], X | None, Union[X, None] and string annotations count.
func (b *builder) annotatedClass(f *callgraph.Func, recv ast.Expr) string {
	if a, ok := recv.(*ast.Attribute); ok {
		// trainer.strategy, for trainer: Trainer: the attribute of that
		// class ("lightning.pytorch.Trainer.strategy", which the tables
		// may declare an instance of a class).
		if base := b.annotatedClass(f, a.Value); base != "" {
			return base + "." + a.Attr
		}
		return ""
	}
	name, ok := recv.(*ast.Name)
	if !ok {
		return ""
	}
	for ; f != nil; f = f.Parent {
		args := funcArgs(f.Node)
		if args == nil {
			continue
		}
		for _, a := range allParams(args) {
			if a.Arg == name.Id {
				if a.Annotation == nil {
					return ""
				}
				return b.annotationClass(f.Module.Path, a.Annotation)
			}
		}
	}
	return ""
}

// annotationClass resolves an annotation to one class's qualified name
// through the module's imports, or "".
func (b *builder) annotationClass(path string, e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Constant:
		if x.Type != ast.ConstStr {
			return ""
		}
		parts := strings.Split(x.Str, ".")
		var expr ast.Expr = &ast.Name{Id: strings.TrimSpace(parts[0])}
		for _, p := range parts[1:] {
			expr = &ast.Attribute{Value: expr, Attr: strings.TrimSpace(p)}
		}
		return b.annotationClass(path, expr)
	case *ast.BinOp: // X | None
		if x.Op != ast.BitOr {
			return ""
		}
		if isNoneExpr(x.Right) {
			return b.annotationClass(path, x.Left)
		}
		if isNoneExpr(x.Left) {
			return b.annotationClass(path, x.Right)
		}
		return ""
	case *ast.Subscript: // Optional[X], Union[X, None]
		switch lastName(b.ref(path, x.Value)) {
		case "Optional":
			return b.annotationClass(path, x.Slice)
		case "Union":
			t, ok := x.Slice.(*ast.Tuple)
			if !ok {
				return ""
			}
			var one ast.Expr
			for _, el := range t.Elts {
				if isNoneExpr(el) {
					continue
				}
				if one != nil {
					return "" // a real union: no single class
				}
				one = el
			}
			if one != nil {
				return b.annotationClass(path, one)
			}
		}
		return ""
	case *ast.Name, *ast.Attribute:
		name := b.ref(path, x)
		if gc := b.t.GroupCreators[name]; gc != nil && gc.Type != "" && isClassName(name) {
			// A class whose constructor makes a group (ProcessGroupNCCL):
			// its instances have the group's type.
			return gc.Type
		}
		return name
	}
	return ""
}

func isNoneExpr(e ast.Expr) bool {
	k, ok := e.(*ast.Constant)
	return ok && k.Type == ast.ConstNone
}

func lastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// funcArgs returns the parameters of a def or async def, nil otherwise.
func funcArgs(n ast.Node) *ast.Arguments {
	switch n := n.(type) {
	case *ast.FunctionDef:
		return n.Args
	case *ast.AsyncFunctionDef:
		return n.Args
	}
	return nil
}

// allParams lists positional-only, positional and keyword-only parameters.
func allParams(args *ast.Arguments) []*ast.Arg {
	return append(args.Positional(), args.KwOnlyArgs...)
}

// selfRankAttrs records, per class, the attributes of its instances
// that its methods assign a rank test (flow.SelfRankAttrs), for the
// resolver's RankAttrs.
func (b *builder) selfRankAttrs(r *resolver) {
	b.rankAttrs = map[*callgraph.Class][]flow.RankAttr{}
	b.rankAttrNames = map[string]bool{}
	flags := map[*callgraph.Class]map[string]bool{}
	computed := map[*callgraph.Class]map[string]bool{}
	for _, f := range b.g.Funcs {
		if f.Class == nil || f.Static || f.ClassMethod || f.Node == nil {
			continue
		}
		rf := b.fn(f)
		r.file = b.files[f.Module.Path]
		r.mod = f.Module.Path
		for _, a := range flow.SelfRankAttrs(rf, f.Node, r, b.rankParams[rf]) {
			b.addRankAttr(f.Class, a)
		}
		fl, comp := flow.RankFlagAttrs(rf, f.Node, r)
		addNames(flags, f.Class, fl)
		addNames(computed, f.Class, comp)
	}
	// Flags some method sets on some ranks only, and no method computes
	// (flow.RankFlagAttrs), in a stable order.
	for _, c := range b.g.Classes {
		var names []string
		for name := range flags[c] {
			if !computed[c][name] {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			b.addRankAttr(c, flow.RankAttr{Name: name})
		}
	}
}

// objectRankAttrs collects the attributes functions set to a rank test
// on objects other than their own instance (flow.ObjectRankAttrs), by
// the values those objects may be: an options object set up once
// (`params.is_master = …` in XLM's init_distributed_mode) and tested
// wherever it is handed (`self.params.is_master`). Only files that name
// a rank are read.
func (b *builder) objectRankAttrs(r *resolver) {
	b.objRankAttrs = map[callgraph.ValueID]map[string]bool{}
	for _, f := range b.g.Funcs {
		if f.Node == nil || f.Static {
			continue
		}
		if _, isDef := f.Node.(*ast.Module); isDef {
			continue
		}
		r.file = b.files[f.Module.Path]
		r.mod = f.Module.Path
		for _, a := range flow.ObjectRankAttrs(b.fn(f), f.Node, r, f.Class != nil && !f.ClassMethod) {
			for _, v := range b.g.ExprValues(a.Target) {
				if b.objRankAttrs[v] == nil {
					b.objRankAttrs[v] = map[string]bool{}
				}
				b.objRankAttrs[v][a.Attr] = true
				b.rankAttrNames[a.Attr] = true
			}
		}
	}
}

// methodHostAttrs collects, per class, the attributes its methods other
// than __init__ set from this host's file system (flow.MethodHostAttrs),
// for the resolver's HostAttrs. Only files that name a check are read.
func (b *builder) methodHostAttrs(r *resolver) {
	b.hostAttrs = map[*callgraph.Class][]string{}
	for _, f := range b.g.Funcs {
		if f.Class == nil || f.Static || f.ClassMethod || f.Node == nil {
			continue
		}
		path := f.Module.Path
		// Only a method whose own lines name a check, or that calls a
		// function whose lines do, directly or through one more call
		// (`epoch = self.find_last_epoch(suffix)`, which globs through
		// utils.find_last_epoch, then `self._epoch = epoch`: obow's
		// Solver), is read.
		if !b.namesFsCheck(f) && !b.callsFsChecker(f, 2) {
			continue
		}
		r.file = b.files[path]
		r.mod = path
		for _, a := range flow.MethodHostAttrs(b.fn(f), f.Node, r) {
			if !slices.Contains(b.hostAttrs[f.Class], a) {
				b.hostAttrs[f.Class] = append(b.hostAttrs[f.Class], a)
			}
		}
	}
}

// namesFsCheck reports a function whose own lines name a file system
// check (fsCheckWords).
func (b *builder) namesFsCheck(f *callgraph.Func) bool {
	if f.Node == nil || f.Module == nil {
		return false
	}
	lines := b.prepared.fsChecks[f.Module.Path] // sorted
	sp := f.Node.Span()
	i, _ := slices.BinarySearch(lines, int(sp.Lineno))
	return i < len(lines) && lines[i] <= int(sp.EndLineno)
}

// callsFsChecker reports a call of f that reaches, within depth calls, a
// function whose own lines name a file system check.
func (b *builder) callsFsChecker(f *callgraph.Func, depth int) bool {
	if depth == 0 {
		return false
	}
	return slices.ContainsFunc(f.Calls, func(cs *callgraph.CallSite) bool {
		return slices.ContainsFunc(cs.Targets, func(t callgraph.Target) bool {
			return t.Fn != nil && t.Fn != f && (b.namesFsCheck(t.Fn) || b.callsFsChecker(t.Fn, depth-1))
		})
	})
}

// fsCheckWords are fragments of the file system checks' names
// (flow's fsWords, less os.walk's, which the methods' resolve-state
// checks do not use).
var fsCheckWords = [][]byte{[]byte("exists"), []byte("isfile"), []byte("isdir"), []byte("listdir"), []byte("glob"), []byte("scandir"), []byte("iterdir"), []byte("is_file"), []byte("is_dir")}

// fsCheckLines returns, sorted, the 1-based lines of f that name a file
// system check (fsCheckWords), given its line starts; nil for none.
func fsCheckLines(f *rules.File, starts []int) []int {
	if f == nil {
		return nil
	}
	if len(starts) == 0 {
		starts = flow.LineStarts(f.Src)
	}
	var out []int
	for _, w := range fsCheckWords {
		src, off := f.Src, 0
		for {
			i := bytes.Index(src[off:], w)
			if i < 0 {
				break
			}
			at := off + i
			out = append(out, sort.SearchInts(starts, at+1)) // starts[line-1] <= at

			off = at + len(w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// dataRankFields adds, to the rank attributes of a data class (a
// dataclass, an attrs or NamedTuple class, none with a program __init__),
// the fields its constructions pass the rank or a test of it by keyword
// (rq-vae's `DistEnv(…, master=(dist.get_rank() == 0))`).
func (b *builder) dataRankFields(r *resolver) {
	type construction struct {
		call    *callgraph.CallSite
		classes []*callgraph.Class
	}
	byCaller := map[*callgraph.Func][]construction{}
	var callers []*callgraph.Func
	for _, cs := range b.g.Calls {
		if cs.Node == nil || len(cs.Node.Keywords) == 0 || cs.Caller == nil || cs.Caller.Node == nil {
			continue
		}
		var classes []*callgraph.Class
		for _, v := range b.g.ResultValues(cs) {
			if val := b.g.Value(v); val != nil && val.Kind == callgraph.KInstance && dataClass(val.Class) {
				if fns, ext := b.g.Lookup(val.Class, "__init__"); len(fns) == 0 && ext == "" {
					classes = append(classes, val.Class)
				}
			}
		}
		if len(classes) > 0 {
			if byCaller[cs.Caller] == nil {
				callers = append(callers, cs.Caller)
			}
			byCaller[cs.Caller] = append(byCaller[cs.Caller], construction{cs, classes})
		}
	}
	for _, f := range callers {
		var kws []*ast.Keyword
		var owners [][]*callgraph.Class
		for _, c := range byCaller[f] {
			for _, kw := range c.call.Node.Keywords {
				if kw.Arg != "" {
					kws = append(kws, kw)
					owners = append(owners, c.classes)
				}
			}
		}
		exprs := make([]ast.Expr, len(kws))
		for i, kw := range kws {
			exprs[i] = kw.Value
		}
		r.file = b.files[f.Module.Path]
		r.mod = f.Module.Path
		for i, rank := range flow.RankExprsIn(b.fn(f), f.Node, r, exprs) {
			if !rank {
				continue
			}
			for _, c := range owners[i] {
				b.addRankAttr(c, flow.RankAttr{Name: kws[i].Arg})
			}
		}
	}
}

// dataClass reports a class declared as a record of fields: decorated
// with dataclass (or attrs' define/frozen/s), or based on NamedTuple.
func dataClass(c *callgraph.Class) bool {
	if c == nil || c.Node == nil {
		return false
	}
	for _, d := range c.Node.DecoratorList {
		if call, ok := d.(*ast.Call); ok {
			d = call.Func
		}
		switch lastIdent(d) {
		case "dataclass", "define", "frozen", "s", "attrs":
			return true
		}
	}
	for _, base := range c.Node.Bases {
		if lastIdent(base) == "NamedTuple" {
			return true
		}
	}
	return false
}

// addRankAttr records a as a rank attribute of c's instances.
func (b *builder) addRankAttr(c *callgraph.Class, a flow.RankAttr) {
	b.rankAttrs[c] = flow.MergeRankAttr(b.rankAttrs[c], a)
	if b.rankAttrNames == nil {
		b.rankAttrNames = map[string]bool{}
	}
	b.rankAttrNames[a.Name] = true
}

// addNames adds names to m's set for c.
func addNames(m map[*callgraph.Class]map[string]bool, c *callgraph.Class, names []string) {
	if len(names) == 0 {
		return
	}
	if m[c] == nil {
		m[c] = map[string]bool{}
	}
	for _, n := range names {
		m[c][n] = true
	}
}

// syncs reports a function that issues a synchronised forward or backward
// itself (a training loop handed the DDP model): it reaches no collective
// site, but a bound it is handed splits its implicit collectives.
func (b *builder) syncs(fn *rules.Function) bool {
	f := b.fnOf(fn)
	return f != nil && len(b.syncOps[f.Node]) > 0
}

// maxRankRounds bounds how many times a rank is followed from helper to
// helper (main passes it to train, train to save, …).
const maxRankRounds = 3

// handedRanks adds to rankParams the parameters to which a function that
// reaches a collective passes a rank-dependent value (flow.RankArguments),
// and returns the constructors that gained one.
func (b *builder) handedRanks(r *resolver, reaches map[*rules.Function]bool) (inits []*rules.Function) {
	// The first round reads every function that reaches a collective;
	// later ones only those that gained rank parameters.
	// A constructor reaches no collective itself, but the attributes it
	// sets are read by the methods of its class that do
	// (`SymmMem(dist.get_rank(group), group)` keeps self.group_rank).
	communicating := map[*callgraph.Class]bool{}
	for _, f := range b.g.Funcs {
		if f.Class != nil && reaches[b.fn(f)] {
			communicating[f.Class] = true
		}
	}
	storesForCollectives := func(callee *rules.Function) bool {
		f := b.fnOf(callee)
		return f != nil && f.Class != nil && communicating[f.Class] && strings.HasSuffix(f.Name, ".__init__")
	}
	var dirty map[*rules.Function]bool
	for round := 0; round < maxRankRounds; round++ {
		changed := false
		gained := map[*rules.Function]bool{}
		for _, f := range b.g.Funcs {
			rf := b.fn(f)
			if !reaches[rf] || dirty != nil && !dirty[rf] {
				continue
			}
			r.file = b.files[f.Module.Path]
			r.mod = f.Module.Path
			for callee, params := range flow.RankArguments(rf, f.Node, r, b.rankParams[rf]) {
				if !reaches[callee] && !storesForCollectives(callee) && !b.syncs(callee) {
					continue // no collective for a condition to split
				}
				for _, p := range params {
					if !slices.Contains(b.rankParams[callee], p) {
						b.rankParams[callee] = append(b.rankParams[callee], p)
						// A constructor keeps what it is handed in its
						// attributes: read them again with the new
						// parameters (one that reaches a collective itself
						// was read before any were known).
						if (!reaches[callee] || strings.HasSuffix(callee.Name, ".__init__")) && !slices.Contains(inits, callee) {
							inits = append(inits, callee)
						}
						gained[callee] = true
						changed = true
					}
				}
			}
		}
		if !changed {
			return inits
		}
		dirty = gained
	}
	return inits
}

// processSpawners start processes that call their function argument with
// the process index first: fn(i, *args), i in 0..nprocs-1. On one node
// that index is the rank the training script passes to
// init_process_group (the PyTorch DDP tutorial's mp.spawn(train, …)).
// (torchelastic's start_processes passes per-rank args, not an index.)
var processSpawners = map[string]bool{
	"torch.multiprocessing.spawn":                 true,
	"torch.multiprocessing.spawn.spawn":           true,
	"torch.multiprocessing.start_processes":       true,
	"torch.multiprocessing.spawn.start_processes": true,
}

// spawnRankParams records the first parameter of every program function
// that a process spawner runs as a rank parameter.
func (b *builder) spawnRankParams() {
	b.rankParams = map[*rules.Function][]string{}
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Kind != callgraph.CallExplicit {
			continue
		}
		if !b.callsExternal(cs, processSpawners) {
			continue
		}
		var target ast.Expr
		if len(cs.Node.Args) > 0 {
			target = cs.Node.Args[0]
		}
		for _, k := range cs.Node.Keywords {
			if k.Arg == "fn" {
				target = k.Value
			}
		}
		if target == nil {
			continue
		}
		for _, v := range b.g.ExprValues(target) {
			val := b.g.Value(v)
			if val == nil || val.Fn == nil || (val.Kind != callgraph.KFunc && val.Kind != callgraph.KBound) {
				continue
			}
			args := funcArgs(val.Fn.Node)
			if args == nil {
				continue
			}
			params := args.Positional()
			i := 0
			if val.Kind == callgraph.KBound || val.Fn.Class != nil && !val.Fn.Static {
				i = 1 // the receiver
			}
			if i < len(params) {
				rf := b.fn(val.Fn)
				if rf != nil && !slices.Contains(b.rankParams[rf], params[i].Arg) {
					b.rankParams[rf] = append(b.rankParams[rf], params[i].Arg)
				}
			}
		}
	}
}

// processEntries marks the functions process launchers start in new
// processes (rules.Function.Process), before any phase asks which code
// can share a process (rules.Processes).
func (b *builder) processEntries() {
	for _, cs := range b.g.Calls {
		if cs.Node != nil && cs.Kind == callgraph.CallExplicit {
			b.markProcessEntries(cs)
		}
	}
	b.libraryInits()
}

// libraryInits marks the init_process_group calls that no script,
// thread or launched process of the program reaches, only a function
// nothing in the program calls (a vendored module's own init wrapper):
// they say nothing about where the job's ranks meet
// (rules.InitSite.Library).
func (b *builder) libraryInits() {
	var pending []*rules.InitSite
	for _, is := range b.prog.Facts.Inits {
		if is.Func != nil && !b.entryReached[is.Func] {
			pending = append(pending, is)
		}
	}
	if len(pending) == 0 {
		return
	}
	launched := map[*rules.Function]bool{}
	var work []*rules.Function
	for _, f := range b.prog.Funcs {
		if f.Process {
			launched[f] = true
			work = append(work, f)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range f.Calls {
			if c.Callee != nil && !launched[c.Callee] {
				launched[c.Callee] = true
				work = append(work, c.Callee)
			}
		}
	}
	for _, is := range pending {
		is.Library = !launched[is.Func]
	}
}

// markProcessEntries marks the functions a process launcher's call starts
// in a new process (rules.Function.Process): the target of
// multiprocessing.Process(target=f) and the function mp.spawn(f) runs.
func (b *builder) markProcessEntries(cs *callgraph.CallSite) {
	if !b.callsExternal(cs, flow.ProcessLaunchers) {
		return
	}
	var target ast.Expr
	if len(cs.Node.Args) > 0 && !b.callsExternal(cs, processConstructors) {
		target = cs.Node.Args[0]
	}
	for _, k := range cs.Node.Keywords {
		if k.Arg == "fn" || k.Arg == "target" {
			target = k.Value
		}
	}
	if target == nil {
		return
	}
	for _, v := range b.g.ExprValues(target) {
		if val := b.g.Value(v); val != nil && val.Fn != nil && (val.Kind == callgraph.KFunc || val.Kind == callgraph.KBound) {
			if rf := b.fn(val.Fn); rf != nil {
				rf.Process = true
			}
		}
	}
}

// processConstructors take the target by keyword (Process(group, target,
// …)): their first positional argument is no function.
var processConstructors = map[string]bool{
	"torch.multiprocessing.Process":   true,
	"multiprocessing.Process":         true,
	"multiprocessing.context.Process": true,
}

// perThreadGroups marks the groups created in a function that a thread
// started several times runs: one group per thread.
func (b *builder) perThreadGroups() {
	if len(b.groupFn) == 0 {
		return
	}
	seen := map[*rules.Function]bool{}
	var queue []*rules.Function
	for _, c := range b.prog.Contexts {
		if c.Many && c.Entry != nil && !seen[c.Entry] {
			seen[c.Entry] = true
			queue = append(queue, c.Entry)
		}
	}
	nodes := map[ast.Node]bool{}
	for len(queue) > 0 {
		f := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if f.ID >= 0 && f.ID < len(b.g.Funcs) {
			nodes[b.g.Funcs[f.ID].Node] = true
		}
		for _, c := range f.Calls {
			if c.Callee != nil && !seen[c.Callee] {
				seen[c.Callee] = true
				queue = append(queue, c.Callee)
			}
		}
	}
	// A group made in __init__ of a class the program instantiates in a
	// loop or comprehension: one group per instance (a per-parameter-group
	// distributor's new_subgroups).
	for call := range b.loopCalls {
		if cs := b.g.CallOf(call); cs != nil {
			for _, t := range cs.Targets {
				if t.Fn != nil && t.Fn.Class != nil && strings.HasSuffix(t.Fn.Name, ".__init__") {
					nodes[t.Fn.Node] = true
				}
			}
		}
	}
	for g, fn := range b.groupFn {
		if nodes[fn] {
			g.PerIteration = true
			if g.API == "cupy.cuda.nccl.NcclCommunicator" && b.sharedCommID(g, fn) {
				// Each thread makes its own rank of one communicator from
				// the unique id they were all handed (NCCL's one device
				// per thread, written with CuPy).
				g.Clique = true
			}
		}
	}
}

// sharedCommID reports a CuPy NcclCommunicator(ndev, commId, rank) made
// in fn whose commId fn does not make itself (a parameter, a global):
// every thread running fn passes the id its starter made once.
func (b *builder) sharedCommID(g *rules.Group, fn ast.Node) bool {
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Caller == nil || cs.Caller.Node != fn || b.groupAt[callPos(cs)] != g {
			continue
		}
		id := argExpr(cs.Node, argSpec(1, "commId"))
		n, ok := id.(*ast.Name)
		if !ok || assignsName(ast.DefBody(fn), n.Id, false) {
			return false
		}
		idx := slices.Index(funcArgs(fn).PositionalNames(), n.Id)
		return idx >= 0 && b.spawnersShareArg(cs.Caller, idx)
	}
	return false
}

// spawnersShareArg reports whether every thread start whose target is f
// (Thread(target=f, args=(…))) passes, at position idx of args, a name
// its function binds outside any loop (or a parameter of it): one value
// for every thread it starts. None found: false.
func (b *builder) spawnersShareArg(f *callgraph.Func, idx int) bool {
	found := false
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Caller == nil {
			continue
		}
		var target, args ast.Expr
		for _, k := range cs.Node.Keywords {
			switch k.Arg {
			case "target":
				target = k.Value
			case "args":
				args = k.Value
			}
		}
		if target == nil || !slices.ContainsFunc(b.g.ExprValues(target), func(v callgraph.ValueID) bool {
			val := b.g.Value(v)
			return val != nil && val.Fn == f
		}) {
			continue
		}
		elts := ast.SeqElts(args)
		if idx >= len(elts) {
			return false
		}
		n, ok := elts[idx].(*ast.Name)
		if !ok || assignsName(ast.DefBody(cs.Caller.Node), n.Id, true) {
			return false
		}
		found = true
	}
	return found
}

// assignsName reports an assignment to name in body; inLoops: only one
// inside a loop or comprehension of it.
func assignsName(body []ast.Stmt, name string, inLoops bool) bool {
	found := false
	var walk func(n ast.Node, loop bool) bool
	walk = func(n ast.Node, loop bool) bool {
		switch x := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.For, *ast.AsyncFor, *ast.While, *ast.ListComp, *ast.GeneratorExp, *ast.SetComp, *ast.DictComp:
			ast.Children(x, func(c ast.Node) { ast.Inspect(c, func(m ast.Node) bool { return walk(m, true) }) })
			return false
		case *ast.Name:
			if x.Id == name && x.Ctx == ast.Store && (loop || !inLoops) {
				found = true
			}
		}
		return !found
	}
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool { return walk(n, false) })
	}
	return found
}

// isName reports whether e is the name id.
func isName(e ast.Expr, id string) bool {
	n, ok := e.(*ast.Name)
	return ok && n.Id == id
}
