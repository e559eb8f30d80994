package model

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Flags a spawn settles for the callback it starts. A wrapper that
// registers its gradient hooks only in one mode, and communicates in the
// shared helper only in the other,
//
//	def __init__(self, module, sync=False):
//	    self.sync = sync
//	    if not sync:
//	        p.register_hook(self._hook)
//	def _hook(self, grad):
//	    self._reduce(grad)
//	def _reduce(self, grad):
//	    if self.sync:
//	        dist.all_reduce(grad)
//
// never runs the collective on the autograd thread: the hook exists only
// on instances whose self.sync is false. offInSpawn finds that shape:
// the callback is the instance's own (a bound method, or a closure a
// method of it makes), it is registered where a parameter p is known
// false (in the method that stores self.X = p, or in a helper method
// that method calls only there), nothing else stores an attribute X,
// and the site is gated by self.X in a method reached from the callback
// through calls on the same receiver.

// offInSpawn reports whether the site, reached from spawn s's entry along
// chain, is gated by a receiver attribute that s's instance holds false.
func (b *builder) offInSpawn(site *rules.Site, chain []*rules.Call, s *spawn) bool {
	if s == nil || s.caller == nil || classOf(s.caller) == nil || s.cs == nil || s.cs.Node == nil || !b.ownCallback(s) {
		return false
	}
	cls := classOf(s.caller)
	g := b.fnOf(site.Func)
	if g == nil || classOf(g) != cls {
		return false
	}
	gate := b.paramGates(g).calls[gateKey{site.Pos.Line, site.Pos.Col}]
	recv, attr, ok := strings.Cut(gate, ".")
	if !ok || strings.Contains(attr, ".") || recv != receiverOf(g) {
		return false
	}
	// The chain keeps the receiver: each call is recv.method(…) on the
	// caller's own receiver (a closure's: its method's).
	for _, c := range chain {
		cs := b.callSite(c)
		caller := b.fnOf(c.Caller)
		if cs == nil || cs.Node == nil || caller == nil || classOf(caller) != cls || !onReceiver(cs.Node, caller) {
			return false
		}
	}
	// Where the callback is registered, a parameter stored in self.attr
	// is known false: in the registering method itself, or at every call
	// of it (`if not sync and world_size > 1: self._register_hooks()`).
	// Nothing else in the module stores an attribute of that name.
	mod := b.g.ModuleFunc(cls.Module)
	if mod == nil || attrStores(mod.Node, cls.Node, attr) != 1 {
		return false
	}
	sp := s.cs.Node.Span()
	if b.falseAt(s.caller, gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}, attr) {
		return true
	}
	found := false
	for _, cs := range b.g.Calls {
		targets := false
		for _, t := range cs.Targets {
			if t.Fn == s.caller {
				targets = true
			}
		}
		if !targets {
			continue
		}
		if cs.Node == nil || cs.Caller == nil || classOf(cs.Caller) != cls || !onReceiver(cs.Node, cs.Caller) {
			return false
		}
		at := cs.Node.Span()
		if !b.falseAt(cs.Caller, gateKey{int(at.Lineno), int(at.ColOffset) + 1}, attr) {
			return false
		}
		found = true
	}
	return found
}

// spawnNeverRuns reports a spawn that no call of the program reaches: it
// sits, in its own function or in the one call of that function, under a
// test of a parameter that every call passes, or leaves at its default,
// the value that rules it out (`def __init__(self, module, sync=True): …
// if not sync: self._register_hooks()`, and every DistModule(model) keeps
// sync=True).
func (b *builder) spawnNeverRuns(s *spawn) bool {
	if s == nil || s.caller == nil || s.cs == nil || s.cs.Node == nil {
		return false
	}
	// offEverywhere: the call at node in f sits under a parameter test
	// that every call of f turns off.
	offEverywhere := func(f *callgraph.Func, node ast.Node) bool {
		sp := node.Span()
		gate := b.paramGates(f).gateAt(gateKey{int(sp.Lineno), int(sp.ColOffset) + 1})
		if gate == "" || strings.Contains(gate, ".") {
			return false
		}
		return b.offAtEveryCall(f, gate)
	}
	if offEverywhere(s.caller, s.cs.Node) {
		return true
	}
	callers := b.callersOf(s.caller)
	for _, cs := range callers {
		if cs.Caller == nil || !offEverywhere(cs.Caller, cs.Node) {
			return false
		}
	}
	return len(callers) > 0
}

// offAtEveryCall reports a function that has calls, each passing (or
// leaving at its default) the value of a parameter that turns gate off.
func (b *builder) offAtEveryCall(f *callgraph.Func, gate string) bool {
	callers := b.callersOf(f)
	for _, cs := range callers {
		if off, _ := resolveGate(f, cs.Node, gate); !off {
			return false
		}
	}
	return len(callers) > 0
}

// falseAt reports whether, at the call at k in f, the parameter f stores
// in self.attr is known false.
func (b *builder) falseAt(f *callgraph.Func, k gateKey, attr string) bool {
	value := storedParam(f, attr)
	return value != "" && slices.Contains(b.paramGates(f).negs[k], value)
}

// ownCallback reports a spawn whose callback belongs to the registering
// method's own instance: a bound method of it, or what a method of it
// returns (`p.register_hook(self._make_hook(name))`).
func (b *builder) ownCallback(s *spawn) bool {
	if s.bound {
		return true
	}
	if s.sp == nil {
		return false
	}
	c, ok := argExpr(s.cs.Node, s.sp.Target).(*ast.Call)
	return ok && onReceiver(c, s.caller)
}

// onReceiver reports a call recv.m(…) on f's receiver.
func onReceiver(c *ast.Call, f *callgraph.Func) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	n, ok := a.Value.(*ast.Name)
	return ok && n.Id != "" && n.Id == receiverOf(f)
}

// receiverOf is a method's receiver parameter ("" for none).
func receiverOf(f *callgraph.Func) string {
	if f != nil && f.Class == nil && f.Parent != nil {
		// A closure reads its method's receiver.
		return receiverOf(f.Parent)
	}
	if f == nil || f.Class == nil || f.Static || f.ClassMethod {
		return ""
	}
	if a := funcArgs(f.Node); a != nil {
		return receiverParamName(a)
	}
	return ""
}

// storedParam returns the parameter p of f's own body's store
// self.attr = p, for f's receiver self ("" when there is none).
func storedParam(f *callgraph.Func, attr string) string {
	recv, param := receiverOf(f), ""
	for _, st := range ast.DefBody(f.Node) {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Assign:
				v, ok := x.Value.(*ast.Name)
				if !ok || len(x.Targets) != 1 {
					return true
				}
				if a, ok := x.Targets[0].(*ast.Attribute); ok && a.Attr == attr {
					if r, ok := a.Value.(*ast.Name); ok && r.Id == recv {
						param = v.Id
					}
				}
			}
			return param == ""
		})
	}
	return param
}

// attrStores counts the stores of an attribute named attr in module n
// outside the bodies of classes other than cls: targets of any
// assignment, deletions, and setattr calls with that name.
func attrStores(n ast.Node, cls *ast.ClassDef, attr string) int {
	count := 0
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.ClassDef:
			return x == cls
		case *ast.Attribute:
			if x.Attr == attr && x.Ctx != ast.Load {
				count++
			}
		case *ast.Call:
			if f, ok := x.Func.(*ast.Name); ok && f.Id == "setattr" && len(x.Args) > 1 {
				if c, ok := x.Args[1].(*ast.Constant); !ok || c.Type != ast.ConstStr || c.Str == attr {
					count++
				}
			}
		}
		return true
	})
	return count
}
