// Package callgraph computes the call graph of a Python program and the
// abstract values its expressions may hold.
//
// The analysis is a flow-insensitive, context-insensitive inclusion-based
// points-to analysis in the style of PyCG and Andersen: every variable,
// attribute, container element, parameter and return value is a slot
// holding a set of abstract values (a function's local variable that is
// assigned more than once has a slot per assignment, and each read the
// slots of the assignments that reach it: locals.go), and the program's
// statements (up to a return, raise, break, continue or `assert False`,
// after which the rest of a block never runs) become
// constraints between slots (copy, attribute load/store, element
// load/store, iteration, call). A worklist solver propagates values until
// nothing changes; calls whose callee set grows are bound on the fly, so
// functions passed as arguments, returned, stored in containers or
// attributes, bound methods, decorators, functools.partial and super()
// resolve as the values reach them.
//
// Abstract values:
//
//	module     a module of the program (or a namespace package)
//	func       a function, method, lambda (one value per definition)
//	class      a class of the program
//	instance   all instances of one class (one value per class)
//	bound      a function bound to a receiver (method of an instance)
//	super      super() seen from a class, with its receiver
//	external   a symbol outside the program, by canonical qualified name
//	           (torch.distributed.all_reduce, <builtin>.len)
//	container  a list/tuple/set/dict literal or comprehension (one per
//	           syntax node), with per-index, per-constant-key and
//	           any-element slots
//	generator  the generator object a generator function returns
//	opaque     a value created by a Hooks implementation (process groups,
//	           device meshes, streams) with a type name for its methods
//
// Receivers: a method's first parameter holds the instances its callers
// pass. Classes the program never instantiates, directly or through a
// subclass, are taken to be instantiated outside it (a library analysed
// without its users' scripts): once the constraints are solved, their
// methods get their own class's instance as receiver and solving resumes,
// so that self.method and the hooks and threads such classes start are
// seen. Instantiated classes get their own instances as receivers of the
// methods a framework outside the program calls on them: a torch module's
// forward, a Thread's run, a LightningModule's or a transformers Trainer
// subclass's hooks that no call site of the program reaches.
//
// Every definition is a Func (module bodies included), named in PyCG's
// convention (pkg.mod, pkg.mod.Class.method, pkg.mod.f.<lambda1>); calls
// record their resolved targets (functions, or external names). Export
// writes the PyCG JSON shape.
//
// The builder is sequential and deterministic: modules are processed in
// path order, the constraints known so far are solved after each module
// (while later files are still being parsed), and the worklist is FIFO,
// so value and function numbering do not depend on scheduling.
package callgraph
