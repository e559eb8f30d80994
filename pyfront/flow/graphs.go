package flow

import (
	"sort"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// CUDA graphs that hold collectives. `with torch.cuda.graph(g):` around a
// collective records the NCCL kernel into g, and g keeps the communicator
// referenced: from NCCL 2.26, destroying the communicator waits until
// every graph that uses it is gone. destroy_process_group() while g is
// alive hangs at shutdown (NVIDIA's CUDA-graph troubleshooting guide,
// O1). g.reset() or `del g` (or rebinding g) releases it.

// graphCapture records a graph that a with statement's block fills with
// collectives.
func (l *lowerer) graphCapture(c *ast.Call, graph ast.Expr, body []ast.Stmt) {
	d := dotted(graph)
	if d == "" || len(l.ops(body)) == 0 {
		return
	}
	if l.graphs == nil {
		l.graphs = map[string]rules.Pos{}
	}
	l.graphs[d] = l.pos(c.Pos)
}

// graphReleased forgets a graph that was reset, deleted or rebound.
func (l *lowerer) graphReleased(d string) {
	if l.graphs != nil {
		delete(l.graphs, d)
	}
}

// graphCall handles g.reset() and a destroy of a process group while
// graphs are alive.
func (l *lowerer) graphCall(c *ast.Call, site *rules.Site) {
	if len(l.graphs) == 0 {
		return
	}
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "reset" {
		l.graphReleased(dotted(a.Value))
		return
	}
	if site == nil || site.Op != "destroy" {
		return
	}
	names := make([]string, 0, len(l.graphs))
	for g := range l.graphs {
		names = append(names, g)
	}
	sort.Strings(names)
	line, indent := l.stmtInfo()
	for _, g := range names {
		l.addGraphDestroy(&rules.GraphDestroy{Func: l.fn, Destroy: site, Graph: g, Capture: l.graphs[g], StmtLine: line, Indent: indent})
	}
}

func (l *lowerer) addGraphDestroy(x *rules.GraphDestroy) { addFact(&l.r.Prog().GraphDestroys, x) }
