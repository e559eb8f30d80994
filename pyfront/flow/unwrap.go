package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Rank arms that unwrap the model. Saving a DDP model's weights on rank 0
// often starts by taking the module it wraps; written back into the
// model's own variable inside the training loop,
//
//	for x in data:
//	    model(x).sum().backward()
//	    if rank == 0:
//	        model = model.module
//	        torch.save(model.state_dict(), path)
//
// it leaves rank 0 with the plain module from the next pass on: its
// forward broadcasts no buffers and its backward all-reduces no
// gradients, while the other ranks' DDP forwards and backwards wait for
// it (UnstableBaselines' learner, through Ray Train's prepare_model).

// rankUnwrap records, for a rank test's arm inside a loop, a rebinding of
// a local to the module its wrapper holds, when the loop's body runs
// that local's forward: the wrapper's collectives of the passes after
// it, which the arm's ranks no longer issue (RankBranch.Unwrapped).
func (l *lowerer) rankUnwrap(s *ast.If) {
	n := len(l.loopBodies)
	if n == 0 || exits(s.Body) || l.leavesLoopAfter() {
		return
	}
	body := l.loopBodies[n-1]
	for _, st := range s.Body {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			continue
		}
		t, ok := a.Targets[0].(*ast.Name)
		if !ok || !unwrapsModule(a.Value, t.Id) || bindsElsewhere(body, t.Id, a) {
			continue
		}
		var ops []*rules.OpRef
		for _, o := range l.ops(body) {
			if o.Pos.Path == l.file.Path && callsNameAt(body, t.Id, o.Pos) {
				ops = append(ops, o)
			}
		}
		if len(ops) > 0 {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(s.Test.Span()), Cond: l.text(s.Test),
				Then: ops, Unwrapped: true, Under: ptrPos(l.pos(a.Span()))})
		}
	}
}

// leavesLoopAfter reports an enclosing block, inside the innermost loop,
// that ends by leaving it (`if step == last: … break`): no next pass
// follows the statement being lowered.
func (l *lowerer) leavesLoopAfter() bool {
	if len(l.loopRests) == 0 {
		return false
	}
	for i := len(l.rests) - 1; i >= l.loopRests[len(l.loopRests)-1]; i-- {
		if l.restLeaves(i, "break") || l.restLeaves(i, "leave") {
			return true
		}
	}
	return false
}

// unwrapsModule reports a value that is the module the wrapper in name
// holds: name.module, `name.module if hasattr(name, "module") else name`
// (either way round), getattr(name, "module", name), or an
// unwrap_model(name) helper (accelerate's, transformers').
func unwrapsModule(e ast.Expr, name string) bool {
	isName := func(x ast.Expr) bool {
		n, ok := x.(*ast.Name)
		return ok && n.Id == name
	}
	switch e := e.(type) {
	case *ast.Attribute:
		return e.Attr == "module" && isName(e.Value)
	case *ast.IfExp:
		return unwrapsModule(e.Body, name) && isName(e.Orelse) || isName(e.Body) && unwrapsModule(e.Orelse, name)
	case *ast.Call:
		switch lastDotted(e.Func) {
		case "getattr":
			attr, ok := "", false
			if len(e.Args) >= 2 {
				attr, ok = constStr(e.Args[1])
			}
			return ok && attr == "module" && isName(e.Args[0])
		case "unwrap_model":
			return len(e.Args) >= 1 && isName(e.Args[0])
		}
	}
	return false
}

// bindsElsewhere reports an assignment to name in body other than a:
// the variable is set again each pass (or set back), so the unwrapped
// module may not survive into the next one.
func bindsElsewhere(body []ast.Stmt, name string, a *ast.Assign) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if found || n == ast.Node(a) {
			return false
		}
		if x, ok := n.(*ast.Name); ok && x.Id == name && x.Ctx == ast.Store {
			found = true
		}
		return !found
	})
	return found
}

// callsNameAt reports a call of name itself (`name(x)`, its forward) at
// p, in body. Several calls may start at p (`model(x).sum()`): any of
// them counts.
func callsNameAt(body []ast.Stmt, name string, p rules.Pos) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && int(c.Lineno) == p.Line && int(c.ColOffset)+1 == p.Col {
			if f, ok := c.Func.(*ast.Name); ok && f.Id == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// UnwrapHelper reports a function that hands back the module inside the
// wrapper it is given, or the model itself when it is none (`def
// get_base_model(model): if hasattr(model, "module"): model =
// model.module; return model`, or `return model.module if
// hasattr(model, "module") else model`): what it returns is never the
// wrapper, and calling it runs no wrapper's forward.
func UnwrapHelper(def ast.Node) bool {
	body, args, _, ok := defParts(def)
	if !ok || args == nil {
		return false
	}
	params := args.PositionalNames()
	if len(params) == 0 {
		return false
	}
	p := params[0]
	if (p == "self" || p == "cls") && len(params) > 1 {
		p = params[1]
	}
	rebound := false
	for _, st := range body {
		switch s := st.(type) {
		case *ast.Assign:
			if len(s.Targets) == 1 && isNameOf(s.Targets[0], p) && unwrapsModule(s.Value, p) {
				rebound = true
			}
		case *ast.If, *ast.While:
			var test ast.Expr
			var arm []ast.Stmt
			if x, ok := s.(*ast.If); ok {
				test, arm = x.Test, x.Body
			} else {
				x := s.(*ast.While)
				test, arm = x.Test, x.Body
			}
			if hasModuleTest(test, p) && len(arm) == 1 {
				if a, ok := arm[0].(*ast.Assign); ok && len(a.Targets) == 1 && isNameOf(a.Targets[0], p) && unwrapsModule(a.Value, p) {
					rebound = true
				}
			}
		}
	}
	returns, unwrapped := 0, 0
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Return:
			returns++
			if n.Value != nil && (unwrapsModule(n.Value, p) || rebound && isNameOf(n.Value, p)) {
				unwrapped++
			}
			return false
		}
		return true
	})
	return returns > 0 && returns == unwrapped
}

// hasModuleTest reports `hasattr(p, "module")`.
func hasModuleTest(test ast.Expr, p string) bool {
	c, ok := test.(*ast.Call)
	if !ok || dotted(c.Func) != "hasattr" || len(c.Args) != 2 || !isNameOf(c.Args[0], p) {
		return false
	}
	attr, ok := constStr(c.Args[1])
	return ok && attr == "module"
}

func isNameOf(e ast.Expr, name string) bool {
	n, ok := e.(*ast.Name)
	return ok && n.Id == name
}
