// Package cv401 implements CV401 unwaited-async-work: the work handle of an
// async collective (async_op=True, isend/irecv, batch_isend_irecv,
// ProcessGroup methods, mpi4py I* requests) discarded, overwritten before a
// wait, or not waited on some path.
package cv401

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV401.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV401",
	Name:     "unwaited-async-work",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "an async collective's work handle is never waited",
		What: "Reports the result of an asynchronous collective — async_op=True, isend/irecv, the list " +
			"batch_isend_irecv returns, a list comprehension of async collectives (`reqs = [dist.broadcast(p, 0, " +
			"async_op=True) for p in ps]`, waited element by element), ProcessGroup methods, Horovod *_async, mpi4py I* requests, the cm of " +
			"`with _coalescing_manager(group, async_ops=True) as cm` — that is " +
			"discarded, rebound before it is waited, or not waited on some path out of the function. Handles " +
			"that leave the function (returned, stored in a list or attribute, passed on) are someone else's " +
			"to wait and are not reported there; a handle that a function of the program returns (`return out, " +
			"handle`) is followed into each caller that asks for async work, where `out, _ = helper(x, async_op=True)` " +
			"discards it; so is a returned list of them (`return reqs if non_blocking else [r.wait() for r in reqs]` " +
			"with non_blocking=True at the call). A handle made under `if a and b:` is not there where a later test of those " +
			"same conditions (in any order, or as nested ifs) is false, so `if a and b: h.wait()` waits it on every path; " +
			"nor where a later test excludes an integer condition it was made under (`if cp_rank > 0: req = dist.irecv(…)`, then " +
			"`if cp_rank == 0: … else: req.wait()`). A loop over every rank (`for i in range(world_size)`, or backwards to 0) runs at least once, " +
			"so a handle waited at the top of its body is waited; one made under a test that is false on the last pass only (`i < world_size - 1`, " +
			"`i > 0` going backwards) is the next pass's to wait. A collective whose async flag is its function's own parameter (`async_op=async_op`) is " +
			"async when some caller passes True or a value of its configuration (`async_op=args.async_comm`), and is then checked inside that function; " +
			"a dropped result whose flag is such a value at the call itself (`dist.all_reduce(t, async_op=self.config.overlap)`) is reported too. Its fix waits behind " +
			"`if work is not None:`, since the call returns None when not async. A device-wide synchronize() " +
			"does not count as a wait. A handle rebound by another torch.distributed collective on the same group " +
			"(`last = dist.all_reduce(t, group=g, async_op=True)` in a loop, then `last.wait()`) is not reported: a " +
			"device communicator runs one group's collectives on one stream in issue order, so waiting the last waits " +
			"them all. On gloo (whose worker threads can finish them out of order), across groups, and for MPI requests " +
			"it is; a group argument that reads what the loop binds on each pass (`group=groups[src]` in `for src in " +
			"in_edges:`) names another group on each pass. A list of handles bound afresh at the top of each pass " +
			"(`in_reqs = []`) drops the handles the previous pass filed in it, even when the last list is returned. A blocking barrier on the same group completes the torch collectives issued on it before (NCCL runs it " +
			"after them on the group's stream and waits it; gloo's barrier waits every operation in flight), except " +
			"point-to-point ones, which run on communicators of their own. A loop whose body waits a handle (or hands it " +
			"to a call) before rebinding it waits the previous pass's work; `while True:` polling a request until " +
			"test() reports completion completes it. It also reports the first read of an async collective's output " +
			"before its handle is waited (`req = dist.all_reduce(x, async_op=True); y = x * 2; req.wait()`), or of a local " +
			"that holds it (a list built of x, the target of a loop over that list: `for t in outs: t.div_(2)`), when the " +
			"handle is held in a local that the function waits later or returns for its caller to wait, or stores (in a container or an attribute) for a wait elsewhere after the read; handing the " +
			"output to a function of the program or a container's method, returning it, and reading its metadata " +
			"(x.shape) are not reads. Horovod's DistributedOptimizer keeps its handles itself: its backward hooks start an " +
			"asynchronous allreduce of each gradient and its synchronize() (called by step()) waits them, so a read of the " +
			"gradients between a backward and the step (torch.nn.utils.clip_grad_norm_, clip_grad_value_, a GradScaler's " +
			"unscale_) with no optimizer.synchronize() before it is reported too (one after the read, before a step under skip_synchronize(), waits too late for it).",
		Why: "For NCCL, work.wait() is what makes the current stream wait for the collective; without it the " +
			"next kernel can read the output before it is written or overwrite the input while it is still " +
			"being sent. Dropped handles also leave buffer lifetime to the watchdog; on XPU a device " +
			"synchronize was shown not to complete the work. For MPI an unwaited request is erroneous and " +
			"leaks.",
		Example: `dist.all_reduce(grad, async_op=True)          # handle dropped
req = dist.isend(t, dst=1)
req = dist.isend(u, dst=1)                    # first request overwritten unwaited
torch.cuda.synchronize()                      # not a wait`,
		UseInstead: `work = dist.all_reduce(grad, async_op=True)
req_t = dist.isend(t, dst=1)
req_u = dist.isend(u, dst=1)
...                                           # overlap other work here
work.wait()
req_t.wait()
req_u.wait()`,
		FixSafety: "The fix keeps the handle (`work = ...`) and inserts `work.wait()` right after the call (or before " +
			"the overwrite / early exit). That is always correct but gives up the overlap the async call was for: " +
			"move the wait() down to just before the result is used. When waiting happens somewhere collvet cannot " +
			"see, `collvet guard` checks at run time that every work is waited.",
		References: []string{
			"https://github.com/vllm-project/vllm-ascend/pull/12811 — async all-gather handles dropped; only the last waited (U1)",
			"https://github.com/pytorch/pytorch/issues/173897 — all_reduce(async_op=True) + device synchronize is not enough, work.wait() required (U2)",
			"https://github.com/NVIDIA/apex/pull/1373 — async pipeline isend handles must be kept and waited (U5)",
			"https://github.com/pytorch/pytorch/pull/148590 — the watchdog unstashes tensors of dropped work handles as a safety net",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	seen := map[*rules.Work]bool{}
	var works []*rules.Work
	for _, w := range p.Prog.Works {
		if w != nil && !seen[w] {
			seen[w] = true
			works = append(works, w)
		}
	}
	for _, s := range p.Prog.Sites {
		if s.Work != nil && !seen[s.Work] {
			seen[s.Work] = true
			works = append(works, s.Work)
		}
	}
	reported := map[*rules.Work]bool{}
	for _, w := range works {
		if check(p, w) {
			reported[w] = true
		}
	}
	for _, fn := range p.Prog.Funcs {
		readsBeforeWait(p, fn, reported)
	}
	for _, g := range p.Prog.GradReads {
		gradReadBeforeSync(p, g)
	}
}

// gradReadBeforeSync reports a read of the gradients that Horovod's
// DistributedOptimizer is still all-reducing (rules.GradRead).
func gradReadBeforeSync(p *rules.Pass, g *rules.GradRead) {
	opt := g.Optimizer
	if g.LateSync.Line > 0 {
		gradReadBeforeLateSync(p, g)
		return
	}
	d := rules.Diagnostic{Pos: g.Read, Message: fmt.Sprintf(
		"%s reads the gradients that Horovod's DistributedOptimizer %s is still all-reducing: the backward at line %d "+
			"started an asynchronous allreduce of each gradient from its hooks, and only %s.synchronize() (which the step "+
			"at line %d calls) waits for them, so this reads and rescales tensors the allreduce is writing (ranks step with "+
			"different gradients); call %s.synchronize() first, then step under `with %s.skip_synchronize():`",
		g.ReadText, opt, g.Backward.Line, opt, g.Step.Line, opt, opt)}
	d.Related = append(d.Related,
		rulekit.Related(g.Backward, "the backward whose hooks start the allreduces"),
		rulekit.Related(g.Step, "the step that waits for them (synchronize)"))
	if g.StmtLine > 0 {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Synchronize the optimizer before reading the gradients",
			Edits: []rules.Edit{rulekit.InsertBefore(g.Read.Path, g.StmtLine, g.Indent+opt+".synchronize()\n")}})
	}
	p.Report(d)
}

// gradReadBeforeLateSync reports a gradient read that the optimizer's
// explicit synchronize() follows instead of preceding: the wait is there,
// in the wrong place.
func gradReadBeforeLateSync(p *rules.Pass, g *rules.GradRead) {
	opt := g.Optimizer
	d := rules.Diagnostic{Pos: g.Read, Message: fmt.Sprintf(
		"%s reads the gradients that Horovod's DistributedOptimizer %s is still all-reducing: the backward at line %d "+
			"started an asynchronous allreduce of each gradient from its hooks, and the %s.synchronize() that waits for them "+
			"comes after this read, at line %d, so this reads and rescales tensors the allreduce is writing (ranks step with "+
			"different gradients); call %s.synchronize() before the read",
		g.ReadText, opt, g.Backward.Line, opt, g.LateSync.Line, opt)}
	d.Related = append(d.Related,
		rulekit.Related(g.Backward, "the backward whose hooks start the allreduces"),
		rulekit.Related(g.LateSync, "the synchronize() that waits for them, after the read"))
	if g.StmtLine > 0 && g.LateSyncAlone && g.LateSync.Line > g.StmtLine {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Move the synchronize() above the gradient read",
			Edits: []rules.Edit{
				rulekit.InsertBefore(g.Read.Path, g.StmtLine, g.Indent+opt+".synchronize()\n"),
				rulekit.DeleteLine(g.LateSync.Path, g.LateSync.Line),
			}})
	}
	p.Report(d)
}

// awaited is an async collective's work, held in a local, whose outputs
// this function may read before waiting it.
type awaited struct {
	site *rules.Site
	ev   *rules.Event
	outs map[string]bool // output names not rebound since
	// outGen: the binding of each output name the collective writes
	// (binding.gen), for the locals that hold it (binding.holds).
	outGen map[string]int
	// returned: the handle is returned, not waited here: the caller
	// waits it after the function's reads.
	returned bool
	// stored: the handle is stored (in a container or an attribute) or
	// handed to a call, for a wait elsewhere after the function's reads
	// before that point.
	stored bool
}

// bindings follows what the plain locals of a function hold, in event
// order: each write of a local is a new binding of it (gen), and a local
// bound to what other locals hold (`outs = [a, b]`, `for t in outs`,
// Event.From) holds their bindings of that time, transitively.
type bindings struct {
	gen   map[string]int
	holds map[string][]binding
}

type binding struct {
	name string
	gen  int
}

func (b *bindings) write(e *rules.Event) {
	if b.gen == nil {
		b.gen, b.holds = map[string]int{}, map[string][]binding{}
	}
	var held []binding
	for _, f := range e.From {
		if plainName(f) && f != e.Var {
			held = append(held, binding{f, b.gen[f]})
			held = append(held, b.holds[f]...)
		}
	}
	b.gen[e.Var]++
	b.holds[e.Var] = held
}

// heldOutput returns the output of a that local v holds, or "".
func (b *bindings) heldOutput(v string, a *awaited) string {
	for _, h := range b.holds[v] {
		if a.outs[h.name] && a.outGen[h.name] == h.gen {
			return h.name
		}
	}
	return ""
}

// readsBeforeWait reports the first device read of an async collective's
// output (y = out * 2, out.item()) that follows the collective, on a path
// where its work handle, held in a local, is not yet waited. Only plain
// local names count: an output reached through an attribute or an
// element may be another object by then; so do the locals bound to what
// an output name held when the collective ran (a list built of it, the
// target of a loop over that list).
func readsBeforeWait(p *rules.Pass, fn *rules.Function, reported map[*rules.Work]bool) {
	// returned: the locals the function returns (`return work`): a handle
	// it hands back is its caller's to wait, after this function's reads.
	var returned map[string]bool
	for _, e := range fn.Events {
		if e.Kind == rules.EvReturn && plainName(e.Var) {
			if returned == nil {
				returned = map[string]bool{}
			}
			returned[e.Var] = true
		}
	}
	var pend []*awaited
	var bound bindings
	// found: the reads, reported only where the handle itself is waited
	// later (waited): a wait through a list it was filed in may be
	// another element's.
	var found []*readBeforeWait
	for _, e := range fn.Events {
		switch e.Kind {
		case rules.EvCollective:
			s := e.Site
			if s == nil || !s.Async || s.Work == nil || reported[s.Work] {
				continue
			}
			w := s.Work
			if w.Via != nil || w.Container != "" || w.ListStmt != nil || !plainName(w.Var) {
				continue
			}
			a := &awaited{site: s, ev: e, outs: map[string]bool{}, outGen: map[string]int{}, returned: w.Escapes && returned[w.Var], stored: w.Escapes && !returned[w.Var]}
			for _, o := range s.Outputs {
				if plainName(o) {
					a.outs[o] = true
					a.outGen[o] = bound.gen[o]
				}
			}
			if len(a.outs) > 0 {
				pend = append(pend, a)
			}
		case rules.EvWait, rules.EvReturn:
			if e.Kind == rules.EvReturn && !returned[e.Var] {
				continue
			}
			for _, r := range found {
				if r.a.site.Work.Var == e.Var && (e.Kind == rules.EvWait) != r.a.returned {
					r.waited = true
				}
			}
			kept := pend[:0]
			for _, a := range pend {
				if a.site.Work.Var != e.Var {
					kept = append(kept, a)
				}
			}
			pend = kept
		case rules.EvUse, rules.EvSync:
			if e.Var == "" {
				continue
			}
			if e.Kind == rules.EvUse && !e.Write {
				// A stored handle (`self.pending[h] = {"work": work, …}`)
				// is waited by whoever takes it from there, after the
				// reads before this point.
				for _, r := range found {
					if r.a.stored && r.a.site.Work.Var == e.Var {
						r.waited = true
					}
				}
				kept := pend[:0]
				for _, a := range pend {
					if !a.stored || a.site.Work.Var != e.Var {
						kept = append(kept, a)
					}
				}
				pend = kept
			}
			write := e.Kind == rules.EvUse && e.Write
			for i, a := range pend {
				if a == nil || rules.Exclusive(a.ev.Arm, e.Arm) || rulekit.ExitedBefore(a.ev.Arm, e.Arm) {
					continue
				}
				held := ""
				if !a.outs[e.Var] {
					if write {
						continue
					}
					if held = bound.heldOutput(e.Var, a); held == "" {
						continue
					}
				}
				if write {
					delete(a.outs, e.Var) // rebound: another tensor from here on
					continue
				}
				if e.Kind == rules.EvUse && (e.Escape || e.Stored || e.Return || e.Returned || e.Handed) {
					continue // handed on, not read here
				}
				found = append(found, &readBeforeWait{a: a, read: e, held: held})
				pend[i] = nil
			}
			if write && plainName(e.Var) {
				bound.write(e)
			}
			kept := pend[:0]
			for _, a := range pend {
				if a != nil {
					kept = append(kept, a)
				}
			}
			pend = kept
		}
	}
	for _, r := range found {
		if r.waited {
			reportRead(p, r.a, r.read, r.held)
		}
	}
}

type readBeforeWait struct {
	a    *awaited
	read *rules.Event
	// held: the output the local read holds (`for t in outs`), when the
	// read is not of the output's own name.
	held   string
	waited bool
}

func plainName(v string) bool {
	return v != "" && !strings.ContainsAny(v, ".[(")
}

func reportRead(p *rules.Pass, a *awaited, e *rules.Event, held string) {
	s, w := a.site, a.site.Work
	later := "is waited only later"
	if a.returned {
		later = "is returned for the caller to wait, after this read"
	} else if a.stored {
		later = "is stored for a wait elsewhere, after this read"
	}
	what, out := fmt.Sprintf("%q", e.Var), e.Var
	if held != "" {
		what, out = fmt.Sprintf("%q, which holds %q,", e.Var, held), held
	}
	d := rules.Diagnostic{Pos: e.Pos, Message: fmt.Sprintf(
		"%s is read here while %s (async, line %d) may still be writing it: its work handle %q %s, "+
			"so this reads stale or partial values; wait the work before using the result",
		what, rulekit.OpName(s), s.Pos.Line, w.Var, later)}
	d.Related = append(d.Related, rulekit.Related(s.Pos, fmt.Sprintf("async %s writing %q; the handle is %q", rulekit.OpName(s), out, w.Var)))
	if f := p.Prog.File(e.Pos.Path); f != nil && e.StmtLine > 0 {
		ind := e.Indent
		if ind == "" {
			ind = rulekit.Indent(f, e.StmtLine)
		}
		maybe := s.AsyncWhen != nil
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Wait " + w.Var + " before reading " + e.Var,
			Edits: []rules.Edit{rulekit.InsertBefore(e.Pos.Path, e.StmtLine, waitStmt(w.Var, false, maybe, ind))}})
	}
	p.Report(d)
}

// check reports w when it is discarded, rebound or not waited, and says
// whether it did.
func check(p *rules.Pass, w *rules.Work) bool {
	s := w.Site
	// A handle rebound before it is waited is lost even when the one
	// that replaced it escapes: in a loop they are one Work, and the
	// last pass's handle leaving the function does not carry the others.
	if s == nil || w.Escapes && w.Overwritten == nil {
		return false
	}
	// at is the call that produced the handle: the collective, or the
	// call of the program function that handed it back (Work.Via).
	at := s.Pos
	name := rulekit.OpName(s)
	this := "this " + name
	returned := name + " returns"
	hands := "returns"
	if w.ViaFiled {
		hands = "files in " + w.Var
	}
	if w.Via != nil {
		at = *w.Via
		this = fmt.Sprintf("the %s that %s %s", name, w.ViaFunc, hands)
		returned = fmt.Sprintf("of the %s that %s %s", name, w.ViaFunc, hands)
	}
	f := p.Prog.File(at.Path)
	list := s.Op == "batch_p2p" || w.ListStmt != nil
	// maybe: the handle exists only when the async flag passed in is
	// true (async_op=async_op); the call returns None otherwise.
	maybe := s.AsyncWhen != nil && w.Via == nil
	var d rules.Diagnostic
	switch {
	case w.Var == "" && !w.Discarded:
		// Not bound and not a statement of its own: an element of a list
		// or an argument, i.e. someone else's to wait.
		return false
	case w.Discarded:
		consequence := "the next use of its buffers can run before it completes (wrong data or reuse of memory still being sent)"
		if s.Op == "barrier" {
			// A barrier has no buffers: what is lost is the wait itself.
			consequence = "this rank goes on at once, before the other ranks arrive, so the code after it is not held back as the barrier intends"
		}
		d = rules.Diagnostic{Pos: at, Message: fmt.Sprintf(
			"the work handle %s is discarded, so nothing waits for the %s: %s",
			returned, describe(s), consequence)}
		if f != nil && s.WithEnd > 0 && w.Via == nil {
			d.Fixes = append(d.Fixes, nameAndWait(f, s, maybe))
		} else if f != nil && s.Pos.Col >= 1 && w.Var == "" && w.Via == nil && w.ListStmt == nil {
			if fx := keepAndWait(f, s, list, maybe); fx != nil {
				d.Fixes = append(d.Fixes, *fx)
			}
		}
	case w.Overwritten != nil:
		d = rules.Diagnostic{Pos: at, Message: fmt.Sprintf(
			"%q, %s %s, is rebound at line %d before it is waited: the first operation is never waited (wrong data or buffer reuse while it runs)",
			w.Var, holding(w), this, w.Overwritten.Line)}
		d.Related = append(d.Related, rulekit.Related(*w.Overwritten, "rebound here without a wait"))
		line := w.Overwritten.Line
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Wait " + w.Var + " before rebinding it",
			Edits: []rules.Edit{rulekit.InsertBefore(at.Path, line, waitStmt(w.Var, list, maybe, rulekit.Indent(f, line)))}})
	case len(w.Waited) == 0:
		consequence := "the next use of its buffers can run before it completes (wrong data or reuse of memory still in flight)"
		if s.Op == "barrier" {
			consequence = "this rank goes on at once, before the other ranks arrive, so the code after it is not held back as the barrier intends"
		}
		d = rules.Diagnostic{Pos: at, Message: fmt.Sprintf(
			"%q, %s %s, is never waited: %s",
			w.Var, holding(w), this, consequence)}
		if f != nil {
			end := at.EndLine
			if end < at.Line {
				end = at.Line
			}
			if s.WithEnd > 0 && w.Via == nil {
				end = s.WithEnd // the work exists once the block has run
			}
			indentLine := at.Line
			if w.ListStmt != nil {
				// After the statement that builds the list, at its indentation.
				end, indentLine = max(end, w.ListStmt.EndLine), w.ListStmt.Line
			}
			d.Fixes = append(d.Fixes, rules.Fix{Title: "Wait " + w.Var,
				Edits: []rules.Edit{rulekit.InsertAfter(f, end, waitStmt(w.Var, list, maybe, rulekit.Indent(f, indentLine)))}})
		}
	case w.UnwaitedExit != nil:
		d = rules.Diagnostic{Pos: at, Message: fmt.Sprintf(
			"%q, %s %s, is not waited on the path that leaves the function at line %d: on that path the operation is never completed from this side",
			w.Var, holding(w), this, w.UnwaitedExit.Line)}
		d.Related = append(d.Related, rulekit.Related(*w.UnwaitedExit, "leaves without waiting "+w.Var))
		for _, wp := range w.Waited {
			d.Related = append(d.Related, rulekit.Related(wp, "waited here on another path"))
			break
		}
		if f != nil && isExit(rulekit.Line(f, w.UnwaitedExit.Line)) {
			line := w.UnwaitedExit.Line
			d.Fixes = append(d.Fixes, rules.Fix{Title: "Wait " + w.Var + " before leaving",
				Edits: []rules.Edit{rulekit.InsertBefore(at.Path, line, waitStmt(w.Var, list, maybe, rulekit.Indent(f, line)))}})
		}
	default:
		return false
	}
	if w.Via != nil {
		d.Related = append(d.Related, rulekit.Related(s.Pos, fmt.Sprintf("the async %s whose handle %s %s", name, w.ViaFunc, hands)))
	} else if s.AsyncWhen != nil {
		d.Related = append(d.Related, rulekit.Related(*s.AsyncWhen, asyncWhenNote(s, name)))
	}
	p.Report(d)
	return true
}

// asyncWhenNote says why a site whose async flag is not a literal
// returns a work handle.
func asyncWhenNote(s *rules.Site, name string) string {
	switch {
	case s.AsyncFlag == "":
		return "this call asks for async work (its async flag is True, passed down to the " + name + "), which then returns a work handle"
	case *s.AsyncWhen == s.Pos:
		return fmt.Sprintf("the async flag is %s: when the configuration sets it, the %s returns a work handle", s.AsyncFlag, name)
	default:
		return fmt.Sprintf("this call passes %s down as the %s's async flag: when the configuration sets it, the %s returns a work handle", s.AsyncFlag, name, name)
	}
}

var exitRE = regexp.MustCompile(`^\s*(return|raise|break|continue)\b`)

func isExit(line string) bool { return exitRE.MatchString(line) }

func describe(s *rules.Site) string {
	if s.Kind == rules.OpP2P {
		return "transfer"
	}
	return "collective"
}

// waitStmt is the statement (indented by ind, newline-terminated) that
// waits v: a loop for the list batch_isend_irecv returns; guarded by a
// None test when the call is async only when asked (maybe: a collective
// with async_op=async_op returns None otherwise).
func waitStmt(v string, list, maybe bool, ind string) string {
	if list {
		return ind + "for _req in " + v + ":\n" + ind + "    _req.wait()\n"
	}
	if maybe {
		return ind + "if " + v + " is not None:\n" + ind + "    " + v + ".wait()\n"
	}
	return ind + v + ".wait()\n"
}

// nameAndWait names the work of a with statement's context manager that
// has no `as` (with _coalescing_manager(g, async_ops=True):) and waits it
// after the block.
func nameAndWait(f *rules.File, s *rules.Site, maybe bool) rules.Fix {
	v := "cm"
	if regexp.MustCompile(`\b` + v + `\b`).Match(f.Src) {
		v = fmt.Sprintf("%s_%d", v, s.Pos.Line)
	}
	endLine, endCol := s.Pos.EndLine, s.Pos.EndCol
	if endLine < s.Pos.Line {
		endLine, endCol = s.Pos.Line, s.Pos.Col
	}
	return rules.Fix{Title: "Keep the work as " + v + " and wait it after the block", Edits: []rules.Edit{
		{Pos: rules.Pos{Path: f.Path, Line: endLine, Col: endCol, EndLine: endLine, EndCol: endCol}, NewText: " as " + v},
		rulekit.InsertAfter(f, s.WithEnd, waitStmt(v, false, maybe, rulekit.Indent(f, s.Pos.Line))),
	}}
}

// keepAndWait binds a discarded call's result and waits it on the next
// line. It applies only when the call starts its statement (the line holds
// nothing before the call).
func keepAndWait(f *rules.File, s *rules.Site, list, maybe bool) *rules.Fix {
	ind := rulekit.Indent(f, s.Pos.Line)
	if len(ind)+1 != s.Pos.Col {
		return nil
	}
	v := "work"
	if list {
		v = "reqs"
	}
	if regexp.MustCompile(`\b` + v + `\b`).Match(f.Src) {
		v = fmt.Sprintf("%s_%d", v, s.Pos.Line)
	}
	end := s.Pos.EndLine
	if end < s.Pos.Line {
		end = s.Pos.Line
	}
	return &rules.Fix{Title: "Keep the work handle and wait it", Edits: []rules.Edit{
		{Pos: rules.Pos{Path: f.Path, Line: s.Pos.Line, Col: s.Pos.Col, EndLine: s.Pos.Line, EndCol: s.Pos.Col}, NewText: v + " = "},
		rulekit.InsertAfter(f, end, waitStmt(v, list, maybe, ind)),
	}}
}

// holding names what w.Var is to the operation: its work handle, or the
// list it was appended to (in_reqs.append(dist.broadcast(…,
// async_op=True))).
func holding(w *rules.Work) string {
	if w.Container != "" && w.Container == w.Var {
		return "the list holding the work handle of"
	}
	return "the work handle of"
}
