package callgraph

import (
	"sort"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/resolve"
)

// ModuleInput is one parsed module handed to Build.
type ModuleInput struct {
	Mod    *resolve.Module
	AST    *ast.Module
	Scopes *resolve.Scopes
}

// ValueID identifies an abstract value of one Graph.
type ValueID int32

// ValueKind classifies a Value.
type ValueKind uint8

// Value kinds; see the package documentation.
const (
	KModule ValueKind = iota
	KFunc
	KClass
	KInstance
	KBound
	KSuper
	KExternal
	KContainer
	KGenerator
	KOpaque
	KBoundExternal // a method of an opaque value: Name is the method's qualified name, Recv the opaque value
	KPartial       // functools.partial(f, …): Recv is the wrapped callable, Node the partial call
	KWraps         // functools.wraps(x): a decorator returning its argument
	KStr           // a str value (for "<**PyStr**>.join" names)
)

// Value is an abstract value.
type Value struct {
	ID    ValueID
	Kind  ValueKind
	Name  string // module name, external/qualified name, container kind, opaque type
	Fn    *Func
	Class *Class
	Recv  ValueID // bound receiver, partial target, super receiver
	Node  ast.Node
	// Data is a Hooks implementation's payload for opaque values.
	Data any
	// Module is the program module of a KModule value (nil for a namespace package).
	Module *resolve.Module
	// Args (KPartial): how many positional arguments the partial binds.
	Args int32
}

// Func is a call-graph node: a module body, function, method or lambda.
type Func struct {
	ID     int
	Name   string // PyCG-style qualified name
	Node   ast.Node
	Scope  *resolve.Scope
	Module *resolve.Module
	Class  *Class // the class a method is defined in
	Parent *Func  // the enclosing function (nil for module bodies)
	// Static, ClassMethod, Property: decorators that change binding.
	Static, ClassMethod, Property bool
	Generator                     bool
	// Decorated: the definition has decorators.
	Decorated bool
	Calls     []*CallSite // in source order (implicit calls included)
	ret, yld  slotID
	identity  bool // returns its first parameter unchanged
	called    bool // some call site targets it (frameworkForwards)
	// spawnerSeen: uncalledSpawners looked at it.
	spawnerSeen bool
	value       ValueID // funcValue, once interned
	// varargs, kwargs: 1 + the slot that call arguments bound to *args
	// (the tuple's elements) and **kwargs flow into (0: not made yet).
	varargs, kwargs slotID
}

// Import records that an import statement in From runs the body of
// Module, a module of the program (import a.b runs a's and a.b's; from
// a.b import c runs a's, a.b's, and a.b.c's when c is a submodule).
type Import struct {
	From   *Func
	Module *resolve.Module
}

// Class is a class of the program.
type Class struct {
	ID     int
	Name   string
	Node   *ast.ClassDef
	Scope  *resolve.Scope
	Module *resolve.Module
	Func   *Func // the function whose body defines the class
	bases  []slotID
	mro    []mroEntry
	mroOK  bool
	subs   []*Class
	watch  []watcher
	subSet map[*Class]bool
	// watchSet indexes watch once it is long (see watchClass).
	watchSet map[watcher]struct{}
	// value and instance: classValue and instanceValue, once interned.
	value, instance ValueID
	// openSelf: the program never instantiates the class, and its methods
	// got its instance as receiver (openDone once they have).
	openSelf, openDone bool
	// forwardSelf: frameworkForwards has looked at the class; runSelf:
	// threadRuns has; hooksSelf: frameworkHooks has.
	forwardSelf, runSelf, hooksSelf bool
	// ctxDone: an autograd Function whose methods got their ctx value
	// (autogradCtx).
	ctxDone bool
	// dataFields, dataclass, dataDone: dataclassFields, computed once
	// (the solver asks at every construction).
	dataFields          []string
	dataclass, dataDone bool
}

type mroEntry struct {
	cls *Class
	ext string // an external base (qualified name)
}

type watcher struct {
	c constraintID
	v ValueID
}

// Target is a resolved callee: a function of the program or an external
// symbol.
type Target struct {
	Fn       *Func
	External string
}

// CallKind tells explicit calls from the implicit ones the analysis adds.
type CallKind uint8

// Call kinds.
const (
	CallExplicit  CallKind = iota // a call expression
	CallDecorator                 // applying a decorator
	CallIter                      // __iter__/__next__ of a for loop
	CallRaise                     // raise Class
	CallInit                      // __init__ run by instantiation (recorded on the instantiating call)
	CallCallback                  // a function argument called by a builtin (map, filter, sorted key=)
	CallSpawn                     // a callable run on another thread by a spawner (no caller: not a call edge)
	CallWith                      // __enter__/__exit__ of a program class's instance in a with statement
)

// CallSite is one call.
type CallSite struct {
	ID     int // index in Graph.Calls
	Kind   CallKind
	Node   *ast.Call // nil for implicit calls
	At     ast.Node  // the node whose position the call has
	Caller *Func
	// Targets are the resolved callees, in discovery order.
	Targets []Target
	// Recv lists, per external target index, the receiver value when the
	// target is a method of an opaque value (else 0).
	callee   slotID
	args     []slotID // positional; -1 for a starred argument's position
	stars    []slotID // starred positional arguments (their elements)
	kwNames  []string
	kwSlots  []slotID
	kwStar   []slotID
	result   slotID
	seen     map[Target]bool
	boundFns []bindKey
}

type bindKey struct {
	fn    *Func
	shift int8 // parameters filled otherwise (receiver, ctx, partial); < 0: a partial's own binding
}

// Graph is the analysed program.
type Graph struct {
	// delegates caches getattrDelegate's answer per class ("" for none).
	delegates map[*Class]string
	Funcs     []*Func
	Classes   []*Class
	Calls     []*CallSite
	Values    []*Value
	// valueSlab holds the Values (newValue).
	valueSlab []Value
	// Imports are the program's import statements of its own modules, in
	// the order they were built.
	Imports []Import

	mods  []*ModuleInput
	table *resolve.Table
	hooks Hooks
	// selfInstances: Options.SelfInstances.
	selfInstances bool
	canon         func(string) string
	modFunc       map[*resolve.Module]*Func
	modByName     map[string]*resolve.Module

	funcByNode  map[ast.Node]*Func
	classByNode map[ast.Node]*Class
	exprs       exprTable // each expression's slot, and call site for a call

	s          solver
	valueIDs   map[valueKey]ValueID
	nodeIDs    map[*ast.Pos]int // by nodeKey
	opaque     map[string]ValueID
	spaces     map[*resolve.Scope]int32
	scopeSlots []map[string]slotID // by space: the scope's named slots
	constSlots map[ValueID]slotID
	anyElems   [][2]slotID               // by value: 1 + the "*" and "?" element slots (see anyElemSlot)
	modSpaces  map[*resolve.Module]int32 // the namespace of each module's globals
	// undeclaredCalls memoizes callsUndeclared per method.
	undeclaredCalls map[*Func]bool
	allNames        map[*resolve.Module][]string // __all__, where a module sets it
	stars           []starImport
	starNames       map[*resolve.Module]map[string]bool
	extStars        map[*resolve.Module][]string
	// extRoots: for a module in extStars, the top-level packages outside
	// the program it imports parts of (scanExtRoots).
	extRoots map[*resolve.Module]map[string]bool
	// unbound: "from P import name" of a package of the program with no
	// submodule name, settled in Finish (see bindUnbound).
	unbound []unboundImport
	// extStarsBound: bindExtStars has run; module slots created from now
	// on get their external star-import value when they are made.
	extStarsBound bool
	reexported    func(string) bool // Options.Reexported
	stop          func() bool       // Options.Stop
	stopped       bool              // stop reported true during the solve
	importExt     map[*resolve.Module]map[string]bool
	spawned       map[*CallSite]bool
	attrMemo      map[attrKey]ValueID
	seqCalls      map[seqCall]bool // the nn.Sequential calls already attached
	// annotated: parameters annotated with a name (annotatedInstances).
	annotated []annotatedParam
}

// annotatedParam is a parameter of fn annotated with a name, and the slot
// that name reads where fn is defined.
type annotatedParam struct {
	fn    *Func
	param string
	class slotID
	done  bool
}

// FuncOf returns the Func of a definition node (*ast.Module,
// *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda), or nil.
func (g *Graph) FuncOf(n ast.Node) *Func { return g.funcByNode[n] }

// ModuleFunc returns the Func of a module's body, or nil.
func (g *Graph) ModuleFunc(m *resolve.Module) *Func { return g.modFunc[m] }

// ClassOf returns the Class of a class definition, or nil.
func (g *Graph) ClassOf(n *ast.ClassDef) *Class { return g.classByNode[n] }

// CallOf returns the call site of a call expression, or nil.
func (g *Graph) CallOf(c *ast.Call) *CallSite {
	if c == nil {
		return nil
	}
	if id, ok := g.exprs.call(c.Addr()); ok {
		return g.Calls[id]
	}
	return nil
}

// Value returns the value with the given ID.
func (g *Graph) Value(id ValueID) *Value {
	if id <= 0 || int(id) >= len(g.Values) {
		return nil
	}
	return g.Values[id]
}

// ExprValues returns the values an expression may hold, for expressions
// the builder recorded: call callees and their receivers, call
// arguments, with-items, assignment values. It returns nil for others.
func (g *Graph) ExprValues(e ast.Expr) []ValueID {
	if s, ok := g.exprSlotOf(e); ok {
		return g.s.vals(s)
	}
	return nil
}

// ArgValues returns the values of a call's argument given by position
// (after the receiver, -1: none) or keyword name; found is false when the
// call does not pass it.
func (g *Graph) ArgValues(cs *CallSite, pos int, name string) (vals []ValueID, found bool) {
	if cs == nil {
		return nil, false
	}
	if name != "" {
		for i, k := range cs.kwNames {
			if k == name {
				return g.s.vals(cs.kwSlots[i]), true
			}
		}
	}
	if pos >= 0 && pos < len(cs.args) && cs.args[pos] >= 0 {
		return g.s.vals(cs.args[pos]), true
	}
	return nil, false
}

// ResultValues returns the values a call produces.
func (g *Graph) ResultValues(cs *CallSite) []ValueID { return g.s.vals(cs.result) }

// ElementValues returns the values stored in a container value at a
// constant index (idx >= 0) or anywhere (idx < 0).
func (g *Graph) ElementValues(c ValueID, idx int) []ValueID {
	v := g.Value(c)
	if v == nil || v.Kind != KContainer {
		return nil
	}
	key := "*"
	if idx >= 0 {
		key = "[" + itoa(idx) + "]"
	}
	if s, ok := g.s.lookupSlot(slotKey{space: -int32(c), name: key}); ok {
		return g.s.vals(s)
	}
	return nil
}

// ReturnValues returns what a function may return.
func (g *Graph) ReturnValues(f *Func) []ValueID { return g.s.vals(f.ret) }

// ParamValues returns the values a parameter of f may hold.
func (g *Graph) ParamValues(f *Func, name string) []ValueID {
	if f == nil || f.Scope == nil {
		return nil
	}
	if s, ok := g.lookupScopeSlot(f.Scope, name); ok {
		return g.s.vals(s)
	}
	return nil
}

// MRO returns a class's method resolution order: the program's classes
// and, for bases outside the program, their qualified names.
func (g *Graph) MRO(c *Class) (classes []*Class, externals []string) {
	for _, e := range g.mro(c) {
		if e.cls != nil {
			classes = append(classes, e.cls)
		} else {
			externals = append(externals, e.ext)
		}
	}
	return
}

// Lookup finds attribute name on class c through its MRO: the function
// or the external qualified name it resolves to.
func (g *Graph) Lookup(c *Class, name string) (fns []*Func, external string) {
	s, ext, ok := g.lookupClass(c, name, nil)
	if !ok {
		return nil, ""
	}
	if ext != "" {
		return nil, ext
	}
	for _, v := range g.s.vals(s) {
		if val := g.Values[v]; val.Kind == KFunc {
			fns = append(fns, val.Fn)
		}
	}
	return fns, ""
}

// SortedTargets returns cs's targets sorted by name (functions by their
// qualified name and ID, then externals).
func (cs *CallSite) SortedTargets() []Target {
	out := append([]Target(nil), cs.Targets...)
	sort.SliceStable(out, func(i, j int) bool { return targetName(out[i]) < targetName(out[j]) })
	return out
}

func targetName(t Target) string {
	if t.Fn != nil {
		return t.Fn.Name
	}
	return t.External
}

// Name returns the target's qualified name.
func (t Target) Name() string { return targetName(t) }

func itoa(i int) string {
	if i >= 0 && i < 10 {
		return string(rune('0' + i))
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// AddElement stores v in container c at a constant index (idx >= 0) or at
// an unknown one (idx < 0); for Hooks building tuples of results.
func (g *Graph) AddElement(c ValueID, idx int, v ValueID) {
	if val := g.Value(c); val == nil || val.Kind != KContainer {
		return
	}
	if idx >= 0 {
		g.s.add(g.elemSlot(c, "["+itoa(idx)+"]"), v)
	} else {
		g.s.add(g.elemSlot(c, "?"), v)
	}
	g.s.add(g.elemSlot(c, "*"), v)
}

// CalleeValues returns the values the called expression of cs may hold.
func (g *Graph) CalleeValues(cs *CallSite) []ValueID { return g.s.vals(cs.callee) }

// Stats summarises the analysis size (for benchmarks and profiling).
func (g *Graph) Stats() map[string]int {
	vals, uses, maxUses, full := 0, 0, 0, 0
	for i := 0; i < g.s.nslots; i++ {
		sl := g.s.slot(slotID(i))
		vals += len(sl.vals)
		uses += len(sl.uses)
		if len(sl.uses) > maxUses {
			maxUses = len(sl.uses)
		}
		if len(sl.vals) >= maxVals {
			full++
		}
	}
	targets := 0
	for _, c := range g.Calls {
		targets += len(c.Targets)
	}
	return map[string]int{
		"funcs": len(g.Funcs), "classes": len(g.Classes), "calls": len(g.Calls), "targets": targets,
		"values": len(g.Values), "slots": g.s.nslots, "constraints": g.s.ncons + g.s.ncopy,
		"slot_values": vals, "uses": uses, "max_uses": maxUses, "full_slots": full, "copies": len(g.s.copies),
		"work": g.s.work, "budget": g.s.budget, "exhausted": b2i(g.s.exhausted),
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Exhausted reports whether the solver stopped at its work budget (the
// graph is then partial).
func (g *Graph) Exhausted() bool { return g.s.exhausted }

// AllNames returns the names a module's __all__ lists, and whether it
// sets one (what `from m import *` binds when it does).
func (g *Graph) AllNames(m *resolve.Module) ([]string, bool) {
	names, ok := g.allNames[m]
	return names, ok
}

// setExprSlot records the slot that holds expression e's values.
func (g *Graph) setExprSlot(e ast.Expr, s slotID) { g.exprs.setSlot(nodeKey(e), s) }

// exprSlotOf returns the slot recorded for e.
func (g *Graph) exprSlotOf(e ast.Expr) (slotID, bool) {
	return g.exprs.slot(nodeKey(e))
}

// nodeKey is a node's identity as a map key (ast.Node.Addr, a plain
// pointer, hashed faster than the interface); nil for the nil node.
func nodeKey(n ast.Node) *ast.Pos {
	if n == nil {
		return nil
	}
	return n.Addr()
}
