package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Host staging: a variable the function copies to the device
// (`x.to(device, non_blocking=True)`, `xs[i].cuda()`) holds host memory,
// so what the function assigns to it with ordinary ops (slices, clones of
// host tensors: SALIENT's CSR batches) runs on the CPU and leaves nothing
// pending on a stream. Only an asynchronous copy into it (non_blocking=True)
// is a device write.

// stagedForDevice reports whether the function copies v (or an element of
// it) to the device somewhere.
func (l *lowerer) stagedForDevice(v string) bool {
	if l.staged == nil {
		l.staged = map[string]bool{}
		ast.Inspect(l.node, func(n ast.Node) bool {
			c, ok := n.(*ast.Call)
			if !ok {
				return true
			}
			if !deviceMove(c) {
				return true
			}
			a := c.Func.(*ast.Attribute)
			if d := dotted(a.Value); d != "" {
				if _, isCall := a.Value.(*ast.Call); !isCall {
					l.staged[d] = true
				}
			}
			return true
		})
	}
	return l.staged[v]
}

// deviceMove reports x.cuda(…) or x.to(<device>).
func deviceMove(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	return ok && (a.Attr == "cuda" || a.Attr == "to" && movesToDevice(c))
}

// movesToDevice reports a .to() call that names a device (device=…, a
// "cuda…" string, or a name or attribute mentioning a device), not a
// dtype cast or a move to the CPU.
func movesToDevice(c *ast.Call) bool {
	isDevice := func(e ast.Expr) bool {
		if s, ok := constStr(e); ok {
			return strings.HasPrefix(s, "cuda")
		}
		d := strings.ToLower(dotted(e))
		return strings.Contains(d, "device") || strings.Contains(d, "cuda") || strings.Contains(d, "gpu")
	}
	for _, k := range c.Keywords {
		if k.Arg == "device" {
			s, ok := constStr(k.Value)
			return !ok || s != "cpu"
		}
	}
	return len(c.Args) > 0 && isDevice(c.Args[0])
}

// stagingWrite reports an assignment to a variable staged for the
// device whose value is computed on the host: anything but an
// asynchronous copy or a move to the device.
func (l *lowerer) stagingWrite(v string, value ast.Expr) bool {
	if value == nil || !l.uses || !l.stagedForDevice(v) {
		return false
	}
	device := false
	ast.Inspect(value, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			device = nonBlocking(c) || deviceMove(c)
		}
		return !device
	})
	return !device
}
