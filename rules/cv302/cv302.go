// Package cv302 implements CV302 send-before-receive-exchange: a blocking
// send followed by a blocking receive that every rank runs in the same
// order, so that each waits in its send for a peer waiting in its own.
package cv302

import (
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV302.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV302",
	Name:     "send-before-receive-exchange",
	Severity: rules.Warning,
	Run:      run,
	Doc: rules.Doc{
		Title: "every rank sends before it receives",
		What: "Reports a blocking send (dist.send, send_object_list, mpi4py's Send/send) followed in the same block by a " +
			"blocking receive from a peer that can differ per rank (computed from the rank, or a variable such as a parameter), " +
			"with no rank-dependent branch splitting the two: every " +
			"rank sends first. A pair exchange (the same peer both ways, `peer = rank ^ 1`) is reported for every library; " +
			"a ring (send to the next rank, receive from the previous) only for MPI, whose blocking Send waits for the " +
			"receiver above its eager limit, and gloo, whose blocking send waits for the receiver even for a few bytes. Exchanges ordered by rank parity (`if rank % 2 == 0: send; recv` `else: recv; send`), " +
			"arms that mirror each other whatever their condition (`if is_sender: send; recv` `else: recv; send`, the caller " +
			"picking the side), batch_isend_irecv, isend/irecv pairs posted before either is waited, and Sendrecv are not reported; an isend " +
			"waited at once counts as a blocking send. An MPI send on a communicator that another thread of the program receives " +
			"on (a listener that answers requests) is taken to be received there, and is not reported. Also reported: a batch_isend_irecv whose list holds a receive " +
			"before a send on a group whose backend runs a batch in list order (oneCCL, backend \"xccl\"; O3).",
		Why: "A large message is handed over only once the receiver has posted its receive: MPI switches to a rendezvous " +
			"protocol above its eager limit, and NCCL queues a pair's send and receive on one stream, so the receive cannot " +
			"start before the send has finished; gloo's blocking send waits for the receiver whatever the size (16 floats hang, " +
			"see BENCHMARKS.md). If both ranks send first, each waits for the other's receive forever. " +
			"On NCCL and MPI small messages go through eagerly, so the code passes its tests and hangs once tensors grow " +
			"(NVIDIA/nccl#479, pytorch/pytorch#109401).",
		Example: `peer = rank ^ 1
dist.send(grad, dst=peer)
dist.recv(remote, src=peer)`,
		UseInstead: `peer = rank ^ 1
ops = [dist.P2POp(dist.isend, grad, peer), dist.P2POp(dist.irecv, remote, peer)]
for req in dist.batch_isend_irecv(ops):
    req.wait()
# or order by parity: if rank % 2 == 0: send, recv  else: recv, send
# mpi4py: comm.Sendrecv(sendbuf, dest=peer, recvbuf=recvbuf, source=peer)`,
		FixSafety: "No fix is offered: which shape is right (batch_isend_irecv, an order by rank parity, Sendrecv) " +
			"depends on the code around the exchange, and a parity order must match the peer's. Where the peer comes from " +
			"elsewhere (a parameter) or the exchange spans functions, `collvet guard` reports at run time a blocking receive " +
			"from the rank a thread just sent to, also in tests whose small messages go through (torch.distributed only; on " +
			"gloo the send itself hangs first).",
		References: []string{
			"https://github.com/NVIDIA/nccl/issues/479 — rank 0 send→recv and rank 1 send→recv block unless grouped (O5)",
			"https://github.com/pytorch/pytorch/issues/109401 — interleaved isend/irecv hang (O5)",
			"https://github.com/meta-pytorch/torchcomms/pull/2885 — batch_isend_irecv with the receive listed first deadlocks on XPU/oneCCL (O3)",
			"https://github.com/pytorch/pytorch/issues/172668 — pipeline schedule with both ranks in SEND deadlocks across nodes (O4)",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	for _, x := range p.Prog.Exchanges {
		if x == nil || x.Send == nil || x.Recv == nil {
			continue
		}
		if x.RecvFirst {
			d := rules.Diagnostic{Pos: x.RecvAt, Message: fmt.Sprintf(
				"this batch_isend_irecv lists a receive before a send, and its group's backend (%s) runs a batch in list order: "+
					"each rank waits in its receive for a send that the peer queued behind its own receive (hang; "+
					"meta-pytorch/torchcomms PR #2885 on XPU); list the sends first",
				x.Send.Group.Backend)}
			d.Related = append(d.Related, rulekit.Related(x.SendAt, "the send, listed after the receive"))
			p.Report(d)
			continue
		}
		if listened(p.Prog, x.Send) {
			continue
		}
		how := fmt.Sprintf("to and from the same peer (`%s`)", x.SendPeer)
		if x.SendPeer != x.RecvPeer {
			how = fmt.Sprintf("to `%s` and from `%s`, in a ring", x.SendPeer, x.RecvPeer)
		}
		d := rules.Diagnostic{Pos: x.Send.Pos, Message: fmt.Sprintf(
			"every rank runs this %s before its %s, %s: a large message is handed over only once the "+
				"receiver posts its receive (MPI's rendezvous, NCCL's one stream per pair), so each rank waits in its send for a "+
				"peer waiting in its own (hang once messages outgrow the eager limit); use batch_isend_irecv (or Sendrecv), "+
				"or order the two by rank parity",
			blocking(x.Send), blocking(x.Recv), how)}
		d.Related = append(d.Related, rulekit.Related(x.Recv.Pos, "the receive every rank reaches only after its send"))
		p.Report(d)
	}
}

// listened reports an MPI send whose communicator another thread of the
// program receives on (a listener that answers requests: sonar's
// Iprobe-and-reply loop): that thread, not the peer's main thread, takes
// the message, so the send does not wait for the peer's own send to end.
func listened(prog *rules.Program, send *rules.Site) bool {
	if !rulekit.IsMPI(send) {
		return false
	}
	for _, s := range prog.Sites {
		if s.Kind != rules.OpP2P || s == send || !strings.HasPrefix(s.Op, "recv") || rulekit.GroupKey(s.Group) != rulekit.GroupKey(send.Group) {
			continue
		}
		for _, r := range s.Reach {
			if r != nil && r.Ctx != nil && (r.Ctx.Kind == rules.Thread || r.Ctx.Kind == rules.Pool) &&
				rulekit.MayShareProcess(prog, rulekit.RunsIn(s, r.Ctx), send.Func) {
				return true
			}
		}
	}
	return false
}

// blocking names a site as the blocking call it is: dist.send, or
// dist.isend waited at once.
func blocking(s *rules.Site) string {
	if s.Async {
		return rulekit.OpName(s) + " (waited at once)"
	}
	return "blocking " + rulekit.OpName(s)
}
