package model

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// Serialised background saves. Checkpointers keep the future of their
// last asynchronous save in an attribute and wait for it before starting
// the next one:
//
//	def _async_wait(self):
//	    if self.async_future is not None:
//	        self.async_future.result()
//
//	def save(self, step):
//	    self._async_wait()
//	    self.async_future = dcp.async_save(state, process_group=self.pg)
//
// (torchtitan's CheckpointManager, KempnerForge's AsyncCheckpointer). Two
// such saves never run at the same time, even on the same process group.
// serialize gives the background contexts of such spawns a common
// Context.Serial key, which rules read as "not concurrent with each
// other"; their concurrency with the spawning thread's later collectives
// is unchanged. Threads restarted in one attribute after a join get one
// here too; tasks of a single-worker pool get theirs where the spawn is
// made (callSpawn, singleWorker).
func (b *builder) serialize() {
	// Threads kept in one attribute and joined before the next is
	// started there (sglang's cache controller: reset() joins
	// self.prefetch_thread, then starts a new one) run one after another;
	// gathered per attribute, decided below.
	type restart struct {
		ctxs   []*rules.Context
		loose  int // spawns not preceded by a join of the attribute
		joined int
	}
	threads := map[string]*restart{}
	var order []string
	for _, s := range b.spawns {
		if s.ctx.Kind != rules.Background && s.ctx.Kind != rules.Thread || s.cs == nil || s.cs.Node == nil || s.caller == nil {
			continue
		}
		if s.ctx.Kind == rules.Background {
			s.ctx.SpawnFunc = b.fn(s.caller)
			if d := b.drainCall(s.caller, s.cs.Node); d != nil {
				p := b.pos(s.caller.Module.Path, d)
				s.ctx.Drained = &p
			}
		}
		info := b.info[s.cs.Node]
		if info == nil {
			continue
		}
		attr, ok := strings.CutPrefix(info.assigned, "self.")
		if !ok || attr == "" || strings.Contains(attr, ".") {
			continue
		}
		key := attr
		if s.caller.Class != nil {
			key = s.caller.Class.Name + "." + attr
		}
		waits := b.waitsBefore(s.caller, s.cs.Node, attr)
		if s.ctx.Kind == rules.Background {
			if waits {
				s.ctx.Serial = key
			}
			continue
		}
		r := threads[key]
		if r == nil {
			r = &restart{}
			threads[key] = r
			order = append(order, key)
		}
		r.ctxs = append(r.ctxs, s.ctx)
		if waits {
			r.joined++
		} else {
			r.loose++
		}
	}
	// Every start but (at most) the first is preceded by a join of the
	// thread the attribute holds: no two of them overlap. Two starts
	// without a join could run side by side, and keep no key.
	for _, key := range order {
		if r := threads[key]; r.joined > 0 && r.loose <= 1 {
			for _, c := range r.ctxs {
				if !c.Many {
					c.Serial = "thread " + key
				}
			}
		}
	}
}

// waitsBefore reports whether f, before call, waits for self.attr
// (self.attr.result() or .wait()), itself or through a method it calls.
func (b *builder) waitsBefore(f *callgraph.Func, call *ast.Call, attr string) bool {
	earlier := func(n ast.Node) bool { return before(n, call) }
	if waitsSelfAttr(f.Node, attr, earlier) {
		return true
	}
	for _, cs := range f.Calls {
		if cs.At == nil || !earlier(cs.At) {
			continue
		}
		for _, t := range cs.Targets {
			if t.Fn != nil && t.Fn != f && t.Fn.Class != nil && t.Fn.Class == f.Class && waitsSelfAttr(t.Fn.Node, attr, nil) {
				return true
			}
		}
	}
	return false
}

// waitsSelfAttr reports whether the body of the def fn calls
// self.attr.result(), self.attr.wait() or, for a thread, self.attr.join()
// (at a node keep accepts, when keep is set).
func waitsSelfAttr(fn ast.Node, attr string, keep func(ast.Node) bool) bool {
	body := ast.DefBody(fn)
	found := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Call:
				m, ok := n.Func.(*ast.Attribute)
				if !ok || m.Attr != "result" && m.Attr != "wait" && m.Attr != "join" {
					return true
				}
				if a, ok := m.Value.(*ast.Attribute); ok && a.Attr == attr {
					if self, ok := a.Value.(*ast.Name); ok && self.Id == "self" && (keep == nil || keep(n)) {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}

// maxDrainDepth bounds how deep drainCall looks for the wait
// (save → self._drain_checkpoint() → _drain_pending_dcp_save()).
const maxDrainDepth = 3

// drainCall returns the first call of f, before call, that waits for a
// future (a .result() or .wait() call, in f or in the functions it calls,
// a few levels down): UniRL's _save_dcp starts with
// self._drain_checkpoint(), which waits for the previous async save's
// future. nil when there is none.
func (b *builder) drainCall(f *callgraph.Func, call *ast.Call) ast.Node {
	var first ast.Node
	for _, cs := range f.Calls {
		if cs.At == nil || cs.Node == nil || cs.Node == call || !before(cs.At, call) {
			continue
		}
		if first != nil && !before(cs.At, first) {
			continue
		}
		if isFutureWait(cs.Node) || b.waitsForFuture(cs, maxDrainDepth, map[*callgraph.Func]bool{f: true}) {
			first = cs.At
		}
	}
	return first
}

func before(a, b ast.Node) bool {
	x, y := a.Span(), b.Span()
	return x.Lineno < y.Lineno || x.Lineno == y.Lineno && x.ColOffset < y.ColOffset
}

// isFutureWait: x.result(…) or x.wait(…) with x a name or an attribute.
func isFutureWait(c *ast.Call) bool {
	m, ok := c.Func.(*ast.Attribute)
	if !ok || m.Attr != "result" && m.Attr != "wait" {
		return false
	}
	switch m.Value.(type) {
	case *ast.Name, *ast.Attribute:
		return true
	}
	return false
}

// waitsForFuture reports whether a call's program targets wait for a
// future, themselves or through their calls, depth levels down.
func (b *builder) waitsForFuture(cs *callgraph.CallSite, depth int, seen map[*callgraph.Func]bool) bool {
	if depth == 0 {
		return false
	}
	for _, t := range cs.Targets {
		g := t.Fn
		if g == nil || seen[g] {
			continue
		}
		seen[g] = true
		for _, inner := range g.Calls {
			if inner.Node != nil && (isFutureWait(inner.Node) || b.waitsForFuture(inner, depth-1, seen)) {
				return true
			}
		}
	}
	return false
}
