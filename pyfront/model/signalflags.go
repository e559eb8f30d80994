package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Flags that signal handlers set.
//
// A preemption handler that only records the signal (`self._signal_received
// = True`) is the right design, but each rank receives the signal at its
// own moment: a rank that reads the flag and acts on it alone (saves a
// checkpoint, leaves the loop) parts from the others unless the ranks
// first agree on it (Megatron's DistributedSignalHandler all-gathers it).
// The flow pass treats a read of such an attribute, by a method of the
// handler's class, like a clock reading (flow.SignalFlagger).

// SignalFlag implements flow.SignalFlagger.
func (r *resolver) SignalFlag(fn *rules.Function, attr string) bool {
	b := r.b
	if b.signalFlags == nil {
		b.signalFlags = b.collectSignalFlags()
	}
	if len(b.signalFlags) == 0 {
		return false
	}
	c := classOf(b.fnOf(fn))
	return c != nil && b.signalFlags[c][attr]
}

// collectSignalFlags lists, per class, the attributes of self that a
// signal handler defined in that class (a method, or a function nested in
// one) assigns.
func (b *builder) collectSignalFlags() map[*callgraph.Class]map[string]bool {
	out := map[*callgraph.Class]map[string]bool{}
	for _, c := range b.prog.Contexts {
		if c.Kind != rules.Signal || c.Entry == nil {
			continue
		}
		f := b.fnOf(c.Entry)
		cls := classOf(f)
		if cls == nil {
			continue
		}
		ast.InspectBody(ast.DefBody(f.Node), func(n ast.Node) bool {
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
				if a, ok := t.(*ast.Attribute); ok {
					if v, ok := a.Value.(*ast.Name); ok && v.Id == "self" {
						if out[cls] == nil {
							out[cls] = map[string]bool{}
						}
						out[cls][a.Attr] = true
					}
				}
			}
			return true
		})
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
