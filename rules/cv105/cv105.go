// Package cv105 implements CV105 goroutine-without-locked-thread (Go only):
// a goroutine issues CUDA, NCCL or MPI calls without runtime.LockOSThread,
// or an NCCL group (ncclGroupStart … ncclGroupEnd) spans a point where an
// unlocked goroutine can move to another OS thread.
package cv105

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV105.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV105",
	Name:     "goroutine-without-locked-thread",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "a goroutine issues CUDA, NCCL or MPI calls without locking its OS thread",
		What: "Reports (Go only) the first CUDA or NCCL call of a goroutine whose function does not call " +
			"runtime.LockOSThread before it, whether the call is direct, through cgo (C.ncclAllReduce), through a " +
			"binding or through a wrapper in another package; when two goroutines first reach the same call (a shared " +
			"wrapper), the second is reported where it is started. A goroutine that locks and then undoes the lock with a " +
			"plain runtime.UnlockOSThread call (not deferred) is reported at its first such call after the unlock. (For MPI the thread matters only below " +
			"MPI_THREAD_MULTIPLE; CV104 reports those programs, including FUNNELED ones whose main goroutine is " +
			"not locked.) It also reports an ncclGroupStart " +
			"whose ncclGroupEnd follows a blocking point (channel operation, select, Sleep, Lock, Wait, go statement) " +
			"on a goroutine that is not locked to its thread, the main goroutine included.",
		Why: "The CUDA current device (cudaSetDevice), the current context, NCCL's group state " +
			"(ncclGroupStart/ncclGroupEnd depth and pending operations are thread-local) and MPI's notion of the " +
			"main thread under MPI_THREAD_FUNNELED all belong to an OS thread. The Go scheduler moves a goroutine " +
			"between OS threads at blocking points and on preemption unless runtime.LockOSThread pins it: the " +
			"goroutine's next call then runs on another thread, with another current device (invalid device " +
			"context, kernels on the wrong GPU), or ends an NCCL group that thread never started (the group's " +
			"operations are never launched and the ranks hang).",
		Example: `go func() {
	C.cudaSetDevice(C.int(dev))
	for req := range work {
		C.ncclAllReduce(req.send, req.recv, req.n, C.ncclFloat, C.ncclSum, comm, stream)
	}
}()`,
		UseInstead: `go func() {
	runtime.LockOSThread() // the CUDA device and NCCL state stay on this thread
	defer runtime.UnlockOSThread()
	C.cudaSetDevice(C.int(dev))
	for req := range work {
		C.ncclAllReduce(req.send, req.recv, req.n, C.ncclFloat, C.ncclSum, comm, stream)
	}
}()`,
		FixSafety: "The fix inserts `runtime.LockOSThread()` and `defer runtime.UnlockOSThread()` as the first statements " +
			"of the goroutine's function; it is offered only when the file already imports runtime. Locking is " +
			"always safe for correctness; it costs one OS thread per locked goroutine, so prefer one long-lived " +
			"locked goroutine per device that serves requests over a channel to locking many short ones.",
		References: []string{
			"https://github.com/openucx/ucx/pull/9581 — Go bindings: lock the OS thread before setting the CUDA device (invalid device context, segfault)",
			"https://github.com/minio/warp/pull/499 — per-worker CUDA context lost across threads (CUDA_ERROR_INVALID_CONTEXT)",
			"https://github.com/ingonyama-zk/icicle/pull/501 — device left set on a thread after UnlockOSThread leaks into the next goroutine",
			"https://github.com/wangkuiyi/gotorch/pull/319 — gotorch locks the OS thread in init for libtorch/CUDA",
			"https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/threadsafety.html — one thread must issue all operations of a group",
		},
		Since: "0.1.0",
	},
})

// device reports whether a site calls CUDA or NCCL from Go. MPI calls are
// CV104's: which thread calls MPI matters only below MPI_THREAD_MULTIPLE,
// where a goroutine other than main may not call at all (locked or not),
// and CV104 also reports FUNNELED programs whose main goroutine is
// unlocked.
func device(s *rules.Site) bool {
	if s == nil || s.Func == nil || s.Func.Lang != rules.Go {
		return false
	}
	switch s.Library {
	case "nccl", "cuda":
		return true
	}
	return false
}

// threadBound says why an unlocked goroutine is a hazard, and the fix.
const threadBound = "the CUDA device, NCCL group state and MPI thread identity belong to the thread, and the goroutine can " +
	"resume on another one; call runtime.LockOSThread() first in the goroutine"

func run(p *rules.Pass) {
	prog := p.Prog
	first := map[*rules.Context]*rules.Site{}
	for _, s := range prog.Sites {
		if !device(s) {
			continue
		}
		for _, r := range s.Reach {
			c := r.Ctx
			if c == nil || c.Kind != rules.Goroutine || c.LockedOSThread {
				continue
			}
			if c.UnlockedAt.IsValid() && c.UnlockedAt.Path == s.Pos.Path && !less(c.UnlockedAt, s.Pos) {
				continue // runs before the lock is undone
			}
			if f := first[c]; f == nil || less(s.Pos, f.Pos) {
				first[c] = s
			}
		}
	}
	ctxs := make([]*rules.Context, 0, len(first))
	for c := range first {
		ctxs = append(ctxs, c)
	}
	sort.Slice(ctxs, func(i, j int) bool {
		a, b := first[ctxs[i]].Pos, first[ctxs[j]].Pos
		if a != b {
			return less(a, b)
		}
		// Goroutines that first reach the same call: the one started
		// first in the source is reported at the call, the others where
		// they start (the order must not depend on map iteration).
		return less(ctxs[i].Spawn, ctxs[j].Spawn)
	})
	reported := map[rules.Pos]bool{}
	for _, c := range ctxs {
		s := first[c]
		var d rules.Diagnostic
		switch {
		case !reported[s.Pos] && c.UnlockedAt.IsValid():
			reported[s.Pos] = true
			d = rules.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf("%s runs in %s after runtime.UnlockOSThread at %s undid its lock: %s; "+
				"unlock with defer, when the goroutine is done with the device",
				rulekit.OpName(s), rulekit.CtxLabel(c), c.UnlockedAt.Short(), strings.Replace(threadBound, "; call runtime.LockOSThread() first in the goroutine", "", 1))}
			d.Related = append(d.Related, rulekit.Related(c.UnlockedAt, "the lock is undone here"))
			p.Report(d)
			continue
		case !reported[s.Pos]:
			reported[s.Pos] = true
			d = rules.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf("%s runs in %s that does not lock its OS thread: %s",
				rulekit.OpName(s), rulekit.CtxLabel(c), threadBound)}
			if c.Spawn.IsValid() && c.Spawn != s.Pos {
				d.Related = append(d.Related, rulekit.Related(c.Spawn, "the goroutine is started here"))
			}
		case c.Spawn.IsValid() && !reported[c.Spawn]:
			// Another goroutine reached the same call first (a shared
			// wrapper): this one is reported where it starts, since each
			// needs its own lock.
			reported[c.Spawn] = true
			d = rules.Diagnostic{Pos: c.Spawn, Message: fmt.Sprintf("the goroutine started here runs %s without locking its OS thread: %s",
				rulekit.OpName(s), threadBound)}
			d.Related = append(d.Related, rulekit.Related(s.Pos, rulekit.OpName(s)+", reached from this goroutine"))
		default:
			continue
		}
		if fix := lockFix(prog, c.Entry); fix != nil {
			d.Fixes = append(d.Fixes, *fix)
		}
		p.Report(d)
	}
	groups(p)
}

// groups reports NCCL groups that span a blocking point on an unlocked
// goroutine.
func groups(p *rules.Pass) {
	for _, f := range p.Prog.Funcs {
		if f.Lang != rules.Go {
			continue
		}
		var start *rules.Event
		var block *rules.Event
		for _, e := range f.Events {
			switch {
			case e.Kind == rules.EvCollective && e.Site != nil && e.Site.Op == "group_start":
				start, block = e, nil
			case e.Kind == rules.EvBlock && start != nil && block == nil:
				block = e
			case e.Kind == rules.EvCollective && e.Site != nil && e.Site.Op == "group_end" && start != nil:
				if block != nil && unlocked(start.Site) {
					d := rules.Diagnostic{Pos: start.Site.Pos, Message: fmt.Sprintf(
						"%s and the %s at %s may run on different OS threads: the goroutine is not locked to its thread and "+
							"blocks between them (%s at %s); NCCL's group state is thread-local, so the group would end on a thread that never started it",
						rulekit.OpName(start.Site), rulekit.OpName(e.Site), e.Site.Pos.Short(), block.Var, block.Pos.Short())}
					d.Related = append(d.Related,
						rulekit.Related(block.Pos, "the goroutine may change threads here"),
						rulekit.Related(e.Site.Pos, "the group ends here"))
					p.Report(d)
				}
				start, block = nil, nil
			}
		}
	}
}

// unlocked reports whether some goroutine running s is not locked to its
// OS thread (a site no context reaches counts as unlocked).
func unlocked(s *rules.Site) bool {
	if len(s.Reach) == 0 {
		return true
	}
	for _, r := range s.Reach {
		if r.Ctx == nil || !r.Ctx.LockedOSThread {
			return true
		}
	}
	return false
}

// lockFix inserts the lock as the first statements of the goroutine's
// function body, when the body starts on its own line and the file
// imports runtime.
func lockFix(prog *rules.Program, entry *rules.Function) *rules.Fix {
	if entry == nil || !entry.Pos.IsValid() {
		return nil
	}
	file := prog.File(entry.Pos.Path)
	if file == nil || !bytes.Contains(file.Src, []byte("\"runtime\"")) {
		return nil
	}
	line := rulekit.Line(file, entry.Pos.Line)
	if line == "" || !strings.HasSuffix(strings.TrimSpace(line), "{") {
		return nil
	}
	next := rulekit.Line(file, entry.Pos.Line+1)
	indent := next[:len(next)-len(strings.TrimLeft(next, " \t"))]
	if strings.TrimSpace(next) == "" || strings.HasPrefix(strings.TrimSpace(next), "}") {
		indent = rulekit.Indent(file, entry.Pos.Line) + "\t"
	}
	if strings.Contains(next, "runtime.LockOSThread") {
		return nil
	}
	text := indent + "runtime.LockOSThread()\n" + indent + "defer runtime.UnlockOSThread()\n"
	return &rules.Fix{
		Title: "Lock the goroutine to its OS thread",
		Edits: []rules.Edit{rulekit.InsertBefore(entry.Pos.Path, entry.Pos.Line+1, text)},
	}
}

func less(a, b rules.Pos) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}
