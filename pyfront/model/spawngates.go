package model

import (
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
// the spawn sits where a parameter p of its function is known false, the
// class stores p in self.X and nothing else in self.X, and the site is
// gated by self.X in a method reached from the bound callback through
// calls on the same receiver.

// offInSpawn reports whether the site, reached from spawn s's entry along
// chain, is gated by a receiver attribute that s's instance holds false.
func (b *builder) offInSpawn(site *rules.Site, chain []*rules.Call, s *spawn) bool {
	if s == nil || !s.bound || s.caller == nil || s.caller.Class == nil || s.cs == nil || s.cs.Node == nil {
		return false
	}
	g := b.fnOf(site.Func)
	if g == nil || g.Class != s.caller.Class {
		return false
	}
	gate := b.paramGates(g).calls[gateKey{site.Pos.Line, site.Pos.Col}]
	recv, attr, ok := strings.Cut(gate, ".")
	if !ok || strings.Contains(attr, ".") || recv != receiverOf(g) {
		return false
	}
	// The chain keeps the receiver: each call is recv.method(…) on the
	// caller's own receiver.
	for _, c := range chain {
		cs := b.callOf[c]
		caller := b.fnOf(c.Caller)
		if cs == nil || cs.Node == nil || caller == nil || caller.Class != g.Class {
			return false
		}
		a, ok := cs.Node.Func.(*ast.Attribute)
		if !ok {
			return false
		}
		if n, ok := a.Value.(*ast.Name); !ok || n.Id != receiverOf(caller) {
			return false
		}
	}
	// The spawn's function stores a parameter known false at the spawn in
	// self.attr, and nothing else in its module stores an attribute of
	// that name.
	sp := s.cs.Node.Span()
	negs := b.paramGates(s.caller).negs[gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}]
	value := storedParam(s.caller, attr)
	if value == "" || !containsStr(negs, value) {
		return false
	}
	mod := b.g.ModuleFunc(g.Class.Module)
	return mod != nil && attrStores(mod.Node, attr) == 1
}

// receiverOf is a method's receiver parameter ("" for none).
func receiverOf(f *callgraph.Func) string {
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

// attrStores counts the stores of an attribute named attr in n: targets
// of any assignment, deletions, and setattr calls with that name.
func attrStores(n ast.Node, attr string) int {
	count := 0
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
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

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
