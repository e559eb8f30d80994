// Package cv201 implements CV201 communicator-on-multiple-streams: one
// communicator's operations issued on two or more explicit streams with no
// ordering between them (CuPy NCCL, cgo NCCL).
package cv201

import (
	"fmt"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV201.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV201",
	Name:     "communicator-on-multiple-streams",
	Severity: rules.Warning,
	Run:      run,
	Doc: rules.Doc{
		Title: "one communicator's operations are issued on several streams without ordering",
		What: "Reports a collective on a communicator that also receives collectives on a different explicit " +
			"stream (CuPy's NcclCommunicator.allReduce(..., stream), cupyx.distributed's stream=, ncclAllReduce's " +
			"stream argument from Go) when no wait_stream / wait_event orders one stream after the other, and the host " +
			"does not wait for the first collective's stream (its synchronize(), or the device's) between the two calls " +
			"in the function that issues both. Two collectives that only different scripts of the repository reach run in " +
			"different processes and are not paired. torch.distributed's point-to-point operations (isend, irecv) are left " +
			"out: the process group runs them on an internal stream of its own, whatever stream context issues them.",
		Why: "A communicator's operations must execute in the same order on every rank. On two unordered " +
			"streams the GPU may run them in either order, differently on each rank: the kernels wait for peers " +
			"that are running the other operation and the job hangs, or reductions mix buffers. NCCL maintainers: " +
			"there must be a stream dependency so that execution order equals submission order.",
		Example: `from cupy.cuda import nccl
import cupy

s1, s2 = cupy.cuda.Stream(), cupy.cuda.Stream()
comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s1.ptr)
comm.allReduce(b.data.ptr, b.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s2.ptr)`,
		UseInstead: `s = cupy.cuda.Stream()
comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s.ptr)
comm.allReduce(b.data.ptr, b.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s.ptr)
# or order the streams: e = cupy.cuda.Event(); e.record(s1); s2.wait_event(e)`,
		FixSafety: "No automatic fix: which stream to keep is a design choice. If the streams are ordered in a way " +
			"collvet cannot see (a wait or synchronize() in another function), `collvet guard` can confirm it at run time.",
		References: []string{
			"https://github.com/NVIDIA/nccl/issues/195 — stream dependency must equal submission order (M3)",
			"https://github.com/sgl-project/sglang/issues/31117 — one communicator used from two streams wedges the kernels (T5)",
			"https://github.com/NVIDIA/nccl/issues/1976 — per-thread default stream on a non-blocking communicator runs kernels on an unexpected stream (S13)",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	prog := p.Prog
	ordered := orderings(prog)
	byGroup := map[string][]*rules.Site{}
	var keys []string
	for _, s := range prog.Sites {
		if !rulekit.Communicates(s) || s.Stream == nil || !rulekit.Known(s.Group) || c10dP2P(s) {
			continue
		}
		k := rulekit.GroupKey(s.Group)
		if _, ok := byGroup[k]; !ok {
			keys = append(keys, k)
		}
		byGroup[k] = append(byGroup[k], s)
	}
	for _, k := range keys {
		ss := byGroup[k]
		for i, s := range ss {
			for _, prev := range ss[:i] {
				if prev.Stream.ID == s.Stream.ID || ordered[[2]string{prev.Stream.ID, s.Stream.ID}] || ordered[[2]string{s.Stream.ID, prev.Stream.ID}] {
					continue
				}
				if syncedBetween(prev, s) || syncedBetween(s, prev) || rulekit.NamedApart(prev, s) || !rulekit.MayShareProcess(prog, prev.Func, s.Func) {
					continue
				}
				d := rules.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf(
					"%s on %s is issued on stream %s, but the same communicator also runs %s on stream %s (%s) with no wait_stream/wait_event between them: "+
						"the GPU may run them in a different order on each rank, which hangs or mixes data",
					rulekit.OpName(s), rulekit.GroupLabel(s.Group), s.Stream.ID, rulekit.OpName(prev), prev.Stream.ID, prev.Pos.Short())}
				d.Related = append(d.Related, rulekit.Related(prev.Pos, fmt.Sprintf("%s on stream %s", rulekit.OpName(prev), prev.Stream.ID)))
				p.Report(d)
				break
			}
		}
	}
}

// orderings collects pairs of streams ordered by a wait_stream or
// wait_event anywhere in the program.
func orderings(prog *rules.Program) map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, f := range prog.Funcs {
		for _, e := range f.Events {
			if (e.Kind == rules.EvWaitStream || e.Kind == rules.EvWaitEvent) && e.Other != nil {
				waiter := "current"
				if e.Stream != nil {
					waiter = e.Stream.ID
				}
				m[[2]string{waiter, e.Other.ID}] = true
			}
		}
	}
	return m
}

// syncedBetween reports that the host waits for a's stream after issuing
// a and before issuing b, in the function both are in: a device-wide
// synchronize(), or a's stream's own synchronize(). b then starts after a
// has finished, whatever stream it runs on.
func syncedBetween(a, b *rules.Site) bool {
	if a.Func == nil || a.Func != b.Func {
		return false
	}
	ia, ib := -1, -1
	for i, e := range a.Func.Events {
		if e.Kind == rules.EvCollective {
			switch e.Site {
			case a:
				ia = i
			case b:
				ib = i
			}
		}
	}
	if ia < 0 || ib < ia {
		return false
	}
	for _, e := range a.Func.Events[ia+1 : ib] {
		if e.Kind != rules.EvSync {
			continue
		}
		if e.Host {
			// A blocking host read: the host waited for the stream it
			// ran on.
			if e.Stream != nil && a.Stream != nil && e.Stream.ID == a.Stream.ID {
				return true
			}
			continue
		}
		if e.Other == nil && e.OtherText == "" {
			return true // the whole device
		}
		if e.Other != nil && a.Stream != nil && e.Other.ID == a.Stream.ID {
			return true
		}
	}
	return false
}

// c10dP2P reports a torch.distributed point-to-point operation: the
// process group runs it on an internal stream of its own for the peer
// pair, after waiting for the caller's current stream, so the stream
// context it is issued under does not reorder it (pytorch/pytorch#132852).
func c10dP2P(s *rules.Site) bool {
	return s.Library == "torch" && s.Kind == rules.OpP2P
}
