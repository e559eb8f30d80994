package rules

import (
	"slices"
	"sync"
)

// Which code can share a process.
//
// A repository holds many programs: training scripts, examples and tools,
// each started on its own (python train.py). Code that only one script
// reaches and code that only another reaches never run in one process, so
// their collectives never meet on a communicator. The processes of a
// function are the scripts (module bodies with a __main__ block,
// Function.Script) it is reached from: through calls, through the
// imports that run a module's body (Facts.Imports), and through the spawn
// of a context it is the entry of. A function that code no script reaches
// can reach (a library's API, a test the test runner calls, a callback
// handed to a library) may run in any process, and shares one with
// everything, as it did before processes were told apart.

// procSet is the processes a function may run in: any, or the scripts
// listed (sorted by ID).
type procSet struct {
	any     bool
	scripts []*Function
}

// Processes answers process questions about one program, as its calls,
// imports and contexts stand when it is made.
type Processes struct {
	mu    sync.Mutex
	preds map[*Function][]pred
	memo  map[procKey]procSet
}

// procKey asks for the processes of fn, or, with main, of the __main__
// block of module body fn (those it is the program of).
type procKey struct {
	fn   *Function
	main bool
}

// pred is a way into a function: the function that calls it, spawns it
// or imports it (import). main: the call or spawn is in the caller's
// `if __name__ == "__main__":` block, which runs only in the process the
// caller's module is the program of, not where it is imported.
type pred struct {
	fn             *Function
	main, imported bool
}

// NewProcesses indexes prog's calls, imports and contexts.
func NewProcesses(prog *Program) *Processes {
	preds := map[*Function][]pred{}
	for _, f := range prog.Funcs {
		for _, c := range f.Calls {
			if c.Callee != nil && c.Callee != f {
				preds[c.Callee] = append(preds[c.Callee], pred{fn: f, main: f.InMainBlock(c.Pos.Line)})
			}
		}
	}
	for _, im := range prog.Facts.Imports {
		preds[im.Module] = append(preds[im.Module], pred{fn: im.Importer, imported: true})
	}
	for _, c := range prog.Contexts {
		if c.Entry != nil && c.SpawnIn != nil {
			preds[c.Entry] = append(preds[c.Entry], pred{fn: c.SpawnIn, main: c.SpawnIn.InMainBlock(c.Spawn.Line)})
		}
	}
	return &Processes{preds: preds, memo: map[procKey]procSet{}}
}

// of returns the processes f may run in (with main, those of module
// body f's __main__ block).
func (x *Processes) of(f *Function, main bool) procSet {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.memo[procKey{f, main}]; ok {
		return s
	}
	var s procSet
	// A module body reached through its __main__ block (main) is the
	// program of its process: its importers do not run that block, so
	// they are not followed from there.
	type step struct {
		fn   *Function
		main bool
	}
	seen := map[step]bool{{f, main}: true}
	queue := []step{{f, main}}
	for len(queue) > 0 && !s.any {
		st := queue[0]
		n := st.fn
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
			if st.main && p.imported {
				continue
			}
			next := step{p.fn, p.main}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	if s.any {
		s.scripts = nil
	}
	slices.SortFunc(s.scripts, func(a, b *Function) int { return a.ID - b.ID })
	s.scripts = slices.Compact(s.scripts)
	x.memo[procKey{f, main}] = s
	return s
}

// MayShare reports whether code of functions a and b can run in
// one process: either may run in any, or some script reaches both. A
// nil function, or a program without scripts, shares with everything.
func (x *Processes) MayShare(a, b *Function) bool {
	return x.MayShareAt(a, false, b, false)
}

// MayShareAt is MayShare for code that runs in a or, with aMain, in the
// __main__ block of module body a (likewise b): that block runs only
// where its module is the program, so its module's importers do not
// run it (an alternative entry that imports train.py does not run
// train.py's own `main()` call).
func (x *Processes) MayShareAt(a *Function, aMain bool, b *Function, bMain bool) bool {
	if a == nil || b == nil || a == b && aMain == bMain || a.Lang != Python || b.Lang != Python {
		return true
	}
	pa := x.of(a, aMain && a.ModuleBody)
	if pa.any {
		return true
	}
	pb := x.of(b, bMain && b.ModuleBody)
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
func (x *Processes) ReachedByScripts(f *Function) bool {
	if f == nil || f.Lang != Python {
		return false
	}
	return !x.of(f, false).any
}
