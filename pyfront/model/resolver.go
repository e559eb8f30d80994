package model

import (
	"sort"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// resolver implements flow.Resolver over the built model.
type resolver struct {
	b    *builder
	file *rules.File
	mod  string
}

func (r *resolver) Prog() *rules.Program { return r.b.prog }
func (r *resolver) File() *rules.File    { return r.file }
func (r *resolver) Tables() *api.Tables  { return r.b.t }

func (r *resolver) Callee(call *ast.Call) (string, *rules.Function) {
	cs := r.b.g.CallOf(call)
	if cs == nil {
		return "", nil
	}
	var ext string
	var fn *rules.Function
	for _, t := range cs.Targets {
		if t.Fn != nil && fn == nil {
			fn = r.b.fn[t.Fn]
		}
	}
	names := r.b.apis(cs)
	for _, n := range names {
		if r.b.inTables(n) {
			return n, fn
		}
	}
	if len(names) > 0 {
		ext = names[0]
	}
	return ext, fn
}

func (r *resolver) Ref(e ast.Expr) string {
	for _, v := range r.b.g.ExprValues(e) {
		if val := r.b.g.Value(v); val != nil && val.Name != "" && val.Kind == callgraph.KExternal {
			return r.b.t.Canonical(val.Name)
		}
	}
	return r.b.ref(r.mod, e)
}

func (r *resolver) Site(call *ast.Call) *rules.Site { return r.b.sites[call] }

func (r *resolver) Stream(e ast.Expr) *rules.Stream { return r.b.streamOf(e) }

// Summary returns the collectives fn issues, transitively, in program
// order (the first visit wins on recursion).
func (r *resolver) Summary(fn *rules.Function) []*rules.OpRef { return r.b.summarize(fn, 0) }

func (b *builder) summarize(fn *rules.Function, depth int) []*rules.OpRef {
	if fn == nil {
		return nil
	}
	if s, ok := b.summary[fn]; ok {
		return s
	}
	if b.inProgress[fn] || depth > 64 {
		return nil
	}
	b.inProgress[fn] = true
	type item struct {
		pos  rules.Pos
		refs []*rules.OpRef
	}
	var items []item
	for _, s := range fn.Sites {
		items = append(items, item{pos: s.Pos, refs: []*rules.OpRef{{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s}}})
	}
	for _, c := range fn.Calls {
		if c.Callee == nil || c.Callee == fn {
			continue
		}
		sub := b.summarize(c.Callee, depth+1)
		if len(sub) == 0 {
			continue
		}
		refs := make([]*rules.OpRef, len(sub))
		for i, o := range sub {
			refs[i] = &rules.OpRef{Op: o.Op, Group: o.Group, Pos: c.Pos, Site: o.Site}
		}
		items = append(items, item{pos: c.Pos, refs: refs})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].pos.Line != items[j].pos.Line {
			return items[i].pos.Line < items[j].pos.Line
		}
		return items[i].pos.Col < items[j].pos.Col
	})
	var out []*rules.OpRef
	for _, it := range items {
		out = append(out, it.refs...)
	}
	// Sequences concatenate callees' sequences and grow exponentially with
	// call depth on large code bases; the flow pass needs only a prefix.
	if len(out) > flow.MaxSummary {
		out = out[:flow.MaxSummary]
	}
	delete(b.inProgress, fn)
	b.summary[fn] = out
	return out
}
