// Package cv102 implements CV102 collective-in-autograd-hook: a collective
// reachable from an autograd-engine callback while autograd multithreading
// is enabled, so the collective runs on the engine's device thread instead
// of the thread that called backward().
package cv102

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV102.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV102",
	Name:     "collective-in-autograd-hook",
	Severity: rules.Error,
	Lowered:  rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "a collective runs inside an autograd hook on the autograd engine's thread",
		What: "Reports a collective reachable from a callback the autograd engine runs during backward — " +
			"Tensor.register_hook, register_post_accumulate_grad_hook, Module full backward (pre) hooks, " +
			"torch.autograd.graph.register_multi_grad_hook, autograd.Function.backward, checkpointed forwards, " +
			"FSDP2 all-reduce hooks — when autograd multithreading is " +
			"not disabled for that backward. Framework hooks (DDP's reducer, FSDP, and the comm hooks users register " +
			"with them, whose groups are followed through the hook's state argument) are reported only " +
			"when they drive two or more device communicators (a gloo group for a monitored_barrier does not count); " +
			"HYBRID_SHARD-style configurations are CV103. A hook that communicates on one group the main thread uses too " +
			"is reported as a warning: while the main thread waits in backward() the two do not launch at once; a group of the hook's own, " +
			"or several groups driven by the hook, make it an error. An autograd Function's backward on a group the analysis does not know, whose forward " +
			"communicates too (on the main thread), is a warning as well: the usual shape hands forward and backward the one group the caller passed " +
			"(`ctx.group = group`). So is one whose group is read the way the main thread's collectives read theirs: the same attribute " +
			"(`self._group`) or the same getter without arguments (`mp_group()`, a group kept in a module global). A Function that only code running without autograd applies (in a program that turns autograd off at import with torch.set_grad_enabled(False) and never runs a backward, under @torch.no_grad() or `with torch.no_grad():`, " +
			"directly or through the helpers that call it) records no graph, so its backward never runs and is not reported. Ops that ranks match " +
			"by name rather than by issue order (Horovod's) are not reported: their issuing thread does not matter; nor is MPI's " +
			"point-to-point (mpi4py's Isend/Irecv in a halo exchange's backward), which MPI matches by source, tag and communicator (CV104 judges the thread level). " +
			"Nor is a hook that the program's own scripts register in a job on host memory only (every group gloo's, no accelerator named anywhere in the program): " +
			"the engine runs CPU backward on the thread that called it.",
		Why: "With CUDA (or ROCm, XPU) tensors the autograd engine runs backward — and every hook — on a " +
			"per-device worker thread, not on the thread that called loss.backward(). A collective issued " +
			"there is launched from a second host thread while the main thread may launch collectives on the " +
			"same or another communicator; ranks then enqueue kernels in different orders and deadlock. " +
			"This is the Frontier FSDP HYBRID_SHARD hang (ROCm/rccl#1600): a gradient hook printed a native " +
			"thread id different from the main thread's. torch.autograd.set_multithreading_enabled(False) makes " +
			"backward run its hooks on the calling thread.",
		Example: `import torch.distributed as dist

dist.init_process_group("nccl")

def sync_grad(grad):
    dist.all_reduce(grad, group=amax_group)    # runs on the autograd device thread
    return grad

param.register_hook(sync_grad)
loss.backward()`,
		UseInstead: `import torch
import torch.distributed as dist

dist.init_process_group("nccl")
torch.autograd.set_multithreading_enabled(False)   # hooks run on the thread calling backward

def sync_grad(grad):
    dist.all_reduce(grad, group=amax_group)
    return grad

param.register_hook(sync_grad)
loss.backward()

# or, per backward call (torch >= 2.0):
with torch.autograd.set_multithreading_enabled(False):
    loss.backward()`,
		FixSafety: "The fix inserts torch.autograd.set_multithreading_enabled(False) right after init_process_group. " +
			"As a plain call it needs torch >= 2.1 (in 2.0 it only works as a context manager or decorator; " +
			"before 2.0 it does not exist) and it is thread-local: it covers backward calls made on the thread " +
			"that runs it. Backward then runs on the calling thread, which can be slower for multi-device graphs. " +
			"When the torch requirement pins an older version the fix is still offered, with a warning. " +
			"If hooks are known not to overlap other collectives, `collvet guard` can confirm it at run time.",
		References: []string{
			"https://github.com/ROCm/rccl/pull/1600 — FSDP HYBRID_SHARD hangs on Frontier: hooks on the autograd thread drive the intra/inter-node communicators; fixed with set_multithreading_enabled(False) (A1)",
			"https://github.com/NVIDIA/TransformerEngine/pull/781 — amax all_reduce moved out of a register_multi_grad_hook callback, suspected of hangs (A2)",
			"https://github.com/huggingface/accelerate/issues/3104 — ZeRO-3 all-gather seen on a non-main thread during backward (A3)",
			"https://github.com/pytorch/torchtitan/pull/3565 — disable autograd multithreading so backward sees the main thread's state (A4)",
			"https://github.com/pytorch/pytorch/pull/105291 — set_multithreading_enabled works as a plain call from 2.1",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	prog := p.Prog
	// Groups the main thread (and other non-autograd contexts) communicate on,
	// for the escalation note: the collectives it issues, not the group's
	// creation or the process's joining, which come before any backward.
	mainGroups := map[string]bool{}
	// mainTexts: the group arguments, as written, of the main thread's
	// collectives on groups the analysis does not know (a group kept on
	// the instance: `self._group.process_group`).
	mainTexts := map[string]bool{}
	for _, s := range prog.Sites {
		if s.Kind == rules.OpInit || s.Kind == rules.OpGroupCreate {
			continue
		}
		for _, r := range s.Reach {
			if r == nil || r.Ctx != nil && r.Ctx.Kind == rules.Autograd {
				continue
			}
			if g := rulekit.ReachGroup(s, r); rulekit.Known(g) {
				mainGroups[rulekit.GroupKey(g)] = true
			} else if t := attrGroupText(s); t != "" {
				mainTexts[t] = true
			}
		}
	}
	// Groups each autograd context drives.
	ctxGroups := map[*rules.Context]map[string]bool{}
	for _, s := range prog.Sites {
		for _, r := range s.Reach {
			if g := rulekit.ReachGroup(s, r); r != nil && r.Ctx != nil && r.Ctx.Kind == rules.Autograd && rulekit.Known(g) {
				if ctxGroups[r.Ctx] == nil {
					ctxGroups[r.Ctx] = map[string]bool{}
				}
				ctxGroups[r.Ctx][rulekit.GroupKey(g)] = true
			}
		}
	}
	for _, c := range prog.Contexts {
		// Framework hooks drive their own communicators (FSDP's pair).
		for _, g := range c.Groups {
			if c.Kind == rules.Autograd && rulekit.Known(g) {
				if ctxGroups[c] == nil {
					ctxGroups[c] = map[string]bool{}
				}
				ctxGroups[c][rulekit.GroupKey(g)] = true
				if c.GroupChoice {
					break // one of them, chosen by the configuration
				}
			}
		}
	}
	for _, s := range prog.Sites {
		if !rulekit.Communicates(s) || !rulekit.IssueOrdered(s) || s.Kind == rules.OpInit {
			continue
		}
		if rulekit.EnvelopeMatched(s) {
			// MPI point-to-point (distdl's halo exchange backward):
			// matched by source, tag and communicator, not by the
			// order threads issue it; CV104 judges the thread level.
			continue
		}
		for _, r := range s.Reach {
			if r == nil || r.Ctx == nil || r.Ctx.Kind != rules.Autograd || rulekit.SingleThreaded(r.Ctx, prog) {
				continue
			}
			c := r.Ctx
			if c.Framework != "" && deviceGroups(ctxGroups[c], prog) < 2 {
				// DDP's / FSDP's own ordering; a comm hook's host-side
				// gloo group (a monitored_barrier) adds no device
				// communicator to interleave.
				continue
			}
			report(p, s, r, mainGroups, mainTexts, ctxGroups[c])
			break // one finding per site
		}
	}
}

// getterCall matches a call of a getter whose arguments are names or
// constants only: mp_group(), parallel_context.get_group(ParallelMode.TENSOR).
var getterCall = regexp.MustCompile(`^[A-Za-z_][\w.]*\([\w.,"' ]*\)$`)

// attrGroupText returns a site's group argument when it is an
// attribute path (`self.process_group`, `self._group.process_group`,
// `handle.process_group`: a group kept on an object) or a call of a
// getter without arguments (`mp_group()`, `polar_group()`: a group kept
// in a module's global), "" otherwise; a bare name (`group`) says too
// little to match another site's.
func attrGroupText(s *rules.Site) string {
	t := s.GroupText
	if getterCall.MatchString(t) && !strings.HasPrefix(t, "dist.") && !strings.HasPrefix(t, "torch.") {
		// By the getter's own name and arguments: the backward reads it
		// through what ctx kept (ctx.pc.get_group(Mode.TENSOR)), the main
		// thread through its local (pc.get_group(Mode.TENSOR)).
		open := strings.IndexByte(t, '(')
		return t[strings.LastIndexByte(t[:open], '.')+1:]
	}
	if !strings.Contains(t, ".") || strings.ContainsAny(t, "()[] ") || strings.HasPrefix(t, "dist.") || strings.HasPrefix(t, "torch.") {
		return ""
	}
	return t
}

func report(p *rules.Pass, s *rules.Site, r *rules.Reach, mainGroups, mainTexts, hookGroups map[string]bool) {
	c := r.Ctx
	g := rulekit.ReachGroup(s, r)
	hookAPI := rulekit.ShortAPI(c.SpawnAPI, "an autograd hook")
	msg := fmt.Sprintf("%s on %s runs in a callback registered with %s, which the autograd engine calls on its own device thread during backward: "+
		"it is launched from a different host thread than the main thread's collectives, so ranks can order them differently and hang",
		rulekit.OpName(s), rulekit.GroupLabel(g), hookAPI)
	severity := rules.Error
	switch {
	case len(hookGroups) >= 2:
		msg += fmt.Sprintf(" (the hook drives %d groups, as HYBRID_SHARD does)", len(hookGroups))
	case rulekit.Known(g) && len(mainGroups) > 0 && !mainGroups[rulekit.GroupKey(g)]:
		msg += " (its group differs from the main thread's, so two communicators are driven from two threads)"
	case !rulekit.Known(g) && attrGroupText(s) != "" && mainTexts[attrGroupText(s)]:
		// The group is not known, but the main thread communicates on
		// the same attribute of the instance (a hand-written DDP whose
		// bucket hook and buffer sync share `self._group`).
		severity = rules.Warning
		msg += fmt.Sprintf(" (the group is not known, but the main thread communicates on `%s` too, one communicator: the main thread waits in backward() while the hook runs, so ranks diverge only if another thread, or a second device's engine thread, launches on it too)", attrGroupText(s))
	case !rulekit.Known(g) && forwardCommunicates(p.Prog, c):
		// The group is not known, but the Function's forward talks too:
		// the usual shape passes one group to both (ctx.group = group).
		severity = rules.Warning
		msg += " (the group is not known; the Function's forward communicates too, on the main thread, and when both use the group the caller passed, one communicator: the main thread waits in backward() while the hook runs, so ranks diverge only if another thread, or a second device's engine thread, launches on it too)"
	case rulekit.Known(g) && len(mainGroups) <= 1:
		// One communicator for the hook and the main thread: while the
		// main thread waits in backward() the two do not launch at once,
		// so this hangs only with a device per thread or another thread
		// launching on it (the reference's R-HOOK-1: escalate on a second
		// group). Reported, at the rule's lower severity.
		severity = rules.Warning
		msg += " (one communicator: the main thread waits in backward() while the hook runs, so ranks diverge only if another thread, or a second device's engine thread, launches on it too)"
	case rulekit.Known(g) && mainGroups[rulekit.GroupKey(g)]:
		// The hook drives one of the groups the main thread uses: the
		// main thread launches nothing while it waits in backward(), so
		// the hook's launches keep one order on every rank (R-HOOK-1
		// escalates only on a group of the hook's own, or several).
		severity = rules.Warning
		msg += " (a group the main thread uses too: the main thread waits in backward() while the hook runs, so ranks diverge only if another thread, or a second device's engine thread, launches on it too)"
	}
	d := rules.Diagnostic{Pos: s.Pos, Severity: severity, Message: msg}
	if c.Spawn.IsValid() {
		d.Related = append(d.Related, rulekit.Related(c.Spawn, "the callback is registered here ("+hookAPI+")"))
	}
	if len(r.Chain) > 0 && r.Chain[0] != nil && r.Chain[0].Pos.IsValid() && r.Chain[0].Pos != s.Pos {
		d.Related = append(d.Related, rulekit.Related(r.Chain[0].Pos, "reached from the callback through this call"))
	}
	near := c.Spawn.Path
	if near == "" {
		near = s.Pos.Path
	}
	if fix, note := Fix(p.Prog, near, s.Func); fix != nil {
		d.Fixes = append(d.Fixes, *fix)
		if note != "" {
			d.Message += "; " + note
		}
	}
	p.Report(d)
}

var (
	importTorch = regexp.MustCompile(`(?m)^\s*import\s+torch(?:\.\w+)*\s*(?:$|#|,)`)
	torchPin    = regexp.MustCompile(`torch\s*(==|<=|<|~=)\s*(\d+)\.(\d+)`)
)

// Fix returns the edit that disables autograd multithreading right after
// an init_process_group statement — the one in file near when there is
// one, else the program's first — and a note when the torch requirement is
// too old for it. It returns nil when there is no init statement in an
// analysed file.
//
// With fns, only an init statement of a script that may run one of them
// in its process counts: disabling multithreading in another script's
// process fixes nothing.
func Fix(prog *rules.Program, near string, fns ...*rules.Function) (*rules.Fix, string) {
	var init *rules.InitSite
	for _, in := range prog.Facts.Inits {
		if in != nil && in.AfterLine > 0 && prog.File(in.Pos.Path) != nil && (init == nil || in.Pos.Path == near && init.Pos.Path != near) && runsAny(prog, in, near, fns) {
			init = in
		}
	}
	if init == nil {
		return nil, ""
	}
	f := prog.File(init.Pos.Path)
	text := init.Indent + "torch.autograd.set_multithreading_enabled(False)  # backward hooks run on the calling thread (collvet CV102/CV103)\n"
	if !importTorch.Match(f.Src) {
		text = init.Indent + "import torch.autograd\n" + text
	}
	line := init.AfterLine + 1
	edit := rules.Edit{Pos: rules.Pos{Path: f.Path, Line: line, Col: 1, EndLine: line, EndCol: 1}, NewText: text}
	if n := strings.Count(string(f.Src), "\n"); len(f.Src) > 0 && f.Src[len(f.Src)-1] != '\n' && init.AfterLine >= n+1 {
		// The init statement is on the last line, which has no newline:
		// append one, then the new lines.
		last := rulekit.Line(f, n+1)
		end := rules.Pos{Path: f.Path, Line: n + 1, Col: len(last) + 1, EndLine: n + 1, EndCol: len(last) + 1}
		edit = rules.Edit{Pos: end, NewText: "\n" + strings.TrimSuffix(text, "\n")}
	}
	note := "set_multithreading_enabled(False) after init_process_group fixes it (torch >= 2.1)"
	if req := prog.Facts.TorchRequirement; req != "" {
		if m := torchPin.FindStringSubmatch(req); m != nil {
			v := atoi(m[2])*100 + atoi(m[3]) // 2.1 -> 201
			tooOld := v < 201 || (m[1] == "<" && v <= 201)
			if tooOld {
				note += fmt.Sprintf("; warning: %q at %s pins an older torch, where the plain call has no lasting effect", req, prog.Facts.TorchRequirementPos.Short())
			}
		}
	}
	return &rules.Fix{Title: "Disable autograd multithreading after init_process_group", Edits: []rules.Edit{edit}}, note
}

// runsAny reports whether the process of init statement in may run one
// of fns (true without fns, or when the statement's function is unknown).
// A function no script of the program reaches (a library's autograd
// Function) is run by some script outside it: only an init statement in
// the file of the callback's registration is taken then.
func runsAny(prog *rules.Program, in *rules.InitSite, near string, fns []*rules.Function) bool {
	if len(fns) == 0 {
		return true
	}
	var initFn *rules.Function
	for _, s := range prog.Sites {
		if s.Kind == rules.OpInit && s.Pos.Path == in.Pos.Path && s.Pos.Line >= in.Pos.Line && s.Pos.Line <= in.AfterLine {
			initFn = s.Func
			break
		}
	}
	if initFn == nil {
		return true
	}
	for _, fn := range fns {
		if fn == nil {
			return true
		}
		if !rulekit.ReachedByScripts(prog, fn) {
			if in.Pos.Path == near {
				return true
			}
			continue
		}
		if rulekit.MayShareProcess(prog, initFn, fn) {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// deviceGroups counts the device communicators among group keys (NCCL,
// RCCL or unknown backend; not gloo).
func deviceGroups(keys map[string]bool, prog *rules.Program) int {
	n := 0
	for k := range keys {
		if g := groupByKey(prog, k); g == nil || g.IsDevice() {
			n++
		}
	}
	return n
}

// groupByKey finds the program's group with the key (nil: none).
func groupByKey(prog *rules.Program, key string) *rules.Group {
	for _, g := range prog.Groups {
		if rulekit.GroupKey(g) == key {
			return g
		}
	}
	return nil
}

// forwardCommunicates reports an autograd Function's backward context
// whose forward, on the main thread, issues collectives too (directly or
// through the functions it calls): the ring- and tensor-parallel shape,
// where forward and backward talk on the group the caller passed (and
// forward stored on ctx), which the analysis may not know.
func forwardCommunicates(prog *rules.Program, c *rules.Context) bool {
	b := c.Entry
	if b == nil || !strings.HasSuffix(b.Name, ".backward") {
		return false
	}
	fwdName := strings.TrimSuffix(b.Name, ".backward") + ".forward"
	for _, s := range prog.Sites {
		if !rulekit.Communicates(s) || s.Kind == rules.OpInit {
			continue
		}
		for _, r := range s.Reach {
			if r == nil || !rulekit.IsMain(r.Ctx) {
				continue
			}
			if s.Func != nil && s.Func.Name == fwdName {
				return true
			}
			for _, call := range r.Chain {
				if call != nil && call.Callee != nil && call.Callee.Name == fwdName && call.Callee.Pos.Path == b.Pos.Path {
					return true
				}
			}
		}
	}
	// A site keeps one chain per context, which may come through another
	// caller of the same helper (an ONNX `symbolic` method beside
	// forward): follow the forward's own calls too.
	for _, f := range prog.Funcs {
		if f.Name == fwdName && f.Pos.Path == b.Pos.Path {
			return callsCollective(f, map[*rules.Function]bool{}, 4)
		}
	}
	return false
}

// callsCollective reports whether fn, or a function it calls within
// depth calls, issues a communicating collective.
func callsCollective(fn *rules.Function, seen map[*rules.Function]bool, depth int) bool {
	if fn == nil || seen[fn] || depth < 0 {
		return false
	}
	seen[fn] = true
	for _, s := range fn.Sites {
		if rulekit.Communicates(s) && s.Kind != rules.OpInit {
			return true
		}
	}
	for _, c := range fn.Calls {
		if c != nil && callsCollective(c.Callee, seen, depth-1) {
			return true
		}
	}
	return false
}
