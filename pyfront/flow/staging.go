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
		if c, ok := e.(*ast.Call); ok {
			// torch.device("cuda", rank), torch.cuda.current_device()
			d := dotted(c.Func)
			return d == "torch.device" || strings.HasSuffix(d, "current_device")
		}
		// A rank names the device by its index (`.to(rank)`,
		// `.to(args.local_rank)`): no dtype is called that.
		d := strings.ToLower(dotted(e))
		return strings.Contains(d, "device") || strings.Contains(d, "cuda") || strings.Contains(d, "gpu") || strings.Contains(d, "rank")
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

// syncedUpload reports a blocking copy of host data to the device
// (`torch.tensor([0.485, 0.456, 0.406]).cuda().view(1, 3, 1, 1)`,
// `torch.from_numpy(a).to(device)`, `torch.tensor(xs, device="cuda")`):
// without non_blocking=True, PyTorch synchronises the copy's stream
// before returning, so the tensor it makes has nothing pending on any
// stream (apex's data prefetcher reads its mean and std on its side
// stream). A copy of a tensor that may already be on the device is not
// one: .cuda() hands that tensor back as it is, pending work and all.
func syncedUpload(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	a, isAttr := c.Func.(*ast.Attribute)
	if isAttr && viewMethods[a.Attr] {
		return syncedUpload(a.Value)
	}
	if hostConstructors[dotted(c.Func)] {
		// torch.tensor(data, device="cuda"): made on the host, then
		// copied over with a blocking copy.
		return !nonBlocking(c) && (len(c.Args) == 0 || hostData(c.Args[0]))
	}
	if !isAttr || !deviceMove(c) || nonBlocking(c) {
		return false
	}
	return hostValue(a.Value) || hostTensor(a.Value)
}

// hostConstructors build a tensor from Python or NumPy data, on the host
// unless a device is named.
var hostConstructors = map[string]bool{
	"torch.tensor": true, "torch.as_tensor": true, "torch.from_numpy": true,
	"torch.Tensor": true, "torch.FloatTensor": true, "torch.LongTensor": true, "torch.IntTensor": true,
	"torch.DoubleTensor": true, "torch.HalfTensor": true, "torch.BoolTensor": true, "torch.ByteTensor": true,
}

// hostFactories make a new tensor from sizes or a range, on the host
// unless a device is named (the _like forms take their input's device).
var hostFactories = map[string]bool{
	"torch.zeros": true, "torch.ones": true, "torch.empty": true, "torch.full": true,
	"torch.rand": true, "torch.randn": true, "torch.randint": true, "torch.arange": true,
	"torch.linspace": true, "torch.eye": true,
}

// hostTensor reports a tensor made on the host: a constructor of
// hostConstructors given Python or NumPy data, or a factory of
// hostFactories, with no device.
func hostTensor(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	if a, isAttr := c.Func.(*ast.Attribute); isAttr && viewMethods[a.Attr] {
		return hostTensor(a.Value)
	}
	name := dotted(c.Func)
	if hostFactories[name] {
		// torch.zeros(n, d): made on the host unless a device is named.
		for _, k := range c.Keywords {
			if k.Arg == "device" && !cpuDevice(k.Value) {
				return false
			}
		}
		return true
	}
	if !hostConstructors[name] || len(c.Args) == 0 || !hostData(c.Args[0]) {
		return false
	}
	for _, k := range c.Keywords {
		if k.Arg == "device" && !cpuDevice(k.Value) {
			return false
		}
	}
	return true
}

// hostData reports Python or NumPy data: a literal display or number, a
// comprehension, a NumPy call, or a host value (t.cpu().numpy()).
func hostData(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.List, *ast.Tuple, *ast.Constant, *ast.ListComp, *ast.BinOp:
		return hostValue(e) || isDisplay(e)
	case *ast.Call:
		d := dotted(e.Func)
		return strings.HasPrefix(d, "np.") || strings.HasPrefix(d, "numpy.") || hostValue(e) // a.numpy(), t.tolist()
	}
	return false
}

// isDisplay reports a list or tuple display or a list comprehension.
func isDisplay(e ast.Expr) bool {
	switch e.(type) {
	case *ast.List, *ast.Tuple, *ast.ListComp:
		return true
	}
	return false
}
