package flow

import (
	"bytes"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Host copies of JAX arrays. In a multi-process JAX program the result of
// a jitted function is a jax.Array that may be sharded over every
// process; turning it into host data (np.asarray, float(), .item(),
// jax.device_get) on one process alone cannot work: JAX raises there
// ("Fetching value for jax.Array that spans non-addressable devices"),
// and the other processes wait in their next collective (netket PR
// #2272, R9). A result replicated on every process copies locally; the
// analysis cannot tell the two apart.

// MaterializeOp names that collective in rank branches.
const MaterializeOp = "materialize"

// JitOp names the run of a compiled JAX program in rank branches: a
// computation over a mesh that spans the processes is a collective every
// process must run, in the same order (maxdiffusion PR #426, R10).
const JitOp = "jit"

// jitFactories compile a function into a program object (p =
// jax.jit(f)); calling the object runs the program.
var jitFactories = map[string]bool{
	"jax.jit": true, "jax.pjit": true, "jax.experimental.pjit.pjit": true, "jax.pmap": true,
	"equinox.filter_jit": true, "equinox.filter_pmap": true,
}

// jaxProgram reports whether the function's file imports JAX (or
// Equinox): only there does a compiled function run on a mesh.
func (l *lowerer) jaxProgram() bool {
	m := &l.memo().jaxFiles
	if v, ok := m.Load(l.file); ok {
		return v.(bool)
	}
	src := l.file.Src
	yes := bytes.Contains(src, []byte("import jax")) || bytes.Contains(src, []byte("from jax")) ||
		bytes.Contains(src, []byte("import equinox")) || bytes.Contains(src, []byte("from equinox"))
	m.Store(l.file, yes)
	return yes
}

// jitCall reports a call that runs a compiled JAX program: a function
// decorated as one, or the object a jit factory returned.
func (l *lowerer) jitCall(c *ast.Call) bool {
	ext, fn := l.callee(c)
	if fn != nil {
		return l.jitted(fn)
	}
	if !jitFactories[ext] {
		return false
	}
	switch lastDotted(c.Func) {
	case "jit", "pjit", "pmap", "filter_jit", "filter_pmap":
		return false // the factory itself, or jax.jit(f)(x) seen at its inner call
	}
	return true
}

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
		switch lastDotted(e) {
		case "jit", "pjit", "pmap", "filter_jit":
			// numba's @jit compiles for the host, not for a mesh.
			ref := l.r.Ref(e)
			return ref == "" || jitFactories[ref] || !strings.HasPrefix(ref, "numba")
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
			if lastDotted(c.Func) == "partial" && len(c.Args) > 0 && isJit(c.Args[0]) {
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
	switch lastDotted(c.Func) {
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
