package callgraph

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Hooks let the model builder give external calls their results: process
// groups, meshes and streams as opaque values.
type Hooks interface {
	// ExternalCall is asked about every call of an external symbol (name
	// canonical). recv is the receiver for methods of opaque values (0
	// otherwise). It returns the values the call produces and whether it
	// handled the call; unhandled calls produce the external value of
	// the same name (an instance of an external class answers attribute
	// look-ups as ext.Class.attr).
	ExternalCall(g *Graph, cs *CallSite, name string, recv ValueID) ([]ValueID, bool)
	// Index is asked about subscripts of opaque values (mesh["dp"]); key
	// is the constant key as text, "" when not constant.
	Index(g *Graph, v ValueID, key string) []ValueID
}

// moduleCall reports the __call__ of torch.nn.Module or of one of
// torch.nn's layer classes, under their names: calling an instance of a
// subclass runs the subclass's forward (a tensor-parallel layer derived
// from nn.Linear).
func moduleCall(name string) bool {
	cls, ok := strings.CutSuffix(name, ".__call__")
	return ok && isTorchModule(cls)
}

// notModules are the classes torch.nn exports that are no module: tensor
// types.
var notModules = map[string]bool{"Parameter": true, "UninitializedParameter": true, "Buffer": true, "UninitializedBuffer": true}

// isTorchModule reports torch.nn.Module and the layer classes of torch.nn
// (torch.nn.Linear, torch.nn.modules.linear.Linear), by canonical name:
// every class torch.nn or its modules package exports is a Module
// subclass but for the tensor types.
func isTorchModule(ext string) bool {
	rest, ok := strings.CutPrefix(ext, "torch.nn.")
	if !ok {
		return false
	}
	if m, ok := strings.CutPrefix(rest, "modules."); ok {
		// torch.nn.modules.<module>.<Class>
		_, rest, ok = strings.Cut(m, ".")
		if !ok {
			return false
		}
	}
	if rest == "" || strings.Contains(rest, ".") || notModules[rest] {
		return false
	}
	return rest[0] >= 'A' && rest[0] <= 'Z'
}

// call applies callee value v at cs.
func (g *Graph) call(cid constraintID, cs *CallSite, v ValueID) {
	val := g.Values[v]
	switch val.Kind {
	case KFunc:
		if cs.Kind == CallRaise {
			return
		}
		g.addTarget(cs, Target{Fn: val.Fn})
		g.bind(cs, val.Fn, false)
	case KBound:
		if cs.Kind == CallRaise {
			return
		}
		g.addTarget(cs, Target{Fn: val.Fn})
		g.bind(cs, val.Fn, true)
	case KClass:
		inst := g.instanceValue(val.Class)
		g.s.add(cs.result, inst)
		s, ext, ok := g.lookupClass(val.Class, "__init__", &watcher{c: cid, v: v})
		if !ok || ext == "<builtin>.object.__init__" {
			// No __init__ of its own: a dataclass's generated one stores
			// the arguments in its fields.
			if fields, isDC := dataclassFields(val.Class); isDC {
				g.dataclassInit(cid, cs, inst, fields)
			}
		}
		if !ok {
			return
		}
		if ext != "" {
			if ext != "<builtin>.object.__init__" {
				g.addTarget(cs, Target{External: g.canon(ext)})
			}
			if m := g.canon(ext); moduleContainerMethod(m) {
				g.moduleContainerCall(cs, inst, m) // Blocks([b1, b2]) of a ModuleList subclass
			}
			return
		}
		g.use(s, constraint{kind: cInit, cs: cs, recv: inst, mode: 0})
	case KInstance:
		if cs.Kind == CallRaise {
			return
		}
		s, ext, ok := g.lookupClass(val.Class, "__call__", &watcher{c: cid, v: v})
		if !ok {
			return
		}
		if ext != "" {
			g.addTarget(cs, Target{External: g.canon(ext)})
			if moduleCall(g.canon(ext)) {
				// torch.nn.Module.__call__ runs the subclass's forward
				// (through its hooks): model(x) calls Model.forward.
				if fs, fext, ok := g.lookupClass(val.Class, "forward", &watcher{c: cid, v: v}); ok && fext == "" {
					g.use(fs, constraint{kind: cInit, cs: cs, recv: v, mode: 1})
				}
			}
			return
		}
		g.use(s, constraint{kind: cInit, cs: cs, recv: v, mode: 1})
	case KExternal:
		if cs.Kind == CallRaise {
			// raise Name: a builtin exception class is no call edge
			// (PyCG resolves only names it defines or imports there);
			// an imported external class is.
			if !strings.HasPrefix(val.Name, "<builtin>.") {
				g.addTarget(cs, Target{External: val.Name})
			}
			return
		}
		g.addTarget(cs, Target{External: val.Name})
		g.externalCall(cs, val.Name, 0, v)
	case KBoundExternal:
		g.addTarget(cs, Target{External: val.Name})
		recv := g.Values[val.Recv]
		switch recv.Kind {
		case KContainer:
			g.containerMethod(cs, val.Recv, val.Name)
			return
		case KInstance:
			if moduleContainerMethod(val.Name) {
				g.moduleContainerCall(cs, val.Recv, val.Name)
				return
			}
			if moduleSelfMethod(val.Name) {
				// model = Model().cuda(): torch.nn.Module's cuda, to,
				// half, train … return the module itself.
				g.s.add(cs.result, val.Recv)
			}
		case KOpaque:
			// DistributedDataParallel(net).to(device): a wrapper of
			// torch's own is a Module too, and the same methods return
			// it.
			if i := strings.LastIndexByte(val.Name, '.'); i > 0 && moduleSelfMethods[val.Name[i+1:]] && torchModuleType(recv.Name) {
				g.s.add(cs.result, val.Recv)
			}
		case KClass: // autogradApply
			// Function.apply(*args) runs forward(ctx, *args) on the
			// caller's thread and returns what it returns.
			s, ext, ok := g.lookupClass(recv.Class, "forward", &watcher{c: cid, v: v})
			if ok && ext == "" {
				g.use(s, constraint{kind: cInit, cs: cs, mode: initApply})
			}
			return
		}
		g.externalCall(cs, val.Name, val.Recv, 0)
	case KContainer:
		if val.Name == SequentialKind && cs.Kind == CallExplicit && !g.seqCalls[seqCall{cs, v}] {
			// Calling an nn.Sequential calls each module it holds (once
			// per call site and container: a Sequential can hold itself,
			// `s = nn.Sequential(s)` in a loop).
			if g.seqCalls == nil {
				g.seqCalls = map[seqCall]bool{}
			}
			g.seqCalls[seqCall{cs, v}] = true
			g.use(g.elemSlot(v, "*"), constraint{kind: cCall, cs: cs})
		}
	case KPartial:
		g.callPartial(cid, cs, val.Recv, int(val.Args))
	case KWraps:
		if len(cs.args) > 0 {
			g.copy(cs.args[0], cs.result)
		}
	}
}

// externalCall gives the result of calling an external symbol, with the
// generic Python semantics of a few builtins and functools.
//
// self is the external value named name when the caller has it (calling
// an external returns the external itself, in PyCG's convention); 0: it
// is looked up.
func (g *Graph) externalCall(cs *CallSite, name string, recv, self ValueID) {
	arg := func(i int) slotID {
		if i < len(cs.args) {
			return cs.args[i]
		}
		return noSlot
	}
	switch name {
	case "importlib.import_module":
		// A module, named by the argument: the builder added it when the
		// name is a constant (importedByCall); otherwise unknown, and
		// not the import_module function itself.
		return
	case "<builtin>.map":
		// map(f, xs) calls f, and iterating its result gives what f
		// returns (`for r in map(make, xs): r()`).
		if cb := g.callback(cs, arg(0)); cb != nil && cs.Node != nil {
			seq := g.Container(cs.Node, "list")
			g.copy(cb.result, g.elemSlot(seq, "*"))
			g.s.add(cs.result, seq)
		}
		return
	case "collections.defaultdict":
		// defaultdict(SmoothedValue) makes its missing elements by
		// calling the factory: the meters a metric logger iterates are
		// SmoothedValue instances (DeiT's MetricLogger and the many
		// trainers copied from it).
		if cs.Node != nil && len(cs.args) > 0 {
			c := g.Container(cs.Node, "dict")
			if cb := g.callback(cs, arg(0)); cb != nil {
				g.copy(cb.result, g.elemSlot(c, "*"))
				g.copy(cb.result, g.elemSlot(c, "?"))
			}
			g.s.add(cs.result, c)
			return
		}
	case "wandb.agent", "wandb.wandb_agent.agent":
		// wandb.agent(sweep_id, function=train) runs train for each
		// sweep trial and returns when they are done: a call of it.
		fn := arg(1)
		for i, k := range cs.kwNames {
			if k == "function" {
				fn = cs.kwSlots[i]
			}
		}
		g.callback(cs, fn)
		return
	case "<builtin>.filter":
		// filter(f, xs) calls f and keeps some of xs's elements.
		g.callback(cs, arg(0))
		g.elementsOf(cs, arg(1))
		return
	case "<builtin>.sorted", "<builtin>.min", "<builtin>.max":
		if name == "<builtin>.sorted" {
			g.elementsOf(cs, arg(0)) // the same elements, in another order
		}
		for i, k := range cs.kwNames {
			if k == "key" {
				g.callback(cs, cs.kwSlots[i])
			}
		}
		return
	case "functools.reduce":
		g.callback(cs, arg(0))
		return
	case "functools.partial":
		g.use(arg(0), constraint{kind: cPartial, dst: cs.result, cs: cs})
		return
	case "functools.wraps":
		g.s.add(cs.result, g.intern(Value{Kind: KWraps}))
		return
	case "ray.rllib.utils.framework.try_import_torch":
		// torch, nn = try_import_torch(): RLlib's import shim hands back
		// the modules, which every RLlib torch module then calls through.
		if cs.Node != nil {
			tup := g.Container(cs.Node, "tuple")
			for i, m := range []string{"torch", "torch.nn"} {
				g.s.add(g.elemSlot(tup, "["+itoa(i)+"]"), g.External(m))
				g.s.add(g.elemSlot(tup, "*"), g.External(m))
			}
			g.s.add(cs.result, tup)
		}
		return
	case "<builtin>.staticmethod", "<builtin>.classmethod", "<builtin>.property", "<builtin>.iter",
		"functools.lru_cache", "functools.cache", "typing.cast", "weakref.proxy":
		if name == "typing.cast" {
			g.copy(arg(1), cs.result)
		} else {
			g.copy(arg(0), cs.result)
		}
		return
	case "<builtin>.list", "<builtin>.reversed":
		// A new sequence of arg 0's elements: iterating it iterates them.
		// The result is still the external too (its methods' names).
		// (Not tuple(): shapes and argument tuples, rarely iterated, and
		// a fifth of torch's work in this.)
		g.elementsOf(cs, arg(0))
	case "<builtin>.zip":
		// Tuples of the arguments' elements: `for layer, x in
		// zip(self.layers, xs)` binds layer to the first's.
		if cs.Node != nil && len(cs.args) == len(cs.Node.Args) && len(cs.args) > 0 {
			g.tuplesOver(cs, "zip", cs.Node.Func, cs.args)
		}
	case "<builtin>.enumerate":
		// (i, x) pairs over arg 0's elements: `for i, m in enumerate(xs)`
		// binds m to xs's elements.
		if len(cs.args) > 0 && cs.args[0] >= 0 && cs.Node != nil && len(cs.Node.Args) > 0 {
			g.tuplesOver(cs, "enumerate", cs.Node.Args[0], []slotID{noSlot, cs.args[0]})
		}
		return
	case "<builtin>.next":
		g.use(arg(0), constraint{kind: cIter, dst: cs.result, iter: &iterSite{caller: cs.Caller, at: cs.At}})
		return
	case "torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.modules.container.ModuleList", "torch.nn.modules.container.ModuleDict":
		// A module container holds the modules it is built from: the
		// blocks a model iterates in forward are the ones the program
		// made (and handed to fully_shard). It is also the external
		// container (its other methods). Built empty, it is a container
		// of its own that later stores fill (self.layers[str(i)] = block).
		if len(cs.args) > 0 {
			g.copy(arg(0), cs.result)
		} else if cs.Node != nil && len(cs.Node.Keywords) == 0 {
			kind := "list"
			if strings.HasSuffix(name, "Dict") {
				kind = "dict"
			}
			g.s.add(cs.result, g.Container(cs.Node, kind))
		}
	case "torch.nn.Sequential", "torch.nn.modules.container.Sequential":
		// nn.Sequential(b1, b2) / nn.Sequential(*blocks) holds the modules
		// it is built from, and calling it calls each of them (timm's
		// `self.blocks = nn.Sequential(*[Block() …])`, then
		// `self.blocks(x)`). It is the external class too (its methods).
		if cs.Node != nil {
			seq := g.Container(cs.Node, SequentialKind)
			for _, a := range cs.args {
				if a >= 0 {
					g.copy(a, g.elemSlot(seq, "*"))
				}
			}
			for _, a := range cs.stars {
				g.use(a, constraint{kind: cLoadIndex, idx: -1, dst: g.elemSlot(seq, "*")})
			}
			g.s.add(cs.result, seq)
		}
	case "<builtin>.dict":
		// dict(group=g, mesh=m): a dict with those constant keys. Built
		// empty, it is a dict of its own that later stores fill
		// (`paths[k] = Path(d) / v`, then `paths.get(key).exists()`).
		// (Not OrderedDict(): one allocation site, Module.state_dict's,
		// would hold every module's state.)
		if cs.Node != nil && len(cs.args) == 0 && len(cs.stars) == 0 && len(cs.kwStar) == 0 && len(cs.kwNames) > 0 {
			c := g.Container(cs.Node, "dict")
			for i, name := range cs.kwNames {
				g.copy(cs.kwSlots[i], g.elemSlot(c, "{"+name+"}"))
				g.copy(cs.kwSlots[i], g.elemSlot(c, "*"))
			}
			g.s.add(cs.result, c)
		} else if cs.Node != nil && len(cs.Node.Args)+len(cs.Node.Keywords) == 0 {
			g.s.add(cs.result, g.Container(cs.Node, "dict"))
			return // the dict alone, as a literal one
		}
	case "<builtin>.setattr", "<builtin>.object.__setattr__":
		// setattr(obj, "x", v) and object.__setattr__(self, "x", v)
		// (classes that override __setattr__, frozen dataclasses) store
		// like obj.x = v. (super().__setattr__("x", v): builder.call.)
		if cs.Node != nil && len(cs.Node.Args) == 3 && len(cs.args) == 3 {
			if c, ok := cs.Node.Args[1].(*ast.Constant); ok && c.Type == ast.ConstStr {
				g.use(arg(0), constraint{kind: cStoreAttr, name: c.Str, src: arg(2)})
			}
		}
		return
	case "<builtin>.getattr":
		if cs.Node != nil && len(cs.Node.Args) >= 2 {
			if c, ok := cs.Node.Args[1].(*ast.Constant); ok && c.Type == ast.ConstStr {
				g.use(arg(0), constraint{kind: cLoadAttr, name: c.Str, dst: cs.result})
			}
		}
		if len(cs.args) >= 3 {
			g.copy(cs.args[2], cs.result)
		}
		return
	}
	if g.hooks != nil {
		if vals, ok := g.hooks.ExternalCall(g, cs, name, recv); ok {
			for _, v := range vals {
				g.s.add(cs.result, v)
			}
			return
		}
	}
	if recv == 0 {
		if moduleSelfMethod(g.canon(name)) {
			// model.to(device) on a program module: the bound method
			// beside this value returns the module itself. Taking the
			// method as its own result would make `model = model.to(d)`
			// grow torch.nn.Module.to.to.to… in model until the names
			// reach maxExternalName.
			return
		}
		if cls, ok := strings.CutSuffix(name, ".from_argparse_args"); ok && cls != "" {
			// Lightning 1.x's Trainer.from_argparse_args(args): an
			// instance of the class, as Trainer(…) is.
			self = g.intern(Value{Kind: KExternal, Name: cls})
		} else if self == 0 {
			self = g.intern(Value{Kind: KExternal, Name: name})
		}
		g.s.add(cs.result, self)
	}
}

// seqCall is a call site that calls an nn.Sequential container.
type seqCall struct {
	cs  *CallSite
	seq ValueID
}

// SequentialKind is the container kind (Value.Name) of an nn.Sequential's
// modules.
const SequentialKind = "nn.Sequential"

// moduleContainers are torch's module containers. A program's subclass
// of one (fairseq's LayerDropModuleList) holds its modules the way a
// list does: its instance's elements are the modules handed to
// __init__, extend, append, insert or stored by key.
var moduleContainers = map[string]bool{"torch.nn.ModuleList": true, "torch.nn.ModuleDict": true,
	"torch.nn.modules.container.ModuleList": true, "torch.nn.modules.container.ModuleDict": true}

// moduleContainerMethod reports a method of a module container that
// moduleContainerCall models.
// moduleSelfMethods are torch.nn.Module's methods that return the module.
var moduleSelfMethods = map[string]bool{
	"cuda": true, "cpu": true, "to": true, "half": true, "float": true, "double": true, "bfloat16": true,
	"train": true, "eval": true, "requires_grad_": true, "xpu": true, "to_empty": true, "type": true,
}

// ReturnsModule reports a torch.nn.Module method, by its name, that
// returns the module itself (model.to(device), model.cuda()).
func ReturnsModule(method string) bool { return moduleSelfMethods[method] }

// moduleSelfMethod reports one of them by its canonical name
// (torch.nn.Module.cuda).
func moduleSelfMethod(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i > 0 && name[:i] == "torch.nn.Module" && moduleSelfMethods[name[i+1:]]
}

// torchModuleType reports an external type name that is a torch.nn.Module
// class of torch's own: torch.nn.*, FSDP, and their aliases' canonical
// names (an upper-case class name under those modules).
func torchModuleType(name string) bool {
	name = strings.TrimSuffix(name, "()")
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || name[i+1:] == "" || name[i+1] < 'A' || name[i+1] > 'Z' {
		return false
	}
	return strings.HasPrefix(name, "torch.nn.") || strings.HasPrefix(name, "torch.distributed.fsdp.")
}

func moduleContainerMethod(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || !moduleContainers[name[:i]] {
		return false
	}
	switch name[i+1:] {
	case "__init__", "__iter__", "extend", "append", "insert", "update", "__setitem__", "__getitem__", "values", "items":
		return true
	}
	return false
}

// moduleContainerCall is a module container's method called on a program
// instance inst of a subclass: its elements are the instance's.
func (g *Graph) moduleContainerCall(cs *CallSite, inst ValueID, name string) {
	switch name[strings.LastIndexByte(name, '.')+1:] {
	case "__init__":
		if len(cs.args) > 0 && cs.args[0] >= 0 {
			g.use(cs.args[0], constraint{kind: cLoadIndex, idx: -1, dst: g.elemSlot(inst, "*")})
		}
	case "__iter__":
		// An iterator over the elements: a container of this call's own
		// (not the instance, whose own __iter__ may be the caller).
		if cs.At != nil {
			it := g.Container(cs.At, "list")
			g.copy(g.elemSlot(inst, "*"), g.elemSlot(it, "*"))
			g.s.add(cs.result, it)
		}
	case "values", "items":
		g.s.add(cs.result, inst)
	default:
		g.containerMethod(cs, inst, name)
	}
}

// tuplesOver gives cs (zip, enumerate: kind) an iterator of tuples whose
// element i holds the elements of srcs[i] (noSlot: none, enumerate's
// index); the tuple container is identified by node.
func (g *Graph) tuplesOver(cs *CallSite, kind string, node ast.Node, srcs []slotID) {
	it := g.Container(cs.Node, kind)
	tup := g.Container(node, "tuple")
	for i, a := range srcs {
		if a < 0 {
			continue
		}
		elems := g.s.newSlot()
		g.use(a, constraint{kind: cIter, dst: elems, iter: &iterSite{caller: cs.Caller, at: cs.At}})
		g.copy(elems, g.elemSlot(tup, "["+itoa(i)+"]"))
		g.copy(elems, g.elemSlot(tup, "*"))
	}
	g.s.add(g.elemSlot(it, "*"), tup)
	g.s.add(cs.result, it)
}

// elementsOf gives cs, a builtin that makes a new sequence of the
// elements of src (list(xs), sorted(xs)), a container of its own
// holding them.
func (g *Graph) elementsOf(cs *CallSite, src slotID) {
	if src < 0 || cs.Node == nil {
		return
	}
	seq := g.Container(cs.Node, "list")
	g.use(src, constraint{kind: cIter, dst: g.elemSlot(seq, "*"), iter: &iterSite{caller: cs.Caller, at: cs.At}})
	g.s.add(cs.result, seq)
}

// callback makes the caller call the functions in slot s (map, filter,
// sorted key=): PyCG counts these as calls of the enclosing function.
func (g *Graph) callback(cs *CallSite, s slotID) *CallSite {
	if s < 0 {
		return nil
	}
	cb := g.implicitCall(CallCallback, cs.Caller, cs.At)
	cb.callee = s
	g.use(s, constraint{kind: cCallback, cs: cb})
	return cb
}

// containerMethod gives list/dict/set methods their effect on elements.
func (g *Graph) containerMethod(cs *CallSite, c ValueID, name string) {
	i := len(name) - 1
	for i >= 0 && name[i] != '.' {
		i--
	}
	m := name[i+1:]
	store := func(s slotID) {
		if s >= 0 {
			g.copy(s, g.elemSlot(c, "?"))
			g.copy(s, g.elemSlot(c, "*"))
		}
	}
	switch m {
	case "append", "add", "appendleft", "put":
		if len(cs.args) > 0 {
			store(cs.args[0])
		}
	case "insert", "setdefault", "__setitem__":
		if len(cs.args) > 1 {
			store(cs.args[1])
		}
		if m == "setdefault" {
			g.copy(g.elemSlot(c, "*"), cs.result)
		}
	case "extend", "update":
		if len(cs.args) > 0 {
			tmp := g.s.newSlot()
			g.use(cs.args[0], constraint{kind: cLoadIndex, idx: -1, dst: tmp})
			store(tmp)
		}
		for _, s := range cs.kwSlots {
			store(s)
		}
	case "get", "pop", "popleft", "__getitem__":
		g.copy(g.elemSlot(c, "*"), cs.result)
	case "values", "items", "copy", "keys":
		// A view shares the elements (items() pairs are approximated by
		// the values themselves).
		g.s.add(cs.result, c)
	}
}

// callPartial calls the function a functools.partial wraps: the call's
// positional arguments go to the parameters after the k the partial
// bound itself (those were bound when the partial was made, preBind).
func (g *Graph) callPartial(cid constraintID, cs *CallSite, v ValueID, k int) {
	val := g.Values[v]
	switch {
	case k > 0 && val.Kind == KFunc && cs.Kind != CallRaise:
		g.addTarget(cs, Target{Fn: val.Fn})
		g.bindArgs(cs, val.Fn, k)
	case k > 0 && val.Kind == KBound && cs.Kind != CallRaise:
		g.addTarget(cs, Target{Fn: val.Fn})
		if !val.Fn.Static {
			k++
		}
		g.bindArgs(cs, val.Fn, k)
	default:
		g.call(cid, cs, v)
	}
}

// partialArgs is how many positional arguments functools.partial call pcs
// binds (0 when one is starred: the count is unknown).
func partialArgs(pcs *CallSite) int {
	if pcs == nil || len(pcs.args) < 2 || len(pcs.stars) > 0 {
		return 0
	}
	for _, a := range pcs.args[1:] {
		if a < 0 {
			return 0
		}
	}
	return len(pcs.args) - 1
}

// preBind passes the arguments functools.partial call pcs binds to the
// parameters of the function v it wraps (a function or a bound method),
// once per partial and function.
func (g *Graph) preBind(pcs *CallSite, v ValueID) {
	val := g.Values[v]
	if val.Kind != KFunc && val.Kind != KBound || val.Fn.Scope == nil {
		return
	}
	f := val.Fn
	base := 0
	if val.Kind == KBound && !f.Static {
		base = 1
	}
	k := bindKey{fn: f, shift: int8(-1 - base)} // negative: a partial's own binding
	for _, x := range pcs.boundFns {
		if x == k {
			return
		}
	}
	pcs.boundFns = append(pcs.boundFns, k)
	args := argsOf(f.Node)
	if args == nil {
		return
	}
	pos := args.PositionalNames()
	if n := partialArgs(pcs); n > 0 {
		for i, a := range pcs.args[1:] {
			if j := base + i; j < len(pos) {
				g.copy(a, g.scopeSlot(f.Scope, pos[j]))
			}
		}
	}
	for i, name := range pcs.kwNames {
		if isParam(args, name) {
			g.copy(pcs.kwSlots[i], g.scopeSlot(f.Scope, name))
		}
	}
}

// maxBind caps how many functions one call site passes its arguments to:
// megamorphic calls (module(x) over every nn.Module subclass) still get
// their targets recorded, but stop feeding values into parameters.
const maxBind = 24

// bind passes cs's arguments to f's parameters (after the receiver when
// bound: the receiver itself reaches the first parameter when the method
// is looked up, see bindValue) and f's results to cs's result.
func (g *Graph) bind(cs *CallSite, f *Func, bound bool) {
	shift := 0
	if bound && !f.Static {
		shift = 1
	}
	g.bindArgs(cs, f, shift)
}

// bindArgs binds cs's arguments to f's parameters from the one at index
// shift on (the ones before are the receiver, the autograd ctx, or what a
// functools.partial bound).
func (g *Graph) bindArgs(cs *CallSite, f *Func, shift int) {
	args := argsOf(f.Node)
	k := bindKey{fn: f, shift: int8(min(shift, 127))}
	if len(cs.boundFns) >= maxBind {
		return
	}
	for _, x := range cs.boundFns {
		if x == k {
			return
		}
	}
	cs.boundFns = append(cs.boundFns, k)
	switch {
	case f.Generator:
		g.s.add(cs.result, g.intern(Value{Kind: KGenerator, Fn: f}))
	case f.identity && shift == 0 && len(cs.args) > 0:
		g.copy(cs.args[0], cs.result)
	case f.identity && shift == 1 && len(cs.args) > 1:
		g.copy(cs.args[1], cs.result)
	default:
		g.copy(f.ret, cs.result)
	}
	if args == nil || f.Scope == nil {
		return
	}
	pos := args.PositionalNames()
	shift = min(shift, len(pos))
	var varargs slotID = noSlot
	if args.Vararg != nil {
		if f.varargs == 0 {
			// Once per function: the *args tuple, in its parameter.
			c := g.Container(args.Vararg, "tuple")
			g.s.add(g.scopeSlot(f.Scope, args.Vararg.Arg), c)
			f.varargs = g.elemSlot(c, "*") + 1
		}
		varargs = f.varargs - 1
	}
	for i, a := range cs.args {
		if a < 0 {
			continue
		}
		if j := i + shift; j < len(pos) {
			g.copy(a, g.scopeSlot(f.Scope, pos[j]))
		} else if varargs >= 0 {
			g.copy(a, varargs)
		}
	}
	for _, st := range cs.stars {
		tmp := g.s.newSlot()
		g.use(st, constraint{kind: cLoadIndex, idx: -1, dst: tmp})
		for j := len(cs.args) + shift; j < len(pos); j++ {
			g.copy(tmp, g.scopeSlot(f.Scope, pos[j]))
		}
		if varargs >= 0 {
			g.copy(tmp, varargs)
		}
	}
	var kwargs slotID = noSlot
	if args.Kwarg != nil {
		if f.kwargs == 0 {
			// Once per function: the **kwargs dict, in its parameter.
			c := g.Container(args.Kwarg, "dict")
			g.s.add(g.scopeSlot(f.Scope, args.Kwarg.Arg), c)
			f.kwargs = c2s(g, c) + 1
		}
		kwargs = f.kwargs - 1
	}
	for i, name := range cs.kwNames {
		if isParam(args, name) {
			g.copy(cs.kwSlots[i], g.scopeSlot(f.Scope, name))
		} else if kwargs >= 0 {
			g.copy(cs.kwSlots[i], kwargs)
		}
	}
	if len(cs.kwStar) > 0 {
		// f(**{"group": g}), f(**dict(group=g)): each constant key of the
		// dict binds the parameter of that name.
		params := slices.Concat(pos[min(shift+len(cs.args), len(pos)):], kwOnlyNames(args))
		for _, st := range cs.kwStar {
			for _, name := range params {
				if !slices.Contains(cs.kwNames, name) {
					g.use(st, constraint{kind: cLoadIndex, mode: exactKey, idx: -1, name: name, dst: g.scopeSlot(f.Scope, name)})
				}
			}
		}
	}
}

// kwOnlyNames lists a definition's keyword-only parameters.
func kwOnlyNames(args *ast.Arguments) []string {
	out := make([]string, 0, len(args.KwOnlyArgs))
	for _, a := range args.KwOnlyArgs {
		out = append(out, a.Arg)
	}
	return out
}

func c2s(g *Graph, c ValueID) slotID {
	s := g.elemSlot(c, "*")
	g.copy(s, g.elemSlot(c, "?"))
	return s
}

func isParam(a *ast.Arguments, name string) bool {
	for _, list := range [][]*ast.Arg{a.PosOnlyArgs, a.Args, a.KwOnlyArgs} {
		for _, p := range list {
			if p.Arg == name {
				return true
			}
		}
	}
	return false
}

func argsOf(n ast.Node) *ast.Arguments {
	switch n := n.(type) {
	case *ast.FunctionDef:
		return n.Args
	case *ast.AsyncFunctionDef:
		return n.Args
	case *ast.Lambda:
		return n.Args
	}
	return nil
}

// Spawn passes a spawning call's target and arguments on as a call that
// runs elsewhere (Thread(target=f, args=(a,)), executor.submit(f, a)): f's
// parameters receive the arguments, but no call edge is recorded for the
// spawner (the target runs on another thread). targetPos/targetName
// locate the callable; argsPos/argsName the tuple of its positional
// arguments (-1/"": the call's positional arguments after the target);
// statePos/stateName, when given, the one argument the callable receives
// first (register_comm_hook's state) instead.
func (g *Graph) Spawn(cs *CallSite, targetPos int, targetName string, argsPos int, argsName string, statePos int, stateName string) {
	g.spawn(cs, targetPos, targetName, argsPos, argsName, statePos, stateName, false)
}

// SpawnIndexed is Spawn for a spawner that calls its target with an index
// it supplies first, then the tuple of arguments (torch.multiprocessing's
// spawn(fn, args=(a, b)) runs fn(i, a, b) in each process).
func (g *Graph) SpawnIndexed(cs *CallSite, targetPos int, targetName string, argsPos int, argsName string) {
	g.spawn(cs, targetPos, targetName, argsPos, argsName, -1, "", true)
}

func (g *Graph) spawn(cs *CallSite, targetPos int, targetName string, argsPos int, argsName string, statePos int, stateName string, indexed bool) {
	if cs == nil || cs.Node == nil {
		return
	}
	if g.spawned == nil {
		g.spawned = map[*CallSite]bool{}
	}
	if g.spawned[cs] {
		return
	}
	g.spawned[cs] = true
	slotOf := func(pos int, name string) (slotID, ast.Expr) {
		if name != "" {
			for i, k := range cs.kwNames {
				if k == name {
					for _, kw := range cs.Node.Keywords {
						if kw.Arg == name {
							return cs.kwSlots[i], kw.Value
						}
					}
				}
			}
		}
		if pos >= 0 && pos < len(cs.args) && pos < len(cs.Node.Args) {
			return cs.args[pos], cs.Node.Args[pos]
		}
		return noSlot, nil
	}
	target, _ := slotOf(targetPos, targetName)
	if target < 0 {
		return
	}
	sc := &CallSite{ID: len(g.Calls), Kind: CallSpawn, At: cs.At, callee: target, result: g.s.newSlot()}
	if indexed {
		sc.args = append(sc.args, noSlot) // the index: no value of the program's
	}
	if statePos >= 0 || stateName != "" {
		if s, _ := slotOf(statePos, stateName); s >= 0 {
			sc.args = append(sc.args, s)
		}
	} else if argsPos >= 0 || argsName != "" {
		if s, e := slotOf(argsPos, argsName); s >= 0 {
			switch t := e.(type) {
			case *ast.Tuple, *ast.List:
				for _, x := range ast.SeqElts(t) {
					if xs, ok := g.exprSlotOf(x); ok {
						sc.args = append(sc.args, xs)
					} else {
						sc.args = append(sc.args, noSlot)
					}
				}
			default:
				sc.stars = append(sc.stars, s)
			}
		}
	} else if targetPos >= 0 && targetPos+1 <= len(cs.args) {
		sc.args = append(sc.args, cs.args[targetPos+1:]...)
	}
	g.Calls = append(g.Calls, sc)
	g.use(target, constraint{kind: cCall, cs: sc})
}

func firstParam(a *ast.Arguments) string {
	if len(a.PosOnlyArgs) > 0 {
		return a.PosOnlyArgs[0].Arg
	}
	if len(a.Args) > 0 {
		return a.Args[0].Arg
	}
	return ""
}

// dataclassFields returns the fields of a @dataclass class of the program
// in definition order (its annotated class-body names), and whether the
// class is one. The generated __init__ stores its arguments in them.
func dataclassFields(c *Class) ([]string, bool) {
	if c == nil || c.Node == nil {
		return nil, false
	}
	if !c.dataDone {
		c.dataDone = true
		c.dataclass = isDataclass(c.Node)
		if c.dataclass {
			c.dataFields = annotatedFields(c.Node)
		}
	}
	return c.dataFields, c.dataclass
}

// annotatedFields lists the annotated names of a class body, in order,
// less ClassVar and InitVar ones and the KW_ONLY marker `_`.
func annotatedFields(cd *ast.ClassDef) []string {
	var fields []string
	for _, st := range cd.Body {
		a, ok := st.(*ast.AnnAssign)
		if !ok {
			continue
		}
		n, ok := a.Target.(*ast.Name)
		if !ok || n.Id == "_" || classVar(a.Annotation) {
			continue
		}
		fields = append(fields, n.Id)
	}
	return fields
}

// isDataclass: decorated with dataclass, dataclasses.dataclass, or a call
// of either (@dataclass(frozen=True)).
func isDataclass(cd *ast.ClassDef) bool {
	for _, d := range cd.DecoratorList {
		if c, ok := d.(*ast.Call); ok {
			d = c.Func
		}
		switch d := d.(type) {
		case *ast.Name:
			if d.Id == "dataclass" {
				return true
			}
		case *ast.Attribute:
			if v, ok := d.Value.(*ast.Name); ok && v.Id == "dataclasses" && d.Attr == "dataclass" {
				return true
			}
		}
	}
	return false
}

// classVar: a ClassVar[...] or InitVar[...] annotation, not a field the
// instance stores.
func classVar(ann ast.Expr) bool {
	if s, ok := ann.(*ast.Subscript); ok {
		ann = s.Value
	}
	switch a := ann.(type) {
	case *ast.Name:
		return a.Id == "ClassVar" || a.Id == "InitVar"
	case *ast.Attribute:
		return a.Attr == "ClassVar" || a.Attr == "InitVar"
	}
	return false
}

// dataclassInit stores a dataclass constructor call's arguments in the
// instance's fields: positional ones in field order (only when no base
// class of the program adds fields before them), keywords by name.
func (g *Graph) dataclassInit(cid constraintID, cs *CallSite, inst ValueID, fields []string) {
	positional := true
	if mro := g.mro(g.Values[inst].Class); len(mro) > 1 {
		for _, m := range mro[1:] {
			if _, ok := dataclassFields(m.cls); ok {
				positional = false
			}
		}
	}
	if positional {
		for i, a := range cs.args {
			if a < 0 || i >= len(fields) {
				break
			}
			g.copy(a, g.storeSlot(cid, inst, fields[i]))
		}
	}
	for i, k := range cs.kwNames {
		if slices.Contains(fields, k) {
			g.copy(cs.kwSlots[i], g.storeSlot(cid, inst, k))
		}
	}
}
