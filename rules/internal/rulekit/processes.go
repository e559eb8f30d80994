package rulekit

import (
	"slices"
	"sync"

	"github.com/collvet/collvet/rules"
)

// Which code can share a process.
//
// A repository holds many programs: training scripts, examples and tools,
// each started on its own (python train.py). Code that only one script
// reaches and code that only another reaches never run in one process, so
// their collectives never meet on a communicator. The processes of a
// function are the scripts (module bodies with a __main__ block,
// rules.Function.Script) it is reached from: through calls, through the
// imports that run a module's body (Facts.Imports), and through the spawn
// of a context it is the entry of. A function that code no script reaches
// can reach (a library's API, a test the test runner calls, a callback
// handed to a library) may run in any process, and shares one with
// everything, as it did before processes were told apart.

// procSet is the processes a function may run in: any, or the scripts
// listed (sorted by ID).
type procSet struct {
	any     bool
	scripts []*rules.Function
}

// procIndex answers process questions about one program.
type procIndex struct {
	mu    sync.Mutex
	preds map[*rules.Function][]*rules.Function
	memo  map[*rules.Function]procSet
}

// procCache keeps the index of the program last asked about: rules run
// one program at a time, and a later program replaces it.
var procCache struct {
	mu   sync.Mutex
	prog *rules.Program
	idx  *procIndex
}

func processes(prog *rules.Program) *procIndex {
	procCache.mu.Lock()
	defer procCache.mu.Unlock()
	if procCache.prog != prog {
		procCache.prog, procCache.idx = prog, newProcIndex(prog)
	}
	return procCache.idx
}

func newProcIndex(prog *rules.Program) *procIndex {
	preds := map[*rules.Function][]*rules.Function{}
	for _, f := range prog.Funcs {
		for _, c := range f.Calls {
			if c.Callee != nil && c.Callee != f {
				preds[c.Callee] = append(preds[c.Callee], f)
			}
		}
	}
	for _, im := range prog.Facts.Imports {
		preds[im.Module] = append(preds[im.Module], im.Importer)
	}
	for _, c := range prog.Contexts {
		if c.Entry != nil && c.SpawnIn != nil {
			preds[c.Entry] = append(preds[c.Entry], c.SpawnIn)
		}
	}
	return &procIndex{preds: preds, memo: map[*rules.Function]procSet{}}
}

// of returns the processes f may run in.
func (x *procIndex) of(f *rules.Function) procSet {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.memo[f]; ok {
		return s
	}
	var s procSet
	seen := map[*rules.Function]bool{f: true}
	queue := []*rules.Function{f}
	for len(queue) > 0 && !s.any {
		n := queue[0]
		queue = queue[1:]
		if n.Process {
			// A process of its own (mp.Process's target, mp.spawn's
			// function): what starts it runs in another process. (Its
			// own direct callers, if any, still share theirs.)
			s.scripts = append(s.scripts, n)
			if n != f {
				continue
			}
		}
		if n.Script {
			s.scripts = append(s.scripts, n)
		}
		ps := x.preds[n]
		if len(ps) == 0 && !n.Script && !n.Process {
			s.any = true // reached from outside the program's scripts
		}
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	if s.any {
		s.scripts = nil
	}
	slices.SortFunc(s.scripts, func(a, b *rules.Function) int { return a.ID - b.ID })
	x.memo[f] = s
	return s
}

// RunsIn returns the function whose processes a collective site runs in
// on context c: the code that spawns c, for a context other than the main
// thread (the site runs wherever that thread is started), else the site's
// own function. Site may be nil for a context known only by its spawn.
func RunsIn(s *rules.Site, c *rules.Context) *rules.Function {
	if c != nil && c.Kind != rules.Main && c.SpawnIn != nil {
		return c.SpawnIn
	}
	if s == nil {
		return nil
	}
	return s.Func
}

// RunsInReach is RunsIn for a site reached along r: on the main thread,
// the function the chain starts from when there is one (the entry of a
// process a launcher starts runs in that process, whatever else calls the
// site's function).
func RunsInReach(s *rules.Site, r *rules.Reach) *rules.Function {
	if r == nil {
		return RunsIn(s, nil)
	}
	if IsMain(r.Ctx) && len(r.Chain) > 0 && r.Chain[0] != nil && r.Chain[0].Caller != nil {
		return r.Chain[0].Caller
	}
	return RunsIn(s, r.Ctx)
}

// MayShareProcess reports whether code of functions a and b can run in
// one process: either may run in any, or some script reaches both. A
// nil function, or a program without scripts, shares with everything.
func MayShareProcess(prog *rules.Program, a, b *rules.Function) bool {
	if a == nil || b == nil || a == b || a.Lang != rules.Python || b.Lang != rules.Python {
		return true
	}
	x := processes(prog)
	pa := x.of(a)
	if pa.any {
		return true
	}
	pb := x.of(b)
	if pb.any {
		return true
	}
	for i, j := 0, 0; i < len(pa.scripts) && j < len(pb.scripts); {
		switch {
		case pa.scripts[i] == pb.scripts[j]:
			return true
		case pa.scripts[i].ID < pb.scripts[j].ID:
			i++
		default:
			j++
		}
	}
	return false
}

// ReachedByScripts reports whether every way into f starts at one of the
// program's scripts (false when some function without callers that is no
// script leads to it: a library entry a script outside the analysed paths
// may call).
func ReachedByScripts(prog *rules.Program, f *rules.Function) bool {
	if f == nil || f.Lang != rules.Python {
		return false
	}
	return !processes(prog).of(f).any
}
