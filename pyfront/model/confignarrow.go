package model

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
)

// A setting chooses the wrapper and, later, the code that uses it:
//
//	if self.params.use_fsdp:
//	    self.model = FSDP(model)
//	else:
//	    self.model = DDP(model)
//	…
//	if self.params.use_fsdp:
//	    dcp.save(get_state_dict(self.model, …))
//	else:
//	    if rank == 0:
//	        torch.save(self.model.state_dict(), path)
//
// The call graph gives `self.model.state_dict()` both wrappers' methods;
// the FSDP one never runs there, since the arm that made the FSDP wrapper
// and the arm of the call answer the same setting differently.
// settingExcludes reports such a call for an instance of the external
// class cls.

// guard is one if that encloses a node: its test and the arm.
type guard struct {
	test ast.Expr
	then bool
}

// ifGuards returns the ifs of body (not of nested defs) that enclose
// target, outermost first, and whether target is in body at all.
func ifGuards(body []ast.Stmt, target ast.Node) ([]guard, bool) {
	tp := target.Span()
	for _, s := range body {
		if !within(tp, s.Span()) {
			continue
		}
		switch s := s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return nil, false
		case *ast.If:
			if within(tp, s.Test.Span()) {
				return nil, true
			}
			if gs, ok := ifGuards(s.Body, target); ok {
				return append([]guard{{s.Test, true}}, gs...), true
			}
			if gs, ok := ifGuards(s.Orelse, target); ok {
				return append([]guard{{s.Test, false}}, gs...), true
			}
			return nil, true
		}
		var found []guard
		ok := false
		for _, sub := range ast.ChildBlocks(s) {
			if found, ok = ifGuards(sub, target); ok {
				break
			}
		}
		return found, true
	}
	return nil, false
}

// settingText returns a test's text when it reads only a setting: a
// dotted attribute path of a configuration object (self.params.use_fsdp,
// args.fsdp) or its comparison with a constant; "" for any other test
// (facts has taken `not` apart). A rank, a call or a subscript is no setting.
func settingText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Compare:
		if len(e.Ops) != 1 {
			return ""
		}
		if _, ok := e.Comparators[0].(*ast.Constant); !ok {
			return ""
		}
		if t := settingPath(e.Left); t != "" {
			return t + " " + e.Ops[0].String() + " " + e.Comparators[0].(*ast.Constant).Repr()
		}
		return ""
	}
	return settingPath(e)
}

// settingPath returns a dotted attribute path of at least two parts whose
// last part names no rank or process role.
func settingPath(e ast.Expr) string {
	a, ok := e.(*ast.Attribute)
	if !ok {
		return ""
	}
	p := pathText(a)
	if p == "" {
		return ""
	}
	last := strings.ToLower(a.Attr)
	if strings.Contains(last, "rank") || strings.Contains(last, "main") || strings.Contains(last, "master") || strings.Contains(last, "zero") {
		return ""
	}
	return p
}

// facts splits guards into the plain tests they settle: each conjunct of
// an `and` whose then arm is taken, each disjunct of an `or` whose else
// arm is, `not X` as X answered the other way.
func facts(gs []guard) []guard {
	var out []guard
	var add func(e ast.Expr, then bool)
	add = func(e ast.Expr, then bool) {
		switch x := e.(type) {
		case *ast.UnaryOp:
			if x.Op == ast.Not {
				add(x.Operand, !then)
				return
			}
		case *ast.BoolOp:
			if x.Op == ast.And && then || x.Op == ast.Or && !then {
				for _, v := range x.Values {
					add(v, then)
				}
			}
			return
		}
		out = append(out, guard{e, then})
	}
	for _, g := range gs {
		add(g.test, g.then)
	}
	return out
}

// opposed reports a setting that the two guard lists answer differently.
func opposed(a, b []guard) bool {
	fb := facts(b)
	for _, x := range facts(a) {
		tx := settingText(x.test)
		if tx == "" {
			continue
		}
		for _, y := range fb {
			if x.then != y.then && settingText(y.test) == tx {
				return true
			}
		}
	}
	return false
}

// settingExcludes reports whether the call cs cannot run on an instance of
// the external class cls: its receiver is an attribute of self (or a local
// of the calling function) that the program binds to a cls instance only
// by constructing one in an arm whose setting the call's own arm answers
// the other way.
func (b *builder) settingExcludes(cs *callgraph.CallSite, cls string) bool {
	f := cs.Caller
	attr, ok := cs.Node.Func.(*ast.Attribute)
	if f == nil || !ok {
		return false
	}
	path := pathText(attr.Value)
	if n, isName := attr.Value.(*ast.Name); isName {
		// model = self.model: the attribute it aliases.
		if vals := flow.LocalValues(f.Node, n.Id); len(vals) == 1 {
			if p := pathText(vals[0]); strings.HasPrefix(p, "self.") {
				path = p
			}
		}
	}
	if path == "" {
		return false
	}
	body := ast.ScopeBody(f.Node)
	callGuards, _ := ifGuards(body, cs.Node)
	if len(callGuards) == 0 {
		return false
	}
	scope := []*callgraph.Func{f}
	if strings.HasPrefix(path, "self.") {
		if f.Class == nil {
			return false
		}
		scope = b.classMethods(f.Class)
	}
	inst := b.t.Canonical(cls) + "()"
	made := 0
	for _, g := range scope {
		gbody := ast.ScopeBody(g.Node)
		byNode := map[*ast.Call]*callgraph.CallSite{}
		for _, c := range g.Calls {
			if c.Node != nil {
				byNode[c.Node] = c
			}
		}
		bad := false
		ast.InspectBody(gbody, func(n ast.Node) bool {
			if bad {
				return false
			}
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Assign:
				for _, t := range n.Targets {
					if pathText(t) != path {
						continue
					}
					if c, isCall := n.Value.(*ast.Call); isCall && b.constructs(byNode[c], cls) {
						gs, _ := ifGuards(gbody, c)
						if !opposed(gs, callGuards) {
							bad = true
						}
						made++
						continue
					}
					// Any other value that may hold such an instance
					// (a helper's result, a local wrapped earlier).
					for _, v := range b.g.ExprValues(n.Value) {
						if val := b.g.Value(v); val.Kind == callgraph.KExternal && b.t.Canonical(val.Name) == inst {
							bad = true
						}
					}
				}
			}
			return true
		})
		if bad {
			return false
		}
	}
	return made > 0
}

// constructs reports a call site that constructs the external class cls.
func (b *builder) constructs(cs *callgraph.CallSite, cls string) bool {
	if cs == nil {
		return false
	}
	want := b.t.Canonical(cls)
	for _, t := range cs.Targets {
		if t.Fn == nil && b.t.Canonical(t.External) == want {
			return true
		}
	}
	return false
}
