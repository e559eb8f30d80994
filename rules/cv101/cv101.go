// Package cv101 implements CV101 collective-from-multiple-threads: one
// process group's collectives issued from two host threads that may run at
// the same time, or from one context that runs on several threads at once.
package cv101

import (
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV101.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV101",
	Name:     "collective-from-multiple-threads",
	Severity: rules.Error,
	Run:      run,
	Doc: rules.Doc{
		Title: "one process group's collectives are issued from several host threads",
		What: "Reports a collective, point-to-point or object collective whose process group " +
			"(communicator) also receives collectives from another host thread that may run at the " +
			"same time: a threading.Thread, a thread-pool task, a library background thread such as " +
			"torch.distributed.checkpoint.async_save's executor, a future's done-callback (run by the thread that completes " +
			"the future), a function run through torch.distributed.rpc (on the destination's RPC thread pool; one sent once to each destination of a loop over the workers and waited runs once on each), a web route that " +
			"FastAPI runs on its worker pool (a plain def, not an async def), a goroutine; " +
			"or a signal.signal handler, which Python runs on the main thread wherever the signal finds it, at a different " +
			"point on each rank (a handler that only tears the group down with destroy_process_group is not reported: the " +
			"teardown is local); or from one context that " +
			"runs on several threads at once (pool.map, threads started in a loop). Any backend counts: " +
			"gloo groups shared by two threads break too. Autograd hooks are reported by CV102 instead. A thread " +
			"joined right after it starts is not concurrent with the code after it; nor are two background saves of " +
			"a checkpointer that waits for the previous save's future before starting the next, or a collective " +
			"that the saving function issues after that wait and before the save starts. Tasks submitted to one " +
			"single-worker pool (ThreadPoolExecutor(max_workers=1)) run one after another, as does a thread kept in an " +
			"attribute and restarted only after a join() of that attribute. A collective under a parameter of its function " +
			"(`if synchronize_ranks: barrier()`) is not issued by a thread whose every way there passes, or defaults to, a false " +
			"value for it: the arguments of the submit or Thread that starts it (`ex.submit(build_split, path, False)`, Megatron's " +
			"dataset builder), passed on through parameters of the functions between; async_save with " +
			"async_checkpointer_type=AsyncCheckpointerType.PROCESS plans in a checkpoint daemon process, on a group of its own. " +
			"Code that only different scripts of the repository reach (train.py and monitor.py, each with its own " +
			"`if __name__ == \"__main__\":`, neither importing the other) runs in different processes and is not paired; so does " +
			"code that a process launcher's target reaches (multiprocessing.Process(target=f), mp.spawn(f)) and the threads of the " +
			"process that starts it (stochastic gradient push's gossip process beside its gossip thread). " +
			"MPI's point-to-point calls (mpi4py's send/recv, MPI_Send/MPI_Recv, gompi's SendBytes) are matched by source, " +
			"tag and communicator rather than by issue order, and may come from any thread at thread level multiple " +
			"(CV104 judges the level); only MPI collectives are paired. So are gloo's: a thread that sends and one that receives on a gloo group " +
			"cannot take each other's messages (two that both send, or both receive, can; and NCCL runs both on one communicator). " +
			"Code that its thread's starter runs after waiting for it (`t.start()`, other work, `t.join()`, then `dist.barrier()`) runs once " +
			"the thread is done, and is not paired with it. A collective on a group that its own function has just " +
			"made and not yet handed out (a warm-up all_reduce in the constructor that calls new_group, as fairscale's gossip " +
			"edges do) cannot meet another thread's use of that group, and is not paired; nor is a communicator that a goroutine " +
			"started several times makes, or holds in a variable of its own function (`s := NewStrategy(…)`, then `s.Init(rank)`): " +
			"each goroutine has its own.",
		Why: "NCCL, RCCL, gloo and MPI match collectives across ranks by the order in which each rank " +
			"launches them on a communicator. Two host threads interleave their launches differently on " +
			"each rank, so rank 0 may pair its barrier with rank 1's all_gather: the job hangs (or, with " +
			"matching shapes, silently mixes data). The NCCL user guide forbids issuing operations to one " +
			"communicator from several threads in parallel. It shows up sporadically and at scale.",
		Example: `import threading
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

def report(x):
    dist.all_reduce(x)              # worker thread, default group

threading.Thread(target=report, args=(loss,)).start()
dist.barrier()                      # main thread, same default group

dcp.async_save(state, checkpoint_id=path)   # background thread: default group
dist.barrier()                              # main thread: same group (T2)`,
		UseInstead: `# Issue every collective from one thread, or give the other thread its own group.
side = dist.new_group(backend="gloo")      # created on all ranks, in the same order

def report(x):
    dist.all_reduce(x, group=side)

t = threading.Thread(target=report, args=(loss,))
t.start()
t.join()                                    # or: keep the main thread off side
dist.barrier()

dcp.async_save(state, checkpoint_id=path, process_group=side)`,
		FixSafety: "No automatic fix: choosing a dedicated group or funnelling work onto one thread is a design decision. " +
			"A dedicated group must be created on every rank in the same order (new_group is itself a collective). " +
			"If the threads are in fact ordered in a way collvet cannot see, `collvet guard` checks it at run time.",
		References: []string{
			"https://github.com/pytorch/pytorch/issues/115861 — gather_object hangs when called from a ThreadPoolExecutor (T1)",
			"https://github.com/KempnerInstitute/KempnerForge/issues/104 — dcp.async_save background collectives + dist.barrier on the default group deadlock (T2)",
			"https://github.com/Tencent-Hunyuan/UniRL/pull/410 — async_save(process_group=pg) and monitored_barrier(pg) on one gloo group (T3)",
			"https://github.com/mpi4py/mpi4py/issues/784 — pickle collectives from a worker thread (T4)",
			"https://github.com/open-mpi/ompi/issues/2427 — concurrent collectives on one communicator from two threads (T6)",
		},
		Since: "0.1.0",
	},
})

type use struct {
	site  *rules.Site
	group *rules.Group // the group along this reach
	reach *rules.Reach
	ctx   *rules.Context // the host thread
	// spawnOnly: a library background thread known only by its spawn site
	// (async_save), with no site of its own in the program.
	spawnOnly bool
}

// runsIn is the function whose processes u's code runs in.
func (u use) runsIn() *rules.Function {
	if u.reach != nil && u.reach.Ctx == u.ctx {
		return rulekit.RunsInReach(u.site, u.reach)
	}
	return rulekit.RunsIn(u.site, u.ctx)
}

// inMain reports whether the use starts in the __main__ block of the
// module body runsIn returns: the main thread's chain begins with a call
// there, or the thread is spawned there.
func (u use) inMain() bool {
	fn := u.runsIn()
	if fn == nil || !fn.ModuleBody {
		return false
	}
	if u.ctx != nil && !rulekit.IsMain(u.ctx) && u.ctx.SpawnIn == fn {
		return fn.InMainBlock(u.ctx.Spawn.Line)
	}
	if u.reach != nil && u.reach.Ctx == u.ctx && len(u.reach.Chain) > 0 && u.reach.Chain[0] != nil && u.reach.Chain[0].Caller == fn {
		return fn.InMainBlock(u.reach.Chain[0].Pos.Line)
	}
	return false
}

func run(p *rules.Pass) {
	prog := p.Prog
	callers := rulekit.Callers(prog)
	byGroup := map[string][]use{}
	var order []string
	add := func(g *rules.Group, u use) {
		if !rulekit.Known(g) {
			return
		}
		k := rulekit.GroupKey(g)
		if _, ok := byGroup[k]; !ok {
			order = append(order, k)
		}
		byGroup[k] = append(byGroup[k], u)
	}
	// A library background thread (async_save) stands for the collectives
	// of its spawning call; the call itself is not a main-thread
	// collective, nor is one that hands them to another process.
	for _, s := range prog.Sites {
		if !rulekit.Communicates(s) || !rulekit.IssueOrdered(s) || s.Kind == rules.OpInit || s.Offloaded {
			continue
		}
		if rulekit.EnvelopeMatched(s) {
			continue
		}
		for _, r := range s.Reach {
			if r == nil {
				continue
			}
			c := rulekit.Thread(r.Ctx, prog)
			if c != nil && c.Kind == rules.Autograd {
				continue // CV102's business
			}
			if c != nil && c.Kind == rules.Signal && s.Op == "destroy" {
				// A handler that tears the group down (and exits): the
				// teardown is local, no rank pairs it with anything.
				continue
			}
			g := rulekit.ReachGroup(s, r)
			add(g, use{site: s, group: g, reach: r, ctx: c})
		}
	}
	for _, c := range prog.Contexts {
		if c.Kind == rules.Background && c.Entry == nil && c.Group != nil {
			add(c.Group, use{ctx: c, group: c.Group, spawnOnly: true})
		}
	}
	reported := map[*rules.Site]bool{}
	reportedCtx := map[*rules.Context]bool{}
	for _, k := range order {
		us := byGroup[k]
		for i, a := range us {
			if rulekit.IsMain(a.ctx) && !(a.ctx != nil && a.ctx.Many) {
				continue // report at the non-main side
			}
			if a.site != nil && reported[a.site] || a.spawnOnly && reportedCtx[a.ctx] {
				continue
			}
			if a.ctx != nil && a.ctx.Many && !a.spawnOnly && a.group != nil && a.group.PerIteration {
				// Groups made in a loop and threads started in one: each
				// thread may well hold its own (one communicator per
				// thread, the fix for T6); the analysis cannot tell.
				continue
			}
			if a.ctx != nil && a.ctx.Many && !a.spawnOnly {
				reported[a.site] = true
				report(p, a, nil)
				continue
			}
			cands := partners(us, a)
			for _, j := range cands {
				b := us[j]
				if i == j || b.ctx == a.ctx || !rulekit.Concurrent(a.ctx, b.ctx) || beforeSpawn(a, b) || atImport(b, a) ||
					setupBefore(callers, a, b) || setupBefore(callers, b, a) || instead(a, b) || instead(b, a) ||
					freshGroup(prog, a) || freshGroup(prog, b) || glooOppositeP2P(a, b) || afterJoin(a, b) || afterJoin(b, a) ||
					!rulekit.MayShareProcessAt(prog, a.runsIn(), a.inMain(), b.runsIn(), b.inMain()) {
					continue
				}
				if !a.spawnOnly && !b.spawnOnly && a.group != nil && a.group.PerIteration && !rulekit.IsMain(a.ctx) && !rulekit.IsMain(b.ctx) {
					// Two threads on a group made in a loop, as above
					// for one thread started several times: PipeDream
					// hands each helper thread the group of its own
					// connection, from a table filled in a loop.
					continue
				}
				if a.site != nil {
					reported[a.site] = true
				} else {
					reportedCtx[a.ctx] = true
				}
				bb := b
				report(p, a, &bb)
				break
			}
		}
	}
}

// glooOppositeP2P reports a send on one thread and a receive on the
// other, on a gloo group: gloo matches point-to-point messages by peer
// and tag, not by the order threads issue them, so a sending thread and a
// receiving one (Galaxy-LM's pipeline helpers) cannot take each other's
// messages. Two sends or two receives may (the same peer and tag from
// two threads), and NCCL runs both on one communicator, which threads
// must not share.
func glooOppositeP2P(a, b use) bool {
	if a.site == nil || b.site == nil || a.group == nil || !strings.EqualFold(a.group.Backend, "gloo") ||
		a.site.Kind != rules.OpP2P || b.site.Kind != rules.OpP2P || rulekit.IsMPI(a.site) || rulekit.IsMPI(b.site) {
		return false
	}
	return sends(a.site) != sends(b.site)
}

// afterJoin reports b's op in the code that started a's thread, after
// that code has waited for the thread to end (Context.JoinedAt): `t =
// Thread(…); t.start(); …; t.join(); dist.destroy_process_group()`.
func afterJoin(a, b use) bool {
	if a.ctx == nil || !a.ctx.JoinedAt.IsValid() || a.ctx.SpawnIn == nil || b.site == nil {
		return false
	}
	if b.ctx != a.ctx.Parent && !(rulekit.IsMain(b.ctx) && (a.ctx.Parent == nil || rulekit.IsMain(a.ctx.Parent))) {
		return false
	}
	at := rules.Pos{}
	if b.site.Func == a.ctx.SpawnIn {
		at = b.site.Pos
	} else if b.reach != nil {
		for _, c := range b.reach.Chain {
			if c != nil && c.Caller == a.ctx.SpawnIn {
				at = c.Pos
				break
			}
		}
	}
	j := a.ctx.JoinedAt
	return at.IsValid() && at.Path == j.Path && at.Line > j.Line
}

// sends reports a point-to-point op that sends (send, isend), not one
// that receives.
func sends(s *rules.Site) bool {
	return s.Op == "send" || s.Op == "isend"
}

// partners orders the candidate partners of a: those in the same file
// first, the clearer explanation. For a library background thread
// (dcp.async_save) the same file's collectives after the spawning call
// come first, then the other files', and the same file's earlier ones
// last: those ran before the save started, or on another branch of it
// (`if sync: dcp.save(…) else: dcp.async_save(…)`), while the barrier
// that follows a save is the conflict users meet.
func partners(us []use, a use) []int {
	apos, _, _ := where(a)
	rank := func(b use) int {
		bpos, _, _ := where(b)
		switch {
		case bpos.Path != apos.Path:
			return 1
		case a.spawnOnly && bpos.Line < apos.Line:
			return 2
		}
		return 0
	}
	cands := make([]int, 0, len(us))
	for r := 0; r <= 2; r++ {
		for j := range us {
			if rank(us[j]) == r {
				cands = append(cands, j)
			}
		}
	}
	return cands
}

// instead reports that b, on the main thread, runs in the arm an
// instance's setting chooses instead of starting a's context (the spawn's
// rules.Context.Instead): a run takes one arm or the other.
func instead(a, b use) bool {
	c := a.ctx
	if c == nil || len(c.Instead) == 0 || b.site == nil || !rulekit.IsMain(b.ctx) {
		return false
	}
	for i := range c.Instead {
		e := &c.Instead[i]
		if e.Contains(b.site.Pos) {
			return true
		}
		if b.reach != nil {
			for _, call := range b.reach.Chain {
				if call != nil && e.Contains(call.Pos) {
					return true
				}
			}
		}
	}
	return false
}

// setupBefore: rulekit.SetupBefore for two uses.
func setupBefore(callers map[*rules.Function][]*rules.Call, a, b use) bool {
	return rulekit.SetupBefore(callers, a.ctx, b.site, b.reach, b.ctx, false)
}

// beforeSpawn reports whether b is a collective that the function
// starting a's background work issues after waiting for the previous such
// work and before starting this one (_save_dcp: drain, broadcast on the
// save group, async_save): no save is in flight then.
func beforeSpawn(a, b use) bool {
	c := a.ctx
	if !a.spawnOnly || c == nil || c.Drained == nil || c.SpawnFunc == nil || b.site == nil {
		return false
	}
	between := func(p rules.Pos) bool {
		return p.Path == c.Spawn.Path && lineCol(*c.Drained) < lineCol(p) && lineCol(p) < lineCol(c.Spawn)
	}
	if b.site.Func == c.SpawnFunc && between(b.site.Pos) {
		return true
	}
	if b.reach != nil {
		for _, call := range b.reach.Chain {
			if call != nil && call.Caller == c.SpawnFunc && between(call.Pos) {
				return true
			}
		}
	}
	return false
}

// atImport reports that b runs when its module is imported, in that
// module's own statements, above the definition of the function that
// holds a: no thread can run that function before its def statement has
// run, so b is over by then (TensorRT-LLM's _utils splits the node-local
// communicator at import, above the barrier helper that a pool thread
// runs later). A module that starts the thread first and then issues b
// is another matter, and is not skipped.
func atImport(b, a use) bool {
	if a.site == nil || b.site == nil || b.site.Func == nil || a.site.Func == nil || a.site.Func.ModuleBody {
		return false
	}
	body, at := b.site.Func, b.site.Pos
	if !body.ModuleBody && b.reach != nil && len(b.reach.Chain) > 0 && b.reach.Chain[0] != nil {
		body, at = b.reach.Chain[0].Caller, b.reach.Chain[0].Pos
	}
	def := a.site.Func.Pos
	return body != nil && body.ModuleBody && body.Pos.Path == def.Path && at.Line < def.Line
}

// freshGroup reports that u's collective runs on a group its own
// function has just made, before handing it to anyone: fairscale's
// Edge.__init__ creates a pair group and all-reduces a warm-up tensor on
// it. That call of the function holds the only reference to the new
// group, so no other thread can be communicating on it then; threads
// get the group (or the object holding it) after the function returns.
// A function that starts a thread itself is not counted.
func freshGroup(prog *rules.Program, u use) bool {
	s := u.site
	if s == nil || s.Func == nil || s.Func.ModuleBody || len(s.Groups) > 1 || u.group == nil || u.group.Kind != rules.GroupAlloc {
		return false
	}
	g, fn := u.group.Pos, s.Func.Pos
	if g.Path != s.Pos.Path || g.Line < fn.Line || g.Line > fn.EndLine || lineCol(g) >= lineCol(s.Pos) {
		return false
	}
	for _, c := range prog.Contexts {
		if c.SpawnFunc == s.Func || c.Spawn.Path == fn.Path && c.Spawn.Line >= fn.Line && c.Spawn.Line <= fn.EndLine {
			return false
		}
	}
	return true
}

func lineCol(p rules.Pos) int { return p.Line<<16 | p.Col }

func where(u use) (pos rules.Pos, what string, group *rules.Group) {
	if u.spawnOnly {
		return u.ctx.Spawn, rulekit.ShortAPI(u.ctx.SpawnAPI, "background work") + "'s collectives", u.ctx.Group
	}
	return u.site.Pos, rulekit.OpName(u.site), u.group
}

func report(p *rules.Pass, a use, b *use) {
	pos, what, g := where(a)
	var d rules.Diagnostic
	d.Pos = pos
	if b == nil {
		d.Message = fmt.Sprintf("%s on %s is issued from %s, which runs on several threads at once: "+
			"their launches interleave differently on each rank, so the ranks can pair different collectives and hang",
			what, rulekit.GroupLabel(g), rulekit.CtxLabel(a.ctx))
	} else {
		bpos, bwhat, _ := where(*b)
		if a.spawnOnly {
			d.Message = fmt.Sprintf("%s runs collectives on %s from a library background thread while %s issues %s on the same group (%s): "+
				"the two threads launch in a different order on each rank, so the ranks can pair different collectives and hang",
				rulekit.ShortAPI(a.ctx.SpawnAPI, "background work"), rulekit.GroupLabel(g), rulekit.CtxLabel(b.ctx), bwhat, bpos.Short())
		} else if a.ctx != nil && a.ctx.Kind == rules.Signal {
			d.Message = fmt.Sprintf("%s on %s is issued from %s, which Python runs on the main thread wherever the signal finds it, "+
				"while %s issues %s on the same group (%s): each rank receives the signal at its own moment, so the handler's collectives "+
				"fall between different collectives on each rank and the ranks pair them wrongly and hang; in the handler only set a flag, "+
				"and act on it at a step boundary once the ranks agree on it (all-reduce or all-gather the flag, as Megatron's DistributedSignalHandler does)",
				what, rulekit.GroupLabel(g), rulekit.CtxLabel(a.ctx), rulekit.CtxLabel(b.ctx), bwhat, bpos.Short())
		} else {
			d.Message = fmt.Sprintf("%s on %s is issued from %s while %s issues %s on the same group (%s): "+
				"the two threads launch in a different order on each rank, so the ranks can pair different collectives and hang",
				what, rulekit.GroupLabel(g), rulekit.CtxLabel(a.ctx), rulekit.CtxLabel(b.ctx), bwhat, bpos.Short())
		}
		d.Related = append(d.Related, rulekit.Related(bpos, fmt.Sprintf("%s on the same group, from %s", bwhat, rulekit.CtxLabel(b.ctx))))
	}
	if a.ctx != nil && a.ctx.Spawn.IsValid() && a.ctx.Spawn != pos {
		started := "the thread is started here ("
		if a.ctx.Kind == rules.Signal {
			started = "the handler is installed here ("
		}
		d.Related = append(d.Related, rulekit.Related(a.ctx.Spawn, started+rulekit.ShortAPI(a.ctx.SpawnAPI, string(a.ctx.Kind))+")"))
	}
	if b != nil && b.ctx != nil && b.ctx.Spawn.IsValid() && !b.spawnOnly {
		other := "the other thread is started here"
		if b.ctx.Kind == rules.Signal {
			other = "the signal handler is installed here"
		}
		d.Related = append(d.Related, rulekit.Related(b.ctx.Spawn, other))
	}
	if a.reach != nil && len(a.reach.Chain) > 0 {
		first := a.reach.Chain[0]
		if first != nil && first.Pos.IsValid() && first.Pos != pos {
			d.Related = append(d.Related, rulekit.Related(first.Pos, "reached through this call"))
		}
	}
	p.Report(d)
}
