package rulekit

import (
	"sync"

	"github.com/collvet/collvet/rules"
)

// procCache keeps the process index (rules.Processes) of the program last
// asked about: rules run one program at a time, and a later program
// replaces it.
var procCache struct {
	mu   sync.Mutex
	prog *rules.Program
	idx  *rules.Processes
}

func processes(prog *rules.Program) *rules.Processes {
	procCache.mu.Lock()
	defer procCache.mu.Unlock()
	if procCache.prog != prog {
		procCache.prog, procCache.idx = prog, rules.NewProcesses(prog)
	}
	return procCache.idx
}

// MayShareProcess reports whether code of functions a and b can run in
// one process (rules.Processes.MayShare).
func MayShareProcess(prog *rules.Program, a, b *rules.Function) bool {
	return processes(prog).MayShare(a, b)
}

// MayShareProcessAt is MayShareProcess for code that may run in a
// module's __main__ block (rules.Processes.MayShareAt).
func MayShareProcessAt(prog *rules.Program, a *rules.Function, aMain bool, b *rules.Function, bMain bool) bool {
	return processes(prog).MayShareAt(a, aMain, b, bMain)
}

// ReachedByScripts reports whether every way into f starts at one of the
// program's scripts (rules.Processes.ReachedByScripts).
func ReachedByScripts(prog *rules.Program, f *rules.Function) bool {
	return processes(prog).ReachedByScripts(f)
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
