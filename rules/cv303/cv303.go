// Package cv303 implements CV303 rank-dependent-root: a broadcast, reduce,
// gather or scatter on the default group whose root each rank names
// differently.
package cv303

import (
	"fmt"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV303.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV303",
	Name:     "rank-dependent-root",
	Severity: rules.Error,
	Run:      run,
	Doc: rules.Doc{
		Title: "the ranks name different roots for one collective",
		What: "Reports a rooted collective on the default group — broadcast, reduce, gather, scatter, " +
			"broadcast_object_list, gather_object, scatter_object_list, mpi4py's bcast/Bcast, reduce/Reduce, gather/Gather, " +
			"scatter/Scatter on COMM_WORLD — whose root argument (src, dst, root) is computed from the rank: " +
			"`src=args.local_rank`, `src=int(os.environ[\"LOCAL_RANK\"])`, `src=rank - rank % 8`. A rank that names its own " +
			"global rank (`src=dist.get_rank()`, `root=comm.Get_rank()`) is left alone: that is right where the program's roles are " +
			"split by rank and the others name this one (a parameter server). A root computed from the rank on a " +
			"subgroup is left alone (the group's first member, as Megatron's get_tensor_model_parallel_src_rank, is the " +
			"same for all its members), and so is one under a rank test (`if rank == owner: broadcast(t, src=rank)`, or in a " +
			"function called only there), where it may equal what the other ranks pass, and one in a sequence where the same " +
			"call names other roots too (each rank taking its turn as the source). A rank's own rank as the root is reported in the arm " +
			"of a rank test that all ranks but a few take (`else:` of `if rank == 0:`, `if rank != 0:`): there several ranks each name themselves. " +
			"So is a gather or scatter given its root-only list (gather_list, scatter_list) in the arm of a test of the local rank " +
			"(`if local_rank == 0:`, `is_local_process_zero()`) with a constant root: on every node after the first, that rank is no root " +
			"and torch raises ValueError before it joins (DoReMi's per-domain loss gather). And so is one given that list on every rank " +
			"(a list with elements built outside any rank test, `dist.gather(t, [torch.empty_like(t) for _ in range(n)], dst=0)`, also " +
			"gather_object's object_gather_list): every rank but the root raises ValueError, and the root waits for them.",
		Why: "Every rank of the group must pass the same root, as a global rank. With a root that differs between ranks, " +
			"each rank takes a different part (several ranks send, nobody receives, or the reverse): NCCL hangs or delivers " +
			"the wrong data, gloo reports a mismatch at best. `src=local_rank` is wrong even on one node, where local and " +
			"global ranks coincide: every rank names itself as the root.",
		Example: `def sync_params(model, args):
    for p in model.parameters():
        dist.broadcast(p.data, src=args.local_rank)`,
		UseInstead: `def sync_params(model, args):
    for p in model.parameters():
        dist.broadcast(p.data, src=0)   # one root, the same on every rank`,
		FixSafety: "No automatic fix: which rank should be the root is the program's decision. `collvet guard` does not " +
			"check this one.",
		References: []string{
			"https://pytorch.org/docs/stable/distributed.html#torch.distributed.broadcast — src is the global rank of the source, on every rank",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	// A site reached under a rank test (a function only the sampling rank
	// runs, called from `if rank == n:`) may be the one rank whose number
	// the others pass as the root.
	underRank := map[*rules.Site]bool{}
	for _, br := range p.Prog.Branches {
		if br == nil || br.Divergence != rules.RankTest {
			continue
		}
		for _, ops := range [][]*rules.OpRef{br.Then, br.Else, br.After} {
			for _, o := range ops {
				if o != nil && o.Site != nil {
					underRank[o.Site] = true
				}
			}
		}
	}
	seen := map[*rules.Site]bool{}
	for _, x := range p.Prog.RankRoots {
		if x == nil || x.Site == nil || seen[x.Site] || underRank[x.Site] && x.Arm == "" {
			continue
		}
		seen[x.Site] = true
		name := rulekit.OpName(x.Site)
		if x.LocalZero {
			if p.Prog.Facts.SingleHost() || p.Prog.Facts.AssertsOneHost() {
				continue // one node: local rank 0 is global rank 0
			}
			d := rules.Diagnostic{Pos: x.Site.Pos, Message: fmt.Sprintf(
				"%s on %s is given its %s (`%s`) where `%s` holds, a test of the local rank, but its root is one global "+
					"rank: on every node after the first, local rank 0 is not the root, and torch raises ValueError "+
					"(%s must not be specified on non-root ranks) before it joins, while the other ranks wait in it; "+
					"test the global rank (`dist.get_rank() == 0`), or pass the list only where the rank is the root",
				name, rulekit.GroupLabel(x.Site.Group), x.Param, x.Text, x.Arm, x.Param)}
			d.Related = append(d.Related, rulekit.Related(x.Arg, "the root-only list"))
			p.Report(d)
			continue
		}
		if x.EveryRank {
			d := rules.Diagnostic{Pos: x.Site.Pos, Message: fmt.Sprintf(
				"%s on %s is given its %s (`%s`) on every rank, but torch takes it on the root only: every other rank "+
					"raises ValueError (%s must not be specified on non-root ranks) before it joins, while the root waits in it; "+
					"pass the list on the root alone (`%s if dist.get_rank() == %s else None`)",
				name, rulekit.GroupLabel(x.Site.Group), x.Param, x.Text, x.Param, x.Text, rootParam(x.Param))}
			d.Related = append(d.Related, rulekit.Related(x.Arg, "the root-only list, built on every rank"))
			p.Report(d)
			continue
		}
		if x.Arm != "" {
			d := rules.Diagnostic{Pos: x.Site.Pos, Message: fmt.Sprintf(
				"%s on %s names the calling rank (`%s`) as its %s on every rank where `%s` holds: with three ranks or more, "+
					"two of them issue it together, each as the root of its own, and every rank of the group must join every "+
					"%s, so they pair different roots and hang or exchange the wrong data; loop over the roots on every rank "+
					"(`for src in range(world_size): %s(buf[src], src=src)`) or gather instead",
				name, rulekit.GroupLabel(x.Site.Group), x.Text, x.Param, x.Arm, name, name)}
			d.Related = append(d.Related, rulekit.Related(x.Arg, "the root, this rank's own"))
			p.Report(d)
			continue
		}
		d := rules.Diagnostic{Pos: x.Site.Pos, Message: fmt.Sprintf(
			"%s on %s takes its %s from `%s`, which differs between ranks: every rank must name the same root "+
				"(a global rank), or the ranks pair different roles and hang or exchange the wrong data; pass one value "+
				"that all ranks agree on (src=0, or a root decided once and broadcast)",
			name, rulekit.GroupLabel(x.Site.Group), x.Param, x.Text)}
		d.Related = append(d.Related, rulekit.Related(x.Arg, "the root, computed from the rank"))
		p.Report(d)
	}
}

// rootParam names the root parameter of the collective whose root-only
// list is param.
func rootParam(param string) string {
	if param == "scatter_list" {
		return "src"
	}
	return "dst"
}
