package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Parameter gates: a helper that communicates only when a parameter of
// its own says so,
//
//	def save_state_dict(path, state, synchronize=True):
//	    if synchronize:
//	        barrier()
//
// called as save_state_dict(p, s, synchronize=False) under a rank-0 guard
// issues no collective there. Summaries mark such ops with the parameter
// (OpRef.Gate), and a call drops them when it passes, or defaults to, a
// false constant.

// gateKey is a call's position inside one function.
type gateKey struct{ line, col int }

// funcGates is what paramGates found in one function.
type funcGates struct {
	calls  map[gateKey]string // gated calls, by position
	params map[string]bool    // the parameters the body never assigns
}

// paramGates maps the calls of f that run only when one of f's
// parameters is true to that parameter: calls under `if p:`, in the else
// of `if not p:`, and after a top-level `if not p: return`. A parameter
// the body assigns is no gate. A nil f has none.
func (b *builder) paramGates(f *callgraph.Func) *funcGates {
	if f == nil {
		return &funcGates{}
	}
	if g, ok := b.gates[f]; ok {
		return g
	}
	g := &funcGates{}
	body, args := ast.DefBody(f.Node), funcArgs(f.Node)
	if args != nil {
		g.params = map[string]bool{}
		for _, a := range allParams(args) {
			g.params[a.Arg] = true
		}
		for _, st := range body {
			ast.Inspect(st, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && nm.Ctx == ast.Store {
					delete(g.params, nm.Id)
				}
				return true
			})
		}
		if len(g.params) > 0 {
			gw := gateWalker{params: g.params, out: map[gateKey]string{}}
			gw.stmts(body, "", true)
			if len(gw.out) > 0 {
				g.calls = gw.out
			}
		}
	}
	b.gates[f] = g
	return g
}

type gateWalker struct {
	params map[string]bool
	out    map[gateKey]string
}

// stmts walks a statement list under gate ("" for none); top is the
// function's own body, where `if not p: return` gates what follows.
func (w *gateWalker) stmts(list []ast.Stmt, gate string, top bool) {
	for i, st := range list {
		iff, ok := st.(*ast.If)
		if !ok {
			w.node(st, gate)
			continue
		}
		p, negated := w.paramTest(iff.Test)
		if p == "" {
			w.node(iff.Test, gate)
			w.stmts(iff.Body, gate, false)
			w.stmts(iff.Orelse, gate, false)
			continue
		}
		inner := func(g string) string {
			if gate != "" {
				return gate // the outer gate stays: one is enough to drop it
			}
			return g
		}
		if !negated {
			w.stmts(iff.Body, inner(p), false)
			w.stmts(iff.Orelse, gate, false)
			continue
		}
		w.stmts(iff.Body, gate, false)
		w.stmts(iff.Orelse, inner(p), false)
		if top && len(iff.Orelse) == 0 && exits(iff.Body) {
			w.stmts(list[i+1:], inner(p), false)
			return
		}
	}
}

// paramTest recognises `p` and `not p` for a gate parameter p.
func (w *gateWalker) paramTest(e ast.Expr) (param string, negated bool) {
	if u, ok := e.(*ast.UnaryOp); ok && u.Op == ast.Not {
		e, negated = u.Operand, true
	}
	if n, ok := e.(*ast.Name); ok && w.params[n.Id] {
		return n.Id, negated
	}
	return "", false
}

// node records the calls in n (not in nested definitions) under gate.
func (w *gateWalker) node(n ast.Node, gate string) {
	if gate == "" {
		return
	}
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Call:
			sp := x.Span()
			w.out[gateKey{int(sp.Lineno), int(sp.ColOffset) + 1}] = gate
		}
		return true
	})
}

// exits reports a block that always leaves the function.
func exits(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	switch body[len(body)-1].(type) {
	case *ast.Return, *ast.Raise:
		return true
	}
	return false
}

// resolveGate decides what a call of callee does with an op gated by
// callee's parameter gate: off when the call passes (or defaults to) a
// false constant, so the op is not issued; otherwise fwd is the caller's
// own parameter the call passes through (gate again in the caller's
// summary), or "".
func resolveGate(callee *callgraph.Func, call *ast.Call, gate string) (off bool, fwd string) {
	x, dflt, known := boundArg(callee, call, gate)
	if x == nil {
		if !known || dflt == nil {
			return false, ""
		}
		return isFalseConst(dflt), ""
	}
	if n, ok := x.(*ast.Name); ok {
		return false, n.Id
	}
	return isFalseConst(x), ""
}

// isFalseConst: False, None, 0 or an empty string.
func isFalseConst(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	switch c.Type {
	case ast.ConstNone:
		return true
	case ast.ConstBool:
		return !c.Bool
	case ast.ConstInt:
		return c.Big == nil && c.Int == 0
	case ast.ConstStr:
		return c.Str == ""
	}
	return false
}

// apply applies a call's arguments to the callee's summary, for the
// summary of the caller (whose gates g are): ops the call switches off
// are dropped; ops still gated get a gate in the caller (the caller's
// parameter the call forwards, or the call's own gate).
func (g *funcGates) apply(sub []*rules.OpRef, callee *callgraph.Func, call *ast.Call, pos rules.Pos) []*rules.OpRef {
	callGate := g.calls[gateKey{pos.Line, pos.Col}]
	out := make([]*rules.OpRef, 0, len(sub))
	for _, o := range sub {
		gate := ""
		if o.Gate != "" && callee != nil {
			off, fwd := resolveGate(callee, call, o.Gate)
			if off {
				continue
			}
			if g.params[fwd] {
				gate = fwd
			}
		}
		if gate == "" {
			gate = callGate
		}
		out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: pos, Site: o.Site, Creates: o.Creates, Gate: gate})
	}
	return out
}
