// Package cv402 implements CV402 graph-outlives-communicator: a process
// group destroyed while a CUDA graph that captured its collectives is
// still alive.
package cv402

import (
	"fmt"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV402.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV402",
	Name:     "graph-outlives-communicator",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "a process group is destroyed while a CUDA graph still holds its collectives",
		What: "Reports destroy_process_group() reached, in the same function, after `with torch.cuda.graph(g):` captured a " +
			"collective (directly or through calls) into g, when g has been neither reset (g.reset()), deleted (del g) nor " +
			"rebound in between.",
		Why: "A captured NCCL collective keeps its communicator referenced by the graph. From NCCL 2.26, destroying a " +
			"communicator waits until every CUDA graph that uses it has been destroyed, so destroy_process_group() with the " +
			"graph still alive hangs at the end of an otherwise finished job (NVIDIA's CUDA-graph troubleshooting guide, " +
			"\"Process Hang\").",
		Example: `g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    dist.all_reduce(x)
for _ in range(steps):
    g.replay()
dist.destroy_process_group()      # waits for g forever`,
		UseInstead: `g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    dist.all_reduce(x)
for _ in range(steps):
    g.replay()
torch.cuda.synchronize()
g.reset()                        # or: del g
dist.destroy_process_group()`,
		FixSafety: "The fix inserts `<graph>.reset()` right before destroy_process_group(). The graph cannot be replayed " +
			"afterwards; if code after the destroy replays it, that code was already broken (its communicator is gone). " +
			"`collvet guard` does not check this one: the wait is inside NCCL's communicator destruction, and the guard " +
			"does not follow CUDA graphs; a job that finishes its work and then hangs in destroy_process_group() is the symptom.",
		References: []string{
			"https://docs.nvidia.com/dl-cuda-graph/latest/troubleshooting/process-hang.html — destroy_process_group hangs while graphs reference the communicator (O1)",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	for _, x := range p.Prog.GraphDestroys {
		if x == nil || x.Destroy == nil {
			continue
		}
		d := rules.Diagnostic{Pos: x.Destroy.Pos, Message: fmt.Sprintf(
			"%s runs while the CUDA graph `%s`, which captured collectives at %s, is still alive: the graph keeps the "+
				"communicator referenced, and from NCCL 2.26 destroying it waits until every graph that uses it is gone "+
				"(hang at shutdown); call %s.reset() (or del %s) before destroying the process group",
			rulekit.OpName(x.Destroy), x.Graph, x.Capture.Short(), x.Graph, x.Graph)}
		d.Related = append(d.Related, rulekit.Related(x.Capture, fmt.Sprintf("collectives captured into %s", x.Graph)))
		if x.StmtLine > 0 {
			d.Fixes = append(d.Fixes, rules.Fix{Title: fmt.Sprintf("Reset %s before destroying the process group", x.Graph),
				Edits: []rules.Edit{rulekit.InsertBefore(x.Destroy.Pos.Path, x.StmtLine, x.Indent+x.Graph+".reset()\n")}})
		}
		p.Report(d)
	}
}
