package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Handle registries: attributes of an instance that hold work handles.
//
// DeepSpeed ZeRO-3's parameter coordinator starts an all-gather under
// its stream and files the handle by parameter
// (self.__inflight_param_registry[param] = handle); other methods take it
// out and wait it (self.__inflight_param_registry.pop(param).wait()). The
// item store is then a reference filed away, not a tensor copied on the
// device, which is what an item store of a bare value usually is to the
// flow pass (out[i] = y).

// HandleRegistry implements flow.HandleRegistries: whether attr of the
// instance that fn is a method of is waited out of somewhere in its class.
func (r *resolver) HandleRegistry(fn *rules.Function, attr string) bool {
	return r.classFacts(fn, &r.b.registries, registriesOf)[attr]
}

// classFacts returns what scan finds in the class that fn is a method of
// (or a closure inside one of its methods), memoised in *memo; nil when
// fn belongs to no class.
func (r *resolver) classFacts(fn *rules.Function, memo *map[*callgraph.Class]map[string]bool, scan func(*ast.ClassDef) map[string]bool) map[string]bool {
	f := r.b.fnOf(fn)
	for f != nil && f.Class == nil {
		f = f.Parent // a closure inside a method
	}
	if f == nil || f.Class.Node == nil {
		return nil
	}
	if *memo == nil {
		*memo = map[*callgraph.Class]map[string]bool{}
	}
	facts, ok := (*memo)[f.Class]
	if !ok {
		facts = scan(f.Class.Node)
		(*memo)[f.Class] = facts
	}
	return facts
}

// registriesOf scans a class for self.X whose elements it waits:
// self.X.pop(k).wait(), self.X.get(k).wait(), self.X[k].wait(), and the
// loop variables of for h in self.X / self.X.values() / for k, h in
// self.X.items() that the loop body waits.
func registriesOf(c *ast.ClassDef) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(c, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && a.Attr == "wait" {
				if x := registryOf(a.Value); x != "" {
					out[x] = true
				}
			}
		case *ast.For:
			x, elem := loopRegistry(n)
			if x == "" || elem == "" {
				return true
			}
			ast.InspectStmts(n.Body, func(s ast.Stmt) bool {
				ast.Inspect(s, func(m ast.Node) bool {
					if c, ok := m.(*ast.Call); ok {
						if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "wait" {
							if v, ok := a.Value.(*ast.Name); ok && v.Id == elem {
								out[x] = true
							}
						}
					}
					return true
				})
				return false
			})
		}
		return true
	})
	return out
}

// registryOf returns X for self.X.pop(…), self.X.get(…) and self.X[…].
func registryOf(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Call:
		if a, ok := e.Func.(*ast.Attribute); ok && (a.Attr == "pop" || a.Attr == "get") {
			return selfAttr(a.Value)
		}
	case *ast.Subscript:
		return selfAttr(e.Value)
	}
	return ""
}

// loopRegistry returns X and the element variable of for h in self.X,
// for h in self.X.values() and for k, h in self.X.items().
func loopRegistry(f *ast.For) (x, elem string) {
	iter := f.Iter
	method := ""
	if c, ok := iter.(*ast.Call); ok && len(c.Args) == 0 {
		if a, ok := c.Func.(*ast.Attribute); ok {
			iter, method = a.Value, a.Attr
		}
	}
	x = selfAttr(iter)
	switch t := f.Target.(type) {
	case *ast.Name:
		if method == "" || method == "values" {
			elem = t.Id
		}
	case *ast.Tuple:
		if method == "items" && len(t.Elts) == 2 {
			if n, ok := t.Elts[1].(*ast.Name); ok {
				elem = n.Id
			}
		}
	}
	return x, elem
}

// selfAttr returns X for self.X.
func selfAttr(e ast.Expr) string {
	if a, ok := e.(*ast.Attribute); ok {
		if n, ok := a.Value.(*ast.Name); ok && n.Id == "self" {
			return a.Attr
		}
	}
	return ""
}

// Host counters: attributes a class makes as defaultdict(int),
// defaultdict(float) or Counter(), whose items are Python numbers.

// HostCounter implements flow.HostCounters.
func (r *resolver) HostCounter(fn *rules.Function, attr string) bool {
	return r.classFacts(fn, &r.b.counters, countersOf)[attr]
}

// countersOf scans a class for self.X = defaultdict(int|float) or
// Counter(), and drops an attribute the class also sets to anything else.
func countersOf(c *ast.ClassDef) map[string]bool {
	out, other := map[string]bool{}, map[string]bool{}
	ast.Inspect(c, func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok {
			return true
		}
		for _, t := range a.Targets {
			if x := selfAttr(t); x != "" {
				if counterValue(a.Value) {
					out[x] = true
				} else {
					other[x] = true
				}
			}
		}
		return true
	})
	for x := range other {
		delete(out, x)
	}
	return out
}

// counterValue: defaultdict(int), defaultdict(float),
// collections.defaultdict(int), Counter(), collections.Counter().
func counterValue(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Keywords) > 0 {
		return false
	}
	switch ast.CalleeName(c) {
	case "Counter":
		return len(c.Args) == 0
	case "defaultdict":
		if len(c.Args) == 1 {
			if n, ok := c.Args[0].(*ast.Name); ok {
				return n.Id == "int" || n.Id == "float"
			}
		}
	}
	return false
}
