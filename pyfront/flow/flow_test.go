package flow_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// fake is a minimal stand-in for the model builder: one module, imports
// resolved by name, sites built from the tables, groups named after the
// variable passed.
type fake struct {
	prog    *rules.Program
	file    *rules.File
	tb      *api.Tables
	aliases map[string]string
	funcs   map[string]*rules.Function
	defs    map[*rules.Function]ast.Node
	sites   map[*ast.Call]*rules.Site
	cur     *rules.Function
	groups  map[string]*rules.Group
}

func (f *fake) Prog() *rules.Program { return f.prog }
func (f *fake) File() *rules.File    { return f.file }
func (f *fake) Tables() *api.Tables  { return f.tb }

func dotted(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		if v := dotted(e.Value); v != "" {
			return v + "." + e.Attr
		}
	}
	return ""
}

func (f *fake) qualify(d string) string {
	if d == "" {
		return ""
	}
	head, rest, _ := strings.Cut(d, ".")
	q, ok := f.aliases[head]
	if !ok {
		return ""
	}
	if rest != "" {
		q += "." + rest
	}
	return f.tb.Canonical(q)
}

func (f *fake) Ref(e ast.Expr) string { return f.qualify(dotted(e)) }

func (f *fake) Callee(c *ast.Call) (string, *rules.Function) {
	d := dotted(c.Func)
	if fn := f.funcs[d]; fn != nil {
		return "", fn
	}
	if q := f.qualify(d); q != "" {
		return q, nil
	}
	if a, ok := c.Func.(*ast.Attribute); ok {
		for _, n := range f.tb.MethodNames[a.Attr] {
			if e := f.tb.Collectives[n]; e != nil && e.AnyReceiver {
				return n, nil
			}
			if e := f.tb.Streams[n]; e != nil && e.AnyReceiver {
				return n, nil
			}
			if e := f.tb.Spawners[n]; e != nil && e.AnyReceiver {
				return n, nil
			}
		}
	}
	return "", nil
}

func argOf(c *ast.Call, a api.Arg) ast.Expr {
	for _, k := range c.Keywords {
		if a.Name != "" && k.Arg == a.Name {
			return k.Value
		}
	}
	if a.Pos >= 0 && a.Pos < len(c.Args) {
		return c.Args[a.Pos]
	}
	return nil
}

func (f *fake) Site(c *ast.Call) *rules.Site {
	if s, ok := f.sites[c]; ok {
		return s
	}
	ext, _ := f.Callee(c)
	e := f.tb.Collectives[ext]
	if e == nil {
		f.sites[c] = nil
		return nil
	}
	g := f.groups["WORLD"]
	if x := argOf(c, e.Group); x != nil {
		if n, ok := x.(*ast.Name); ok {
			if f.groups[n.Id] == nil {
				f.groups[n.Id] = &rules.Group{ID: "group:" + n.Id, Kind: rules.GroupAlloc, Backend: "nccl"}
			}
			g = f.groups[n.Id]
		}
	}
	async := e.AlwaysAsync
	if x := argOf(c, e.Async); x != nil {
		if k, ok := x.(*ast.Constant); ok && k.Type == ast.ConstBool && k.Bool {
			async = true
		}
	}
	p := c.Span()
	s := &rules.Site{ID: len(f.prog.Sites), Func: f.cur, API: ext, Op: e.Op, Kind: rules.OpKind(e.Kind), Group: g, Async: async,
		Pos: rules.Pos{Path: f.file.Path, Line: int(p.Lineno), Col: int(p.ColOffset) + 1, EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset) + 1}}
	s.Reach = []*rules.Reach{{Ctx: f.prog.Contexts[0]}}
	f.prog.Sites = append(f.prog.Sites, s)
	f.sites[c] = s
	return s
}

func (f *fake) Stream(e ast.Expr) *rules.Stream { return nil }

func (f *fake) Summary(fn *rules.Function) []*rules.OpRef {
	var out []*rules.OpRef
	saved := f.cur
	f.cur = fn
	ast.Inspect(f.defs[fn], func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if s := f.Site(c); s != nil {
				out = append(out, &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s})
			}
		}
		return true
	})
	f.cur = saved
	return out
}

// lower parses src and runs the flow pass over the module body and every
// top-level function.
func lower(t *testing.T, src string) *rules.Program {
	t.Helper()
	mod, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) > 0 {
		t.Fatalf("parse: %v", errs)
	}
	prog := &rules.Program{Contexts: []*rules.Context{{Kind: rules.Main}}}
	file := &rules.File{Path: "t.py", Lang: rules.Python, Src: []byte(src)}
	prog.Files = append(prog.Files, file)
	f := &fake{prog: prog, file: file, tb: api.Default(), aliases: map[string]string{}, funcs: map[string]*rules.Function{},
		defs: map[*rules.Function]ast.Node{}, sites: map[*ast.Call]*rules.Site{},
		groups: map[string]*rules.Group{"WORLD": {ID: "WORLD", Kind: rules.GroupWorld}}}
	top := &rules.Function{Name: "t", Lang: rules.Python}
	prog.Funcs = append(prog.Funcs, top)
	f.defs[top] = mod
	for _, s := range mod.Body {
		switch s := s.(type) {
		case *ast.Import:
			for _, a := range s.Names {
				if a.Asname != "" {
					f.aliases[a.Asname] = a.Name
				} else {
					h, _, _ := strings.Cut(a.Name, ".")
					f.aliases[h] = h
				}
			}
		case *ast.ImportFrom:
			for _, a := range s.Names {
				n := a.Asname
				if n == "" {
					n = a.Name
				}
				f.aliases[n] = s.Module + "." + a.Name
			}
		case *ast.FunctionDef:
			fn := &rules.Function{Name: "t." + s.Name, Lang: rules.Python}
			prog.Funcs = append(prog.Funcs, fn)
			f.funcs[s.Name] = fn
			f.defs[fn] = s
		}
	}
	for _, fn := range prog.Funcs {
		f.cur = fn
		flow.Lower(fn, f.defs[fn], f)
	}
	return prog
}

func find(prog *rules.Program, name string) *rules.Function {
	for _, f := range prog.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func TestRankBranchThroughLocal(t *testing.T) {
	prog := lower(t, `import torch.distributed as dist
rank = dist.get_rank()
if rank == 0:
    dist.barrier()
lst = [None] * 4 if rank == 0 else None
dist.gather(x, gather_list=lst if rank == 0 else None)
if rank == 0:
    dist.send(x, 1)
else:
    dist.recv(x, 0)
`)
	if len(prog.Branches) != 2 {
		t.Fatalf("want 2 branches (barrier, send/recv), got %d", len(prog.Branches))
	}
	b := prog.Branches[0]
	if b.Cond != "rank == 0" || len(b.Then) != 1 || b.Then[0].Op != "barrier" || len(b.Else) != 0 || b.Guard.Line != 3 {
		t.Errorf("branch: %+v", b)
	}
	if p := prog.Branches[1]; len(p.Then) != 1 || len(p.Else) != 1 || p.Then[0].Op != "send" {
		t.Errorf("p2p branch: %+v", p)
	}
}

func TestEarlyExitAndDecorator(t *testing.T) {
	prog := lower(t, `import os
import torch.distributed as dist
from lightning.pytorch.utilities import rank_zero_only

def save():
    dist.barrier()

def finish():
    if int(os.environ["RANK"]) != 0:
        return
    save()

@rank_zero_only
def log_metrics(x):
    dist.all_reduce(x)
`)
	var early, deco *rules.RankBranch
	for _, b := range prog.Branches {
		if b.EarlyExit {
			early = b
		}
		if strings.HasPrefix(b.Cond, "@") {
			deco = b
		}
	}
	if early == nil || len(early.After) != 1 || early.After[0].Op != "barrier" || early.After[0].Pos.Line != 11 || early.After[0].Site.Pos.Line != 6 {
		t.Errorf("early exit: %+v", early)
	}
	if deco == nil || len(deco.Then) != 1 || deco.Then[0].Op != "all_reduce" {
		t.Errorf("decorator: %+v", deco)
	}
}

func TestWorks(t *testing.T) {
	prog := lower(t, `import torch.distributed as dist

def f(x, y, bad):
    dist.all_reduce(x, async_op=True)
    w = dist.all_reduce(y, async_op=True)
    w.wait()
    r = dist.isend(x, 1)
    r = dist.isend(y, 1)
    r.wait()
    q = dist.irecv(x, 0)
    if bad:
        return None
    q.wait()
    hs = []
    for t in (x, y):
        hs.append(dist.all_reduce(t, async_op=True))
    for h in hs:
        h.wait()
    for t in (x, y):
        k = dist.all_reduce(t, async_op=True)
    k.wait()
    return dist.all_reduce(y, async_op=True)
`)
	byLine := map[int]*rules.Work{}
	for _, w := range prog.Works {
		byLine[w.Site.Pos.Line] = w
	}
	if w := byLine[4]; w == nil || !w.Discarded {
		t.Errorf("line 4 discarded: %+v", w)
	}
	if w := byLine[5]; w == nil || w.Var != "w" || len(w.Waited) != 1 || w.Overwritten != nil || w.UnwaitedExit != nil {
		t.Errorf("line 5 waited: %+v", w)
	}
	if w := byLine[7]; w == nil || w.Overwritten == nil || w.Overwritten.Line != 8 {
		t.Errorf("line 7 overwritten: %+v", w)
	}
	if w := byLine[10]; w == nil || w.UnwaitedExit == nil || w.UnwaitedExit.Line != 12 || len(w.Waited) != 1 {
		t.Errorf("line 10 unwaited exit: %+v", w)
	}
	// Filed in a list of f's own: pending under the list's name, and
	// waited through its elements.
	if w := byLine[16]; w == nil || w.Escapes || w.Var != "hs" || len(w.Waited) != 1 || w.Overwritten != nil || w.UnwaitedExit != nil {
		t.Errorf("line 16 filed and waited: %+v", w)
	}
	if w := byLine[20]; w == nil || w.Overwritten == nil {
		t.Errorf("line 20 overwritten by the next iteration: %+v", w)
	}
	if w := byLine[22]; w == nil || !w.Escapes {
		t.Errorf("line 22 returned: %+v", w)
	}
}

func TestStreamsAndFacts(t *testing.T) {
	prog := lower(t, `import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
dist.init_process_group("nccl")
torch.autograd.set_multithreading_enabled(False)
side = torch.cuda.Stream()
g = compute()
with torch.cuda.stream(side):
    dist.all_reduce(g)
torch.cuda.current_stream().wait_stream(side)
out = g * 2
m = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
`)
	f := prog.Facts
	if len(f.Inits) != 1 || f.Inits[0].AfterLine != 4 || f.Inits[0].Backend != "nccl" {
		t.Errorf("inits: %+v", f.Inits)
	}
	if len(f.AutogradSingleThreaded) != 1 || f.AutogradSingleThreaded[0].Line != 5 {
		t.Errorf("autograd switch: %+v", f.AutogradSingleThreaded)
	}
	if len(f.MultiComm) != 1 || !strings.Contains(f.MultiComm[0].Detail, "HYBRID_SHARD") {
		t.Errorf("multi comm: %+v", f.MultiComm)
	}
	var kinds []string
	for _, e := range find(prog, "t").Events {
		switch e.Kind {
		case rules.EvStreamEnter, rules.EvStreamExit, rules.EvWaitStream, rules.EvCollective:
			s := ""
			if e.Stream != nil {
				s = e.StreamText
			}
			o := ""
			if e.Other != nil {
				o = e.OtherText
			}
			kinds = append(kinds, string(e.Kind)+"("+s+","+o+")")
		}
	}
	want := "collective(,) stream_enter(side,) collective(side,) stream_exit(side,) wait_stream(,side)"
	if got := strings.Join(kinds, " "); !strings.Contains(got, want) {
		t.Errorf("events:\n got %s\nwant …%s", got, want)
	}
	for _, s := range prog.Sites {
		if s.Pos.Line == 9 && (s.Stream == nil || len(s.Inputs) != 1 || s.Inputs[0] != "g") {
			t.Errorf("all_reduce site: stream %v inputs %v", s.Stream, s.Inputs)
		}
	}
}

func TestNeverPanics(t *testing.T) {
	// Odd but valid Python: nothing to find, nothing to crash on.
	lower(t, "x = lambda: (yield)\nclass A:\n    def f(self): pass\nmatch x:\n    case 1: pass\nwhile True:\n    break\n")
	flow.Lower(nil, nil, nil)
}

func TestMayHoldKey(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"def f(c):\n    kw = {}\n    if c:\n        kw['static_graph'] = True\n", false},
		{"def f():\n    kw = {'broadcast_buffers': False}\n", true},
		{"def f():\n    kw = dict(find_unused_parameters=True)\n", false},
		{"def f(k):\n    kw = {}\n    kw[k] = False\n", true},
		{"def f(o):\n    kw = {}\n    kw.update(o)\n", true},
		{"def f(o):\n    kw = o\n", true},
		{"def f(o):\n    kw = {**o}\n", true},
	} {
		mod, errs := parser.ParseFile("t.py", []byte(c.src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		fn := mod.Body[0]
		if got := flow.MayHoldKey(fn, "kw", "broadcast_buffers"); got != c.want {
			t.Errorf("%q: MayHoldKey = %v, want %v", c.src, got, c.want)
		}
	}
}
