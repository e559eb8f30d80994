// Package cv202 implements CV202 unordered-async-across-groups: the output
// of an async collective on group A feeds a collective on group B before
// the first work is waited.
package cv202

import (
	"fmt"
	"slices"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV202.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV202",
	Name:     "unordered-async-across-groups",
	Severity: rules.Error,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "an async collective's buffer is used by a collective on another group before wait()",
		What: "Reports a collective on group B that reads (or overwrites) a tensor that an earlier " +
			"async_op=True collective on a different group A writes (or reads), when the earlier work has not " +
			"been waited in between. Same-group chains are ordered by the group's stream and are not reported. " +
			"When the analysis finds the same several candidate groups for both calls (groups made by one loop " +
			"variable, two of them kept), two different group argument names count as two groups. The two arms of an if " +
			"inside a loop run in different iterations only: they pair when the buffer is the same tensor in both " +
			"(reported), not when the later iteration bound the name anew before its collective (the loop's own " +
			"variable, or `t = torch.empty(…)` earlier in the body, as vLLM's broadcast_tensor_dict does).",
		Why: "Each ProcessGroupNCCL launches on its own internal stream, which only waits for the current " +
			"stream at issue time. Nothing orders group A's stream before group B's, so B's collective can read " +
			"the buffer before A's collective has written it (read-before-write): silent wrong results, the " +
			"HSDP reduce-scatter → all-reduce → all-gather chain of pytorch/pytorch#147729. work.wait() makes " +
			"the current stream wait for A's work, and B's stream then waits for the current stream.",
		Example: `w1 = dist.reduce_scatter_tensor(shard, full, group=intra_pg, async_op=True)
w2 = dist.all_reduce(shard, group=inter_pg, async_op=True)      # reads shard before w1 finished
w3 = dist.all_gather_into_tensor(full, shard, group=intra_pg, async_op=True)
for w in (w1, w2, w3):
    w.wait()`,
		UseInstead: `w1 = dist.reduce_scatter_tensor(shard, full, group=intra_pg, async_op=True)
w1.wait()
w2 = dist.all_reduce(shard, group=inter_pg, async_op=True)
w2.wait()
w3 = dist.all_gather_into_tensor(full, shard, group=intra_pg, async_op=True)
w3.wait()`,
		FixSafety: "The fix inserts `<work>.wait()` right before the dependent collective. It only orders the " +
			"streams (no host block for NCCL), so it is always safe; it may reduce overlap between the two groups. " +
			"No fix is offered when the work handle was not kept in a variable (see CV401). When the buffers only " +
			"look shared (aliases collvet cannot tell apart), `collvet guard` can confirm the ordering at run time.",
		References: []string{
			"https://github.com/pytorch/pytorch/issues/147729 — async collectives on different process groups run out of order, read-before-write (X1)",
			"https://github.com/pytorch/pytorch/pull/148590 — PGNCCL launches sync collectives on the current stream; async ones still need work.wait()",
			"https://github.com/meta-pytorch/torchrec/pull/4149 — cross-group order differences deadlock in production (R17)",
		},
		Since: "0.1.0",
	},
})

type pending struct {
	site *rules.Site
	ev   *rules.Event
	// rebound: names bound to a fresh tensor since (buf = torch.empty_like(w)):
	// they no longer denote the buffer the work is using.
	rebound map[string]bool
}

// without returns names less those rebound.
func without(names []string, rebound map[string]bool) []string {
	if len(rebound) == 0 {
		return names
	}
	var out []string
	for _, n := range names {
		if !rebound[n] {
			out = append(out, n)
		}
	}
	return out
}

func overlap(a, b []string) string {
	for _, x := range a {
		if x == "" {
			continue
		}
		for _, y := range b {
			if x == y {
				return x
			}
		}
	}
	return ""
}

func run(p *rules.Pass) {
	for _, fn := range p.Prog.Funcs {
		var pend []pending
		for _, e := range fn.Events {
			switch e.Kind {
			case rules.EvWait:
				kept := pend[:0]
				for _, q := range pend {
					w := q.site.Work
					// Waiting an element of the list a handle was filed in
					// (works[i].wait()) is taken to wait it.
					if w == nil || (w.Var == "" || w.Var != e.Var) && (w.Container == "" || w.Container != e.Var) {
						kept = append(kept, q)
					}
				}
				pend = kept
			case rules.EvUse:
				if e.Write && e.Fresh && e.Var != "" {
					for i := range pend {
						if pend[i].rebound == nil {
							pend[i].rebound = map[string]bool{}
						}
						pend[i].rebound[e.Var] = true
					}
				}
			case rules.EvCollective:
				s := e.Site
				if s == nil {
					continue
				}
				for _, q := range pend {
					a := q.site
					if rulekit.ExitedBefore(q.ev.Arm, e.Arm) {
						continue
					}
					if !rulekit.Known(a.Group) || !rulekit.Known(s.Group) || rulekit.SameGroup(a.Group, s.Group) && !rulekit.NamedApart(a, s) {
						continue
					}
					if rules.Exclusive(q.ev.Arm, e.Arm) {
						continue // the other arm of an if/else: never both in one call
					}
					buf := overlap(without(append(append([]string{}, s.Inputs...), s.Outputs...), q.rebound), a.Outputs)
					if buf == "" {
						buf = overlap(without(s.Outputs, q.rebound), a.Inputs)
					}
					if buf == "" {
						continue
					}
					if rules.Exclusive(q.ev.IterArm, e.IterArm) && slices.Contains(e.IterBound, buf) {
						// Two arms of one iteration: they meet only across
						// iterations, and the later one's iteration bound
						// the name to another tensor (`for t in ts: if
						// t.is_cpu: broadcast(t, group=cpu_pg, async_op=True)
						// else: broadcast(t, group=pg, async_op=True)`).
						continue
					}
					report(p, fn, e, s, a, buf)
					break
				}
				if s.Async {
					pend = append(pend, pending{site: s, ev: e})
				}
			}
		}
	}
}

// label names x's group in a message about x and other: by its argument
// when only the names tell the two apart.
func label(x, other *rules.Site) string {
	if rulekit.NamedApart(x, other) {
		return "group " + x.GroupText
	}
	return rulekit.GroupLabel(x.Group)
}

func report(p *rules.Pass, fn *rules.Function, e *rules.Event, s, a *rules.Site, buf string) {
	d := rules.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf(
		"%s on %s uses %q, which %s (async_op=True, %s, %s) is still working on: the two groups run on separate internal streams with no ordering, "+
			"so this collective can read the buffer before it is written (silently wrong results); wait the first work before issuing this one",
		rulekit.OpName(s), label(s, a), buf, rulekit.OpName(a), label(a, s), a.Pos.Short())}
	d.Related = append(d.Related, rulekit.Related(a.Pos, fmt.Sprintf("async %s on %s, not waited before line %d", rulekit.OpName(a), label(a, s), s.Pos.Line)))
	if w := a.Work; w != nil && w.Var != "" {
		line := e.StmtLine
		if line == 0 {
			line = s.Pos.Line
		}
		indent := e.Indent
		if indent == "" {
			indent = rulekit.Indent(p.Prog.File(s.Pos.Path), line)
		}
		d.Fixes = append(d.Fixes, rules.Fix{
			Title: fmt.Sprintf("Wait %s before %s", w.Var, rulekit.OpName(s)),
			Edits: []rules.Edit{rulekit.InsertBefore(s.Pos.Path, line, indent+w.Var+".wait()\n")},
		})
	}
	p.Report(d)
}
