package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
)

// selfAttrTargets resolves "self.X(…)" calls that the call graph gives no
// function target (the receiver's points-to set lost the instance) from
// the class's own stores "self.X = e": the functions e may hold. FSDP's
// post-backward hook calls self._communication_hook, set in __init__ from
// self._get_default_comm_hook() (allreduce_hook / reduce_scatter_hook).
func (b *builder) selfAttrTargets(f *callgraph.Func, cs *callgraph.CallSite) []*callgraph.Func {
	if cs.Node == nil || f.Class == nil || f.Static || f.Scope == nil || len(f.Scope.Params) == 0 {
		return nil
	}
	for _, t := range cs.Targets {
		if t.Fn != nil {
			return nil
		}
	}
	attr, ok := cs.Node.Func.(*ast.Attribute)
	if !ok {
		return nil
	}
	if n, ok := attr.Value.(*ast.Name); !ok || n.Id != f.Scope.Params[0] {
		return nil
	}
	stores := b.selfStores(f.Class)
	var out []*callgraph.Func
	seen := map[*callgraph.Func]bool{}
	for _, e := range stores[attr.Attr] {
		for _, v := range b.g.ExprValues(e) {
			if val := b.g.Value(v); val != nil && (val.Kind == callgraph.KFunc || val.Kind == callgraph.KBound) && val.Fn != nil && !seen[val.Fn] {
				seen[val.Fn] = true
				out = append(out, val.Fn)
			}
		}
	}
	return out
}

// selfStores indexes a class's "self.X = e" assignments in its methods by X
// (computed once per class).
func (b *builder) selfStores(c *callgraph.Class) map[string][]ast.Expr {
	if m, ok := b.selfStoreIdx[c]; ok {
		return m
	}
	if b.methodsOf == nil {
		// One pass over the functions for all classes: a pass per class
		// is quadratic on large programs.
		b.methodsOf = map[*callgraph.Class][]*callgraph.Func{}
		for _, f := range b.g.Funcs {
			if f.Class != nil {
				b.methodsOf[f.Class] = append(b.methodsOf[f.Class], f)
			}
		}
	}
	m := map[string][]ast.Expr{}
	for _, f := range b.methodsOf[c] {
		if f.Static || f.Scope == nil || len(f.Scope.Params) == 0 {
			continue
		}
		def, ok := f.Node.(*ast.FunctionDef)
		if !ok {
			continue
		}
		self := f.Scope.Params[0]
		for _, s := range def.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
					return false
				case *ast.Assign:
					for _, t := range n.Targets {
						if a, ok := t.(*ast.Attribute); ok {
							if nm, ok := a.Value.(*ast.Name); ok && nm.Id == self {
								m[a.Attr] = append(m[a.Attr], n.Value)
							}
						}
					}
				}
				return true
			})
		}
	}
	b.selfStoreIdx[c] = m
	return m
}
