// Package ruletest helps test collvet rules: a Builder for synthetic
// programs (rule logic tested without any front end), and Check, which runs
// the Python front end over a fixture directory and compares the findings
// with the `# want CV101 "regex"` markers in the sources.
package ruletest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// Builder builds a synthetic rules.Program. Positions are given as lines;
// columns default to 1.
type Builder struct {
	Prog  *rules.Program
	Path  string
	main  *rules.Context
	world *rules.Group
}

// NewBuilder starts a program with one file at path holding src.
func NewBuilder(path, src string) *Builder {
	b := &Builder{Prog: &rules.Program{}, Path: path}
	b.Prog.Files = append(b.Prog.Files, &rules.File{Path: path, Lang: rules.Python, Src: []byte(src)})
	b.main = &rules.Context{ID: 0, Kind: rules.Main}
	b.Prog.Contexts = append(b.Prog.Contexts, b.main)
	b.world = &rules.Group{ID: "WORLD", Kind: rules.GroupWorld}
	b.Prog.Groups = append(b.Prog.Groups, b.world)
	return b
}

// At is a position on line (column 1) of the builder's file.
func (b *Builder) At(line int) rules.Pos {
	return rules.Pos{Path: b.Path, Line: line, Col: 1, EndLine: line, EndCol: 2}
}

// AtCol is a position with a column.
func (b *Builder) AtCol(line, col, endCol int) rules.Pos {
	return rules.Pos{Path: b.Path, Line: line, Col: col, EndLine: line, EndCol: endCol}
}

// Main is the main-thread context.
func (b *Builder) Main() *rules.Context { return b.main }

// World is the default group.
func (b *Builder) World() *rules.Group { return b.world }

// Unknown returns a group the model could not identify.
func (b *Builder) Unknown() *rules.Group {
	g := &rules.Group{ID: "unknown", Kind: rules.GroupUnknown}
	b.Prog.Groups = append(b.Prog.Groups, g)
	return g
}

// Group adds a group allocated on line with a backend ("" = unknown).
func (b *Builder) Group(line int, backend string) *rules.Group {
	g := &rules.Group{ID: fmt.Sprintf("new_group@%s:%d", b.Path, line), Kind: rules.GroupAlloc,
		API: "torch.distributed.new_group", Backend: backend, Pos: b.At(line)}
	b.Prog.Groups = append(b.Prog.Groups, g)
	return g
}

// Func adds a function defined on line.
func (b *Builder) Func(name string, line int) *rules.Function {
	f := &rules.Function{ID: len(b.Prog.Funcs), Name: name, Lang: rules.Python, Pos: b.At(line)}
	b.Prog.Funcs = append(b.Prog.Funcs, f)
	return f
}

// Context adds a context of kind k entered at entry, spawned on line by
// parent (nil = main).
func (b *Builder) Context(k rules.ContextKind, entry *rules.Function, spawnLine int, api string, parent *rules.Context) *rules.Context {
	if parent == nil {
		parent = b.main
	}
	c := &rules.Context{ID: len(b.Prog.Contexts), Kind: k, Entry: entry, Spawn: b.At(spawnLine), SpawnAPI: api, Parent: parent}
	b.Prog.Contexts = append(b.Prog.Contexts, c)
	return c
}

// Site adds a collective site in fn on line, calling api (its last
// component is the op), reached by the given contexts.
func (b *Builder) Site(fn *rules.Function, line int, api string, kind rules.OpKind, g *rules.Group, ctxs ...*rules.Context) *rules.Site {
	op := api[strings.LastIndexByte(api, '.')+1:]
	if g == nil {
		g = b.world
	}
	s := &rules.Site{ID: len(b.Prog.Sites), Func: fn, Pos: b.AtCol(line, 5, 20), API: api, Op: op, Kind: kind, Library: "torch", Group: g}
	for _, c := range ctxs {
		s.Reach = append(s.Reach, &rules.Reach{Ctx: c})
	}
	if fn != nil {
		fn.Sites = append(fn.Sites, s)
	}
	b.Prog.Sites = append(b.Prog.Sites, s)
	return s
}

// Async marks s async with a work handle held in v ("" = discarded).
func (b *Builder) Async(s *rules.Site, v string) *rules.Work {
	s.Async = true
	w := &rules.Work{Site: s, Var: v, Discarded: v == ""}
	s.Work = w
	b.Prog.Works = append(b.Prog.Works, w)
	return w
}

// Event appends an event to fn.
func (b *Builder) Event(fn *rules.Function, e *rules.Event) *rules.Event {
	if e.StmtLine == 0 {
		e.StmtLine = e.Pos.Line
	}
	fn.Events = append(fn.Events, e)
	return e
}

// Run runs one rule over the program.
func (b *Builder) Run(r *rules.Rule) []rules.Diagnostic {
	return rules.Run(b.Prog, []*rules.Rule{r})
}

// Lines formats diagnostics as "line: CODE message" for test failures.
func Lines(ds []rules.Diagnostic) string {
	var sb strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&sb, "%s: %s %s\n", d.Pos, d.Rule, d.Message)
		for _, r := range d.Related {
			fmt.Fprintf(&sb, "\t%s: %s\n", r.Pos, r.Message)
		}
	}
	return sb.String()
}

// Apply applies the edits of fix to src (edits in one file, 1-based lines
// and byte columns) and returns the new text. Edits must not overlap.
func Apply(src []byte, edits []rules.Edit) ([]byte, error) {
	m := textpos.New(src)
	type span struct {
		from, to int
		text     string
	}
	var spans []span
	for _, e := range edits {
		from := m.Offset(e.Pos.Line, e.Pos.Col)
		el, ec := e.Pos.EndLine, e.Pos.EndCol
		if el == 0 {
			el, ec = e.Pos.Line, e.Pos.Col
		}
		to := m.Offset(el, ec)
		if to < from {
			return nil, fmt.Errorf("edit %v: end before start", e.Pos)
		}
		spans = append(spans, span{from, to, e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var out []byte
	last := 0
	for _, s := range spans {
		if s.from < last {
			return nil, fmt.Errorf("overlapping edits")
		}
		out = append(out, src[last:s.from]...)
		out = append(out, s.text...)
		last = s.to
	}
	return append(out, src[last:]...), nil
}
