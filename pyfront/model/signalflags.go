package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
)

// Flags that signal handlers set.
//
// A preemption handler that only records the signal (`self._signal_received
// = True`) is the right design, but each rank receives the signal at its
// own moment: a rank that reads the flag and acts on it alone (saves a
// checkpoint, leaves the loop) parts from the others unless the ranks
// first agree on it (Megatron's DistributedSignalHandler all-gathers it).
// The flow pass treats a read of such a flag like a clock reading
// (flow.SignalFlagger). A flag is
//   - an attribute of self that a handler defined in the class sets;
//   - an attribute of another object that a handler sets
//     (`self.trainer._received_sigterm = True`, Lightning's signal
//     connector), owned by the classes that object's values are instances
//     of;
//   - a module global that a handler declares global and sets;
//   - an item of a module global that a handler stores into
//     (`preemption_flag["flag"] = True`, Meta lingua's train loop): any
//     item of it read elsewhere.
//
// A background thread's function that sets one (a pool task that starts
// a daemon and records it in a global, torch's async checkpoint process
// executor) is such a setter too, unless its spawner joins it at once:
// each rank's thread gets there at its own moment, and a rank that reads
// the flag before its thread set it takes the other branch.

// signalFlags is what the program's signal handlers and background
// threads set.
type signalFlags struct {
	attrs   map[*callgraph.Class]map[string]bool // per owning class
	globals map[*resolve.Scope]map[string]bool   // per module scope
	items   map[*resolve.Scope]map[string]bool   // module globals whose items are set
	// setters: the functions that set them (their own reads are in
	// program order with the writes).
	setters map[*callgraph.Func]bool
}

// SignalFlag implements flow.SignalFlagger: whether e, read in fn, is one
// of the flags (self.X, obj.X, or a global name).
func (r *resolver) SignalFlag(fn *rules.Function, e ast.Expr) bool {
	b := r.b
	if b.signalFlags == nil {
		b.signalFlags = b.collectSignalFlags()
	}
	flags := b.signalFlags
	if len(flags.attrs) == 0 && len(flags.globals) == 0 && len(flags.items) == 0 {
		return false
	}
	f := b.fnOf(fn)
	if flags.setters[f] {
		return false
	}
	switch e := e.(type) {
	case *ast.Attribute:
		if e.Ctx != ast.Load {
			return false
		}
		if v, ok := e.Value.(*ast.Name); ok && v.Id == "self" {
			if c := classOf(f); c != nil {
				// The class's own handler, or a base class's (templar's
				// miner reads the window its BaseNode's listener sets).
				classes, _ := b.g.MRO(c)
				for _, k := range append([]*callgraph.Class{c}, classes...) {
					if flags.attrs[k][e.Attr] {
						return true
					}
				}
			}
		}
		for _, c := range b.instanceClasses(b.g.ExprValues(e.Value)) {
			if flags.attrs[c][e.Attr] {
				return true
			}
		}
	case *ast.Name:
		if e.Ctx != ast.Load || f == nil || f.Scope == nil {
			return false
		}
		sc := f.Scope.Lookup(e.Id)
		return sc != nil && sc.Kind == resolve.ModuleScope && flags.globals[sc][e.Id]
	case *ast.Subscript:
		v, ok := e.Value.(*ast.Name)
		if !ok || e.Ctx != ast.Load || len(flags.items) == 0 || f == nil || f.Scope == nil {
			return false
		}
		sc := f.Scope.Lookup(v.Id)
		return sc != nil && sc.Kind == resolve.ModuleScope && flags.items[sc][v.Id]
	}
	return false
}

// instanceClasses lists the classes of the instances among vals.
func (b *builder) instanceClasses(vals []callgraph.ValueID) []*callgraph.Class {
	var out []*callgraph.Class
	for _, v := range vals {
		if val := b.g.Value(v); val != nil && val.Kind == callgraph.KInstance && val.Class != nil {
			out = append(out, val.Class)
		}
	}
	return out
}

// collectSignalFlags finds what the signal handlers and the functions
// background threads run (and the functions nested in them) set.
func (b *builder) collectSignalFlags() *signalFlags {
	out := &signalFlags{attrs: map[*callgraph.Class]map[string]bool{}, globals: map[*resolve.Scope]map[string]bool{},
		items: map[*resolve.Scope]map[string]bool{}, setters: map[*callgraph.Func]bool{}}
	addAttr := func(c *callgraph.Class, attr string) {
		if out.attrs[c] == nil {
			out.attrs[c] = map[string]bool{}
		}
		out.attrs[c][attr] = true
	}
	for _, c := range b.prog.Contexts {
		background := (c.Kind == rules.Thread || c.Kind == rules.Pool) && !c.Joined
		if c.Kind != rules.Signal && !background || c.Entry == nil {
			continue
		}
		f := b.fnOf(c.Entry)
		if f == nil || f.Scope == nil {
			continue
		}
		out.setters[f] = true
		cls := classOf(f)
		nested := false
		visit := func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.Assign:
				targets = n.Targets
			case *ast.AugAssign:
				targets = []ast.Expr{n.Target}
			case *ast.AnnAssign:
				targets = []ast.Expr{n.Target}
			}
			for _, t := range targets {
				switch t := t.(type) {
				case *ast.Attribute:
					if v, ok := t.Value.(*ast.Name); ok && v.Id == "self" && cls != nil {
						addAttr(cls, t.Attr)
						continue
					}
					for _, owner := range b.instanceClasses(b.g.ExprValues(t.Value)) {
						addAttr(owner, t.Attr)
					}
				case *ast.Name:
					// Only the handler's own `global` declarations: a
					// nested function's are its own business.
					if !nested && f.Scope.Global[t.Id] {
						mod := f.Scope.Lookup(t.Id)
						if out.globals[mod] == nil {
							out.globals[mod] = map[string]bool{}
						}
						out.globals[mod][t.Id] = true
					}
				case *ast.Subscript:
					// flags["stop"] = True on a module's dict: no global
					// declaration needed to store an item.
					if v, ok := t.Value.(*ast.Name); ok && (!f.Scope.Bound[v.Id] || f.Scope.Global[v.Id]) {
						if mod := f.Scope.Lookup(v.Id); mod != nil && mod.Kind == resolve.ModuleScope {
							if out.items[mod] == nil {
								out.items[mod] = map[string]bool{}
							}
							out.items[mod][v.Id] = true
						}
					}
				}
			}
			return true
		}
		// Nested defs too: a callback the function hands on (one it
		// subscribes: templar's block listener) runs for it.
		var walk func(body []ast.Stmt)
		walk = func(body []ast.Stmt) {
			for _, st := range body {
				ast.Inspect(st, func(n ast.Node) bool {
					switch d := n.(type) {
					case *ast.FunctionDef:
						saved := nested
						nested = true
						walk(d.Body)
						nested = saved
						return false
					case *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
						return false
					}
					return visit(n)
				})
			}
		}
		walk(ast.DefBody(f.Node))
	}
	return out
}

// classOf is the class f is a method of, or whose method f is nested in.
func classOf(f *callgraph.Func) *callgraph.Class {
	for ; f != nil; f = f.Parent {
		if f.Class != nil {
			return f.Class
		}
	}
	return nil
}
