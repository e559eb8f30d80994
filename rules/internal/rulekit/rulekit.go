// Package rulekit holds the small helpers the CV rules share: how to name
// sites, groups and contexts in messages, when two contexts may run at the
// same time, and how to read lines of a file for fixes.
package rulekit

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// GuardHint is the sentence findings append when the model cannot decide a
// fact statically; `collvet guard` checks the same hazard at run time.
const GuardHint = "if this cannot happen in your program, `collvet guard` checks it at run time"

// OpName names a site's API for messages: the last component of its
// qualified name, or the last two for methods (Trainer.save_checkpoint).
// A method name that several tables match on receivers of unknown type
// (Trainer.save_checkpoint, DeepSpeedEngine.save_checkpoint) is named
// without a class, since the front end may have guessed the class.
func OpName(s *rules.Site) string {
	if s == nil {
		return "collective"
	}
	short := ShortAPI(s.API, s.Op)
	if i := strings.IndexByte(short, '.'); i >= 0 && ambiguous(short[i+1:]) {
		return short[i+1:]
	}
	return short
}

func ambiguous(method string) bool {
	n := 0
	tb := api.Default()
	for _, name := range tb.MethodNames[method] {
		if c := tb.Collectives[name]; c != nil && c.AnyReceiver {
			n++
		}
	}
	return n > 1
}

// ShortAPI shortens a qualified API name for messages.
func ShortAPI(api, fallback string) string {
	if api == "" {
		return fallback
	}
	parts := strings.Split(api, ".")
	if len(parts) >= 2 {
		prev := parts[len(parts)-2]
		if prev != "" && unicode.IsUpper(rune(prev[0])) {
			return prev + "." + parts[len(parts)-1]
		}
	}
	return parts[len(parts)-1]
}

// GroupLabel names a group for messages.
func GroupLabel(g *rules.Group) string {
	switch {
	case g == nil || g.Kind == rules.GroupUnknown:
		return "an unknown group"
	case g.Kind == rules.GroupWorld:
		return "the default group (WORLD)"
	}
	return "group " + g.ID
}

// Known reports whether g identifies a group statically.
func Known(g *rules.Group) bool { return g != nil && g.Kind != rules.GroupUnknown }

// SameGroup reports whether a and b are provably the same group.
func SameGroup(a, b *rules.Group) bool {
	if !Known(a) || !Known(b) {
		return false
	}
	if a == b {
		return true
	}
	if a.Kind == rules.GroupWorld && b.Kind == rules.GroupWorld {
		return true
	}
	return a.ID == b.ID
}

// GroupKey is a map key for a known group.
func GroupKey(g *rules.Group) string {
	if g.Kind == rules.GroupWorld {
		return "WORLD"
	}
	return g.ID
}

// IsMain reports whether c is the main thread (nil counts as main).
func IsMain(c *rules.Context) bool { return c == nil || c.Kind == rules.Main }

// Thread returns the host thread that really runs c: an autograd callback
// under set_multithreading_enabled(False) runs on the thread that called
// backward, which is its parent (the main thread when unknown).
func Thread(c *rules.Context, p *rules.Program) *rules.Context {
	for c != nil && c.Kind == rules.Autograd && SingleThreaded(c, p) {
		if c.Parent == nil {
			return nil
		}
		c = c.Parent
	}
	return c
}

// SingleThreaded reports whether an autograd context's callbacks run on
// the thread that called backward: the model says autograd multithreading
// is disabled for this backward; or a set_multithreading_enabled(False)
// call covers the file where the hook is registered (see SwitchCovers) and
// the backward runs on the main thread; or the program's scripts register
// the callback and keep their tensors in host memory (Facts.HostOnly).
func SingleThreaded(c *rules.Context, p *rules.Program) bool {
	if c == nil || c.Kind != rules.Autograd {
		return false
	}
	if c.SingleThreadedAutograd {
		return true
	}
	if p != nil && p.Facts.HostOnly() && c.SpawnIn != nil && ReachedByScripts(p, c.SpawnIn) {
		// A callback registered by code the program's own scripts run,
		// in a job on host memory only: the engine runs CPU work on the
		// calling thread. (A library's hook, run by scripts outside the
		// program, may see device tensors.)
		return true
	}
	return (c.Parent == nil || IsMain(c.Parent)) && SwitchCovers(p, c.Spawn.Path)
}

// SwitchCovers reports whether a plain set_multithreading_enabled(False)
// call applies to code in path. The switch is thread-local and takes effect
// for backward calls made after it, which collvet cannot order across
// files, so a call covers its own file, and a call in the file that
// initialises the process group covers the whole program when that is the
// program's only init (the usual "disable right after init" setup). With
// no init in the program, any call counts.
func SwitchCovers(p *rules.Program, path string) bool {
	if p == nil {
		return false
	}
	for _, sw := range p.Facts.AutogradSingleThreaded {
		if sw.Path == path || len(p.Facts.Inits) == 0 {
			return true
		}
		if len(p.Facts.Inits) == 1 && p.Facts.Inits[0] != nil && p.Facts.Inits[0].Pos.Path == sw.Path {
			return true
		}
	}
	return false
}

// SwitchCoversReach reports whether a plain set_multithreading_enabled(False)
// call applies to code that r's context runs at path: on the main thread,
// as SwitchCovers says; on another thread, only a call made on that thread
// (in its entry function or a function of the chain that reaches the
// code), since the switch is per thread.
func SwitchCoversReach(p *rules.Program, r *rules.Reach, path string) bool {
	if r == nil || IsMain(r.Ctx) {
		return SwitchCovers(p, path)
	}
	within := func(f *rules.Function) bool {
		if f == nil {
			return false
		}
		for _, sw := range p.Facts.AutogradSingleThreaded {
			if sw.Path == f.Pos.Path && sw.Line >= f.Pos.Line && sw.Line <= max(f.Pos.EndLine, f.Pos.Line) {
				return true
			}
		}
		return false
	}
	if within(r.Ctx.Entry) {
		return true
	}
	for _, c := range r.Chain {
		if within(c.Caller) {
			return true
		}
	}
	return false
}

// ancestor reports whether a is c or one of c's ancestors.
func ancestor(a, c *rules.Context) bool {
	for x := c; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return IsMain(a) && c != nil // every context descends from main
}

// Concurrent reports whether code in a and code in b may run at the same
// time. A context with multiplicity many runs alongside itself; a joined
// context is over before its spawner continues, so it never overlaps its
// ancestors' later code, nor another joined context.
func Concurrent(a, b *rules.Context) bool {
	if a == b || (IsMain(a) && IsMain(b)) {
		return a != nil && a.Many
	}
	if a != nil && b != nil && a.Serial != "" && a.Serial == b.Serial {
		return false // each waits for the previous one before it starts
	}
	if a != nil && b != nil && (a.After == b || b.After == a) {
		return false // a done-callback runs once its future's work is done
	}
	if a != nil && a.Joined && (ancestor(b, a) || (b != nil && b.Joined)) {
		return false
	}
	if b != nil && b.Joined && ancestor(a, b) {
		return false
	}
	return true
}

// CtxLabel describes c for messages.
func CtxLabel(c *rules.Context) string {
	if c == nil {
		return "the main thread"
	}
	return c.Label()
}

// Line returns the 1-based line of f without its newline.
func Line(f *rules.File, line int) string {
	if f == nil || line < 1 {
		return ""
	}
	src := f.Src
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(string(src), "\r")
}

// Indent returns the leading whitespace of a line of f.
func Indent(f *rules.File, line int) string {
	l := Line(f, line)
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

// InsertBefore is an edit inserting text as whole lines before line.
func InsertBefore(path string, line int, text string) rules.Edit {
	return rules.Edit{Pos: rules.Pos{Path: path, Line: line, Col: 1, EndLine: line, EndCol: 1}, NewText: text}
}

// NamedApart reports two sites whose groups the analysis could not tell
// apart — each may be any of the same several groups, as when one loop
// variable makes every group and two of them are kept (intra = g …
// inter = g) — but which the code passes under two different names
// (group=intra_pg, group=inter_pg; self._rs_pg[i], self._ar_pg[j]): the
// names say they are two.
func NamedApart(a, b *rules.Site) bool {
	if len(a.Groups) < 2 || len(b.Groups) < 2 {
		return false
	}
	x, y := groupName(a.GroupText), groupName(b.GroupText)
	return x != "" && y != "" && x != y
}

// groupName is a group argument's text without its subscripts
// (self._rs_pg[i % n] → self._rs_pg), when what is left is a dotted
// name; "" otherwise.
func groupName(t string) string {
	var out []byte
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth > 0:
		case c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && len(out) > 0:
			out = append(out, c)
		default:
			return ""
		}
	}
	if depth != 0 || len(out) == 0 || string(out) == "None" {
		return ""
	}
	return string(out)
}

// DeleteLine is an edit removing line (with its line ending).
func DeleteLine(path string, line int) rules.Edit {
	return rules.Edit{Pos: rules.Pos{Path: path, Line: line, Col: 1, EndLine: line + 1, EndCol: 1}}
}

// Related builds a related location.
func Related(p rules.Pos, msg string) rules.Related { return rules.Related{Pos: p, Message: msg} }

// Communicates reports whether a site's kind is one whose order ranks must
// agree on (everything but "other").
func Communicates(s *rules.Site) bool { return s != nil && s.Kind != rules.OpOther }

// IssueOrdered reports whether ranks match the site's op by the order each
// rank's issuing thread launches it (NCCL, Gloo, MPI): the thread rules'
// premise. Ops matched by name (Horovod) are not, whichever thread issues
// them, and neither are ops recorded into a lazy graph (PyTorch/XLA),
// which the thread running the graph launches.
func IssueOrdered(s *rules.Site) bool { return s != nil && !s.NameMatched && !s.Lazy }

// IsMPI reports an MPI call: mpi4py, C MPI through cgo, a Go binding.
func IsMPI(s *rules.Site) bool {
	return s.Library == "mpi4py" || s.Library == "mpi4jax" || s.Library == "mpi" || strings.HasPrefix(s.API, "mpi4py.") || strings.Contains(s.API, "MPI_")
}

// EnvelopeMatched reports an MPI point-to-point call: MPI matches those
// by envelope (source, tag, communicator), not by the order threads
// issue them, and at thread level multiple lets any thread issue them
// next to other threads' messages and collectives (CV104 judges the
// level).
func EnvelopeMatched(s *rules.Site) bool { return s != nil && s.Kind == rules.OpP2P && IsMPI(s) }

// InsertAfter is an edit inserting text (whole lines, ending in "\n") after
// line of f. When line is the last line and has no newline, the edit
// appends one first.
func InsertAfter(f *rules.File, line int, text string) rules.Edit {
	n := bytes.Count(f.Src, []byte("\n"))
	if len(f.Src) > 0 && f.Src[len(f.Src)-1] != '\n' && line >= n+1 {
		last := Line(f, n+1)
		end := rules.Pos{Path: f.Path, Line: n + 1, Col: len(last) + 1, EndLine: n + 1, EndCol: len(last) + 1}
		return rules.Edit{Pos: end, NewText: "\n" + strings.TrimSuffix(text, "\n")}
	}
	return InsertBefore(f.Path, line+1, text)
}

// ReachGroup is the group a site uses along one reaching chain: the
// chain's own group when the front end tells (a group passed down through
// parameters), else the site's.
func ReachGroup(s *rules.Site, r *rules.Reach) *rules.Group {
	if r != nil && r.Group != nil {
		return r.Group
	}
	return s.Group
}

// ExitedBefore reports an event in arm a that leaves the function (or the
// loop body) when a later event, at cur, is outside that arm: no path
// runs both (`if fused: work = …; return work` before a use after the if).
func ExitedBefore(a, cur *rules.Arm) bool {
	for x := a; x != nil; x = x.Parent {
		if x.Exits && !cur.Within(x) {
			return true
		}
	}
	return false
}

// Callers maps each function of the program to the calls that reach it.
func Callers(prog *rules.Program) map[*rules.Function][]*rules.Call {
	callers := map[*rules.Function][]*rules.Call{}
	for _, f := range prog.Funcs {
		for _, c := range f.Calls {
			if c != nil && c.Callee != nil {
				callers[c.Callee] = append(callers[c.Callee], c)
			}
		}
	}
	return callers
}

// SetupBefore reports that a site on the main thread (site, reached along
// reach in context on) runs only before the thread or pool task of c is
// started: the function that starts it is called once, from a function
// that reaches the site through an earlier call of its own
// (`h.initialize(); h.start_helper_threads()`, PipeDream's setup
// all_gather and its helper threads), or issues the site itself earlier;
// and every function on the site's chain from there has that one caller.
// With before set, also a pool's task (its threads run only the tasks
// submitted to it, so the submission is the start) and a site that the
// spawning function itself reaches above the spawn (a warm-up step before
// the worker thread takes over); CV101 leaves those out: one group used
// from two threads in turn still hangs when the second thread's device
// is not the first's (T1, pytorch#115861).
func SetupBefore(callers map[*rules.Function][]*rules.Call, c *rules.Context, site *rules.Site, reach *rules.Reach, on *rules.Context, before bool) bool {
	if c == nil || c.Kind != rules.Thread && !(before && c.Kind == rules.Pool) || c.SpawnIn == nil || site == nil || !IsMain(on) {
		return false
	}
	if before && inSpawner(callers, c, site, reach) {
		return true
	}
	// The start, and the calls above it while each function on the way
	// has one caller (Horovod's `DistributedOptimizer(opt)` factory,
	// whose class's __init__ starts the allreducer thread, called once
	// from the training function after its setup broadcasts).
	starts := callers[c.SpawnIn]
	for depth := 0; depth < maxSetupDepth && len(starts) == 1 && starts[0].Caller != nil; depth++ {
		start := starts[0]
		if setupBeforeCall(callers, start, site, reach) {
			return true
		}
		starts = callers[start.Caller]
	}
	return false
}

// maxSetupDepth bounds how many single callers up SetupBefore looks.
const maxSetupDepth = 4

// setupBeforeCall reports that the site runs in start's caller, or
// below an earlier call of that caller's that alone leads to it, before
// start; the caller itself is called at most once.
func setupBeforeCall(callers map[*rules.Function][]*rules.Call, start *rules.Call, site *rules.Site, reach *rules.Reach) bool {
	earlier := func(p rules.Pos) bool { return p.Path == start.Pos.Path && lineCol(p) < lineCol(start.Pos) }
	if site.Func == start.Caller {
		return earlier(site.Pos) && len(callers[start.Caller]) <= 1
	}
	if reach == nil {
		return false
	}
	for i, call := range reach.Chain {
		if call == nil || call.Caller != start.Caller || !earlier(call.Pos) {
			continue
		}
		// The rest of the chain, down to the site, is reached through
		// this call alone.
		for _, next := range reach.Chain[i:] {
			if next == nil || next.Callee == nil || len(callers[next.Callee]) != 1 {
				return false
			}
		}
		return true
	}
	return false
}

// inSpawner reports that the function starting c (called at most once,
// and not starting it in a loop) issues the site, or calls down to it, at
// a point above the spawn: `step()` as a warm-up, then `Thread(target=
// worker).start()` for the rest.
func inSpawner(callers map[*rules.Function][]*rules.Call, c *rules.Context, site *rules.Site, reach *rules.Reach) bool {
	if c.Many || len(callers[c.SpawnIn]) > 1 || !c.Spawn.IsValid() {
		return false
	}
	above := func(p rules.Pos) bool { return p.Path == c.Spawn.Path && lineCol(p) < lineCol(c.Spawn) }
	if site.Func == c.SpawnIn {
		return above(site.Pos)
	}
	if reach == nil {
		return false
	}
	for i, call := range reach.Chain {
		if call == nil || call.Caller != c.SpawnIn || !above(call.Pos) || call.Callee == nil {
			continue
		}
		// The spawner calls it above the spawn only, and what it calls
		// on the way down has no other caller.
		for _, other := range callers[call.Callee] {
			if other.Caller == c.SpawnIn && !above(other.Pos) {
				return false
			}
		}
		for _, next := range reach.Chain[i+1:] {
			if next == nil || next.Callee == nil || len(callers[next.Callee]) != 1 {
				return false
			}
		}
		return true
	}
	return false
}

// lineCol orders positions of one file.
func lineCol(p rules.Pos) int { return p.Line<<16 | p.Col }
