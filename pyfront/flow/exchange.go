package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Send-before-receive exchanges. `dist.send(t, peer)` then
// `dist.recv(u, peer)`, run alike on every rank, makes each rank wait in
// its send for a peer that is itself waiting in its send: NCCL queues a
// pair's send and receive on one stream, and MPI hands a large message
// over only once the receiver has posted it (NVIDIA/nccl#479,
// pytorch/pytorch#109401, O5). Small messages slip through eagerly, so
// such code passes its tests and hangs at scale.

// blockingP2P tells a blocking send (true) or receive (false) from any
// other call: a point-to-point or object site that is not asynchronous
// and has a peer argument in the tables.
func (l *lowerer) blockingP2P(c *ast.Call, waited bool) (site *rules.Site, peer ast.Expr, send, ok bool) {
	site = l.r.Site(c)
	if site == nil || site.Async && !waited {
		return nil, nil, false, false
	}
	switch site.Op {
	case "send", "send_object":
		send = true
	case "recv", "recv_object":
	default:
		return nil, nil, false, false
	}
	e := l.tb.Collectives[site.API]
	if e == nil || !e.Peer.Present() {
		return nil, nil, false, false
	}
	peer = arg(c, e.Peer)
	if peer == nil {
		return nil, nil, false, false
	}
	return site, peer, send, true
}

// exchanges scans the function's statement lists (not the arms of a
// rank-dependent if: `if rank % 2 == 0: send; recv` `else: recv; send`
// is the fix) for a blocking send followed by a blocking receive whose
// peers depend on the rank. A pair exchange (the same peer both ways) is
// reported on every backend; a ring (send to one neighbour, receive from
// the other) for MPI and gloo, whose blocking sends wait for the
// receiver (gloo even for 16 floats, see BENCHMARKS.md), not for NCCL,
// which runs each pair on its own stream and returns to the host.
func (l *lowerer) exchanges(body []ast.Stmt) {
	var scan func(stmts []ast.Stmt)
	scan = func(stmts []ast.Stmt) {
		var send *ast.Call
		var sendSite *rules.Site
		var sendPeer ast.Expr
		for i, s := range stmts {
			if c := stmtCall(s); c != nil {
				l.batchOrder(c, stmts[:i])
				// `w = dist.isend(…)` waited at once is a blocking send.
				waited := i+1 < len(stmts) && waitsResult(s, stmts[i+1])
				if site, peer, isSend, ok := l.blockingP2P(c, waited); ok {
					switch {
					case isSend && send == nil && l.peerVaries(peer):
						send, sendSite, sendPeer = c, site, peer
					case !isSend && send != nil && l.peerVaries(peer):
						same := l.text(peer) == l.text(sendPeer)
						if same || hostBlockingSend(sendSite) {
							l.addExchange(&rules.Exchange{Func: l.fn, Send: sendSite, Recv: site, SendPeer: l.text(sendPeer), RecvPeer: l.text(peer)})
						}
						send = nil
					case !isSend:
						send = nil // a receive first: this rank's order is recv, send
					}
				}
				continue
			}
			switch s := s.(type) {
			case *ast.If:
				if _, div := l.divergence(s.Test); div || l.mirrored(s.Body, s.Orelse) {
					// Split by rank, or by a flag the caller sets per
					// rank (`if is_sender: send; recv` `else: recv;
					// send`): each side has its own order. Unless only
					// one side exchanges at all: `for i in
					// range(world): if i != rank: send(t, i); recv(u,
					// i)` makes every rank send first (ort_moe's
					// compressed all-to-all).
					send = nil
					switch {
					case !l.hasP2P(s.Orelse):
						scan(s.Body)
					case !l.hasP2P(s.Body):
						scan(s.Orelse)
					}
					send = nil
					continue
				}
				scan(s.Body)
				scan(s.Orelse)
			case *ast.For:
				if c, ok := s.Iter.(*ast.Call); ok {
					l.batchOrder(c, stmts[:i]) // for req in batch_isend_irecv(ops)
				}
				scan(s.Body)
			case *ast.AsyncFor:
				scan(s.Body)
			case *ast.While:
				scan(s.Body)
			case *ast.With:
				scan(s.Body)
			case *ast.AsyncWith:
				scan(s.Body)
			case *ast.Try:
				scan(s.Body)
			}
		}
	}
	scan(body)
}

// hasP2P reports statements that make a blocking send or receive.
func (l *lowerer) hasP2P(stmts []ast.Stmt) bool {
	found := false
	ast.InspectBody(stmts, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found {
			if _, _, _, ok := l.blockingP2P(c, true); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// inOrderBatchBackends run a batch_isend_irecv in the order of its list:
// a receive listed before a send waits for a peer whose send is queued
// behind its own receive (meta-pytorch/torchcomms PR #2885, XPU).
var inOrderBatchBackends = map[string]bool{"xccl": true, "ccl": true}

// batchOrder records a batch_isend_irecv whose op list (a list display,
// or a local bound to one by the statements before) has a receive before
// a send, on a group whose backend runs batches in list order.
func (l *lowerer) batchOrder(c *ast.Call, before []ast.Stmt) {
	site := l.r.Site(c)
	if site == nil || site.Op != "batch_p2p" || site.Group == nil || !inOrderBatchBackends[site.Group.Backend] || len(c.Args) == 0 {
		return
	}
	list := c.Args[0]
	if nm, ok := list.(*ast.Name); ok {
		list = nil
		for _, s := range before {
			if a, ok := s.(*ast.Assign); ok && len(a.Targets) == 1 {
				if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == nm.Id {
					list = a.Value
				}
			}
		}
	}
	elts, ok := list.(*ast.List)
	if !ok {
		return
	}
	var recvAt *ast.Call
	for _, e := range elts.Elts {
		op, ok := e.(*ast.Call)
		if !ok || lastDotted(op.Func) != "P2POp" || len(op.Args) == 0 {
			continue
		}
		switch lastDotted(op.Args[0]) {
		case "irecv":
			if recvAt == nil {
				recvAt = op
			}
		case "isend":
			if recvAt != nil {
				l.addExchange(&rules.Exchange{Func: l.fn, Send: site, Recv: site, RecvFirst: true,
					SendAt: l.pos(op.Span()), RecvAt: l.pos(recvAt.Span())})
				return
			}
		}
	}
}

// hostBlockingSend reports a send that blocks its host thread until the
// receiver takes the message: MPI's (above the eager limit) and gloo's.
func hostBlockingSend(s *rules.Site) bool {
	return s.Library == "mpi4py" || s.Group != nil && s.Group.Backend == "gloo"
}

// waitsResult reports `w = f(…)` followed by `w.wait()` (or `w.Wait()`).
func waitsResult(s, next ast.Stmt) bool {
	a, ok := s.(*ast.Assign)
	if !ok || len(a.Targets) != 1 {
		return false
	}
	v, ok := a.Targets[0].(*ast.Name)
	if !ok {
		return false
	}
	c := stmtCall(next)
	if c == nil {
		return false
	}
	m, ok := c.Func.(*ast.Attribute)
	if !ok || m.Attr != "wait" && m.Attr != "Wait" {
		return false
	}
	r, ok := m.Value.(*ast.Name)
	return ok && r.Id == v.Id
}

// peerVaries reports a peer that can name a different rank on each rank:
// one computed from the rank, or a variable (a parameter handed the
// partner's rank). A constant peer (dst=0) belongs to code that only some
// ranks run, which this scan cannot see.
func (l *lowerer) peerVaries(peer ast.Expr) bool {
	if l.isRank(peer) {
		return true
	}
	switch peer.(type) {
	case *ast.Name, *ast.Attribute:
		return !dedicatedPeer(lastDotted(peer))
	}
	return false
}

// dedicatedPeer reports a peer named for a rank with a role of its own
// (self.server_rank, master_rank, ps_rank): the same rank on every rank
// that sends to it. That rank cannot run the same send-first code (it
// would send to itself); it runs its own loop that receives first, a
// request and reply rather than an exchange (PyTorch-BigGraph's
// parameter client).
func dedicatedPeer(name string) bool {
	name = strings.ToLower(name)
	for _, suffix := range []string{"_rank", "_id", "_idx"} {
		name = strings.TrimSuffix(name, suffix)
	}
	for _, role := range []string{"server", "master", "ps", "coordinator", "leader", "driver", "head", "root", "scheduler", "broker", "controller", "manager"} {
		if name == role || strings.HasSuffix(name, "_"+role) {
			return true
		}
	}
	return false
}

// mirrored reports two arms whose first blocking point-to-point calls go
// opposite ways (one sends first, the other receives first).
func (l *lowerer) mirrored(a, b []ast.Stmt) bool {
	da, oka := l.firstP2P(a)
	db, okb := l.firstP2P(b)
	return oka && okb && da != db
}

// firstP2P returns whether the first blocking send or receive of a
// statement list (its own statements, not nested blocks) is a send.
func (l *lowerer) firstP2P(stmts []ast.Stmt) (send, ok bool) {
	for i, s := range stmts {
		c := stmtCall(s)
		if c == nil {
			continue
		}
		waited := i+1 < len(stmts) && waitsResult(s, stmts[i+1])
		if _, _, isSend, found := l.blockingP2P(c, waited); found {
			return isSend, true
		}
	}
	return false, false
}

// stmtCall returns the call a statement consists of: `f(…)`, `x = f(…)`,
// `return f(…)`.
func stmtCall(s ast.Stmt) *ast.Call {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.Value
	case *ast.Assign:
		e = s.Value
	case *ast.Return:
		e = s.Value
	default:
		return nil
	}
	c, _ := unwrapAwait(e).(*ast.Call)
	return c
}

func (l *lowerer) addExchange(x *rules.Exchange) { addFact(&l.r.Prog().Exchanges, x) }
