package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Host copies of JAX arrays. In a multi-process JAX program the result of
// a jitted function is a jax.Array that may span every process; turning
// it into host data (np.asarray, float(), .item(), jax.device_get) is a
// host-side collective that every process must enter. Under a test of
// jax.process_index() only one process does, and every multi-process run
// hangs at its first step (netket PR #2272, R9).

// MaterializeOp names that collective in rank branches.
const MaterializeOp = "materialize"

// jitted reports whether fn's definition is decorated as a compiled JAX
// function (@jax.jit, @jit, @pjit, @jax.pmap, @partial(jax.jit, …),
// @jax.jit(static_argnums=…), @eqx.filter_jit).
func (l *lowerer) jitted(fn *rules.Function) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || fn == nil {
		return false
	}
	_, _, decos, ok := defParts(fd.FuncDef(fn))
	if !ok {
		return false
	}
	isJit := func(e ast.Expr) bool {
		switch lastName(dotted(e)) {
		case "jit", "pjit", "pmap", "filter_jit":
			return true
		}
		return false
	}
	for _, d := range decos {
		if isJit(d) {
			return true
		}
		if c, ok := d.(*ast.Call); ok {
			if isJit(c.Func) {
				return true
			}
			if lastName(dotted(c.Func)) == "partial" && len(c.Args) > 0 && isJit(c.Args[0]) {
				return true
			}
		}
	}
	return false
}

// trackJaxArray records whether v is bound to the result of a jitted
// program function.
func (l *lowerer) trackJaxArray(v string, value ast.Expr) {
	if c, ok := value.(*ast.Call); ok {
		if _, fn := l.callee(c); fn != nil && l.jitted(fn) {
			if l.jaxArrays == nil {
				l.jaxArrays = map[string]bool{}
			}
			l.jaxArrays[v] = true
			return
		}
	}
	if l.jaxArrays != nil {
		delete(l.jaxArrays, v)
	}
}

// hostCopy reports whether c copies a JAX array bound by a jitted call
// (or an element of one, through a comprehension over it) to the host.
func (l *lowerer) hostCopy(c *ast.Call, derived map[string]bool) bool {
	if len(l.jaxArrays) == 0 && len(derived) == 0 {
		return false
	}
	var x ast.Expr
	switch lastName(dotted(c.Func)) {
	case "asarray", "array", "device_get", "float", "int":
		if len(c.Args) == 0 {
			return false
		}
		if d := dotted(c.Func); d != "float" && d != "int" && d != "np.asarray" && d != "np.array" && d != "numpy.asarray" && d != "numpy.array" && d != "jax.device_get" && d != "onp.asarray" {
			return false
		}
		x = c.Args[0]
	default:
		if a, ok := c.Func.(*ast.Attribute); ok && (a.Attr == "item" || a.Attr == "tolist") && len(c.Args) == 0 {
			x = a.Value
		}
	}
	if x == nil {
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && (l.jaxArrays[nm.Id] || derived[nm.Id]) {
			found = true
		}
		return !found
	})
	return found
}

// compDerived returns the targets of a comprehension's generators that
// iterate over a JAX array bound by a jitted call (for k, v in
// stats.items()).
func (l *lowerer) compDerived(gens []*ast.Comprehension) map[string]bool {
	if len(l.jaxArrays) == 0 {
		return nil
	}
	var out map[string]bool
	for _, g := range gens {
		hit := false
		ast.Inspect(g.Iter, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && l.jaxArrays[nm.Id] {
				hit = true
			}
			return !hit
		})
		if !hit {
			continue
		}
		ast.Inspect(g.Target, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok {
				if out == nil {
					out = map[string]bool{}
				}
				out[nm.Id] = true
			}
			return true
		})
	}
	return out
}

// generators returns the for clauses of a comprehension node.
func generators(n ast.Node) []*ast.Comprehension {
	switch n := n.(type) {
	case *ast.ListComp:
		return n.Generators
	case *ast.SetComp:
		return n.Generators
	case *ast.GeneratorExp:
		return n.Generators
	case *ast.DictComp:
		return n.Generators
	}
	return nil
}
