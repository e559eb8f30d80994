// Package cv103 implements CV103 communicators-across-threads: two or more
// device communicators driven from two or more host threads (a background
// thread's P2P group and the main thread's all_reduce group; FSDP
// HYBRID_SHARD's intra- and inter-node groups driven from the autograd
// thread while the main thread drives them too).
package cv103

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv102"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV103.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV103",
	Name:     "communicators-across-threads",
	Severity: rules.Error,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "several device communicators are driven from several host threads",
		What: "Reports a collective on one device communicator (NCCL/RCCL or unknown backend; gloo-only groups " +
			"are exempt, and so are the default group and the groups new_group makes without a backend in a thread " +
			"started only under `if dist.get_backend() == \"gloo\":`, which inherit that backend) issued from a host thread while another thread that may run at the same time drives a " +
			"different device communicator, and framework configurations that do this by construction: FSDP " +
			"ShardingStrategy.HYBRID_SHARD (an intra-node and an inter-node group), fully_shard over a 2-D mesh, or " +
			"fully_shard on one dimension of a mesh next to parallelize_module on another in the same function (FSDP2 with " +
			"tensor parallelism), whose backward hooks run on the autograd engine's thread while autograd multithreading is enabled " +
			"(not in a program whose code names no backward pass or training loop and runs its forwards under no_grad or inference_mode: " +
			"those hooks never run). " +
			"Groups made in a loop, or in a function that a thread started several times runs, are one per thread: such a " +
			"group used from those threads is several communicators; not when each goroutine makes its own rank of one " +
			"communicator from a unique id they share (ncclCommInitRank in the goroutine, NCCL's one device per thread), " +
			"which is one communicator with a rank per thread. Code that only different scripts of the repository " +
			"reach runs in different processes and is not paired. set_multithreading_enabled(False) is per thread and " +
			"per process: a call in the launcher before mp.spawn does not reach the workers, and a call on the main thread " +
			"does not cover a framework that a worker thread builds and trains.",
		Why: "NCCL's user guide: it is not safe to issue operations in parallel to independent communicators " +
			"located on the same device from several threads. Each communicator has its own stream; host launch " +
			"order between threads differs across ranks while each GPU serialises kernels per stream, so ranks " +
			"end up in a circular wait. Separate groups, separate streams and event fencing do not help " +
			"(pytorch/pytorch#175145). The Frontier FSDP HYBRID_SHARD hang (ROCm/rccl#1600) is this shape.",
		Example: `import threading
import torch.distributed as dist

pg_main, pg_bg = dist.new_group(), dist.new_group()

def bg():
    for _ in range(n):
        for w in dist.batch_isend_irecv([dist.P2POp(dist.isend, t, peer, group=pg_bg)]):
            w.wait()

threading.Thread(target=bg).start()
for _ in range(n):
    dist.all_reduce(x, group=pg_main)

model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)`,
		UseInstead: `# Drive every communicator from one thread, in the same order on every rank.
for _ in range(n):
    for w in dist.batch_isend_irecv([dist.P2POp(dist.isend, t, peer, group=pg_bg)]):
        w.wait()
    dist.all_reduce(x, group=pg_main)

# FSDP HYBRID_SHARD: run backward (and its hooks) on the main thread.
torch.autograd.set_multithreading_enabled(False)
model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
# NCCL >= 2.26 also offers NCCL_LAUNCH_ORDER_IMPLICIT=1 to order launches across communicators.`,
		FixSafety: "For framework configurations (HYBRID_SHARD, 2-D meshes) the fix inserts " +
			"torch.autograd.set_multithreading_enabled(False) after init_process_group (torch >= 2.1 as a plain call; " +
			"thread-local), so backward hooks run on the thread that calls backward. For user threads there is no " +
			"automatic fix: move the work onto one thread or order the streams. `collvet guard` can confirm at run " +
			"time that the threads never overlap.",
		References: []string{
			"https://github.com/ROCm/rccl/pull/1600 — FSDP HYBRID_SHARD: two communicators driven from the autograd and main threads deadlock at scale (A1)",
			"https://github.com/pytorch/pytorch/issues/175145 — P2P on a background thread + all_reduce on the main thread, two groups, persistent deadlock (M1)",
			"https://github.com/pytorch/pytorch/issues/18300 — broadcast from several threads, a group per thread, fails with NCCL (M2)",
			"https://github.com/NVIDIA/nccl/issues/195 — many communicators each on its own thread hang without stream dependencies (M3)",
			"https://github.com/NVIDIA/nccl/issues/208 — two communicators in one process: post operations in the same order on all GPUs (M4)",
		},
		Since: "0.1.0",
	},
})

type use struct {
	site  *rules.Site
	group *rules.Group
	ctx   *rules.Context
	reach *rules.Reach
}

func run(p *rules.Pass) {
	prog := p.Prog
	callers := rulekit.Callers(prog)
	var uses []use
	for _, s := range prog.Sites {
		if !rulekit.Communicates(s) || !rulekit.IssueOrdered(s) || s.Kind == rules.OpInit || s.Kind == rules.OpGroupCreate {
			continue
		}
		for _, r := range s.Reach {
			g := rulekit.ReachGroup(s, r)
			if r == nil || !rulekit.Known(g) {
				continue
			}
			c := rulekit.Thread(r.Ctx, prog)
			if !g.IsDeviceIn(c) {
				continue // gloo, or inherits a gloo default where the thread exists
			}
			if c != nil && c.Kind == rules.Autograd {
				continue // CV102 reports user hooks, with the group note
			}
			uses = append(uses, use{s, g, c, r})
		}
	}
	for _, c := range prog.Contexts {
		if c.Kind == rules.Background && c.Entry == nil && c.Group != nil && rulekit.Known(c.Group) && c.Group.IsDeviceIn(c) {
			uses = append(uses, use{&rules.Site{Pos: c.Spawn, API: c.SpawnAPI, Group: c.Group, Kind: rules.OpFramework}, c.Group, c, nil})
		}
	}
	reported := map[*rules.Context]bool{}
	reportedSite := map[*rules.Site]bool{}
	for _, a := range uses {
		// A signal handler runs on the main thread (CV101 reports its
		// collectives).
		if rulekit.IsMain(a.ctx) || a.ctx.Kind == rules.Signal || reported[a.ctx] || reportedSite[a.site] {
			continue
		}
		if a.ctx != nil && a.ctx.Many && a.group.PerIteration && a.group.Clique {
			continue // one communicator, a rank per thread
		}
		if a.ctx != nil && a.ctx.Many && a.group.PerIteration {
			// A group made per loop iteration (or per thread) and a
			// thread started several times: each thread drives its own
			// device communicator (M2, M3).
			reported[a.ctx] = true
			reportedSite[a.site] = true
			d := rules.Diagnostic{Pos: a.site.Pos, Message: fmt.Sprintf(
				"%s on %s, a group created once per loop iteration or thread, is issued from %s, which runs on several threads at once: "+
					"each thread drives its own device communicator, host launch order across them differs between ranks, "+
					"so the communicators' kernels can wait on each other and hang",
				rulekit.OpName(a.site), rulekit.GroupLabel(a.group), rulekit.CtxLabel(a.ctx))}
			if a.ctx.Spawn.IsValid() && a.ctx.Spawn != a.site.Pos {
				d.Related = append(d.Related, rulekit.Related(a.ctx.Spawn, "the thread is started here"))
			}
			if a.group.Pos.IsValid() {
				d.Related = append(d.Related, rulekit.Related(a.group.Pos, "the groups are created here"))
			}
			p.Report(d)
			continue
		}
		for _, b := range uses {
			if b.ctx == a.ctx || rulekit.SameGroup(a.group, b.group) || !rulekit.Concurrent(a.ctx, b.ctx) ||
				!rulekit.MayShareProcess(prog, rulekit.RunsIn(a.site, a.ctx), rulekit.RunsIn(b.site, b.ctx)) ||
				rulekit.SetupBefore(callers, a.ctx, b.site, b.reach, b.ctx, true) {
				continue
			}
			reported[a.ctx] = true
			reportedSite[a.site] = true
			d := rules.Diagnostic{Pos: a.site.Pos, Message: fmt.Sprintf(
				"%s on %s is issued from %s while %s drives another device communicator (%s, %s at %s): "+
					"host launch order across the two threads differs between ranks, so the communicators' kernels can wait on each other and hang",
				rulekit.OpName(a.site), rulekit.GroupLabel(a.group), rulekit.CtxLabel(a.ctx),
				rulekit.CtxLabel(b.ctx), rulekit.GroupLabel(b.group), rulekit.OpName(b.site), b.site.Pos.Short())}
			d.Related = append(d.Related, rulekit.Related(b.site.Pos, fmt.Sprintf("%s on %s, from %s", rulekit.OpName(b.site), rulekit.GroupLabel(b.group), rulekit.CtxLabel(b.ctx))))
			if a.ctx != nil && a.ctx.Spawn.IsValid() && a.ctx.Spawn != a.site.Pos {
				d.Related = append(d.Related, rulekit.Related(a.ctx.Spawn, "the thread is started here"))
			}
			p.Report(d)
			break
		}
	}
	var multi []*rules.MultiCommUse
	if !prog.Facts.ForwardOnly {
		multi = append(multi, prog.Facts.MultiComm...)
	}
	for _, c := range prog.Contexts {
		if c.Kind == rules.Autograd && c.Framework != "" && len(c.Groups) >= 2 && !c.GroupChoice && !rulekit.SingleThreaded(c, prog) {
			multi = append(multi, &rules.MultiCommUse{Pos: c.Spawn, API: c.SpawnAPI,
				Detail: fmt.Sprintf("%d communicators (%s)", len(c.Groups), groupIDs(c.Groups))})
		}
	}
	seenMulti := map[[2]any]bool{}
	for _, m := range multi {
		if m == nil || seenMulti[[2]any{m.Pos.Path, m.Pos.Line}] {
			continue
		}
		off, thread := disabled(prog, m)
		if off {
			continue
		}
		seenMulti[[2]any{m.Pos.Path, m.Pos.Line}] = true
		driver := "the main thread"
		if thread != nil {
			driver = rulekit.CtxLabel(thread) + ", which runs this model,"
		}
		d := rules.Diagnostic{Pos: m.Pos, Message: fmt.Sprintf(
			"%s with %s drives two device communicators (%s) from backward hooks that the autograd engine runs on its own device thread, "+
				"while %s drives the same communicators: launch order differs between ranks and the job can hang at scale",
			rulekit.ShortAPI(m.API, "the framework"), m.Detail, cmp.Or(m.Comms, "intra- and inter-node"), driver)}
		if thread != nil {
			// The switch is per thread: the fix belongs in that thread,
			// before its backward, which is not a mechanical edit.
			d.Message += "; set_multithreading_enabled(False) on that thread, before its backward, fixes it (the setting is per thread)"
			if thread.Spawn.IsValid() {
				d.Related = append(d.Related, rulekit.Related(thread.Spawn, "the thread is started here"))
			}
			p.Report(d)
			continue
		}
		if fix, note := cv102.Fix(prog, m.Pos.Path); fix != nil {
			fix.Title = "Run backward hooks on the calling thread (set_multithreading_enabled(False))"
			d.Fixes = append(d.Fixes, *fix)
			if note != "" {
				d.Message += "; " + note
			}
		}
		p.Report(d)
	}
}

// disabled reports whether autograd multithreading is off for the hooks of
// a framework construction: a framework context at that site marked
// single-threaded, or a set_multithreading_enabled(False) call that covers
// every context running the construction. When one that a thread other
// than the main one runs is not covered, it returns that thread.
func disabled(prog *rules.Program, m *rules.MultiCommUse) (bool, *rules.Context) {
	for _, c := range prog.Contexts {
		if c.Kind == rules.Autograd && c.Framework != "" && c.Spawn == m.Pos && c.SingleThreadedAutograd {
			return true, nil
		}
	}
	// The switch is per thread: a construction that another thread runs
	// (and so runs backward on) needs the switch on that thread.
	var reach []*rules.Reach
	for _, s := range prog.Sites {
		if s.Pos == m.Pos {
			reach = append(reach, s.Reach...)
		}
	}
	if len(reach) == 0 {
		return rulekit.SwitchCovers(prog, m.Pos.Path), nil
	}
	off := true
	var thread *rules.Context
	for _, r := range reach {
		if !rulekit.SwitchCoversReach(prog, r, m.Pos.Path) {
			off = false
			if !rulekit.IsMain(r.Ctx) && thread == nil {
				thread = r.Ctx
			}
		}
	}
	if off {
		return true, nil
	}
	if thread != nil && !rulekit.SwitchCovers(prog, m.Pos.Path) {
		// No switch on the main thread either: the usual fix after
		// init_process_group still applies to the main thread's reach.
		for _, r := range reach {
			if rulekit.IsMain(r.Ctx) {
				thread = nil
				break
			}
		}
	}
	return false, thread
}

func groupIDs(gs []*rules.Group) string {
	var ids []string
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}
