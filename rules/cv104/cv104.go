// Package cv104 implements CV104 mpi-thread-level: MPI calls from a
// non-main thread when the thread level MPI was initialised with does not
// allow it.
package cv104

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV104.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV104",
	Name:     "mpi-thread-level",
	Severity: rules.Error,
	Run:      run,
	Doc: rules.Doc{
		Title: "MPI is called from a thread the requested thread level does not allow",
		What: "Reports an MPI call (mpi4py, C MPI through cgo, Go MPI bindings) reached from a non-main thread, " +
			"pool worker or goroutine when MPI was initialised with a thread level below what that use needs: " +
			"single or funneled allow MPI calls from the main thread only; serialized allows other threads but " +
			"never two at once. The level comes from mpi4py.rc.thread_level, MPI.Init_thread / MPI_Init_thread, " +
			"or MPI_Init (single). mpi4py's default is multiple, so nothing is reported when no level is set. " +
			"When the scripts of a repository, or the main packages of a Go module, ask for different levels, each use " +
			"is judged by the requests of the program it runs in (for Go, those in its own package first).",
		Why: "MPI implementations only make the guarantees of the level they provided: at funneled, an MPI call " +
			"from another thread is erroneous and can corrupt internal state, crash or hang. Even at multiple, " +
			"concurrent collectives on one communicator are erroneous (CV101 reports those); mpi4py's first " +
			"pickle collective on a communicator runs a hidden Comm_dup, which deadlocked when issued from a thread.",
		Example: `import mpi4py
mpi4py.rc.thread_level = "funneled"
from mpi4py import MPI
import threading

def worker():
    total = MPI.COMM_WORLD.allreduce(count)     # not the main thread

threading.Thread(target=worker).start()`,
		UseInstead: `import mpi4py
mpi4py.rc.thread_level = "multiple"             # or keep MPI on the main thread
from mpi4py import MPI

comm = MPI.COMM_WORLD.Dup()                     # one communicator per thread, created up front

def worker():
    total = comm.allreduce(count)`,
		FixSafety: "No automatic fix: raising the thread level can cost performance and needs an MPI library built with thread support. " +
			"If the thread never overlaps other MPI calls in practice, `collvet guard` can check it at run time.",
		References: []string{
			"https://github.com/mpi4py/mpi4py/issues/784 — pickle collective from a worker thread deadlocks in the hidden Comm_dup (T4)",
			"https://github.com/open-mpi/ompi/issues/2427 — collectives from parallel threads: duplicate communicators up front, one per thread (T6)",
		},
		Since: "0.1.0",
	},
})

var levels = map[string]int{"single": 0, "funneled": 1, "serialized": 2, "multiple": 3}

type use struct {
	site *rules.Site
	ctx  *rules.Context
}

// levelOf returns the numeric thread level of a request ("" and
// unknown names: false).
func levelOf(name string) (int, bool) {
	lvl, ok := levels[strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(name, "THREAD_"), "thread_"))]
	return lvl, ok
}

// requestFor returns the thread-level request that governs a use: among
// the requests made in the process the use may run in (a Python script
// that reaches both; for Go, a request in the use's own package
// directory, else any), the one that grants the most, so that two
// programs of one repository that ask for different levels do not judge
// each other's calls. Nil: no known level applies.
func requestFor(prog *rules.Program, u use) *rules.ThreadLevelRequest {
	reqs := prog.Facts.MPIThreadLevels
	if len(reqs) == 0 && prog.Facts.MPIThreadLevel != "" {
		reqs = []*rules.ThreadLevelRequest{{Level: prog.Facts.MPIThreadLevel, Pos: prog.Facts.MPIThreadLevelPos}}
	}
	var cands []*rules.ThreadLevelRequest
	if u.site.Func != nil && u.site.Func.Lang == rules.Go {
		for _, r := range reqs {
			if filepath.Dir(r.Pos.Path) == filepath.Dir(u.site.Pos.Path) {
				cands = append(cands, r)
			}
		}
	}
	if len(cands) == 0 {
		for _, r := range reqs {
			if r.Func == nil || rulekit.MayShareProcess(prog, rulekit.RunsIn(u.site, u.ctx), r.Func) {
				cands = append(cands, r)
			}
		}
	}
	var best *rules.ThreadLevelRequest
	bestLvl := -1
	for _, r := range cands {
		if lvl, ok := levelOf(r.Level); ok && lvl > bestLvl {
			best, bestLvl = r, lvl
		}
	}
	return best
}

func run(p *rules.Pass) {
	prog := p.Prog
	if len(prog.Facts.MPIThreadLevels) == 0 && prog.Facts.MPIThreadLevel == "" {
		return
	}
	var uses []use
	for _, s := range prog.Sites {
		if !rulekit.IsMPI(s) || s.Kind == rules.OpInit {
			continue
		}
		for _, r := range s.Reach {
			if r != nil {
				uses = append(uses, use{s, rulekit.Thread(r.Ctx, prog)})
			}
		}
	}
	reported := map[*rules.Site]bool{}
	for _, a := range uses {
		if rulekit.IsMain(a.ctx) || a.ctx.Kind == rules.Signal || reported[a.site] {
			continue
		}
		req := requestFor(prog, a)
		if req == nil {
			continue
		}
		lvl, _ := levelOf(req.Level)
		if lvl >= levels["multiple"] {
			continue
		}
		var other *use
		if lvl == levels["serialized"] {
			for i := range uses {
				b := uses[i]
				if b.ctx != a.ctx && rulekit.Concurrent(a.ctx, b.ctx) || b.ctx == a.ctx && a.ctx.Many {
					other = &b
					break
				}
			}
			if other == nil {
				continue
			}
		}
		reported[a.site] = true
		var msg string
		if other == nil {
			msg = fmt.Sprintf("%s is called from %s, but MPI was initialised with thread level %q, which allows MPI calls from the main thread only: "+
				"the call is erroneous and can crash or hang", rulekit.OpName(a.site), rulekit.CtxLabel(a.ctx), req.Level)
		} else {
			msg = fmt.Sprintf("%s is called from %s while %s may call MPI at the same time (%s), but thread level %q requires MPI calls to be serialised: "+
				"the calls are erroneous and can crash or hang", rulekit.OpName(a.site), rulekit.CtxLabel(a.ctx), rulekit.CtxLabel(other.ctx), other.site.Pos.Short(), req.Level)
		}
		d := rules.Diagnostic{Pos: a.site.Pos, Message: msg}
		if req.Pos.IsValid() {
			d.Related = append(d.Related, rulekit.Related(req.Pos, "the thread level is requested here"))
		}
		if a.ctx != nil && a.ctx.Spawn.IsValid() {
			d.Related = append(d.Related, rulekit.Related(a.ctx.Spawn, "the thread is started here"))
		}
		if other != nil {
			d.Related = append(d.Related, rulekit.Related(other.site.Pos, "another MPI call that may run at the same time"))
		}
		p.Report(d)
	}
}
