// Package flow is collvet's intra-procedural flow pass for Python.
//
// The model builder (package pyfront/model) calls Lower once for every
// function — module bodies, functions, methods and lambdas — after the call
// graph is complete, so that calls to user functions can be summarised.
// Lower walks the function's statements in program order and fills the
// parts of the rules model that depend on statement order and control flow:
//
//   - fn.Events: collectives, work waits, stream context enter/exit,
//     wait_stream / wait_event / record_stream, tensor uses and frees,
//     device synchronisations, each with the statement's line and
//     indentation (for fixes that insert a line before it);
//   - the Work of every async site: the variable holding it, whether it is
//     discarded, waited, overwritten before a wait, escapes the function,
//     or reaches an exit unwaited;
//   - Site.Stream (the enclosing stream context) and Site.Inputs/Outputs
//     when the model builder left them empty;
//   - rules.RankBranch values, appended to the Program: if/while/ternary
//     conditions on a rank predicate from the API tables (including values
//     that flow through local variables: rank = dist.get_rank(); if rank ==
//     0), early exits on such conditions, and rank-only decorators
//     (@rank_zero_only, @accelerator.on_main_process).
//
// Lower never panics on odd input; it records what it can.
package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Resolver is what the flow pass needs from the model builder. All methods
// must be safe to call with nodes of the function being lowered and must
// return zero values (never panic) when they know nothing.
type Resolver interface {
	// Prog is the program being built; Lower appends RankBranch and Work
	// values to it.
	Prog() *rules.Program
	// File is the file the function is in (its Path and Src are used for
	// positions and messages).
	File() *rules.File
	// Tables are the API tables in force (embedded + user config).
	Tables() *api.Tables
	// Callee resolves a call: the canonical fully qualified external symbol
	// it calls (torch.distributed.get_rank, torch.cuda.Stream.wait_stream,
	// threading.Thread), or the user function it calls. Both may be zero.
	Callee(call *ast.Call) (external string, fn *rules.Function)
	// Ref resolves a name or attribute expression that is not a call to the
	// canonical qualified name it denotes (os.environ,
	// lightning.pytorch.utilities.rank_zero_only, a module-level stream
	// variable's creating API is not needed here), or "" when unknown or
	// local.
	Ref(e ast.Expr) string
	// Site returns the collective site the model built for call, or nil
	// when the call does not communicate.
	Site(call *ast.Call) *rules.Site
	// Stream returns the abstract stream e evaluates to
	// (torch.cuda.Stream() creation sites, current_stream(),
	// default_stream(), variables and attributes holding them), or nil.
	Stream(e ast.Expr) *rules.Stream
	// Summary returns the collectives fn issues, transitively through its
	// callees, in program order (one OpRef per site; Pos is the site's
	// position), at most MaxSummary of them: the sequences concatenate and
	// grow exponentially with call depth, and the rank-branch comparison
	// needs only a prefix. It may be called for functions not yet lowered
	// and must not call back into Lower; implementations should memoize.
	Summary(fn *rules.Function) []*rules.OpRef
}

// ModuleValuer is implemented by resolvers that can show the value a
// module binds a global to once, at its top level (`DS_CONFIG = {…}`).
type ModuleValuer interface {
	ModuleValue(fn *rules.Function, name string) ast.Expr
}

// ExternalCalleeser is implemented by resolvers that list every
// external symbol a call may call (Callee gives one).
type ExternalCalleeser interface {
	ExternalCallees(call *ast.Call) []string
}

// RankParamer is implemented by resolvers that know which parameters of a
// function hold the process's rank on entry: the first parameter of a
// function torch.multiprocessing.spawn runs (it is passed the process
// index). Lower treats them as rank values from the start.
type RankParamer interface {
	RankParams(fn *rules.Function) []string
}

// RankGlobaler is implemented by resolvers that carry, from a module's
// body to its functions, the module-level names bound to a rank value
// (IS_MAIN = int(os.environ["RANK"]) == 0): Lower of a module records
// them, Lower of a function starts with them as rank values, unless the
// function binds the name itself. The model lowers a module's body before
// its functions, and the modules a body imports rank names from before it:
// names set for a module before its Lower are the ones it imports (a name,
// or module.NAME for `import module`), which its body starts with.
type RankGlobaler interface {
	RankGlobals(path string) map[string]bool
	SetRankGlobals(path string, names map[string]bool)
}

// EnclosingDefer is implemented by resolvers that know the function a
// closure is defined in (nil for a module-level function): the closure
// reads the rank locals its enclosing function bound and it does not
// rebind (`rank = dist.get_rank()` … `def dump(n): if rank == 0: …`).
type EnclosingDefer interface {
	EnclosingDef(fn *rules.Function) (*rules.Function, ast.Node)
}

// RankGlobalDefser keeps, beside RankGlobals, the expressions those
// module-level names were last assigned (`color = 0 if rank == 0 else 1`):
// a function that reads the name knows its definition as the module's
// body does (rankVia's keys).
type RankGlobalDefser interface {
	RankGlobalDefs(path string) map[string]ast.Expr
	SetRankGlobalDefs(path string, defs map[string]ast.Expr)
}

// OwnRankGlobaler is RankGlobaler for the module-level names bound to the
// process's own global rank itself (`local_rank = dist.get_rank()`, in a
// module that only one rank's role imports): a root named by one of them
// means "I am the root" (rankRoot).
type OwnRankGlobaler interface {
	OwnRankGlobals(path string) map[string]bool
	SetOwnRankGlobals(path string, names map[string]bool)
}

// CallSummarizer is implemented by resolvers that summarise a call more
// precisely than its callee: a call of a decorated function resolves to
// the decorator's wrapper, whose summary covers every function that
// decorator wraps; the call's own name picks the wrapped one.
type CallSummarizer interface {
	CallSummary(call *ast.Call, fn *rules.Function) []*rules.OpRef
}

// SignalFlagger is implemented by resolvers that know what signal
// handlers set: e, read in fn, is such a flag (an attribute of self or of
// another object, or a global name). Each rank's handler runs at its own
// moment, so a read of one differs between ranks until they agree on it.
type SignalFlagger interface {
	SignalFlag(fn *rules.Function, e ast.Expr) bool
}

// PropertyGetterer is implemented by resolvers that can tell the getter a
// read of an attribute runs: a @property (or a descriptor named like one,
// classproperty, cached_property) of the class of the attribute's object.
type PropertyGetterer interface {
	PropertyGetter(a *ast.Attribute) *rules.Function
}

// ParamOmitter is implemented by resolvers that can tell that every call
// of fn in the program leaves a parameter out, so that it holds its
// default: false when fn has no caller, or is called in ways other than
// call expressions (a thread's target, a callback), which may pass it.
type ParamOmitter interface {
	ParamOmitted(fn *rules.Function, param string) bool
	// ParamFalse: every call leaves the parameter at a false default or
	// passes a false constant.
	ParamFalse(fn *rules.Function, param string) bool
}

// SelfStreamer is implemented by resolvers that can tell the stream an
// attribute of fn's instance holds from its class's own stores (`self.comp
// = torch.cuda.default_stream()` in __init__) when the value analysis gave
// the receiver none (a method the program never calls on an instance it
// made): nil unless every store makes the same stream.
type SelfStreamer interface {
	SelfStream(fn *rules.Function, attr string) *rules.Stream
}

// Memoizer is implemented by resolvers that keep facts about program
// functions across the Lower calls of one analysis (whether a function
// returns a clock reading), so that each function is looked at once.
type Memoizer interface {
	Memo(key string) map[*rules.Function]bool
}

// IterGeneratorer is implemented by resolvers that know which program
// generators a for loop runs to iterate what it iterates: the __iter__
// of the object's class, when the program defines it as a generator
// (fairseq's LayerDropModuleList).
type IterGeneratorer interface {
	IterGenerators(iter ast.Expr) []*rules.Function
}

// QualifiedNamer is implemented by resolvers that know the other names a
// program function is importable as: its module's aliases (a namespace
// package's files, named from the directory inside it, are also
// importable with the directory's name: detectron2.utils.comm.gather as
// well as utils.comm.gather). The tables name library functions by the
// full one.
type QualifiedNamer interface {
	QualifiedNames(fn *rules.Function) []string
}

// StreamClasser is implemented by resolvers that know the classes one of
// whose methods enters a stream context (`with torch.cuda.stream(s):`):
// their other methods are lowered with
// their tensor uses, and inlined into the methods that call them, so that
// what one method writes on the current stream and another reads on a
// side stream is seen (CV203).
type StreamClasser interface {
	StreamClass(fn *rules.Function) bool
}

// FuncDefiner is implemented by resolvers that can return the definition
// of a program function (a FunctionDef or AsyncFunctionDef), so that a
// `with cm(...)` of a @contextmanager function of the program gets the
// stream effects of the code around its yield (see cmEffects).
type FuncDefiner interface {
	FuncDef(fn *rules.Function) ast.Node
}

// ContainerResolver is implemented by resolvers that know which values
// an expression of fn may hold: PythonContainer reports one that holds
// only Python lists, tuples or dicts (never a tensor).
type ContainerResolver interface {
	PythonContainer(fn *rules.Function, e ast.Expr) bool
}

// MethodDefiner is implemented by resolvers that can find another method
// of a method's class: MethodDef returns the definition of method name
// (through the class's MRO), or nil.
type MethodDefiner interface {
	MethodDef(fn *rules.Function, name string) ast.Node
}

// FuncObjecter is implemented by resolvers that know which expressions
// of an if's test hold functions: FuncObject returns the program
// function (or method, bound or not; not a property) that e always
// holds, or nil.
type FuncObjecter interface {
	FuncObject(e ast.Expr) *rules.Function
}

// PartialObjecter is implemented by resolvers that also see through
// functools.partial: PartialTarget returns the module-level program
// function every value of e wraps with partial (`trainable =
// partial(train, config=c)`), or nil.
type PartialObjecter interface {
	PartialTarget(e ast.Expr) *rules.Function
}

// HandleRegistries is implemented by resolvers that know which attributes
// of a method's instance hold work handles: the class waits what it takes
// out of them (self.X.pop(k).wait()), so filing a value there
// (self.X[k] = handle) stores a reference and reads no tensor.
type HandleRegistries interface {
	HandleRegistry(fn *rules.Function, attr string) bool
}

// HostCounters is implemented by resolvers that know which attributes of
// a method's instance are Python counters: the class makes them with
// defaultdict(int), defaultdict(float) or Counter(), so their items are
// numbers on the host (Megatron's offload_count_per_layer[g] -= 1 under
// the reload stream is no device write).
type HostCounters interface {
	HostCounter(fn *rules.Function, attr string) bool
}

// ConstAttrer is implemented by resolvers that know attributes whose
// every class stores only literals there: `if classifier.apply_ddp:` on
// an object built with the rank reads a class constant, the same on
// every rank.
type ConstAttrer interface {
	ConstAttr(a *ast.Attribute) bool
}

// MaxSummary bounds the sequences Resolver.Summary returns.
const MaxSummary = 64

// defParts returns the body, parameters and decorators of a def or async
// def; ok is false for any other node.
func defParts(n ast.Node) (body []ast.Stmt, args *ast.Arguments, decos []ast.Expr, ok bool) {
	switch n := n.(type) {
	case *ast.FunctionDef:
		return n.Body, n.Args, n.DecoratorList, true
	case *ast.AsyncFunctionDef:
		return n.Body, n.Args, n.DecoratorList, true
	}
	return nil, nil, nil, false
}
