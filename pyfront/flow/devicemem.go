package flow

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Device memory handed to CUDA-aware MPI.
//
// mpi4py's buffer methods (comm.Allreduce(sendbuf, recvbuf), comm.Send(buf,
// …)) take any object with __cuda_array_interface__ or DLPack: a CuPy
// array, a CUDA torch tensor. The MPI library then reads and writes the
// device memory itself, through GPUDirect RDMA or copy streams of its own,
// outside the order of the stream the program's kernels ran on. A buffer
// a kernel is still writing (cupy.arange, x * 2, a memset of cupy.zeros)
// can be sent before the kernel has run, or overwritten by it after MPI
// has received into it. mpi4py's own CUDA demo synchronizes before every
// call ("always make sure the GPU buffer is ready before any MPI
// operation"); pylops-mpi and deal.II fixed wrong results this way.
//
// The lowering knows which locals hold device memory by how they were
// made (gpuValue), marks those writes (Event.Device), and gives each MPI
// buffer argument a read that only a host synchronize orders
// (Event.Unordered); CV203 reports one that follows a device write with
// no synchronize between.

// mpiBufferArgs are the buffer parameters of mpi4py's upper-case methods,
// by method: positions and keywords.
var mpiBufferArgs = func() map[string][]struct {
	pos  int
	name string
} {
	type a = struct {
		pos  int
		name string
	}
	one := []a{{0, "buf"}}
	two := []a{{0, "sendbuf"}, {1, "recvbuf"}}
	m := map[string][]a{
		"Sendrecv":         {{0, "sendbuf"}, {3, "recvbuf"}},
		"Sendrecv_replace": one,
	}
	for _, n := range []string{"Bcast", "Ibcast", "Send", "Ssend", "Bsend", "Rsend", "Isend", "Issend", "Ibsend", "Irsend", "Recv", "Irecv"} {
		m[n] = one
	}
	for _, n := range []string{"Allreduce", "Iallreduce", "Reduce", "Ireduce", "Allgather", "Iallgather", "Allgatherv", "Iallgatherv",
		"Gather", "Igather", "Gatherv", "Igatherv", "Scatter", "Iscatter", "Scatterv", "Iscatterv", "Alltoall", "Ialltoall",
		"Alltoallv", "Ialltoallv", "Reduce_scatter", "Ireduce_scatter", "Reduce_scatter_block", "Ireduce_scatter_block",
		"Scan", "Iscan", "Exscan", "Iexscan"} {
		m[n] = two
	}
	return m
}()

// mpiBuffers returns the buffer arguments of a call of one of mpi4py's
// buffer methods, or nil for any other site.
func mpiBuffers(c *ast.Call, site *rules.Site) []ast.Expr {
	if site == nil || !strings.HasPrefix(site.API, "mpi4py.MPI.") {
		return nil
	}
	params := mpiBufferArgs[site.API[strings.LastIndexByte(site.API, '.')+1:]]
	var out []ast.Expr
	for _, p := range params {
		var x ast.Expr
		for _, k := range c.Keywords {
			if k.Arg == p.name {
				x = k.Value
			}
		}
		if x == nil && p.pos < len(c.Args) {
			if _, star := c.Args[p.pos].(*ast.Starred); !star {
				x = c.Args[p.pos]
			}
		}
		if x == nil {
			continue
		}
		// [buf, MPI.FLOAT], (buf, count, MPI.DOUBLE): the buffer is the
		// first element of a buffer specification.
		switch s := x.(type) {
		case *ast.List:
			if len(s.Elts) > 0 {
				x = s.Elts[0]
			}
		case *ast.Tuple:
			if len(s.Elts) > 0 {
				x = s.Elts[0]
			}
		}
		out = append(out, x)
	}
	return out
}

// unorderedReads gives each device buffer an MPI call passes a read that
// only a host synchronize orders (Event.Unordered).
func (l *lowerer) unorderedReads(c *ast.Call, site *rules.Site) {
	if !l.uses {
		return
	}
	for _, x := range mpiBuffers(c, site) {
		if d := dotted(x); d != "" {
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(x.Span()), Var: d, Site: site, Unordered: true})
		}
	}
}

// cupyHostResults are CuPy's functions whose results are no device
// arrays: host copies, dtypes, sizes, pools and flags.
var cupyHostResults = map[string]bool{
	"asnumpy": true, "get_array_module": true, "get_default_memory_pool": true, "get_default_pinned_memory_pool": true,
	"show_config": true, "is_available": true, "finfo": true, "iinfo": true, "dtype": true, "result_type": true,
	"can_cast": true, "ndim": true, "shape": true, "size": true, "isscalar": true, "fuse": true, "ElementwiseKernel": true,
	"RawKernel": true, "ReductionKernel": true, "RawModule": true,
	// ndarray methods that copy to the host
	"get": true, "tolist": true, "item": true, "tobytes": true,
}

// cupyFresh are CuPy's allocations that run no kernel: nothing is pending
// on what they return.
var cupyFresh = map[string]bool{"cupy.empty": true, "cupy.empty_like": true, "cupy.ndarray": true}

// cupyInPlace are a CuPy array's methods that write it in place.
var cupyInPlace = map[string]bool{"fill": true, "sort": true, "put": true, "partition": true}

// gpuHostMethods are methods of a device array that return host values.
var gpuHostMethods = map[string]bool{"get": true, "tolist": true, "item": true, "tobytes": true, "cpu": true, "numpy": true}

// gpuValue reports an expression known to make or hold device memory:
// what CuPy's array functions return, a tensor moved or made on a CUDA
// device (t.cuda(), t.to("cuda"), torch.ones(n, device="cuda")), and
// arithmetic, methods and slices of such values.
func (l *lowerer) gpuValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name:
		return l.gpuVars[e.Id]
	case *ast.Attribute:
		return l.gpuVars[dotted(e)]
	case *ast.Subscript:
		return l.gpuValue(e.Value)
	case *ast.BinOp:
		return l.gpuValue(e.Left) || l.gpuValue(e.Right)
	case *ast.UnaryOp:
		return l.gpuValue(e.Operand)
	case *ast.IfExp:
		return l.gpuValue(e.Body) || l.gpuValue(e.Orelse)
	case *ast.Call:
		if hostValue(e) {
			return false
		}
		if refs := l.callees(e); len(refs) > 0 && slices.ContainsFunc(refs, cupyArray) {
			return true
		}
		for _, k := range e.Keywords {
			if k.Arg == "device" && cudaNamed(k.Value) {
				return true
			}
		}
		if a, ok := e.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "cuda":
				return true
			case "to":
				if len(e.Args) > 0 && cudaNamed(e.Args[0]) {
					return true
				}
			}
			if gpuHostMethods[a.Attr] {
				return false
			}
			return l.gpuValue(a.Value)
		}
	}
	return false
}

// gpuWrite reports an assignment to v that leaves device memory there: of
// a device value, or (value nil) an augmented assignment to what already
// was device memory (buf *= 2).
func (l *lowerer) gpuWrite(v string, value ast.Expr) bool {
	if value == nil {
		return l.gpuVars[v]
	}
	return l.gpuValue(value)
}

// gpuFresh reports a CuPy allocation that runs no kernel (cupy.empty).
func (l *lowerer) gpuFresh(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	refs := l.callees(c)
	return len(refs) > 0 && slices.ContainsFunc(refs, func(r string) bool { return cupyFresh[r] })
}

// callees lists the external symbols a call may call: every one where the
// resolver can tell (xp.empty, with xp numpy on one path and cupy on
// another, may call either), else the one its function names.
func (l *lowerer) callees(c *ast.Call) []string {
	if ec, ok := l.r.(ExternalCalleeser); ok {
		if refs := ec.ExternalCallees(c); len(refs) > 0 {
			return refs
		}
	}
	if ref := l.r.Ref(c.Func); ref != "" {
		return []string{ref}
	}
	return nil
}

// cupyArray reports one of CuPy's functions that return a device array.
func cupyArray(ref string) bool {
	if !strings.HasPrefix(ref, "cupy.") && !strings.HasPrefix(ref, "cupyx.") {
		return false
	}
	for _, p := range []string{"cupy.cuda.", "cupyx.distributed.", "cupy.testing.", "cupy.random.get_random_state", "cupy.random.seed"} {
		if strings.HasPrefix(ref, p) {
			return false
		}
	}
	return !cupyHostResults[ref[strings.LastIndexByte(ref, '.')+1:]]
}

// cudaNamed is cudaDevice that also reads an f-string: f"cuda:{rank}",
// torch.device(f"cuda:{rank}").
func cudaNamed(e ast.Expr) bool {
	if c, ok := e.(*ast.Call); ok && lastDotted(c.Func) == "device" && len(c.Args) > 0 {
		e = c.Args[0]
	}
	if x, ok := e.(*ast.JoinedStr); ok && len(x.Values) > 0 {
		k, ok := x.Values[0].(*ast.Constant)
		return ok && k.Type == ast.ConstStr && strings.HasPrefix(k.Str, "cuda")
	}
	return cudaDevice(e)
}

// gpuHostCopy reports x.get() on a CuPy array: a copy to the host that
// waits for the current stream (not a dict's get, which is why the
// receiver must be known device memory).
func (l *lowerer) gpuHostCopy(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	return ok && a.Attr == "get" && len(c.Args) == 0 && l.gpuVars[dotted(a.Value)]
}

// hostSyncMethods are methods whose call, with no arguments, makes the
// host wait for device work: a copy to the host (CuPy's x.get(),
// t.item(), t.tolist(), t.cpu()) or a stream's or device's synchronize().
var hostSyncMethods = map[string]bool{"get": true, "item": true, "tolist": true, "cpu": true, "synchronize": true}

// hostSyncCalls make the host wait for the device.
var hostSyncCalls = map[string]bool{"cupy.asnumpy": true, "torch.cuda.synchronize": true, "cupy.cuda.runtime.deviceSynchronize": true}

// hostSyncs reports a program function whose own body makes the host wait
// for the current stream: after a call of it, nothing written on that
// stream before the call is pending. (A queue's get() counts too: a
// missed hazard, never a false one.)
func (l *lowerer) hostSyncs(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().hostSyncs, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		found := false
		ast.InspectBody(body, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda, *ast.ClassDef:
				return false
			case *ast.If:
				found = tensorTruthTest(unNot(x.Test)) // detectron2's _detect_anomaly
			case *ast.Assert:
				found = tensorTruthTest(unNot(x.Test))
			case *ast.Call:
				if a, ok := x.Func.(*ast.Attribute); ok && hostSyncMethods[a.Attr] && len(x.Args) == 0 && len(x.Keywords) == 0 {
					found = true
				} else if hostSyncCalls[l.r.Ref(x.Func)] {
					found = true
				}
			}
			return !found
		})
		return found
	})
}

// unNot strips `not` from a test.
func unNot(e ast.Expr) ast.Expr {
	for {
		u, ok := e.(*ast.UnaryOp)
		if !ok || u.Op != ast.Not {
			return e
		}
		e = u.Operand
	}
}
