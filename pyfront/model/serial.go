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
// is unchanged.
func (b *builder) serialize() {
	for _, s := range b.spawns {
		if s.ctx.Kind != rules.Background || s.cs == nil || s.cs.Node == nil || s.caller == nil {
			continue
		}
		info := b.info[s.cs.Node]
		if info == nil {
			continue
		}
		attr, ok := strings.CutPrefix(info.assigned, "self.")
		if !ok || attr == "" || strings.Contains(attr, ".") {
			continue
		}
		if b.waitsBefore(s.caller, s.cs.Node, attr) {
			key := attr
			if s.caller.Class != nil {
				key = s.caller.Class.Name + "." + attr
			}
			s.ctx.Serial = key
		}
	}
}

// waitsBefore reports whether f, before call, waits for self.attr
// (self.attr.result() or .wait()), itself or through a method it calls.
func (b *builder) waitsBefore(f *callgraph.Func, call *ast.Call, attr string) bool {
	at := call.Span()
	before := func(n ast.Node) bool {
		sp := n.Span()
		return sp.Lineno < at.Lineno || sp.Lineno == at.Lineno && sp.ColOffset < at.ColOffset
	}
	if waitsSelfAttr(f.Node, attr, before) {
		return true
	}
	for _, cs := range f.Calls {
		if cs.At == nil || !before(cs.At) {
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
// self.attr.result() or self.attr.wait() (at a node keep accepts, when
// keep is set).
func waitsSelfAttr(fn ast.Node, attr string, keep func(ast.Node) bool) bool {
	body := defBody(fn)
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
				if !ok || m.Attr != "result" && m.Attr != "wait" {
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
