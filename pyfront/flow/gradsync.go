package flow

import (
	"bytes"
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Backward passes that communicate.
//
// DistributedDataParallel all-reduces, and FSDP reduce-scatters, the
// gradients from autograd hooks while backward() runs: loss.backward() on
// a loss computed from such a module's forward is a collective that every
// rank of the module's group must run. A rank that skips it (its loss is
// NaN, its forward ran out of memory) leaves the others waiting in the
// all-reduce (R15).

// GradSyncer is implemented by resolvers that know which calls run the
// forward of a gradient-synchronising module (what a table entry with
// grad_sync made: a DistributedDataParallel or FSDP instance, the engine
// deepspeed.initialize returns, accelerate's prepared model).
type GradSyncer interface {
	// SyncForward reports whether call runs such a module's forward
	// (model(x), model.forward(x); not its construction).
	SyncForward(call *ast.Call) bool
	// SyncModule reports whether e holds such a module itself, or its
	// forward method (model, model.forward; not a helper handed it).
	SyncModule(e ast.Expr) bool
	// Syncs reports whether fn issues any such op itself (a
	// synchronised backward or a sharded forward): only there do the
	// values computed from a forward matter to the flow pass.
	Syncs(fn *rules.Function) bool
	// ImplicitOp returns the op a call issues implicitly: the
	// gradient reduction of a backward whose loss comes from such a
	// forward, or the parameter all-gather of an FSDP model's forward;
	// nil for other calls.
	ImplicitOp(call *ast.Call) *rules.OpRef
}

// GradSharder is implemented by resolvers that know which modules shard
// their gradients (FSDP, ZeRO: each rank keeps its own shard after the
// reduce-scatter): ShardsGrads reports whether e holds such a wrapper.
type GradSharder interface {
	ShardsGrads(e ast.Expr) bool
}

// shardedGrad reports `p.grad` where p runs over the parameters of a
// module that shards its gradients (`for p in model.parameters():` with
// model an FSDP wrapper): each rank holds its own shard, so a NaN test
// of it differs between ranks (flowprogen's FSDP trainer).
func (l *lowerer) shardedGrad(e ast.Expr) bool {
	a, ok := e.(*ast.Attribute)
	if !ok || a.Attr != "grad" {
		return false
	}
	v, ok := a.Value.(*ast.Name)
	if !ok {
		return false
	}
	gs, ok := l.r.(GradSharder)
	if !ok {
		return false
	}
	found := false
	ast.InspectBody(ast.ScopeBody(l.node), func(n ast.Node) bool {
		f, ok := n.(*ast.For)
		if !ok || found {
			return !found
		}
		target := f.Target
		if t, ok := target.(*ast.Tuple); ok && len(t.Elts) == 2 {
			target = t.Elts[1] // for name, p in model.named_parameters()
		}
		if t, ok := target.(*ast.Name); !ok || t.Id != v.Id {
			return true
		}
		if c, ok := f.Iter.(*ast.Call); ok {
			if m, ok := c.Func.(*ast.Attribute); ok && (m.Attr == "parameters" || m.Attr == "named_parameters") && gs.ShardsGrads(m.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// BackwardOp and ForwardOp name the collectives a synchronised backward
// pass and a sharded module's forward issue in rank-branch sequences.
const (
	BackwardOp = "backward"
	ForwardOp  = "forward"
)

// SyncedBackwards returns the backward calls of body (nested functions and
// classes left out) whose tensor derives, through the body's assignments,
// from a call that forward reports: `out = model(x); loss = crit(out, y);
// scaler.scale(loss).backward()`, or a framework's backward handed such a
// loss (accelerator.backward(loss)). Calls inside `with m.no_sync():` are
// left out: DDP defers the all-reduce to a later backward.
func SyncedBackwards(body []ast.Stmt, forward func(*ast.Call) bool) []*ast.Call {
	return SyncedBackwardsVia(body, forward, nil)
}

// SyncedBackwardsVia is SyncedBackwards that also takes, as backward
// calls, the calls of helpers that run backward on a loss they are
// handed (timm's NativeScaler: `loss_scaler(loss, optimizer)`):
// helperLoss returns the argument such a call hands over (nil for other
// calls), and the call counts when that argument derives from a forward.
func SyncedBackwardsVia(body []ast.Stmt, forward func(*ast.Call) bool, helperLoss func(*ast.Call) ast.Expr) []*ast.Call {
	var backs []*ast.Call
	helped := map[*ast.Call]ast.Expr{}
	var assigns []assignment
	// noGrad: under `with torch.no_grad():` what is computed carries no
	// autograd history, so no loss made from it later reaches the
	// forward it came from (flowprogen's EMA samples, rebound to the
	// name the next pass's batch takes).
	noGrad := 0
	var visit func(n ast.Node, noSync bool)
	visit = func(n ast.Node, noSync bool) {
		switch n := n.(type) {
		case nil:
			return
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return
		case *ast.With:
			noSync = noSync || withNoSync(n.Items)
			assigns = appendWithItems(assigns, n.Items)
			if withGradOff(n.Items) {
				noGrad++
				defer func() { noGrad-- }()
			}
		case *ast.AsyncWith:
			noSync = noSync || withNoSync(n.Items)
			assigns = appendWithItems(assigns, n.Items)
		case *ast.Assign, *ast.AnnAssign, *ast.AugAssign, *ast.NamedExpr:
			if noGrad == 0 {
				assigns = appendAssignment(assigns, n)
			}
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && (a.Attr == "append" || a.Attr == "extend") && len(n.Args) == 1 && noGrad == 0 {
				// preds.append(raw.forward_rollout(x)), then
				// torch.stack(preds): the list holds what the call made.
				if x, ok := a.Value.(*ast.Name); ok {
					assigns = append(assigns, assignment{names: []string{x.Id}, value: n.Args[0]})
				}
			}
			if a, ok := n.Func.(*ast.Attribute); ok && (a.Attr == "backward" || a.Attr == "manual_backward") && !noSync {
				backs = append(backs, n)
			} else if helperLoss != nil && !noSync {
				if x := helperLoss(n); x != nil {
					backs = append(backs, n)
					helped[n] = x
				}
			}
		}
		ast.Children(n, func(c ast.Node) { visit(c, noSync) })
	}
	for _, s := range body {
		visit(s, false)
	}
	if len(backs) == 0 {
		return nil
	}
	derived := derivedNames(assigns, forward)
	var out []*ast.Call
	for _, c := range backs {
		if x, ok := helped[c]; ok {
			if fromForward(x, derived, forward) {
				out = append(out, c)
			}
			continue
		}
		if fromForward(backwardTensor(c), derived, forward) || frameworkBackward(c, derived, forward) {
			out = append(out, c)
		}
	}
	return out
}

// BackwardParam returns the parameter among params whose value a
// backward call of body runs on (`self._scaler.scale(loss).backward()`,
// also through a local made from it: `loss = loss / accum`), or "".
func BackwardParam(body []ast.Stmt, params []string) string {
	if len(params) == 0 {
		return ""
	}
	from := map[string]string{} // local -> the parameter it is made from
	for _, p := range params {
		from[p] = p
	}
	// reads returns the parameter e is made from, preferring one passed
	// as an argument to one that only receives a method call:
	// `scaler.scale(loss)` is made from loss (open_clip's backward
	// helper), `loss.float()` from loss.
	reads := func(e ast.Expr) string {
		receivers := map[*ast.Name]bool{}
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				if a, ok := c.Func.(*ast.Attribute); ok {
					if nm, ok := a.Value.(*ast.Name); ok {
						receivers[nm] = true
					}
				}
			}
			return true
		})
		found, fallback := "", ""
		ast.Inspect(e, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && found == "" && nm.Ctx == ast.Load && from[nm.Id] != "" {
				if !receivers[nm] {
					found = from[nm.Id]
				} else if fallback == "" {
					fallback = from[nm.Id]
				}
			}
			return found == ""
		})
		return cmp.Or(found, fallback)
	}
	var backs []*ast.Call
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Assign:
			if len(n.Targets) == 1 {
				if t, ok := n.Targets[0].(*ast.Name); ok {
					if p := reads(n.Value); p != "" {
						from[t.Id] = p
					}
				}
			}
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && a.Attr == "backward" {
				backs = append(backs, n)
			}
		}
		return true
	})
	for _, c := range backs {
		if p := reads(backwardTensor(c)); p != "" {
			return p
		}
	}
	return ""
}

// ReturnsDerived reports whether a return statement of body (nested
// functions and classes left out) returns a value that derives, through
// the body's assignments, from a call that from reports: `pred =
// head.module.predict(h); loss = l1(pred, y); return loss`.
func ReturnsDerived(body []ast.Stmt, from func(*ast.Call) bool) bool {
	var assigns []assignment
	var rets []ast.Expr
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Assign, *ast.AnnAssign, *ast.AugAssign, *ast.NamedExpr:
			assigns = appendAssignment(assigns, n)
		case *ast.Return:
			if n.Value != nil {
				rets = append(rets, n.Value)
			}
		}
		return true
	})
	if len(rets) == 0 {
		return false
	}
	derived := derivedNames(assigns, from)
	for _, r := range rets {
		if fromForward(r, derived, from) {
			return true
		}
	}
	return false
}

// frameworkBackward reports a framework's backward method handed the
// loss: accelerator.backward(loss), fabric.backward(loss),
// self.manual_backward(loss).
func frameworkBackward(c *ast.Call, derived map[string]bool, forward func(*ast.Call) bool) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "backward" && a.Attr != "manual_backward" || len(c.Args) == 0 {
		return false
	}
	return fromForward(c.Args[0], derived, forward)
}

// assignment is one binding of names to a value, for derivedNames.
type assignment struct {
	names []string
	value ast.Expr
}

// appendAssignment adds the binding an assignment statement or a walrus
// makes (x = v, x: T = v, x += v, (x := v)).
func appendAssignment(assigns []assignment, n ast.Node) []assignment {
	switch n := n.(type) {
	case *ast.Assign:
		for _, t := range n.Targets {
			assigns = append(assigns, assignment{names: storedNames(t), value: n.Value})
		}
	case *ast.AnnAssign:
		if n.Value != nil {
			assigns = append(assigns, assignment{names: storedNames(n.Target), value: n.Value})
		}
	case *ast.AugAssign:
		assigns = append(assigns, assignment{names: storedNames(n.Target), value: n.Value})
	case *ast.NamedExpr:
		assigns = append(assigns, assignment{names: targetNames(n.Target), value: n.Value})
	}
	return assigns
}

// appendWithItems adds the bindings of a with statement's `as` names to
// what their managers were handed: apex's `with amp.scale_loss(loss,
// optimizer) as scaled_loss: scaled_loss.backward()` runs backward on the
// loss.
func appendWithItems(assigns []assignment, items []*ast.WithItem) []assignment {
	for _, it := range items {
		if it.OptionalVars != nil {
			assigns = append(assigns, assignment{names: targetNames(it.OptionalVars), value: it.ContextExpr})
		}
	}
	return assigns
}

// storedNames is targetNames, plus the container a subscript store puts
// the value in (`pred["html"] = out`: pred then holds what out holds,
// unitable's loss computed from pred["html"]).
func storedNames(t ast.Expr) []string {
	if sub, ok := t.(*ast.Subscript); ok {
		if n, ok := sub.Value.(*ast.Name); ok {
			return []string{n.Id}
		}
	}
	return targetNames(t)
}

// derivedNames returns the locals whose value may come from a forward
// call, directly or through other such locals, anywhere in the function
// (flow-insensitively: a loop's later iterations see every binding).
func derivedNames(assigns []assignment, forward func(*ast.Call) bool) map[string]bool {
	derived := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, a := range assigns {
			if !fromForward(a.value, derived, forward) {
				continue
			}
			for _, n := range a.names {
				if !derived[n] {
					derived[n] = true
					changed = true
				}
			}
		}
	}
	return derived
}

// fromForward reports whether e holds a forward call or reads a local of
// derived.
func fromForward(e ast.Expr, derived map[string]bool, forward func(*ast.Call) bool) bool {
	if e == nil {
		return false
	}
	return dependsOn(e, derived, func(n ast.Node) (bool, bool) {
		if c, ok := n.(*ast.Call); ok {
			if forward(c) {
				return true, false
			}
			if a, ok := c.Func.(*ast.Attribute); ok && graphCuts[a.Attr] {
				// recon.detach(), loss.item(): no gradient flows back
				// through what they return (vqgan-training's
				// discriminator loss on the detached reconstruction).
				return false, false
			}
		}
		return false, true
	})
}

// graphCuts are the tensor methods whose result carries no autograd
// history back to the tensor.
var graphCuts = map[string]bool{"detach": true, "item": true, "tolist": true, "numpy": true}

// backwardTensor returns the tensor a backward call differentiates:
// x in x.backward(…) and torch.autograd.backward(x, …); nil for any other
// call.
func backwardTensor(c *ast.Call) ast.Expr {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "backward" {
		return nil
	}
	if d := dotted(a.Value); d == "torch.autograd" || d == "autograd" {
		if len(c.Args) > 0 {
			return c.Args[0]
		}
		return nil
	}
	return a.Value
}

// withNoSync reports a `with m.no_sync():` (DDP and FSDP skip the
// gradient reduction inside it).
func withNoSync(items []*ast.WithItem) bool {
	for _, it := range items {
		if c, ok := it.ContextExpr.(*ast.Call); ok {
			if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "no_sync" {
				return true
			}
		}
	}
	return false
}

// targetNames lists the plain names an assignment target binds.
func targetNames(t ast.Expr) []string {
	switch t := t.(type) {
	case *ast.Name:
		return []string{t.Id}
	case *ast.Starred:
		return targetNames(t.Value)
	}
	var out []string
	for _, e := range ast.SeqElts(t) {
		out = append(out, targetNames(e)...)
	}
	return out
}

// divergence reports whether a condition can differ between ranks, and why.
func (l *lowerer) divergence(test ast.Expr) (rules.Divergence, bool) {
	if l.noRendezvous > 0 || l.oneProcess > 0 || l.neverNoneTest(test) || l.keptTruthTest(test) || l.falseByCallers(test) {
		return 0, false
	}
	switch {
	case l.isRank(test):
		return rules.RankTest, true
	case l.fsProbe(test) || l.notDist == 0 && l.fromFsCount(test) && !l.resumeSkip(test):
		return rules.HostCheck, true
	case l.localNumerics(test) || l.nanFlagTest(test):
		return rules.LocalValue, true
	case l.localThreshold(test):
		return rules.LocalThreshold, true
	case l.batchTest(test) || l.dataCounterTest(test):
		return rules.LocalData, true
	case l.timingTest(test):
		return rules.LocalTiming, true
	case l.randomDraw(test):
		return rules.LocalRandom, true
	case l.deviceCount(test) && !l.launchesProcesses():
		return rules.LocalDevices, true
	case l.failedAllocation(test):
		return rules.LocalFailure, true
	}
	return 0, false
}

// failedAllocation reports a test of whether a helper's allocation ran
// out of memory on this rank (oomNoneTest).
func (l *lowerer) failedAllocation(test ast.Expr) bool {
	h, _ := l.oomNoneTest(test)
	return h != nil
}

// deviceCountCalls count the GPUs this process sees.
var deviceCountCalls = map[string]bool{"torch.cuda.device_count": true, "torch.npu.device_count": true, "torch_npu.npu.device_count": true,
	"torch.xpu.device_count": true, "torch.accelerator.device_count": true}

// deviceCount reports whether e tests torch.cuda.device_count(),
// directly or through a local bound to it in this function (`n_gpu =
// torch.cuda.device_count()`); not through an attribute (args.n_gpu,
// which scripts set to 1 under DDP), nor through what another call
// computes from it (`rank % torch.cuda.device_count()` is a device
// index, and a rank value).
func (l *lowerer) deviceCount(e ast.Expr) bool {
	return dependsOn(e, l.deviceVars, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.Call:
			ext, _ := l.callee(n)
			return deviceCountCalls[ext], false
		case *ast.BinOp:
			return false, n.Op != ast.Mod
		case *ast.Subscript, *ast.Attribute:
			return false, false
		}
		return false, true
	})
}

// neverNoneTest reports `x is None` or `x is not None` on a local whose
// last binding cannot be None (`path = os.path.join(output_dir, path)`,
// an f-string, str(…), Path(…)): every rank answers it alike, whatever x
// was computed from (iVideoGPT's resume path, joined after the listing
// picked it).
func (l *lowerer) neverNoneTest(test ast.Expr) bool {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		return false // not x: an empty string is false
	}
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Is && c.Ops[0] != ast.IsNot || !isNone(c.Comparators[0]) {
		return false
	}
	n, ok := c.Left.(*ast.Name)
	return ok && l.notNone[n.Id]
}

// keptTruthTest reports a truth test of a parameter or of an attribute
// path (`if resume_from:`, `if config.resume_from:`, `if not …:`) that
// the function only ever rebinds to a value that is never empty where it
// does so (os.path.normpath(…), a path joined onto the name itself inside
// `if resume_from:`): the test then answers as the value the function was
// given does, the same on every rank, even when this host's listing
// picked the new value (ddpo's resume, which only chooses which
// checkpoint of the directory it was given).
func (l *lowerer) keptTruthTest(test ast.Expr) bool {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		test = u.Operand
	}
	path := dotted(test)
	if path == "" || l.node == nil {
		return false
	}
	if n, ok := test.(*ast.Name); ok && !paramNames(l.node)[n.Id] {
		return false
	} else if !ok {
		if _, isAttr := test.(*ast.Attribute); !isAttr {
			return false
		}
	}
	if v, ok := l.keptTruths[path]; ok {
		return v
	}
	body, _, _, isDef := defParts(l.node)
	if !isDef {
		return false
	}
	kept, bound := true, false
	defer func() {
		if l.keptTruths == nil {
			l.keptTruths = map[string]bool{}
		}
		l.keptTruths[path] = bound && kept
	}()
	ast.InspectBody(body, func(x ast.Node) bool {
		switch a := x.(type) {
		case *ast.Assign:
			for _, t := range a.Targets {
				if dotted(t) == path || slices.Contains(targetNames(t), path) {
					bound = true
					kept = kept && len(a.Targets) == 1 && dotted(t) == path && neverEmpty(a.Value, path, singleBindings(body))
				}
			}
		case *ast.AugAssign, *ast.AnnAssign, *ast.NamedExpr, *ast.For, *ast.With, *ast.Global, *ast.Nonlocal:
			if mentionsStore(x, path) {
				kept = false
			}
		}
		return kept
	})
	return bound && kept
}

// neverEmpty reports a string value that is never empty:
// os.path.normpath(…) ("." for an empty path), or os.path.join(name, …)
// whose first part is the name itself, a rebinding made where a truth
// test of the name holds (its only other bindings being never empty).
func neverEmpty(e ast.Expr, name string, locals map[string]ast.Expr) bool {
	if j, ok := e.(*ast.JoinedStr); ok {
		// f"{stem}.pth": its literal text is never empty.
		for _, v := range j.Values {
			if k, ok := v.(*ast.Constant); ok && k.Type == ast.ConstStr && k.Str != "" {
				return true
			}
		}
		return false
	}
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch dotted(c.Func) {
	case "os.path.normpath":
		return true
	case "os.path.join":
		return dotted(c.Args[0]) == name || neverEmpty(c.Args[0], name, locals)
	case "str":
		// str(Path("/tmp/hub") / name): a path's text is never empty
		// (tight-budget-llm-adaptation's local download location).
		return pathValue(c.Args[0], locals)
	}
	return false
}

// nonEmptyString reports a string that is never empty: a path joined
// onto a non-empty literal (join("", "last.ckpt") is "last.ckpt"), an
// f-string with literal text, os.path.normpath(…).
func nonEmptyString(e ast.Expr) bool {
	if c, ok := e.(*ast.Call); ok && dotted(c.Func) == "os.path.join" && len(c.Args) > 1 {
		if k, ok := c.Args[len(c.Args)-1].(*ast.Constant); ok && k.Type == ast.ConstStr && k.Str != "" {
			return true
		}
	}
	return neverEmpty(e, "", nil)
}

// neverEmptyLocal reports a local every binding of which is never empty:
// a never-empty string (nonEmptyString), or a value that the test of an
// enclosing if's arm holds true (`if opt.resume: … ckpt = opt.resume`).
// Only locals the body binds by plain assignment.
func neverEmptyLocal(body []ast.Stmt, e ast.Expr) bool {
	n, ok := e.(*ast.Name)
	if !ok {
		return false
	}
	bound, kept := false, true
	var walk func(stmts []ast.Stmt, truthy []string)
	walk = func(stmts []ast.Stmt, truthy []string) {
		for _, st := range stmts {
			switch x := st.(type) {
			case *ast.If:
				walk(x.Body, append(truthy[:len(truthy):len(truthy)], truthyPaths(x.Test)...))
				walk(x.Orelse, truthy)
				continue
			case *ast.Assign:
				for _, t := range x.Targets {
					if slices.Contains(targetNames(t), n.Id) {
						bound = true
						v := dotted(x.Value)
						kept = kept && len(x.Targets) == 1 && isName(t, n.Id) &&
							(nonEmptyString(x.Value) || v != "" && slices.Contains(truthy, v))
					}
				}
				continue
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			}
			if mentionsStore(st, n.Id) {
				kept = false
			}
			for _, arm := range ast.ChildBlocks(st) {
				walk(arm, truthy)
			}
		}
	}
	walk(body, nil)
	return bound && kept
}

// truthyPaths returns the names and attribute paths a test holds true
// in its then arm: `p`, and the operands of an `and`.
func truthyPaths(t ast.Expr) []string {
	if b, ok := t.(*ast.BoolOp); ok && b.Op == ast.And {
		var out []string
		for _, v := range b.Values {
			out = append(out, truthyPaths(v)...)
		}
		return out
	}
	switch t.(type) {
	case *ast.Name, *ast.Attribute:
		return []string{dotted(t)}
	}
	return nil
}

// pathValue reports a pathlib.Path: Path(…), a path joined with /, or a
// local bound once to one.
func pathValue(e ast.Expr, locals map[string]ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Call:
		d := dotted(x.Func)
		return d == "Path" || d == "pathlib.Path" || d == "PurePath" || d == "pathlib.PurePath"
	case *ast.BinOp:
		return x.Op == ast.Div && pathValue(x.Left, locals)
	case *ast.Name:
		v, ok := locals[x.Id]
		return ok && pathValue(v, nil)
	}
	return false
}

// singleBindings returns the locals a function body binds exactly once,
// by a plain assignment to the name alone, with what they are bound to.
func singleBindings(body []ast.Stmt) map[string]ast.Expr {
	count := map[string]int{}
	value := map[string]ast.Expr{}
	ast.InspectBody(body, func(x ast.Node) bool {
		if n, ok := x.(*ast.Name); ok && n.Ctx != ast.Load {
			count[n.Id]++
		}
		if a, ok := x.(*ast.Assign); ok && len(a.Targets) == 1 {
			if n, ok := a.Targets[0].(*ast.Name); ok {
				value[n.Id] = a.Value
			}
		}
		return true
	})
	for k := range value {
		if count[k] != 1 {
			delete(value, k)
		}
	}
	return value
}

// mentionsStore reports a node that binds the name some other way than a
// plain assignment (a loop target, `with … as`, +=, :=, global).
func mentionsStore(x ast.Node, name string) bool {
	switch g := x.(type) {
	case *ast.Global:
		return slices.Contains(g.Names, name)
	case *ast.Nonlocal:
		return slices.Contains(g.Names, name)
	}
	found := false
	ast.Inspect(x, func(m ast.Node) bool {
		if found {
			return false // a later sibling must not clear it
		}
		switch t := m.(type) {
		case *ast.Name:
			found = t.Id == name && t.Ctx != ast.Load
		case *ast.Attribute:
			found = t.Ctx != ast.Load && dotted(t) == name
		}
		return !found
	})
	return found
}

// notNoneValue reports a value that is never None: a joined path, a
// string built by formatting or str(), a pathlib Path, a local that is
// never None, or one an enclosing test found set (`if resume:` …
// `path = resume`).
func (l *lowerer) notNoneValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Name:
		return l.notNone[x.Id] || l.truthyHere(x.Id)
	case *ast.IfExp:
		return l.notNoneValue(x.Body) && l.notNoneValue(x.Orelse)
	}
	return notNoneValue(e)
}

// truthyHere reports whether an enclosing if's test, in whose then arm
// the walk is, holds only when name is set: `if name:`, `if name and …:`,
// `if name != "latest":`.
func (l *lowerer) truthyHere(name string) bool {
	var holds func(t ast.Expr) bool
	holds = func(t ast.Expr) bool {
		switch t := t.(type) {
		case *ast.Name:
			return t.Id == name
		case *ast.BoolOp:
			if t.Op == ast.And {
				for _, v := range t.Values {
					if holds(v) {
						return true
					}
				}
			}
		case *ast.Compare:
			if n, ok := t.Left.(*ast.Name); ok && n.Id == name && len(t.Ops) == 1 {
				k, isConst := t.Comparators[0].(*ast.Constant)
				switch t.Ops[0] {
				case ast.IsNot:
					return isNone(t.Comparators[0])
				case ast.Eq:
					return isConst && k.Type != ast.ConstNone
				}
			}
		}
		return false
	}
	for _, t := range l.ifTests {
		if holds(t) {
			return true
		}
	}
	return false
}

// notNoneValue reports a value that is never None by its form.
func notNoneValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.JoinedStr:
		return true
	case *ast.Constant:
		return e.Type != ast.ConstNone
	case *ast.Call:
		switch dotted(e.Func) {
		case "os.path.join", "str", "pathlib.Path", "Path", "os.path.abspath", "os.path.realpath", "os.path.expanduser":
			return true
		}
	}
	return false
}

// fromSyncForward reports whether e holds a synchronising module's forward
// call or reads a local computed from one.
func (l *lowerer) fromSyncForward(e ast.Expr) bool {
	if e != nil && l.lightningStepValue(e) {
		return true
	}
	gs, ok := l.r.(GradSyncer)
	if !ok || e == nil || !l.syncs {
		return false
	}
	return dependsOn(e, l.localVars, func(n ast.Node) (bool, bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if gs.SyncForward(c) {
			return !l.returnsShared(gs, c), false
		}
		if l.uniformCall(c) {
			return false, false // every rank's, whatever went in
		}
		if l.returnsLocalForward(gs, c) || l.returnsHandedForward(gs, c) {
			return true, false
		}
		if len(l.localVars) > 0 {
			// A program helper that gathers or reduces what it is
			// passed (concat_all_gather(k)) returns every rank's value.
			if has, known := l.throughCall(c, l.fromSyncForward); known && !has {
				return false, false
			}
		}
		return false, true
	})
}

// returnsShared reports a call of a program helper, handed a
// synchronising module or returning what one computed, whose returned
// values carry nothing of a forward except through a collective that
// leaves them the same on every rank: `lb = run_evaluation(accelerator,
// model, loader)` returning a metric of `accelerator.gather(...)`, or a
// constant. The module's own call is never one.
func (l *lowerer) returnsShared(gs GradSyncer, c *ast.Call) bool {
	if gs.SyncModule(c.Func) {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false
	}
	return l.forwardReturns(gs, fn, true) == returnsNoForward
}

// returnsLocalForward reports a call of a program helper that returns
// what a synchronising module's forward computed, not reduced, even past
// .item() (`def estimate_loss(): loss = model(x).mean(); return
// loss.item()` with model the global DDP model, nanoGPT's evaluation):
// each rank's value of its own batches. Calls of the helper's parameters
// do not count here: what it was handed is the caller's question.
func (l *lowerer) returnsLocalForward(gs GradSyncer, c *ast.Call) bool {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn || gs.SyncModule(c.Func) {
		return false
	}
	return l.forwardReturns(gs, fn, false) == returnsForward
}

// callsSync reports a function that calls one issuing a synchronised
// forward or backward (a training loop's helper handed the DDP model):
// what the helper hands back from it is this rank's own, as in the
// helper. Direct callees only: a whole summary for every function would
// cost a tenth of an analysis.
func (l *lowerer) callsSync(gs GradSyncer) bool {
	return slices.ContainsFunc(l.fn.Calls, func(c *rules.Call) bool {
		return c.Callee != nil && c.Callee != l.fn && gs.Syncs(c.Callee)
	})
}

// returnsHandedForward reports a call that hands a program helper a
// synchronising module (the DDP model) and gets back what the helper
// computed with it, not reduced: `train_loss = train_loop(model, loader,
// opt)` returning the last batch's loss is this rank's own.
func (l *lowerer) returnsHandedForward(gs GradSyncer, c *ast.Call) bool {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn || gs.SyncModule(c.Func) {
		return false
	}
	return handsSyncModule(gs, c) && l.forwardReturns(gs, fn, true) == returnsForward
}

// handsSyncModule reports a call that passes a synchronising module (the
// DDP model) as one of its arguments.
func handsSyncModule(gs GradSyncer, c *ast.Call) bool {
	return slices.ContainsFunc(c.Args, gs.SyncModule) ||
		slices.ContainsFunc(c.Keywords, func(k *ast.Keyword) bool { return gs.SyncModule(k.Value) })
}

// forwardFlow is what a helper's returns carry of a forward.
type forwardFlow uint8

const (
	returnsUnknown   forwardFlow = iota // not read (no definition, a generator)
	returnsForward                      // some return carries a forward's value, or is decided by one
	returnsNoForward                    // none does, but through a collective that agrees it
)

// forwardReturns summarises fn's returns (memoised per function and
// mode): with params, a call of one of its parameters counts as a
// forward (the module it was handed).
func (l *lowerer) forwardReturns(gs GradSyncer, fn *rules.Function, withParams bool) forwardFlow {
	return l.forwardSummary(gs, fn, withParams).flow
}

// forwardSum is forwardReturns' summary, with, for a function that
// returns tuples of one length, which elements carry a forward's value
// (elems; nil when not known element by element).
type forwardSum struct {
	flow  forwardFlow
	elems []bool
}

// forwardElements returns, for a call of a program helper that returns
// tuples, which elements carry this rank's forward (`rank_acc,
// global_acc = evaluate(model, …)` where the second is all-reduced):
// nil when not known element by element.
func (l *lowerer) forwardElements(value ast.Expr) []bool {
	c, ok := value.(*ast.Call)
	gs, isGS := l.r.(GradSyncer)
	if !ok || !isGS {
		return nil
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn || gs.SyncModule(c.Func) || isForwardOf(gs, c) {
		return nil // out, sizes = model(x): all of it is the forward's
	}
	// check_loss(loss, …) handed this rank's loss: what it returns may
	// come from it, whatever its own summary says.
	if slices.ContainsFunc(c.Args, l.fromSyncForward) ||
		slices.ContainsFunc(c.Keywords, func(k *ast.Keyword) bool { return l.fromSyncForward(k.Value) }) {
		return nil
	}
	return l.forwardSummary(gs, fn, handsSyncModule(gs, c)).elems
}

func (l *lowerer) forwardSummary(gs GradSyncer, fn *rules.Function, withParams bool) forwardSum {
	memo := &l.memo().forwardRets
	if withParams {
		memo = &l.memo().sharedRets
	}
	return summarizeGuarded(memo, fn, func() forwardSum {
		body, args, ok := l.defOf(fn)
		if !ok {
			return forwardSum{flow: returnsUnknown}
		}
		params := argSet(args)
		if !withParams {
			params = nil
		}
		forward := func(c *ast.Call) bool {
			f := c.Func
			if a, ok := f.(*ast.Attribute); ok && a.Attr == "forward" {
				f = a.Value
			}
			if n, ok := f.(*ast.Name); ok && params[n.Id] {
				return true // the module it was handed
			}
			return gs.SyncForward(c)
		}
		generator := false
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Yield, *ast.YieldFrom:
				generator = true
			}
			return true
		})
		if generator {
			return forwardSum{flow: returnsUnknown}
		}
		derived := map[string]bool{}
		// returns: each return statement, and whether a test reading a
		// forward's value decides it.
		returns := map[*ast.Return]bool{}
		// agreed: what a collective leaves the same on every rank
		// (all_reduce(total) before `return total / world`).
		agreed := map[string]bool{}
		// So is a name rebound to a gather's result (`predictions =
		// accelerator.gather_for_metrics(predictions)`): the scan below
		// does not follow the order of bindings.
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Call:
				if site := l.r.Site(n); site != nil && uniformOps[site.Op] && (site.Group == nil || site.Group.Kind != rules.GroupAlloc) {
					for _, v := range site.Outputs {
						agreed[v] = true
					}
				}
			case *ast.Assign:
				if c, ok := unwrapAwait(n.Value).(*ast.Call); ok && len(n.Targets) == 1 && l.uniformCall(c) {
					for _, t := range append([]ast.Expr{n.Targets[0]}, ast.SeqElts(n.Targets[0])...) {
						if t, ok := t.(*ast.Name); ok {
							agreed[t.Id] = true
						}
					}
				}
			}
			return true
		})
		carries := func(e ast.Expr) bool {
			return e != nil && dependsOn(e, derived, func(n ast.Node) (bool, bool) {
				c, ok := n.(*ast.Call)
				if !ok {
					return false, true
				}
				if l.uniformCall(c) {
					return false, false
				}
				if forward(c) {
					return true, false
				}
				return false, true
			})
		}
		// A name rebound for the last time, in the function's own block,
		// to a value that carries none (`loss = metrics[0] / n` after the
		// all-reduce of metrics) holds none at the returns of that block
		// after it: rebound clears those names there (filled once the
		// marking below has settled).
		var rebound map[*ast.Return][]string
		carriesAt := func(r *ast.Return, e ast.Expr) bool {
			if off := rebound[r]; len(off) > 0 {
				saved := derived
				derived = maps.Clone(saved)
				for _, name := range off {
					delete(derived, name)
				}
				defer func() { derived = saved }()
			}
			return carries(e)
		}
		// walk marks the names bound from a forward's values, or under a
		// test that reads them (`if loss.isnan(): skipped += 1`), and
		// reports a return of such a value or under such a test.
		changed := false
		var walk func(stmts []ast.Stmt, ctl bool) bool
		walk = func(stmts []ast.Stmt, ctl bool) bool {
			local := false
			for _, st := range stmts {
				ast.Inspect(st, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
						return false
					case *ast.Assign, *ast.AnnAssign, *ast.AugAssign, *ast.NamedExpr:
						for _, a := range appendAssignment(nil, n) {
							if !ctl && !carries(a.value) {
								continue
							}
							for _, name := range a.names {
								if !derived[name] && !agreed[name] {
									derived[name] = true
									changed = true
								}
							}
						}
					case *ast.Return:
						returns[n] = returns[n] || ctl
						if ctl || carriesAt(n, n.Value) {
							local = true
						}
					case *ast.Call:
						// losses.append(loss.detach()): the list holds the
						// forward's values.
						if a, ok := n.Func.(*ast.Attribute); ok && (a.Attr == "append" || a.Attr == "extend") && len(n.Args) == 1 {
							if x, ok := a.Value.(*ast.Name); ok && !derived[x.Id] && (ctl || carries(n.Args[0])) {
								derived[x.Id] = true
								changed = true
							}
						}
					}
					return true
				})
				switch st := st.(type) {
				case *ast.If:
					c := ctl || carries(st.Test)
					local = walk(st.Body, c) || local
					local = walk(st.Orelse, c) || local
				case *ast.While:
					c := ctl || carries(st.Test)
					local = walk(st.Body, c) || local
					local = walk(st.Orelse, c) || local
				case *ast.For:
					local = walk(st.Body, ctl) || local
					local = walk(st.Orelse, ctl) || local
				case *ast.AsyncFor:
					local = walk(st.Body, ctl) || local
					local = walk(st.Orelse, ctl) || local
				case *ast.With:
					local = walk(st.Body, ctl) || local
				case *ast.AsyncWith:
					local = walk(st.Body, ctl) || local
				case *ast.Try:
					local = walk(st.Body, ctl) || local
					for _, h := range st.Handlers {
						local = walk(h.Body, ctl) || local
					}
					local = walk(st.Orelse, ctl) || local
					local = walk(st.Finalbody, ctl) || local
				}
			}
			return local
		}
		local := false
		for {
			changed = false
			local = walk(body, false) || local
			if !changed {
				break
			}
		}
		if rebound = cleanRebinds(body, derived, carries); len(rebound) > 0 {
			local = walk(body, false)
		}
		sum := forwardSum{flow: returnsNoForward}
		if local {
			sum.flow = returnsForward
		}
		// Element by element, where every return that carries anything
		// is a tuple of one length.
		n := -1
		for r, ctl := range returns {
			t, isTuple := r.Value.(*ast.Tuple)
			if !isTuple {
				if ctl || carriesAt(r, r.Value) {
					sum.elems = nil // a whole value: no elements to tell apart
					return sum
				}
				continue
			}
			if n >= 0 && len(t.Elts) != n {
				sum.elems = nil
				return sum
			}
			n = len(t.Elts)
			if sum.elems == nil {
				sum.elems = make([]bool, n)
			}
			for i, e := range t.Elts {
				sum.elems[i] = sum.elems[i] || ctl || carriesAt(r, e)
			}
		}
		return sum
	})
}

// cleanRebinds returns, for each return statement of body's own block,
// the derived names that a plain assignment of that block before it
// rebinds to a value carries rejects, for the last time in body (no
// statement after it binds the name again, a loop's included).
func cleanRebinds(body []ast.Stmt, derived map[string]bool, carries func(ast.Expr) bool) map[*ast.Return][]string {
	var out map[*ast.Return][]string
	var cleared []string
	for i, st := range body {
		if r, ok := st.(*ast.Return); ok && len(cleared) > 0 {
			if out == nil {
				out = map[*ast.Return][]string{}
			}
			out[r] = slices.Clone(cleared)
			continue
		}
		var target, value ast.Expr
		switch st := st.(type) {
		case *ast.Assign:
			if len(st.Targets) == 1 {
				target, value = st.Targets[0], st.Value
			}
		case *ast.AnnAssign:
			target, value = st.Target, st.Value
		}
		n, ok := target.(*ast.Name)
		if !ok || value == nil || !derived[n.Id] || carries(value) || storesName(body[i+1:], n.Id) {
			continue
		}
		cleared = append(cleared, n.Id)
	}
	return out
}

// storesName reports a binding of name anywhere in stmts (nested blocks,
// functions and classes included: a conservative answer), or a change to
// what it holds: a store into an element or attribute of it, or a call of
// a method that adds to a container or changes a tensor in place
// (`scores.append(x)`, `acc.add_(x)`).
func storesName(stmts []ast.Stmt, name string) bool {
	found := false
	rooted := func(e ast.Expr) bool { return rootedAt(e, name) }
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Name:
				found = found || n.Id == name && n.Ctx != ast.Load
			case *ast.Attribute:
				found = found || n.Ctx != ast.Load && rooted(n.Value)
			case *ast.Subscript:
				found = found || n.Ctx != ast.Load && rooted(n.Value)
			case *ast.Call:
				if a, ok := n.Func.(*ast.Attribute); ok && (containerAdds[a.Attr] || strings.HasSuffix(a.Attr, "_") && !strings.HasPrefix(a.Attr, "_")) {
					found = found || rooted(a.Value)
				}
			case *ast.Global:
				found = found || slices.Contains(n.Names, name)
			case *ast.Nonlocal:
				found = found || slices.Contains(n.Names, name)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// rootedAt reports the name itself, or an attribute or item path on it
// (x, x.a, x[i].b).
func rootedAt(e ast.Expr, name string) bool {
	for {
		switch x := e.(type) {
		case *ast.Name:
			return x.Id == name
		case *ast.Attribute:
			e = x.Value
		case *ast.Subscript:
			e = x.Value
		default:
			return false
		}
	}
}

// containerAdds are the methods that put values into a list, set or dict.
var containerAdds = map[string]bool{"append": true, "extend": true, "insert": true, "add": true, "update": true, "setdefault": true}

// finiteTests are the NaN/Inf tests, as functions (torch.isnan(x),
// math.isfinite(v), numpy.isinf(a)) and as tensor methods (x.isnan()).
var finiteTests = map[string]bool{"isnan": true, "isinf": true, "isfinite": true, "isneginf": true, "isposinf": true}

// localNumerics reports whether test asks whether a value computed from
// this rank's own batch is finite: `if torch.isnan(loss)`, `if not
// math.isfinite(loss.item())`. Each rank computes its loss from its own
// data, so a NaN on one rank is no NaN on the others. A loss all-reduced
// first is the same everywhere (the uniform ops drop it from localVars).
func (l *lowerer) localNumerics(test ast.Expr) bool {
	// `any(torch.isnan(l) for l in (g_loss, d_loss))` tests what the
	// generator's variable takes from its iterable (lucidrains'
	// stylegan2 trainer).
	var iterOf map[string]ast.Expr
	ast.Inspect(test, func(n ast.Node) bool {
		gens, _ := comprehensionParts(n)
		for _, g := range gens {
			if v, ok := g.Target.(*ast.Name); ok {
				if iterOf == nil {
					iterOf = map[string]ast.Expr{}
				}
				iterOf[v.Id] = g.Iter
			}
		}
		return true
	})
	return dependsOn(test, nil, func(n ast.Node) (bool, bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if l.uniformCall(c) {
			// accelerator.gather(torch.isnan(loss)).any(): every rank
			// tests the gathered answers.
			return false, false
		}
		operand, isTest := finiteOperand(c)
		if !isTest {
			return false, true
		}
		if v, ok := operand.(*ast.Name); ok && iterOf[v.Id] != nil && !l.fromSyncForward(operand) {
			operand = iterOf[v.Id]
		}
		return operand != nil && (l.fromSyncForward(operand) || l.shardedGrad(operand)), false
	})
}

// lightningStepValue reports a value that a LightningModule's step hook
// (lightningSteps, run inside the strategy's wrapper) computes from its
// own submodules (`loss = self.model(batch).sum()` in training_step):
// this rank's own, from this rank's batch.
func (l *lowerer) lightningStepValue(e ast.Expr) bool {
	if l.fn == nil || !lightningSteps[lastName(l.fn.Name)] || !l.src.mentionsLightning() {
		return false
	}
	return dependsOn(e, l.localVars, func(n ast.Node) (bool, bool) {
		if c, ok := n.(*ast.Call); ok {
			if d := dotted(c.Func); d == "self" || strings.HasPrefix(d, "self.") && strings.Count(d, ".") == 1 {
				if _, fn := l.callee(c); fn == nil {
					return true, false // self(batch), self.model(batch): a module's forward
				}
			}
			// self.forward(batch), self.model.forward(images, targets):
			// the forward called by name (DeepForest's training_step).
			if base, ok := strings.CutSuffix(dotted(c.Func), ".forward"); ok && (base == "self" || strings.HasPrefix(base, "self.") && strings.Count(base, ".") == 1) {
				return true, false
			}
		}
		return false, true
	})
}

// finiteOperand returns what a NaN/Inf test (finiteTests) tests: the
// argument of a module's function (torch.isnan(x), math.isfinite(v)),
// the receiver of a tensor method (x.isnan()); isTest is false for any
// other call, operand nil for a module's test given no argument.
func finiteOperand(c *ast.Call) (operand ast.Expr, isTest bool) {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || !finiteTests[a.Attr] {
		return nil, false
	}
	switch dotted(a.Value) {
	case "torch", "math", "numpy", "np":
		if len(c.Args) == 0 {
			return nil, true
		}
		return c.Args[0], true
	}
	return a.Value, true
}

// nanFlagTest reports a test of a flag set inside the arm of a NaN test
// of this rank's own value (nanFlags): `if valid_loss:` after `if
// torch.isnan(loss).sum() > 0: valid_loss = False` (deepspeech.pytorch's
// loss check) is that test.
func (l *lowerer) nanFlagTest(test ast.Expr) bool {
	if len(l.nanFlags) == 0 {
		return false
	}
	n, ok := flagOperand(test).(*ast.Name)
	return ok && l.nanFlags[n.Id]
}

// flagOperand returns the flag a test reads: `not f`, `f.item() == 1`,
// `f.any()`, `bool(f)`, `f > 0` are tests of f.
func flagOperand(test ast.Expr) ast.Expr {
	for {
		switch x := test.(type) {
		case *ast.UnaryOp:
			if x.Op != ast.Not {
				return test
			}
			test = x.Operand
		case *ast.Compare:
			if len(x.Comparators) != 1 {
				return test
			}
			if _, ok := x.Comparators[0].(*ast.Constant); !ok {
				return test
			}
			test = x.Left
		case *ast.Call:
			if a, ok := x.Func.(*ast.Attribute); ok && len(x.Args) == 0 && (a.Attr == "item" || a.Attr == "any" || a.Attr == "all") {
				test = a.Value
			} else if n, ok := x.Func.(*ast.Name); ok && (n.Id == "bool" || n.Id == "int" || n.Id == "float") && len(x.Args) == 1 {
				test = x.Args[0]
			} else {
				return test
			}
		default:
			return test
		}
	}
}

// flagConst reports a value a flag is set to: a bool constant, or a
// one-element tensor of a constant (`torch.tensor([1.0], device=d)`,
// `torch.ones(1)`, `torch.zeros(1, device=d)`).
func flagConst(e ast.Expr) bool {
	if isBoolConst(e) {
		return true
	}
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) != 1 {
		return false
	}
	switch dotted(c.Func) {
	case "torch.tensor":
		switch a := c.Args[0].(type) {
		case *ast.Constant:
			return a.Type == ast.ConstInt || a.Type == ast.ConstFloat || a.Type == ast.ConstBool
		case *ast.List:
			if len(a.Elts) != 1 {
				return false
			}
			k, ok := a.Elts[0].(*ast.Constant)
			return ok && (k.Type == ast.ConstInt || k.Type == ast.ConstFloat || k.Type == ast.ConstBool)
		}
	case "torch.ones", "torch.zeros":
		k, ok := c.Args[0].(*ast.Constant)
		return ok && k.Type == ast.ConstInt && k.Int == 1
	}
	return false
}

// nanFlagCall reports a call of a program helper whose returned value
// (index -1) or tuple element index is a NaN flag of a parameter
// (nanFlagReturns) that this call hands a value of its rank's own
// forward: `valid_loss, error = check_loss(loss, loss_value)`.
func (l *lowerer) nanFlagCall(value ast.Expr, index int) bool {
	c, ok := value.(*ast.Call)
	if !ok || !l.syncs {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false
	}
	param, ok := summarizeGuarded(&l.memo().nanFlagRets, fn, func() map[int]int { return l.nanFlagReturns(fn) })[index]
	if !ok {
		return false
	}
	if _, args, ok := l.defOf(fn); ok && len(args.Positional()) > 0 {
		param -= receiverShift(c, args.Positional()[0].Arg)
	}
	return param >= 0 && param < len(c.Args) && l.fromSyncForward(c.Args[param])
}

// nanFlagReturns summarises a helper that checks a parameter for NaN and
// returns the verdict: for each returned position (-1: the value itself,
// else the element of a returned tuple) that is a local the helper sets
// to a constant inside the arm of a NaN/Inf test of a positional
// parameter, that parameter's index. deepspeech.pytorch's check_loss:
//
//	loss_valid = True
//	if loss_value == float("inf"): loss_valid = False
//	elif torch.isnan(loss).sum() > 0: loss_valid = False
//	return loss_valid, error
func (l *lowerer) nanFlagReturns(fn *rules.Function) map[int]int {
	body, args, ok := l.defOf(fn)
	if !ok || args == nil {
		return nil
	}
	params := map[string]int{}
	for i, a := range args.Positional() {
		params[a.Arg] = i
	}
	testedParam := func(test ast.Expr) (int, bool) {
		found, at := false, 0
		ast.Inspect(test, func(n ast.Node) bool {
			c, ok := n.(*ast.Call)
			if found || !ok {
				return !found
			}
			operand, isTest := finiteOperand(c)
			if !isTest || operand == nil {
				return true
			}
			if root := rootName(operand); root != "" {
				if i, isParam := params[root]; isParam {
					found, at = true, i
				}
			}
			return !found
		})
		return at, found
	}
	flags := map[string]int{}
	var visit func(stmts []ast.Stmt)
	visit = func(stmts []ast.Stmt) {
		for _, st := range stmts {
			i, ok := st.(*ast.If)
			if !ok {
				continue
			}
			if p, tested := testedParam(i.Test); tested {
				for _, b := range i.Body {
					if a, ok := b.(*ast.Assign); ok && len(a.Targets) == 1 && isBoolConst(a.Value) {
						if n, ok := a.Targets[0].(*ast.Name); ok {
							flags[n.Id] = p
						}
					}
				}
			}
			visit(i.Body)
			visit(i.Orelse)
		}
	}
	visit(body)
	if len(flags) == 0 {
		return nil
	}
	out := map[int]int{}
	ast.InspectBody(body, func(n ast.Node) bool {
		r, ok := n.(*ast.Return)
		if !ok || r.Value == nil {
			return true
		}
		if v, ok := r.Value.(*ast.Name); ok {
			if p, flag := flags[v.Id]; flag {
				out[-1] = p
			}
		}
		for i, e := range ast.SeqElts(r.Value) {
			if v, ok := e.(*ast.Name); ok {
				if p, flag := flags[v.Id]; flag {
					out[i] = p
				}
			}
		}
		return true
	})
	return out
}

// localThreshold reports whether test compares a value computed from
// this rank's own batch with a bound (`if float(loss.item()) < 0.06:`,
// `if loss > limit:`): each rank's loss is its own, so ranks cross the
// bound at different steps. Ordering comparisons only; one side is the
// local value, the other is not.
func (l *lowerer) localThreshold(test ast.Expr) bool {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		test = u.Operand
	}
	if bo, ok := test.(*ast.BoolOp); ok {
		// `if val_loss < best or always_save:`: with the flag off (a
		// configuration can set it), the comparison alone decides.
		for _, v := range bo.Values {
			if l.localThreshold(v) {
				return true
			}
		}
		return false
	}
	a, b, ok := orderingCompare(test)
	return ok && (l.fromSyncForward(a) || l.fromSyncForward(b))
}

// orderingCompare returns the operands of a single <, <=, > or >=
// comparison; ok is false for any other expression.
func orderingCompare(e ast.Expr) (left, right ast.Expr, ok bool) {
	c, isCompare := e.(*ast.Compare)
	if !isCompare || len(c.Ops) != 1 {
		return nil, nil, false
	}
	switch c.Ops[0] {
	case ast.Lt, ast.LtE, ast.Gt, ast.GtE:
		return c.Left, c.Comparators[0], true
	}
	return nil, nil, false
}

// oomBranch records the rank branch an out-of-memory handler makes: the
// rank whose forward or backward ran out of memory runs the handler's
// recovery path, while the others finish the try body (R15: they wait in
// the gradient all-reduce for a rank that has moved on). A handler that
// re-raises, or recovers only when the job is a single process, makes
// none.
//
// So does a handler that recovers from an error whose message names a
// NaN (`if "nan" in str(e): continue`, under torch's anomaly detection,
// which raises inside backward on the rank whose batch produced one):
// the branch is then a NaN test of that rank's own values.
func (l *lowerer) oomBranch(body []ast.Stmt, h *ast.ExceptHandler, orelse []ast.Stmt) {
	if l.notDist > 0 {
		return
	}
	path := oomPath(h)
	var nanTest ast.Expr
	if len(path) == 0 {
		path, nanTest = nanPath(h)
	}
	if len(path) == 0 || raises(path) || l.singleAfterRaise(path) {
		return
	}
	then := l.ops(path)
	els := append(l.ops(body), l.ops(orelse)...)
	for len(els) > 0 && els[0].Op == ForwardOp && els[0].Site == nil {
		// The forward that opens the try body communicates before it
		// allocates what runs out (DDP's buffer broadcast): every rank
		// has issued it; what the failed rank skips comes after.
		els = els[1:]
	}
	if exits(path) {
		// The failed rank also skips what follows, up to the end of the
		// loop body (continue, break) or of the function; the others
		// run it.
		els = append(els, l.ops(l.skipped(path))...)
	}
	if len(then)+len(els) == 0 {
		return
	}
	if nanTest != nil {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(nanTest.Span()), Cond: l.text(nanTest), Then: then, Else: els, Divergence: rules.LocalValue})
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), Then: then, Else: els, Divergence: rules.LocalFailure})
}

// nanPath returns, for a handler of a broad exception type, the path it
// takes when the error's message names a NaN or Inf (`if "nan" in
// str(e):` — anomaly detection's "returned nan values"), and that test.
func nanPath(h *ast.ExceptHandler) ([]ast.Stmt, ast.Expr) {
	if h.Type != nil && !broadException(h.Type) {
		return nil, nil
	}
	for i, s := range h.Body {
		s, ok := s.(*ast.If)
		if !ok || negated(s.Test) || !mentionsNaNMessage(s.Test) {
			continue
		}
		if exits(s.Body) {
			return s.Body, s.Test
		}
		return append(append([]ast.Stmt{}, s.Body...), h.Body[i+1:]...), s.Test
	}
	return nil, nil
}

// mentionsNaNMessage reports a test that looks for a NaN or Inf in an
// error's text: a string constant "nan", "inf" (any case), or one that
// names nan values or a non-finite result, tested with `in`.
func mentionsNaNMessage(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.Compare); ok && len(c.Ops) == 1 && c.Ops[0] == ast.In {
			if k, ok := c.Left.(*ast.Constant); ok && k.Type == ast.ConstStr {
				s := strings.ToLower(k.Str)
				found = s == "nan" || s == "inf" || strings.Contains(s, "nan values") || strings.Contains(s, "non-finite")
			}
		}
		return !found
	})
	return found
}

// exceptClause is a handler's clause as messages name it: "except X",
// or "except" for a bare one.
func (l *lowerer) exceptClause(h *ast.ExceptHandler) string {
	if h.Type == nil {
		return "except"
	}
	return "except " + l.text(h.Type)
}

// scopeStmts visits the statements of body, and of the blocks inside
// them, in order, leaving nested definitions out, until visit reports
// that it is done.
func scopeStmts(body []ast.Stmt, visit func(ast.Stmt) bool) bool {
	for _, st := range body {
		switch st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			continue
		}
		if visit(st) {
			return true
		}
		for _, b := range ast.ChildBlocks(st) {
			if scopeStmts(b, visit) {
				return true
			}
		}
	}
	return false
}

// helperExit is where a program helper may end the process with status
// 0 on this host's own answer: a file check (`if not os.path.isdir(d):
// print(...); exit()`) or a handler for a broad error (`except
// RuntimeError: exit()`).
type helperExit struct {
	cond string
	div  rules.Divergence
}

// helperCleanExit summarises fn (helperExit), nil when it has no such
// exit. Only the helper's own statements are read, not its callees'.
func (l *lowerer) helperCleanExit(fn *rules.Function, node ast.Node) *helperExit {
	return summarizeGuarded(&l.memo().cleanExits, fn, func() *helperExit {
		body, sub := bodyLowerer(fn, node, l.r)
		if sub == nil || !sub.inFileOf(fn) || !sub.src.mentionsAny(node.Span(), []string{"exit(", "quit("}) {
			return nil
		}
		var found *helperExit
		ranked := false // the rank locals are bound on first need
		scopeStmts(body, func(st ast.Stmt) bool {
			switch st := st.(type) {
			case *ast.If:
				if endsCleanExit(st.Body) && sub.fsProbe(st.Test) {
					found = &helperExit{cond: sub.text(st.Test), div: rules.HostCheck}
					break
				}
				// `if rank == 0: … if bad > patience: exit()` (XLM's
				// end_epoch on the master's stopping criterion): the
				// ranks that pass the test may leave, the others go on.
				if cleanExitWithin(st.Body) {
					if !ranked {
						ranked = true
						markBound(body, sub.rankVars, sub.isRank)
					}
					if sub.isRank(st.Test) && len(sub.uniformIn(st.Test)) == 0 {
						found = &helperExit{cond: sub.text(st.Test), div: rules.RankTest}
					}
				}
			case *ast.Try:
				for _, h := range st.Handlers {
					if (h.Type == nil || broadException(h.Type)) && endsCleanExit(h.Body) {
						found = &helperExit{cond: sub.exceptClause(h), div: rules.LocalCleanExit}
						break
					}
				}
			}
			return found != nil
		})
		return found
	})
}

// inFileOf points a lowerer made for another function (bodyLowerer, which
// takes the resolver's current file) at the file fn is defined in, so
// that its text is read from there; false when that file is unknown.
func (l *lowerer) inFileOf(fn *rules.Function) bool {
	if l.path == fn.Pos.Path {
		return true
	}
	for _, f := range l.r.Prog().Files {
		if f.Path == fn.Pos.Path {
			l.file, l.src, l.path = f, sourceFor(l.r, f), f.Path
			return true
		}
	}
	return false
}

// helperExitBranch records, for a call of a program helper that may end
// the process with status 0 on this host's own answer (helperCleanExit),
// the branch between the ranks that leave there and the ones that go on
// to the caller's later collectives (intel's DLRM load_checkpoint, whose
// `exit()` under a missing checkpoint directory the launcher takes for
// success while the other ranks wait).
func (l *lowerer) helperExitBranch(c *ast.Call) {
	if l.notDist > 0 {
		return
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return
	}
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return
	}
	node := fd.FuncDef(fn)
	if node == nil {
		return
	}
	he := l.helperCleanExit(fn, node)
	if he == nil {
		return
	}
	after := l.ops(l.skipped(nil))
	if len(after) == 0 && he.div == rules.RankTest {
		// The call ends a loop's pass: the ranks that stay go round
		// again (XLM's end_epoch, then the next epoch's DDP steps).
		after = l.ops(l.nextIterations([]ast.Stmt{&ast.Return{}})) // the process leaves
	}
	if len(after) == 0 {
		return
	}
	br := &rules.RankBranch{Func: l.fn, Guard: l.pos(c.Span()), Cond: he.cond, EarlyExit: true, After: after, Divergence: he.div}
	if he.div == rules.LocalCleanExit {
		br.EarlyExit, br.After, br.Else = false, nil, after
	}
	l.addBranch(br)
}

// cleanExitWithin reports a statement among stmts, or nested in their
// blocks, that ends the process with status 0 (endsCleanExit).
func cleanExitWithin(stmts []ast.Stmt) bool {
	found := false
	ast.InspectStmts(stmts, func(st ast.Stmt) bool {
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.ExprStmt:
			found = found || endsCleanExit([]ast.Stmt{st})
		}
		return !found
	})
	return found
}

// endsCleanExit reports statements whose last ends the process with
// status 0 (exit(), sys.exit(0), quit(False)): the launcher takes it for
// success, not a failure that stops the job.
func endsCleanExit(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	last, ok := stmts[len(stmts)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	c := processExit(last)
	return c != nil && (len(c.Args) == 0 || len(c.Args) == 1 && isFalse(c.Args[0]))
}

// cleanExitBranch records the rank branch of a handler for any error
// that ends the process with status 0 (`except Exception: print(...);
// exit(0)`, VideoLLaMA3's evaluation loop): the launcher takes the exit
// for success and leaves the job running, and the other ranks wait in
// the collectives after the try (what the rank skips up to the end of
// the function).
func (l *lowerer) cleanExitBranch(body []ast.Stmt, h *ast.ExceptHandler) {
	if l.notDist > 0 || h.Type != nil && !broadException(h.Type) || len(h.Body) == 0 {
		return
	}
	if !endsCleanExit(h.Body) {
		return // exit(1), sys.exit("message"): the launcher stops the job
	}
	skipped := l.ops(l.skipped(h.Body))
	if len(skipped) == 0 {
		return
	}
	cond := l.exceptClause(h)
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: cond, Else: skipped, Divergence: rules.LocalCleanExit})
}

// writeFailureBranch records the rank branch a handler makes that
// swallows the error of a try body that writes files around collectives
// (HunyuanDiT's and OpenChatKit's checkpoint saves: `try:
// engine.save_checkpoint(…)` / `except Exception: log`, then a barrier):
// the rank whose write fails skips what the body had left to issue. A
// handler that raises or exits, narrow exception types, and out-of-memory
// handlers (oomBranch) make none.
func (l *lowerer) writeFailureBranch(body []ast.Stmt, h *ast.ExceptHandler, rest []ast.Stmt) {
	if l.notDist > 0 || h.Type != nil && !broadException(h.Type) && !ioException(h.Type) || len(oomPath(h)) > 0 {
		return
	}
	if returnsFromScript := l.loops == 0 && endsReturning(h.Body) && l.endsByCalls(l.fn, 0) && !(returnsFailure(h.Body) && l.returnIsExitStatus(l.fn)); returnsFromScript &&
		!anyStmt(h.Body, func(s ast.Stmt) bool { _, ok := s.(*ast.Raise); return ok }) {
		// `try: … broadcast … except Exception: return` in the main the
		// script ends with: the rank whose work raised returns, and its
		// process exits with status 0 while the others wait in what it
		// skipped (KLi447's tensor-parallel experiment, rank 0's failed
		// weight download before the broadcast).
		l.swallowedErrorBranch(l.withBodies(body), h, rest, true)
		return
	}
	raisesAgain := anyStmt(h.Body, isRaise) && !raisesOnRepeatOnly(h.Body) && !l.raisesOnlyIfRefused(h.Body)
	// (A handler around next(it) is the end of the data: exhaustBranch's.)
	if !raisesAgain && l.loops > 0 && len(h.Body) > 0 && !callsNext(body) && !l.readsUnboundAfterFailure(body, h) {
		if _, brk := h.Body[len(h.Body)-1].(*ast.Break); brk {
			// `except Exception as e: print(e); break` in a training
			// loop: the rank whose pass raised leaves the loop, and the
			// others go on to the next passes' collectives (FedScale's
			// learner).
			if next := l.nextIterations(h.Body); len(next) > 0 {
				l.swallowedErrorBranch(l.withBodies(body), h, next, false)
			}
			return
		}
	}
	if raisesAgain || exits(h.Body) && !nextPass(h.Body) {
		return
	}
	if l.readsUnboundAfterFailure(body, h) {
		return
	}
	// What the failed rank skips: the collectives from the statement that
	// writes on (those before it ran on every rank), looking into the
	// with blocks that hold the write (`with FSDP.state_dict_type(…):
	// sd = model.state_dict(); torch.save(sd, p)`).
	body = l.withBodies(body)
	first := slices.IndexFunc(body, func(s ast.Stmt) bool { return l.writesFiles([]ast.Stmt{s}) })
	if first < 0 {
		l.swallowedErrorBranch(body, h, rest, false)
		return
	}
	els := l.ops(body[first:])
	if len(els) == 0 {
		// The write comes last: what raises before it is any error.
		l.swallowedErrorBranch(body, h, rest, false)
		return
	}
	cond := l.exceptClause(h)
	leaves := func(s ast.Stmt) bool {
		switch s.(type) {
		case *ast.Break, *ast.Return:
			return true
		}
		return false
	}
	kind := rules.LocalWriteFailure
	if l.loops > 0 && slices.ContainsFunc(body, leaves) && !anyStmt(h.Body, leaves) {
		// A retry loop: a write that succeeds leaves it, and the handler
		// stays in it, so the failed rank writes again (LF-VILA's ten
		// tries at save_checkpoint). (An epoch loop around a save goes
		// on to the next epoch: the failed rank skipped the rest.)
		kind = rules.LocalWriteRetry
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: cond, Then: l.ops(h.Body), Else: els, Divergence: kind})
}

// withBodies returns body with each with statement replaced by the
// statements of its block, recursively: the block runs straight through,
// in order, once the context is entered. A with whose context itself
// writes (`with open(p, "w") as f:`) stays whole.
func (l *lowerer) withBodies(body []ast.Stmt) []ast.Stmt {
	if !slices.ContainsFunc(body, func(s ast.Stmt) bool { _, ok := s.(*ast.With); return ok }) {
		return body
	}
	var out []ast.Stmt
	for _, s := range body {
		if w, ok := s.(*ast.With); ok && !slices.ContainsFunc(w.Items, func(it *ast.WithItem) bool {
			return l.writesFiles([]ast.Stmt{&ast.ExprStmt{Value: it.ContextExpr}})
		}) {
			out = append(out, l.withBodies(w.Body)...)
			continue
		}
		out = append(out, s)
	}
	return out
}

// callsAnything reports a statement that calls something: one made of
// literals and names alone does no work that could raise.
func callsAnything(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Call, *ast.Subscript, *ast.Attribute, *ast.BinOp:
			found = true
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		}
		return !found
	})
	return found
}

// swallowedErrorBranch records the rank branch a handler for any error
// makes when it swallows the error of a try body that communicates and
// collectives follow the try (LongRecipe's `try: accelerator.backward(loss)`
// / `except: log`, then the loss's reduce): a rank whose body raises (an
// out-of-memory error on its longer batch) skips the body's remaining
// collectives and goes on to the next ones, which pair with the others'.
func (l *lowerer) swallowedErrorBranch(body []ast.Stmt, h *ast.ExceptHandler, rest []ast.Stmt, returned bool) {
	if h.Type != nil && !broadException(h.Type) {
		return // RuntimeError is what running out of memory raises
	}
	if capabilityProbe(body) {
		return
	}
	// What a rank whose body raised skips: the collectives after the first
	// statement that does other work (a collective that opens the body
	// ran on every rank), those after a called helper's first, and a
	// backward's own (it computes before it
	// reduces, and runs out of memory there).
	var els []*rules.OpRef
	raised := false
	// The statements in the order they run; the body of a with or a for
	// is entered (`with torch.no_grad(): for batch in loader: x = batch *
	// 2; total += model(x)`: work that can raise comes before the
	// forward's all-gathers).
	var flat []ast.Stmt
	var enter func([]ast.Stmt)
	enter = func(stmts []ast.Stmt) {
		for _, st := range stmts {
			switch x := st.(type) {
			case *ast.With:
				enter(x.Body)
			case *ast.AsyncWith:
				enter(x.Body)
			case *ast.For:
				enter(x.Body)
			case *ast.AsyncFor:
				enter(x.Body)
			default:
				flat = append(flat, st)
			}
		}
	}
	enter(body)
	for _, st := range flat {
		ops := l.ops([]ast.Stmt{st})
		if raised || slices.ContainsFunc(ops, func(o *rules.OpRef) bool { return o.Op == BackwardOp }) {
			els = append(els, ops...)
		} else if c := stmtCall(st); c != nil && l.r.Site(c) == nil && len(ops) > 0 && l.worksBeforeCollective(c) {
			// A helper that computes before its first collective
			// (validate(loader) summing its batches, then all_reduce): a
			// rank that raises there skips all of them. One that raises
			// before the group exists fails the others' rendezvous, not a
			// collective: what it skips that matters is what follows the
			// group's creation (a main that parses its arguments, builds
			// the Accelerator, then writes a file on rank 0 before a
			// barrier).
			for len(ops) > 1 && (ops[0].Op == "init" || ops[0].Creates) {
				ops = ops[1:]
			}
			els = append(els, ops...)
		} else if c != nil && l.r.Site(c) == nil && len(ops) > 1 {
			// A helper that communicates several times does other work
			// between its collectives (allocates, reads .item()): a rank
			// that raises there skips the rest of them.
			els = append(els, ops[1:]...)
		}
		if c := stmtCall(st); (c == nil || l.r.Site(c) == nil) && callsAnything(st) {
			raised = true // work that can raise (`data = [None]` cannot)
		}
	}
	if raised && l.loops > 0 && nextPass(h.Body) {
		// `try: feat = load(path) except Exception: continue`: the rank
		// whose read failed skips the rest of the pass too (LatentSync's
		// per-sample audio features), and meets the others' collectives
		// with its next pass's.
		els = append(els, l.ops(l.skipped(h.Body))...)
	}
	if returned {
		// The handler returns from a function whose end is the script's:
		// the rank skips what follows the try as well, and exits.
		els = append(els, l.ops(rest)...)
		if len(els) > 0 {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), Else: els, Divergence: rules.LocalCleanExit})
		}
		return
	}
	if len(els) == 0 {
		return
	}
	notTeardown := func(o *rules.OpRef) bool {
		return o.Op != "destroy" && o.Op != "init" // teardown: LocalSwallowedTeardown's
	}
	// What follows the try in its own block, or after the blocks around
	// it (`if world_size > 1: try: … except Exception: log`, then a
	// barrier after the if).
	follows := slices.ContainsFunc(l.ops(rest), notTeardown) ||
		l.loops == 0 && slices.ContainsFunc(l.ops(l.following()), notTeardown)
	if !follows && l.loops == 0 && !l.callerGoesOn() {
		// Nothing follows for the skipped collectives to pair with. Where
		// the script then ends (the handler of the training call in its
		// main, KAN-TTS's trainers), the rank that raised exits with
		// status 0 while the others wait for it in what it skipped.
		if l.endsScript() && !slices.ContainsFunc(l.ops(rest), func(o *rules.OpRef) bool { return o.Op == "destroy" }) {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), Else: els, Divergence: rules.LocalCleanExit})
		}
		return
	}
	cond := l.exceptClause(h)
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: cond, Then: l.ops(h.Body), Else: els, Divergence: rules.LocalSwallowedError})
}

// readsUnboundAfterFailure reports a handler that reads a local the try
// body binds only after its first call, and nothing else in the function
// binds: where that call raised, the name is unbound, and the handler
// raises UnboundLocalError instead of swallowing the error (LF-VILA's
// checkpoint retry logs `status_msg`, set after save_checkpoint returns).
func (l *lowerer) readsUnboundAfterFailure(body []ast.Stmt, h *ast.ExceptHandler) bool {
	first := slices.IndexFunc(body, callsAnything)
	if first < 0 {
		return false
	}
	laterStmts := body[first+1:]
	inLater := func(n ast.Node) bool {
		p := n.Span()
		for _, st := range laterStmts {
			sp := st.Span()
			after := p.Lineno > sp.Lineno || p.Lineno == sp.Lineno && p.ColOffset >= sp.ColOffset
			before := p.Lineno < sp.EndLineno || p.Lineno == sp.EndLineno && p.ColOffset < sp.EndColOffset
			if after && before {
				return true
			}
		}
		return false
	}
	stores := func(stmts []ast.Stmt, visit func(*ast.Name)) {
		ast.InspectBody(stmts, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Name:
				if x.Ctx == ast.Store || x.Ctx == ast.Del {
					visit(x)
				}
			}
			return true
		})
	}
	later := map[string]bool{}
	stores(laterStmts, func(x *ast.Name) { later[x.Id] = true })
	if len(later) == 0 {
		return false
	}
	// Names bound anywhere else in the function (or its parameters, or
	// declared global) may hold a value from before the try.
	elsewhere := paramNames(l.node)
	if elsewhere == nil {
		elsewhere = map[string]bool{}
	}
	stores(ast.DefBody(l.node), func(x *ast.Name) {
		if !inLater(x) {
			elsewhere[x.Id] = true
		}
	})
	ast.InspectBody(ast.DefBody(l.node), func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Global:
			for _, name := range x.Names {
				elsewhere[name] = true
			}
		case *ast.Nonlocal:
			for _, name := range x.Names {
				elsewhere[name] = true
			}
		}
		return true
	})
	reads := false
	ast.InspectBody(h.Body, func(n ast.Node) bool {
		if x, ok := n.(*ast.Name); ok && x.Ctx == ast.Load && later[x.Id] && !elsewhere[x.Id] && x.Id != h.Name {
			reads = true
		}
		return !reads
	})
	return reads
}

// endsReturning reports a handler body whose last statement returns from
// the function.
func endsReturning(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	_, ok := stmts[len(stmts)-1].(*ast.Return)
	return ok
}

// returnsFailure reports statements that end by returning a failing exit
// status (`return 1`, `return "error"`).
func returnsFailure(stmts []ast.Stmt) bool {
	r, ok := lastStmt(stmts).(*ast.Return)
	return ok && r.Value != nil && failureStatus(r.Value)
}

// returnIsExitStatus reports a function whose every call is the argument
// of sys.exit (exit, quit, os._exit) as a statement: what it returns is
// the process's exit status (`sys.exit(main())`).
func (l *lowerer) returnIsExitStatus(fn *rules.Function) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || fn == nil {
		return false
	}
	calls, all := 0, true
	l.callsOf(fn, func(f *rules.Function, c *rules.Call) bool {
		calls++
		found := false
		ast.InspectStmts(ast.ScopeBody(fd.FuncDef(f)), func(st ast.Stmt) bool {
			if x, ok := st.(*ast.ExprStmt); ok && !found {
				if ec := processExit(x); ec != nil && len(ec.Args) == 1 {
					if arg, ok := ec.Args[0].(*ast.Call); ok {
						sp := arg.Span()
						found = int(sp.Lineno) == c.Pos.Line && int(sp.ColOffset)+1 == c.Pos.Col
					}
				}
			}
			return !found
		})
		all = found
		return all
	})
	return calls > 0 && all
}

// endsScript reports that the process ends, with status 0, once the
// statement being lowered completes: it is in a module body and only
// definitions and imports follow it to the end, or in a function whose
// every call is such a statement of a module's `if __name__ ==
// "__main__":` block or body (depth-bounded).
func (l *lowerer) endsScript() bool {
	for i := len(l.rests) - 1; i >= 0; i-- {
		if !inertRest(l.rests[i]) {
			return false
		}
	}
	if _, isModule := l.node.(*ast.Module); isModule {
		return true
	}
	return l.endsByCalls(l.fn, 0)
}

// endsByCalls reports a function every call of which is a statement
// after which its scope only ends: the last work of a module body or of
// its `if __name__ == "__main__":` block, or of a function that is so
// itself (depth-bounded). False for a function nothing calls.
func (l *lowerer) endsByCalls(fn *rules.Function, depth int) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || fn == nil || depth > 3 {
		return false
	}
	calls, ends := 0, true
	l.callsOf(fn, func(f *rules.Function, c *rules.Call) bool {
		calls++
		node := fd.FuncDef(f)
		_, isModule := node.(*ast.Module)
		ends = node != nil && lastInScope(ast.ScopeBody(node), c.Pos.Line) && (isModule || l.endsByCalls(f, depth+1))
		return ends
	})
	return calls > 0 && ends
}

// lastInScope reports whether the statement on line is, through ifs and
// withs only (no loop), followed by nothing but inert statements to the
// end of body.
func lastInScope(body []ast.Stmt, line int) bool {
	for i, st := range body {
		sp := st.Span()
		if int(sp.Lineno) > line || int(sp.EndLineno) < line {
			continue
		}
		if !inertRest(body[i+1:]) {
			return false
		}
		switch x := st.(type) {
		case *ast.If:
			if int(x.Test.Span().EndLineno) >= line {
				return true // the call is in the test
			}
			return lastInScope(x.Body, line) || lastInScope(x.Orelse, line)
		case *ast.With:
			return lastInScope(x.Body, line)
		case *ast.For, *ast.AsyncFor, *ast.While, *ast.Try, *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		}
		return true
	}
	return false
}

// inertRest reports statements that do nothing when they run but bind
// names: definitions, imports, pass and bare constants (docstrings).
func inertRest(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		switch x := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Import, *ast.ImportFrom, *ast.Pass:
		case *ast.ExprStmt:
			if _, isConst := x.Value.(*ast.Constant); !isConst {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// capabilityProbe reports a try body that ends by setting a flag true
// (`dist.all_to_all_single(t, t); alltoall_supported = True`): it asks
// what the backend can do, which fails alike on every rank.
func capabilityProbe(body []ast.Stmt) bool {
	if len(body) < 2 {
		return false
	}
	a, ok := body[len(body)-1].(*ast.Assign)
	if !ok || len(a.Targets) != 1 {
		return false
	}
	_, isName := a.Targets[0].(*ast.Name)
	k, isConst := a.Value.(*ast.Constant)
	return isName && isConst && k.Type == ast.ConstBool && k.Bool
}

// callerGoesOn reports whether some caller of the function being lowered
// calls it in a loop, or issues collectives after the call: what a rank
// skips here then pairs with what it issues next (a model's forward that
// swallows its own all_reduce's failure, called from the training loop).
func (l *lowerer) callerGoesOn() bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || l.fn == nil {
		return false
	}
	if lastName(l.fn.Name) == "forward" {
		return true // a module's forward: the training loop calls it once per batch
	}
	goesOn := false
	l.callsOf(l.fn, func(f *rules.Function, c *rules.Call) bool {
		node := fd.FuncDef(f)
		goesOn = node != nil && goesOnAfter(ast.ScopeBody(node), c.Pos.Line, func(st ast.Stmt) bool {
			return slices.ContainsFunc(l.ops([]ast.Stmt{st}), func(o *rules.OpRef) bool { return o.Op != "destroy" && o.Op != "init" })
		})
		return !goesOn
	})
	return goesOn
}

// callsOf calls visit with each call of fn in the program and the
// function making it, until visit returns false.
func (l *lowerer) callsOf(fn *rules.Function, visit func(caller *rules.Function, c *rules.Call) bool) {
	for _, f := range l.r.Prog().Funcs {
		for _, c := range f.Calls {
			if c != nil && c.Callee == fn && !visit(f, c) {
				return
			}
		}
	}
}

// goesOnAfter reports whether, in body, the line is inside a loop, or a
// statement after it communicates (issues).
func goesOnAfter(body []ast.Stmt, line int, issues func(ast.Stmt) bool) bool {
	for _, st := range body {
		sp := st.Span()
		switch st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			continue
		}
		if int(sp.Lineno) > line {
			if issues(st) {
				return true
			}
			continue
		}
		if int(sp.EndLineno) < line {
			continue
		}
		switch st.(type) {
		case *ast.For, *ast.AsyncFor, *ast.While:
			return true
		}
		for _, b := range ast.ChildBlocks(st) {
			if goesOnAfter(b, line, issues) {
				return true
			}
		}
	}
	return false
}

// worksBeforeCollective reports a call of a program function whose body
// does work that can raise (a call, an index, arithmetic) before the
// first statement that communicates.
func (l *lowerer) worksBeforeCollective(c *ast.Call) bool {
	_, body, ok := l.calleeDef(c)
	if !ok {
		return false
	}
	for _, st := range body {
		if len(l.ops([]ast.Stmt{st})) > 0 {
			return false
		}
		if callsAnything(st) {
			return true
		}
	}
	return false
}

// raisesOnlyIfRefused reports a handler whose every raise sits under
// `if not handler(e, …):` where the handler is a program function that
// returns True wherever it returns (open-moe-trainer-lab's
// FaultHandler.handle_step_failure): it never raises, and swallows the
// error.
func (l *lowerer) raisesOnlyIfRefused(body []ast.Stmt) bool {
	found, all := false, true
	var walk func(stmts []ast.Stmt, refused bool)
	walk = func(stmts []ast.Stmt, refused bool) {
		for _, st := range stmts {
			switch s := st.(type) {
			case *ast.Raise:
				found = true
				all = all && refused
			case *ast.If:
				walk(s.Body, refused || l.alwaysTrueRefusal(s.Test))
				walk(s.Orelse, refused)
			default:
				if anyStmt([]ast.Stmt{st}, isRaise) {
					found, all = true, false // a raise in a loop, with or try: not followed
				}
			}
		}
	}
	walk(body, false)
	return found && all
}

// alwaysTrueRefusal reports a test `not f(…)` where f is a program
// function that returns the constant True wherever it returns.
func (l *lowerer) alwaysTrueRefusal(test ast.Expr) bool {
	u, ok := test.(*ast.UnaryOp)
	if !ok || u.Op != ast.Not {
		return false
	}
	c, ok := u.Operand.(*ast.Call)
	if !ok {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false
	}
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	returns, trues := 0, 0
	ast.InspectBody(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok {
			returns++
			if k, ok := r.Value.(*ast.Constant); ok && k.Type == ast.ConstBool && k.Bool {
				trues++
			}
			return false
		}
		return true
	})
	return returns > 0 && returns == trues && !fallsOffEnd(body)
}

// fallsOffEnd reports a function body that can end without a return
// statement (falling off its end returns None).
func fallsOffEnd(body []ast.Stmt) bool {
	_, ok := lastStmt(body).(*ast.Return)
	return !ok
}

// raisesOnRepeatOnly reports a handler that raises only when a flag it
// sets itself was already set (`if prev_error: raise`, then `prev_error
// = True`, LUKE's pretraining loop): the first error on a rank is
// swallowed all the same.
func raisesOnRepeatOnly(body []ast.Stmt) bool {
	flags := map[string]bool{}
	for _, st := range body {
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 {
			if t, ok := a.Targets[0].(*ast.Name); ok {
				if k, ok := a.Value.(*ast.Constant); ok && k.Type == ast.ConstBool && k.Bool {
					flags[t.Id] = true
				}
			}
		}
	}
	if len(flags) == 0 {
		return false
	}
	for _, st := range body {
		if !anyStmt([]ast.Stmt{st}, isRaise) {
			continue
		}
		// A raise only in the then arm of `if <flag>:`.
		x, ok := st.(*ast.If)
		if !ok {
			return false
		}
		if n, ok := x.Test.(*ast.Name); !ok || !flags[n.Id] || anyStmt(x.Orelse, isRaise) {
			return false
		}
	}
	return true
}

// isRaise reports a raise statement.
func isRaise(s ast.Stmt) bool {
	_, ok := s.(*ast.Raise)
	return ok
}

// nextPass reports a handler that ends by going on to the loop's next
// pass (`except RuntimeError: print("skip batch"); continue`): the rank
// carries on, one step behind or ahead of the others.
func nextPass(body []ast.Stmt) bool {
	switch s := lastStmt(body).(type) {
	case *ast.Continue:
		return true
	case *ast.If:
		// `if failures >= 3: break` / `else: continue`: the rank goes
		// round again, or leaves the loop; either way it skips the rest
		// of this pass.
		return loopExit(s.Body) && loopExit(s.Orelse) && (nextPass(s.Body) || nextPass(s.Orelse))
	}
	return false
}

// loopExit reports statements that end by continuing or leaving the
// loop they are in (continue, break, or an if whose arms both do).
func loopExit(body []ast.Stmt) bool {
	switch s := lastStmt(body).(type) {
	case *ast.Continue, *ast.Break:
		return true
	case *ast.If:
		return loopExit(s.Body) && loopExit(s.Orelse)
	}
	return false
}

// ioException reports the exception types of file errors.
func ioException(e ast.Expr) bool { return catches(e, "OSError", "IOError", "PermissionError") }

// catches reports a handler type (or a tuple of them) that names one of
// the exception classes, by their last name.
func catches(e ast.Expr, names ...string) bool {
	if t, ok := e.(*ast.Tuple); ok {
		return slices.ContainsFunc(t.Elts, func(x ast.Expr) bool { return catches(x, names...) })
	}
	return slices.Contains(names, lastDotted(e))
}

// fileWriters are the calls that write files on the host that runs them
// (by their last name: torch.save, safetensors' save_file, a framework's
// save_checkpoint, accelerate's save_state, torch.distributed.checkpoint's
// save, DeepSpeed's save_16bit_model and its older name save_fp16_model).
var fileWriters = map[string]bool{"save": true, "save_file": true, "save_checkpoint": true, "async_save": true, "save_state_dict": true, "save_pretrained": true, "save_model": true, "save_state": true,
	"save_16bit_model": true, "save_fp16_model": true}

// agreedWrite reports torch.distributed.checkpoint's save, whose ranks
// agree on a failed write: the coordinator gathers every rank's write
// result and raises the same CheckpointException on all of them, so no
// rank leaves a try around it alone.
func agreedWrite(site *rules.Site) bool {
	return site != nil && (site.API == "torch.distributed.checkpoint.save" || site.API == "torch.distributed.checkpoint.save_state_dict")
}

// writesFiles reports a body that writes files: a call of fileWriters, or
// open(…) for writing.
func (l *lowerer) writesFiles(body []ast.Stmt) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		name := lastDotted(c.Func)
		if a, ok := c.Func.(*ast.Attribute); ok {
			name = a.Attr
		}
		if fileWriters[name] {
			found = !agreedWrite(l.r.Site(c))
		} else if name == "open" && len(c.Args) >= 2 {
			if m, ok := constStr(c.Args[1]); ok && strings.ContainsAny(m, "wax") {
				found = true
			}
		}
		return !found
	})
	return found
}

// exhaustBranch records the rank branch a loop's end-of-data handler
// makes: `try: batch = next(it)` `except StopIteration: break` leaves the
// loop on the rank whose iterator runs out first, while the ranks that
// hold more batches go on to the collectives after it (R12: Horovod's
// have_more_data loops over uneven shards). A handler that restarts the
// iterator or records the end in a flag does not leave, and makes none.
func (l *lowerer) exhaustBranch(body []ast.Stmt, h *ast.ExceptHandler) {
	// `except Exception:` (or a bare except) around next(it) catches the
	// end of the data too (MooER's loop saves its checkpoint there).
	endCaught := h.Type == nil || namesStopIteration(h.Type) || catches(h.Type, "Exception", "BaseException")
	if l.notDist > 0 || l.loops == 0 || len(h.Body) == 0 || !endCaught || !callsNext(body) {
		return
	}
	switch h.Body[len(h.Body)-1].(type) {
	case *ast.Break, *ast.Return:
	default:
		return
	}
	if l.evenShards(body) || l.joining > 0 {
		return
	}
	after := l.ops(l.skipped(h.Body))
	then := l.ops(h.Body)
	if len(after) == 0 && len(then) > 0 {
		// The handler communicates (a checkpoint save, a barrier) and
		// leaves the loop: the ranks whose data lasts are still in the
		// loop's passes, issuing theirs.
		after = l.ops(l.nextIterations(h.Body))
	}
	if len(after) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), EarlyExit: true, Then: then, After: after, Divergence: rules.LocalEnd})
}

// joinContext reports a context manager for uneven inputs: DDP's
// model.join(), torch.distributed.algorithms.Join([...]), or a local
// bound to model.join on one path (wenet's `model_context = model.join`
// under DDP, nullcontext otherwise). Inside it, a rank whose data ran out
// shadows the others' gradient all-reduces until all have joined. ext
// is the call's external callee ("" when none).
// joinAlias returns the model whose join a local names (`model_context =
// self.model.join`, then `with model_context():`, MASR's trainer), as
// joinedNames does for the call itself.
func (l *lowerer) joinAlias(c *ast.Call) []string {
	n, ok := c.Func.(*ast.Name)
	if !ok {
		return nil
	}
	var out []string
	ast.InspectBody(ast.DefBody(l.node), func(x ast.Node) bool {
		if as, ok := x.(*ast.Assign); ok && len(out) == 0 && len(as.Targets) == 1 && isName(as.Targets[0], n.Id) {
			if a, ok := as.Value.(*ast.Attribute); ok && a.Attr == "join" {
				if d := dotted(a.Value); d != "" {
					out = []string{d}
				}
			}
		}
		return len(out) == 0
	})
	return out
}

func (l *lowerer) joinContext(c *ast.Call, ext string) bool {
	switch {
	case ext == "torch.distributed.algorithms.Join", ext == "torch.distributed.algorithms.join.Join":
		return true
	case strings.HasSuffix(ext, ".join") && strings.Contains(ext, "DistributedDataParallel"):
		return true // model.join() on a DDP instance, whatever the spelling of its class
	}
	if a, ok := c.Func.(*ast.Attribute); ok {
		// model.join() with no positional argument: not str.join(xs) or
		// os.path.join(a, b).
		return a.Attr == "join" && len(c.Args) == 0 && ext == ""
	}
	n, ok := c.Func.(*ast.Name)
	if !ok {
		return false
	}
	if n.Id == "Join" {
		return true
	}
	found := false
	ast.InspectBody(ast.DefBody(l.node), func(x ast.Node) bool {
		if as, ok := x.(*ast.Assign); ok && !found && len(as.Targets) == 1 {
			if t, ok := as.Targets[0].(*ast.Name); ok && t.Id == n.Id {
				if a, ok := as.Value.(*ast.Attribute); ok && a.Attr == "join" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// evenShards reports whether the iterators that body's next() calls read
// are made (it = iter(loader)) from a data loader whose sampler is a
// DistributedSampler: the function calls loader.sampler.set_epoch(…), or
// builds the loader with sampler=DistributedSampler(…). Such a sampler
// pads or drops samples so that every rank gets as many (torchtune's
// recipes): the ranks run out of batches together.
func (l *lowerer) evenShards(body []ast.Stmt) bool {
	var iters []string
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok && dotted(c.Func) == "next" && len(c.Args) >= 1 {
				iters = append(iters, dotted(c.Args[0]))
			}
			return true
		})
	}
	if len(iters) == 0 {
		return false
	}
	made, loaders, _ := evenLoaders(l.body)
	for _, it := range iters {
		src, ok := made[it]
		if !ok || !loaders[src] && !l.evenLoaderParam(src) && !l.evenLoaderFromHelper(src) {
			return false
		}
	}
	return true
}

// evenLoaderFromHelper reports a local that the function binds, once, to
// what a program helper returns, or to one element of a tuple it
// returns, where that is a loader the helper builds over a
// DistributedSampler (`tr, _ = loaders(rank, world)` with `return
// DataLoader(ds, sampler=sampler), sampler`).
func (l *lowerer) evenLoaderFromHelper(name string) bool {
	var call *ast.Call
	idx, binds := -1, 0
	ast.InspectBody(l.body, func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			return true
		}
		switch t := a.Targets[0].(type) {
		case *ast.Name:
			if t.Id == name {
				binds++
				call, _ = a.Value.(*ast.Call)
				idx = -1
			}
		case *ast.Tuple:
			for i, e := range t.Elts {
				if x, ok := e.(*ast.Name); ok && x.Id == name {
					binds++
					call, _ = a.Value.(*ast.Call)
					idx = i
				}
			}
		}
		return true
	})
	if binds != 1 || call == nil {
		return false
	}
	_, body, ok := l.calleeDef(call)
	if !ok {
		return false
	}
	_, loaders, distSampler := evenLoaders(body)
	even := func(e ast.Expr) bool {
		if c, ok := e.(*ast.Call); ok {
			return evenLoaderCall(c, distSampler)
		}
		return loaders[dotted(e)]
	}
	rets, all := 0, true
	ast.InspectBody(body, func(n ast.Node) bool {
		r, ok := n.(*ast.Return)
		if !ok || !all {
			return all
		}
		rets++
		v := r.Value
		if t, isTuple := v.(*ast.Tuple); isTuple && idx >= 0 && idx < len(t.Elts) {
			v = t.Elts[idx]
		} else if idx >= 0 {
			v = nil
		}
		all = v != nil && even(v)
		return all
	})
	return rets > 0 && all
}

// evenLoaders reads body for the iterators it makes (it = iter(loader):
// made maps the iterator to the loader) and the loaders whose sampler is
// a DistributedSampler (built with sampler=DistributedSampler(…) or a
// name bound to one, or whose loader.sampler.set_epoch(…) the body calls).
// distSampler reports an expression that is such a sampler: a
// DistributedSampler(…) call or a name body binds to one.
func evenLoaders(body []ast.Stmt) (made map[string]string, loaders map[string]bool, distSampler func(ast.Expr) bool) {
	made, loaders = map[string]string{}, map[string]bool{}
	samplers := map[string]bool{}
	distSampler = func(e ast.Expr) bool {
		if c, ok := e.(*ast.Call); ok {
			return lastDotted(c.Func) == "DistributedSampler"
		}
		return samplers[dotted(e)]
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if len(n.Targets) != 1 {
				return true
			}
			t := dotted(n.Targets[0])
			c, ok := n.Value.(*ast.Call)
			if t == "" || !ok {
				return true
			}
			switch {
			case dotted(c.Func) == "iter" && len(c.Args) == 1:
				made[t] = dotted(c.Args[0])
			case lastDotted(c.Func) == "DistributedSampler":
				samplers[t] = true
			default:
				if evenLoaderCall(c, distSampler) {
					loaders[t] = true
				}
			}
		case *ast.Call:
			// loader.sampler.set_epoch(epoch)
			if a, ok := n.Func.(*ast.Attribute); ok && a.Attr == "set_epoch" {
				if s, ok := a.Value.(*ast.Attribute); ok && s.Attr == "sampler" {
					if d := dotted(s.Value); d != "" {
						loaders[d] = true
					}
				}
			}
		}
		return true
	})
	return made, loaders, distSampler
}

// evenLoaderCall reports a call given sampler=<a DistributedSampler>.
func evenLoaderCall(c *ast.Call, distSampler func(ast.Expr) bool) bool {
	for _, k := range c.Keywords {
		if k.Arg == "sampler" && distSampler(k.Value) {
			return true
		}
	}
	return false
}

// evenLoaderParam reports a parameter of the function being lowered that
// every call of it in the program hands a loader over a
// DistributedSampler, built in the caller (minllm's evaluate(model,
// loader), called with the validation loaders of its training scripts).
// A function nothing calls is not judged.
func (l *lowerer) evenLoaderParam(name string) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || name == "" {
		return false
	}
	_, args, ok := l.defOf(l.fn)
	if !ok {
		return false
	}
	params := args.PositionalNames()
	idx := slices.Index(params, name)
	if idx < 0 {
		return false
	}
	seen, calls := map[*rules.Function]bool{}, 0
	for _, f := range l.r.Prog().Funcs {
		if f == l.fn || seen[f] || !slices.ContainsFunc(f.Calls, func(c *rules.Call) bool { return c.Callee == l.fn }) {
			continue
		}
		seen[f] = true
		body, _, _, ok := defParts(fd.FuncDef(f))
		if !ok {
			return false
		}
		_, loaders, _ := evenLoaders(body)
		even := true
		ast.InspectBody(body, func(n ast.Node) bool {
			c, isCall := n.(*ast.Call)
			if !even || !isCall {
				return even
			}
			if _, fn := l.callee(c); fn != l.fn {
				return true
			}
			calls++
			a := paramArgument(c, params, len(params), idx)
			switch x := a.(type) {
			case *ast.Call:
				even = evenLoaderCall(x, func(e ast.Expr) bool {
					sc, ok := e.(*ast.Call)
					return ok && lastDotted(sc.Func) == "DistributedSampler"
				})
			default:
				even = a != nil && loaders[dotted(a)]
			}
			return even
		})
		if !even {
			return false
		}
	}
	return calls > 0
}

// namesStopIteration reports a handler type that is, or includes,
// StopIteration.
func namesStopIteration(e ast.Expr) bool {
	if t, ok := e.(*ast.Tuple); ok {
		for _, x := range t.Elts {
			if namesStopIteration(x) {
				return true
			}
		}
		return false
	}
	return lastDotted(e) == "StopIteration"
}

// callsNext reports a statement list that advances an iterator by hand
// (next(it), it.__next__()).
func callsNext(body []ast.Stmt) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				switch f := c.Func.(type) {
				case *ast.Name:
					found = found || f.Id == "next"
				case *ast.Attribute:
					found = found || f.Attr == "__next__"
				}
			}
			return !found
		})
	}
	return found
}

// oomPath returns the statements a handler runs for an out-of-memory
// error: the whole body of `except torch.cuda.OutOfMemoryError`, or, in a
// broader handler (RuntimeError, Exception, bare), the arm of an `if`
// that tests for it (`"out of memory" in str(e)`, `isinstance(e,
// torch.OutOfMemoryError)`) and what follows that if. nil: the handler
// does not handle such errors.
func oomPath(h *ast.ExceptHandler) []ast.Stmt {
	if h.Type != nil && mentionsOOM(h.Type) {
		return h.Body
	}
	if h.Type != nil && !broadException(h.Type) {
		return nil
	}
	for i, s := range h.Body {
		s, ok := s.(*ast.If)
		if !ok || !mentionsOOM(s.Test) {
			continue
		}
		if b, ok := s.Test.(*ast.BoolOp); ok && b.Op == ast.And && !negated(s.Test) {
			for _, v := range b.Values {
				if singleProcess(v) {
					// if not distributed and "out of memory" in str(e):
					// the recovery is for single-process runs.
					return nil
				}
			}
		}
		arm := s.Body
		if negated(s.Test) {
			// if "out of memory" not in str(e): raise
			arm = s.Orelse
		}
		if exits(arm) {
			return arm
		}
		return append(append([]ast.Stmt{}, arm...), h.Body[i+1:]...)
	}
	return nil
}

// negated reports a test that holds when its subject is absent: `not x`,
// `a not in b`.
func negated(test ast.Expr) bool {
	switch t := test.(type) {
	case *ast.UnaryOp:
		return t.Op == ast.Not
	case *ast.Compare:
		return len(t.Ops) == 1 && t.Ops[0] == ast.NotIn
	}
	return false
}

// mentionsOOM reports an expression naming the out-of-memory error: a
// name ending in OutOfMemoryError, or a string constant containing "out of
// memory".
func mentionsOOM(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Name:
			found = strings.HasSuffix(n.Id, "OutOfMemoryError") || oomPredicates[n.Id]
		case *ast.Attribute:
			found = strings.HasSuffix(n.Attr, "OutOfMemoryError") || oomPredicates[n.Attr]
		case *ast.Constant:
			found = n.Type == ast.ConstStr && strings.Contains(strings.ToLower(n.Str), "out of memory")
		}
		return !found
	})
	return found
}

// oomPredicates are library tests of whether an exception is an
// out-of-memory error: accelerate's should_reduce_batch_size(e), which
// its find_executable_batch_size and copies of it (uniem) retry on.
var oomPredicates = map[string]bool{"should_reduce_batch_size": true}

// broadException reports handler types that catch an out-of-memory error
// among others: RuntimeError (its base class), Exception, BaseException.
func broadException(e ast.Expr) bool {
	return catches(e, "RuntimeError", "Exception", "BaseException")
}

// falseByCallers reports a test that is false on every call of the
// function: a parameter every caller leaves at a false default or passes
// false, alone or as an operand of `and` (`if use_cached and
// os.path.exists(path):`, SSD's inference, which no caller asks to use
// its cache): it asks no rank anything.
func (l *lowerer) falseByCallers(test ast.Expr) bool {
	po, ok := l.r.(ParamOmitter)
	if !ok {
		return false
	}
	operands := []ast.Expr{test}
	if b, isBool := test.(*ast.BoolOp); isBool && b.Op == ast.And {
		operands = b.Values
	}
	for _, e := range operands {
		if n, isName := e.(*ast.Name); isName && l.isParam(n.Id) && po.ParamFalse(l.fn, n.Id) {
			return true
		}
	}
	return false
}

// isParam reports a parameter of the function being lowered that its
// body never rebinds.
func (l *lowerer) isParam(v string) bool {
	return paramNames(l.node)[v] && !storesName(l.body, v)
}

// singleAfterRaise reports a recovery path that first re-raises whenever
// the job is distributed (`if dist.is_initialized(): raise`, `if
// world_size > 1: raise`): what follows runs in a single process only.
func (l *lowerer) singleAfterRaise(path []ast.Stmt) bool {
	for _, s := range path {
		s, ok := s.(*ast.If)
		if !ok || len(s.Orelse) > 0 || !raises(s.Body) {
			continue
		}
		if ok, single := l.distributedTest(s.Test); ok && !single {
			return true
		}
		if multiWorld(s.Test) || distributedFlag(s.Test) {
			return true
		}
	}
	return false
}

// distributedFlag reports a flag named for distributed training
// (distributed, self.is_distributed, args.ddp, use_ddp).
func distributedFlag(e ast.Expr) bool {
	d := dotted(e)
	if d == "" {
		return false
	}
	name := strings.ToLower(lastName(d))
	return strings.Contains(name, "distributed") || strings.Contains(name, "ddp")
}

// singleProcess reports a test that holds only when the job is a single
// process: `not distributed`, `not dist.is_initialized()`,
// `world_size == 1`.
func singleProcess(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryOp); ok && u.Op == ast.Not {
		if distributedFlag(u.Operand) {
			return true
		}
		if c, ok := u.Operand.(*ast.Call); ok && lastDotted(c.Func) == "is_initialized" {
			return true
		}
		return false
	}
	op, k, ok := worldSizeCompare(e)
	if !ok {
		return false
	}
	switch op {
	case ast.Eq, ast.LtE:
		return k == 1
	case ast.Lt:
		return k == 2
	}
	return false
}

// SingleProcessArm reports an if test that asks whether the job runs in
// one process (`world_size == 1`, `not dist.is_initialized()`, or the
// else of `world_size > 1`): ok, and whether that one-process arm is the
// test's body (inThen) or its else.
func SingleProcessArm(test ast.Expr) (ok, inThen bool) {
	if singleProcess(test) {
		return true, true
	}
	if multiWorld(test) {
		return true, false
	}
	if u, isNot := test.(*ast.UnaryOp); isNot && u.Op == ast.Not && multiWorld(u.Operand) {
		return true, true
	}
	return false, false
}

// worldSizeCompare takes apart `world_size OP k` (any name or call
// ending in world_size: args.world_size, dist.get_world_size(); or
// accelerate's num_processes).
func worldSizeCompare(e ast.Expr) (op ast.CmpOp, k int64, ok bool) {
	c, isCmp := e.(*ast.Compare)
	if !isCmp || len(c.Ops) != 1 || len(c.Comparators) != 1 {
		return 0, 0, false
	}
	left := c.Left
	if call, isCall := left.(*ast.Call); isCall {
		left = call.Func
	}
	if name := lastDotted(left); !strings.HasSuffix(name, "world_size") && name != "num_processes" && name != "num_gpus" {
		// (accelerate's accelerator.num_processes counts the ranks
		// too, as does num_gpus in the EDM family's options:
		// `num_gpus=dist.get_world_size()`)
		return 0, 0, false
	}
	n, isConst := c.Comparators[0].(*ast.Constant)
	if !isConst || n.Type != ast.ConstInt {
		return 0, 0, false
	}
	return c.Ops[0], n.Int, true
}

// multiWorld reports `world_size > 1` and `world_size != 1` (any name or
// call ending in world_size, get_world_size()).
func multiWorld(test ast.Expr) bool {
	op, k, ok := worldSizeCompare(test)
	return ok && k == 1 && (op == ast.Gt || op == ast.NotEq)
}

// zero3Generate records a generate() call on a model whose parameters
// DeepSpeed ZeRO-3 partitions, without synced_gpus=True: each new token
// is a forward that all-gathers the parameters, and each rank stops at
// its own end-of-sequence token, so a rank that finishes early moves on
// while the others wait in the next all-gather (R16). Recent transformers
// turn synced_gpus on by themselves when they know of ZeRO-3, which they
// do when the program builds an HfDeepSpeedConfig; a bare
// deepspeed.initialize(config={"zero_optimization": {"stage": 3}}) leaves
// them unaware.
func (l *lowerer) zero3Generate(c *ast.Call) {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "generate" || l.zero3 == nil && !l.lightningZero3() {
		return
	}
	for _, k := range c.Keywords {
		if k.Arg == "synced_gpus" && !isFalse(k.Value) {
			return
		}
	}
	root := a.Value
	for {
		x, ok := root.(*ast.Attribute)
		if !ok {
			break
		}
		root = x.Value
	}
	n, ok := root.(*ast.Name)
	if !ok {
		return
	}
	if !l.zero3[n.Id] {
		// Under Lightning's ZeRO-3 strategy every module of the
		// LightningModule is partitioned: a library generate() on one of
		// self's submodules (self.lm.generate) gathers its parameters per
		// token. The program's own generate methods are read where they
		// call the library's.
		if _, fn := l.callee(c); fn != nil || !l.lightningZero3() || n.Id != "self" || a.Value == root {
			return
		}
	}
	op := &rules.OpRef{Op: "generate", Group: worldGroup, Pos: l.pos(c.Pos)}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Pos), Cond: l.text(c.Func), Then: []*rules.OpRef{op}, StopsEarly: true})
}

// zero3Models returns the locals of body that hold a model whose
// parameters ZeRO-3 partitions: the engine deepspeed.initialize returns
// and the model handed to it, when its config is a dict literal (or a
// local bound to one) with zero_optimization.stage 3; what accelerate's
// prepare() returns and is handed, when body builds a
// DeepSpeedPlugin(zero_stage=3). nil when there is
// none, or when the file builds an HfDeepSpeedConfig.
func (l *lowerer) zero3Models(body []ast.Stmt) map[string]bool {
	accelerated := callsNamed(body, "prepare") && zero3Plugin(body)
	if !callsNamed(body, "initialize") && !accelerated {
		return nil
	}
	dicts := map[string]*ast.Dict{}
	var out map[string]bool
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		switch n := n.(type) {
		case nil, *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return
		case *ast.Assign:
			if d, ok := n.Value.(*ast.Dict); ok {
				for _, t := range n.Targets {
					if nm, ok := t.(*ast.Name); ok {
						dicts[nm.Id] = d
					}
				}
			}
			if len(n.Targets) == 1 && out != nil {
				// net = accelerator.unwrap_model(model), or model.module:
				// ZeRO-3's hooks sit on the module itself, so its forward
				// gathers the parameters unwrapped too (ConsisID's
				// validation on the main process).
				if t, isName := n.Targets[0].(*ast.Name); isName && zero3Unwrap(n.Value, out) {
					out[t.Id] = true
				}
			}
			c, ok := n.Value.(*ast.Call)
			if sub, isSub := n.Value.(*ast.Subscript); isSub {
				// engine = deepspeed.initialize(…)[0]: the engine alone.
				if i, isInt := intConst(sub.Slice); isInt && i == 0 {
					if inner, isCall := sub.Value.(*ast.Call); isCall && lastDotted(inner.Func) == "initialize" {
						c, ok = inner, true
					}
				}
			}
			if ok && accelerated && lastDotted(c.Func) == "prepare" {
				// accelerate with a ZeRO-3 plugin: what prepare()
				// returns, and the models handed to it.
				if out == nil {
					out = map[string]bool{}
				}
				for _, t := range n.Targets {
					for _, name := range targetNames(t) {
						out[name] = true
					}
				}
				for _, a := range c.Args {
					if nm, isName := a.(*ast.Name); isName {
						out[nm.Id] = true
					}
				}
				break
			}
			if !ok || lastDotted(c.Func) != "initialize" {
				break
			}
			st := l.zeroStage(c, dicts)
			if st >= 0 && st < 3 {
				for _, t := range n.Targets {
					if names := targetNames(t); len(names) > 0 {
						if l.replicated == nil {
							l.replicated = map[string]bool{}
						}
						l.replicated[names[0]] = true
					}
				}
			}
			if st == 3 {
				if out == nil {
					out = map[string]bool{}
				}
				for _, t := range n.Targets {
					names := targetNames(t)
					if len(names) > 0 {
						out[names[0]] = true // the engine
					}
				}
				if m := arg(c, api.Arg{Pos: 1, Name: "model"}); m != nil {
					if nm, ok := m.(*ast.Name); ok {
						out[nm.Id] = true
					}
				}
			}
		}
		ast.Children(n, visit)
	}
	for _, s := range body {
		visit(s)
	}
	if out != nil && bytes.Contains(l.file.Src, []byte("HfDeepSpeedConfig")) {
		return nil
	}
	return out
}

// zero3Unwrap reports the module a wrapper of zero3 holds:
// unwrap_model(m) (accelerate's, transformers'), m.module.
func zero3Unwrap(e ast.Expr, zero3 map[string]bool) bool {
	switch e := e.(type) {
	case *ast.Attribute:
		n, ok := e.Value.(*ast.Name)
		return ok && e.Attr == "module" && zero3[n.Id]
	case *ast.Call:
		if lastDotted(e.Func) != "unwrap_model" || len(e.Args) == 0 {
			return false
		}
		n, ok := e.Args[0].(*ast.Name)
		return ok && zero3[n.Id]
	}
	return false
}

// lightningZero3 reports a program that runs Lightning with DeepSpeed
// ZeRO-3 (strategy="deepspeed_stage_3…", DeepSpeedStrategy(stage=3)).
// Lightning builds no HfDeepSpeedConfig, so transformers' generate()
// does not turn synced_gpus on by itself (MolCA's captioning).
func (l *lowerer) lightningZero3() bool {
	m := l.memo()
	m.lightningZero3Once.Do(func() { m.lightningZero3 = LightningZero3(l.r.Prog()) })
	return m.lightningZero3
}

// LightningZero3 reports a program with a file that selects Lightning's
// DeepSpeed ZeRO-3 strategy (lightningZero3); the model lowers the
// functions that call generate() in such a program.
func LightningZero3(prog *rules.Program) bool {
	for _, f := range prog.Files {
		if bytes.Contains(f.Src, []byte("deepspeed_stage_3")) || bytes.Contains(f.Src, []byte("DeepSpeedStrategy")) && stage3Keyword.Match(f.Src) {
			return true
		}
	}
	return false
}

// stage3Keyword finds DeepSpeedStrategy's stage=3 keyword.
var stage3Keyword = regexp.MustCompile(`DeepSpeedStrategy\(\s*(?:[^()]*,\s*)?stage\s*=\s*3\b`)

// zero3Plugin reports a DeepSpeedPlugin(zero_stage=3) built in body, for
// accelerate's Accelerator(deepspeed_plugin=…).
func zero3Plugin(body []ast.Stmt) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found && lastDotted(c.Func) == "DeepSpeedPlugin" {
			for _, k := range c.Keywords {
				if v, isConst := k.Value.(*ast.Constant); k.Arg == "zero_stage" && isConst && v.Type == ast.ConstInt && v.Int == 3 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// zeroStage returns the ZeRO stage a deepspeed.initialize call's config
// selects, when the config is a dict literal (or a local bound to one):
// its zero_optimization.stage, 0 when it has no zero_optimization; -1
// when the call or its config is anything else.
func (l *lowerer) zeroStage(c *ast.Call, dicts map[string]*ast.Dict) int64 {
	if ext, _ := l.callee(c); ext != "deepspeed.initialize" {
		return -1
	}
	cfg := arg(c, api.Arg{Pos: -1, Name: "config"})
	if cfg == nil {
		cfg = arg(c, api.Arg{Pos: -1, Name: "config_params"})
	}
	d, ok := cfg.(*ast.Dict)
	if !ok {
		if nm, isName := cfg.(*ast.Name); isName {
			d = dicts[nm.Id]
			if mv, ok := l.r.(ModuleValuer); ok && d == nil && !boundLocally(l.node)[nm.Id] {
				// DS_CONFIG = {…} at the module's top level.
				d, _ = mv.ModuleValue(l.fn, nm.Id).(*ast.Dict)
			}
		}
	}
	if d == nil || slices.ContainsFunc(d.Keys, func(k ast.Expr) bool { return k == nil }) {
		return -1 // no literal, or **more of it from elsewhere
	}
	zero := dictValue(d, "zero_optimization")
	if zero == nil {
		return 0
	}
	zd, ok := zero.(*ast.Dict)
	if !ok {
		return -1
	}
	k, ok := dictValue(zd, "stage").(*ast.Constant)
	if !ok || k.Type != ast.ConstInt || k.Big != nil {
		return -1
	}
	return k.Int
}

// dictValue returns the value of a dict literal's constant string key.
func dictValue(d *ast.Dict, key string) ast.Expr {
	for i, k := range d.Keys {
		if s, ok := constStr(k); ok && s == key && i < len(d.Values) {
			return d.Values[i]
		}
	}
	return nil
}

// batchLoop records the batch variable of a loop over a data loader:
// `for batch in train_loader`, `for step, batch in enumerate(loader)`,
// through tqdm(...) too. Each rank loads its own batches.
func (l *lowerer) batchLoop(iter, target ast.Expr) {
	src := iter
	batch := target
walk:
	for {
		c, ok := src.(*ast.Call)
		if !ok || len(c.Args) == 0 {
			break
		}
		switch lastDotted(c.Func) {
		case "enumerate":
			if elts := ast.SeqElts(batch); len(elts) == 2 {
				batch = elts[1]
			}
		case "tqdm", "iter":
		default:
			if strings.Contains(strings.ToLower(lastDotted(c.Func)), "loader") {
				// for data in DataLoader(ds, batch_size=None): a loader
				// made in place.
				src = c.Func
				break walk
			}
			return
		}
		src = c.Args[0]
	}
	name := strings.ToLower(lastDotted(src))
	if !strings.Contains(name, "loader") {
		return
	}
	for _, n := range targetNames(batch) {
		if l.batchVars == nil {
			l.batchVars = map[string]bool{}
		}
		l.batchVars[n] = true
	}
}

// batchTest reports a test of whether this rank's batch is missing or
// empty: `batch is None`, `not batch`, `len(batch) == 0`, `x.numel() ==
// 0`, or an .all()/.any() over its contents (`if (mask == 0).all():
// continue`). A collate function that drops bad samples, or padding, can
// make one rank's batch empty while the others' are not.
func (l *lowerer) batchTest(test ast.Expr) bool {
	if len(l.batchVars) == 0 {
		return false
	}
	mentions := l.mentionsBatch
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			return mentions(t.Operand) || l.batchTest(t.Operand)
		}
	case *ast.BoolOp:
		for _, v := range t.Values {
			if l.batchTest(v) {
				return true
			}
		}
	case *ast.Compare:
		if len(t.Ops) != 1 || len(t.Comparators) != 1 {
			return false
		}
		if t.Ops[0] == ast.Is || t.Ops[0] == ast.IsNot || (t.Ops[0] == ast.Eq || t.Ops[0] == ast.NotEq) && isNone(t.Comparators[0]) {
			if n, ok := t.Left.(*ast.Name); ok && l.loopDone[n.Id] {
				// `batch = None; for batch in loader: …; if batch is
				// None:` asks whether the loop ran at all: whether this
				// rank's loader was empty, which the ranks' loaders answer
				// alike unless a rank has no data whatever.
				return false
			}
			return isNone(t.Comparators[0]) && mentions(t.Left)
		}
		// An emptiness test: len(x) == 0, x.numel() == 0, x.size(0) == 0,
		// x.shape[0] == 0 or x.size()[0] <= 0, either way round.
		for _, pair := range [][2]ast.Expr{{t.Left, t.Comparators[0]}, {t.Comparators[0], t.Left}} {
			if k, ok := pair[1].(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
				if size := sizeOf(pair[0]); size != nil {
					return mentions(size)
				}
				// num_utts = batch[0].size(0); if num_utts == 0: continue
				// (asv-subtools' online trainer).
				if n, ok := pair[0].(*ast.Name); ok && l.batchSizeLocal(n.Id) {
					return true
				}
			}
		}
		switch t.Ops[0] {
		case ast.Lt, ast.LtE, ast.Gt, ast.GtE:
			// Too few supervised tokens in this rank's batch
			// (`batch["loss_mask"].sum() < min_loss_tokens`).
			return l.batchAmount(t.Left) || l.batchAmount(t.Comparators[0])
		}
	case *ast.Call:
		if a, ok := t.Func.(*ast.Attribute); ok && (a.Attr == "all" || a.Attr == "any") {
			return mentions(a.Value)
		}
	}
	return false
}

// batchSizeLocal reports a local that the function binds only to the
// size of this rank's batch (sizeOf).
func (l *lowerer) batchSizeLocal(name string) bool {
	binds, sized := 0, 0
	ast.InspectBody(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if t, ok := n.Targets[0].(*ast.Name); ok && len(n.Targets) == 1 && t.Id == name {
				binds++
				if size := sizeOf(n.Value); size != nil && l.mentionsBatch(size) {
					sized++
				}
				return false
			}
		case *ast.Name:
			if n.Id == name && n.Ctx == ast.Store {
				binds++
			}
		}
		return true
	})
	return binds > 0 && binds == sized
}

// sizeOf returns the expression whose size e reads (len(x), x.numel(),
// x.nelement(), x.size(0), x.shape[i], x.size()[i]), or nil.
func sizeOf(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.Call:
		switch lastDotted(x.Func) {
		case "len", "numel", "size", "nelement":
			return x
		}
	case *ast.Subscript:
		if a, ok := x.Value.(*ast.Attribute); ok && a.Attr == "shape" {
			return a.Value
		}
		if c, ok := x.Value.(*ast.Call); ok && len(c.Args) == 0 && lastDotted(c.Func) == "size" {
			return c
		}
	}
	return nil
}

// mentionsBatch reports whether e reads this rank's batch (not through a
// collective that makes it every rank's).
func (l *lowerer) mentionsBatch(e ast.Expr) bool {
	return dependsOn(e, l.batchVars, func(n ast.Node) (bool, bool) {
		if c, ok := n.(*ast.Call); ok && l.uniformCall(c) {
			return false, false // gathered or reduced: the same on every rank
		}
		return false, true
	})
}

// noneForEmptyBatch reports a call of a program function that returns
// None (or nothing) when the batch the call hands it fails a test at the
// top of its body (`def forward_pass(model, batch): if not batch: return
// None`, SkySense's trainer): whether the result is None is a test of
// this rank's batch.
func (l *lowerer) noneForEmptyBatch(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok || len(l.batchVars) == 0 {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil {
		return false
	}
	body, args, ok := l.defOf(fn)
	if !ok {
		return false
	}
	params := args.PositionalNames()
	if len(params) == 0 {
		return false
	}
	shift := receiverShift(c, params[0])
	batchParams := map[string]bool{}
	for i, a := range c.Args {
		if i+shift < len(params) && l.mentionsBatch(a) {
			batchParams[params[i+shift]] = true
		}
	}
	for _, k := range c.Keywords {
		if k.Arg != "" && l.mentionsBatch(k.Value) {
			batchParams[k.Arg] = true
		}
	}
	if len(batchParams) == 0 {
		return false
	}
	// What the body computes from the batch (`out = self.net(data["x"])`)
	// is this rank's too: a None returned on a test of it (`if
	// out.isnan().any(): return None`, ARTrack's explore()) depends on the
	// batch as much.
	for changed := true; changed; {
		changed = false
		ast.InspectBody(body, func(n ast.Node) bool {
			a, ok := ast.AsAssign(n)
			if !ok || !mentions(a.Value, batchParams) {
				return true
			}
			for _, t := range a.Targets {
				if nm, ok := t.(*ast.Name); ok && !batchParams[nm.Id] {
					batchParams[nm.Id], changed = true, true
				}
			}
			return true
		})
	}
	for _, st := range body {
		i, ok := st.(*ast.If)
		if !ok || len(i.Body) != 1 {
			continue
		}
		r, ok := i.Body[0].(*ast.Return)
		if !ok || r.Value != nil && !isNone(r.Value) && !allNone(r.Value) {
			continue
		}
		if mentions(i.Test, batchParams) {
			return true
		}
	}
	return false
}

// allNone reports a tuple display of Nones (`return None, None, None`).
func allNone(e ast.Expr) bool {
	t, ok := e.(*ast.Tuple)
	if !ok || len(t.Elts) == 0 {
		return false
	}
	for _, x := range t.Elts {
		if !isNone(x) {
			return false
		}
	}
	return true
}

// batchAmount reports a count or total of this rank's batch contents:
// len(x), x.numel(), x.sum(), x.count_nonzero(), torch.count_nonzero(x)
// and their .item(), where x is a part of the batch, or a local holding
// one.
func (l *lowerer) batchAmount(e ast.Expr) bool {
	if n, ok := e.(*ast.Name); ok {
		return l.amountVars[n.Id] // tokens = batch["loss_mask"].sum()
	}
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	if a, ok := c.Func.(*ast.Attribute); ok {
		switch a.Attr {
		case "item":
			return len(c.Args) == 0 && l.batchAmount(a.Value)
		case "sum", "count_nonzero", "numel", "nelement":
			if len(c.Args) == 0 && l.mentionsBatch(a.Value) {
				return true
			}
		}
	}
	switch lastDotted(c.Func) {
	case "len", "count_nonzero", "sum", "numel":
		return len(c.Args) == 1 && l.mentionsBatch(c.Args[0])
	}
	return false
}

// batchPart reports a value that is a part of a batch variable: an item
// or attribute of it (batch["attention_mask"], batch.x), or such a part
// moved to a device. What the model computes from the batch is no part.
func (l *lowerer) batchPart(e ast.Expr) bool {
	if len(l.batchVars) == 0 || e == nil {
		return false
	}
	for {
		switch x := e.(type) {
		case *ast.Name:
			return l.batchVars[x.Id]
		case *ast.Subscript:
			e = x.Value
		case *ast.Attribute:
			e = x.Value
		case *ast.Call:
			// dict(batch): the same fields in a new container.
			if f, ok := x.Func.(*ast.Name); ok && f.Id == "dict" && len(x.Args) == 1 && len(x.Keywords) == 0 {
				e = x.Args[0]
				continue
			}
			a, ok := x.Func.(*ast.Attribute)
			if !ok || !placementMethods[a.Attr] && !batchCopies[a.Attr] {
				return false
			}
			e = a.Value
		default:
			return false
		}
	}
}

// batchCopies are the methods of a batch object that hand back its
// fields in another container (Bagel's `data.cuda(device).to_dict()`).
var batchCopies = map[string]bool{"to_dict": true, "copy": true}

// zero3Forward reports a forward of a model that ZeRO-3 partitions
// (engine(x), engine.module(x), model.forward(x) for a model handed to
// deepspeed.initialize): it all-gathers the parameters.
func (l *lowerer) zero3Forward(c *ast.Call) bool {
	if l.zero3 == nil {
		return false
	}
	f := c.Func
	method := false
	if a, ok := f.(*ast.Attribute); ok && a.Attr != "module" {
		// model.forward(x), or a method of the model's own class that
		// runs its submodules (starVLA's `model.predict_action(x)`):
		// ZeRO-3's hooks on each submodule gather its parameters.
		f, method = a.Value, a.Attr != "forward"
	}
	if a, ok := f.(*ast.Attribute); ok && a.Attr == "module" {
		f = a.Value
	}
	n, ok := f.(*ast.Name)
	if !ok || !l.zero3[n.Id] {
		return false
	}
	if !method {
		return true
	}
	_, fn := l.callee(c)
	return fn != nil && l.runsSubmodules(fn)
}

// runsSubmodules reports a method whose body calls a module through its
// receiver: self(x), self.forward(x), or an attribute of self whose call
// is a torch.nn module's or a program module's forward (self.net(x)).
func (l *lowerer) runsSubmodules(fn *rules.Function) bool {
	body, args, ok := l.defOf(fn)
	if !ok || len(args.Args) == 0 {
		return false
	}
	self := args.Args[0].Arg
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		switch f := c.Func.(type) {
		case *ast.Name:
			found = f.Id == self
		case *ast.Attribute:
			if !isName(f.Value, self) {
				break
			}
			if f.Attr == "forward" {
				found = true
				break
			}
			ext, callee := l.callee(c)
			last := ext[strings.LastIndexByte(ext, '.')+1:]
			found = strings.HasPrefix(ext, "torch.nn.") && last != "" && unicode.IsUpper(rune(last[0])) ||
				callee != nil && (strings.HasSuffix(callee.Name, ".forward") || strings.HasSuffix(callee.Name, ".__call__"))
		}
		return !found
	})
	return found
}

// zero3Handed reports a call of a program function that hands a model
// ZeRO-3 partitions to a parameter the function runs (`evals(engine, x)`
// whose body calls `model(x)`, `model.forward(x)` or `model.generate(…)`;
// tofu's evaluation helpers): the forward, and its parameters'
// all-gather, runs inside the call.
func (l *lowerer) zero3Handed(c *ast.Call) bool {
	if l.zero3 == nil {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false
	}
	params, from := l.boundArgs(c, fn)
	if len(params) == 0 {
		return false
	}
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	for i, p := range params {
		if l.zero3[from[i]] && runsParam(body, p) {
			return true
		}
	}
	return false
}

// runsParam reports whether body (nested definitions left out) calls the
// parameter name, its forward or its generate.
func runsParam(body []ast.Stmt, name string) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found {
			f := c.Func
			if a, ok := f.(*ast.Attribute); ok && (a.Attr == "forward" || a.Attr == "generate") {
				f = a.Value
			}
			if x, ok := f.(*ast.Name); ok && x.Id == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// callsNamed reports whether body (nested definitions included) calls a
// function or method with the given name.
func callsNamed(body []ast.Stmt, name string) bool {
	found := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			if c, ok := n.(*ast.Call); ok && lastDotted(c.Func) == name {
				found = true
			}
			return !found
		})
		if found {
			break
		}
	}
	return found
}

// lateDel reports a finally clause that first deletes a local the try
// body binds once, after its last collective (`del local, fitness`,
// GAPA's workers): on a rank whose work raised before that binding, the
// del raises UnboundLocalError and the rest of the clause never runs, so
// what follows runs only once the collectives are done.
func (l *lowerer) lateDel(body, final []ast.Stmt) bool {
	d, ok := final[0].(*ast.Delete)
	if !ok {
		return false
	}
	var params map[string]bool
	if _, args, ok := l.defOf(l.fn); ok {
		params = argSet(args)
	}
	stores := func(stmts []ast.Stmt, name string) int {
		n := 0
		ast.InspectBody(stmts, func(x ast.Node) bool {
			if nm, ok := x.(*ast.Name); ok && nm.Id == name && nm.Ctx == ast.Store {
				n++
			}
			return true
		})
		return n
	}
	for _, t := range d.Targets {
		nm, ok := t.(*ast.Name)
		if !ok || params[nm.Id] || stores(l.body, nm.Id) != 1 {
			continue
		}
		for i, st := range body {
			if stores([]ast.Stmt{st}, nm.Id) == 0 {
				continue
			}
			late := true
			for _, o := range l.ops(body[i:]) {
				if o.Op != "destroy" && o.Op != "init" {
					late = false
				}
			}
			if late {
				return true
			}
			break
		}
	}
	return false
}

// teardownBranch records destroy_process_group in a finally clause or an
// exception handler of a try whose body issues collectives. On the rank
// whose work raised, it runs while the other ranks still wait in the
// collectives that rank never joined; destroying a group is itself
// collective (NCCL flushes or aborts its communicators with the peers), so
// that rank hangs there instead of exiting, and the launcher, which tears
// the job down when a rank dies, never does (torchtitan#1342).
//
// So is a destroy among the statements after the try (rest) when a
// handler swallows the error: the failed rank goes on to it (timesfm's
// finetuner: `except KeyboardInterrupt: log`, then its cleanup).
// releasedInFinally reports the two halves of a main-process-first
// block: the try body's only collectives are those of an `if` on the
// rank, and the finally block's first ones the same under the opposite
// test (`try: if rank > 0: barrier(); yield / finally: if rank == 0:
// barrier()`). The finally's barrier is the release the other ranks are
// waiting in, however the body ends.
func (l *lowerer) releasedInFinally(body, final []ast.Stmt) bool {
	find := func(stmts []ast.Stmt) *ast.If {
		var found *ast.If
		for _, st := range stmts {
			if x, ok := st.(*ast.If); ok && len(x.Orelse) == 0 && len(l.ops(x.Body)) > 0 {
				if found != nil {
					return nil
				}
				found = x
			}
		}
		return found
	}
	hold := find(body)
	if hold == nil || !l.isRank(hold.Test) {
		return false
	}
	want := l.ops(hold.Body)
	if !SameOps(want, l.ops(body)) {
		return false
	}
	// The release comes first in the finally clause; barriers every
	// rank issues after it (tight-budget-llm-adaptation's sync_at_end)
	// meet each other.
	for _, st := range final {
		ops := l.ops([]ast.Stmt{st})
		if len(ops) == 0 {
			continue
		}
		x, ok := st.(*ast.If)
		return ok && len(x.Orelse) == 0 && oppositeRankTests(hold.Test, x.Test) && SameOps(want, ops)
	}
	return false
}

func (l *lowerer) teardownBranch(body []ast.Stmt, handlers []*ast.ExceptHandler, final, rest []ast.Stmt) {
	if l.notDist > 0 || l.initsFakeGroup() {
		return
	}
	work := false
	for _, o := range l.ops(body) {
		if o.Op != "destroy" && o.Op != "init" {
			work = true
			break
		}
	}
	if !work {
		return
	}
	destroys := func(stmts []ast.Stmt) []*rules.OpRef {
		var out []*rules.OpRef
		for _, o := range l.ops(stmts) {
			if o.Op == "destroy" && !l.hostGroup(o.Group) {
				out = append(out, o)
			}
		}
		return out
	}
	if ops := destroys(final); len(ops) > 0 && !l.lateDel(body, final) {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(final[0].Span()), Cond: "finally", Then: ops, Divergence: rules.LocalTeardown})
	} else if ops := barriers(l.ops(final)); len(ops) > 0 && !l.releasedInFinally(body, final) {
		// try: train() / finally: dist.barrier() (aorta's trainer).
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(final[0].Span()), Cond: "finally", Then: ops, Divergence: rules.LocalCleanup})
	}
	handled := false
	for _, h := range handlers {
		if ops := destroys(h.Body); len(ops) > 0 {
			handled = true
			cond := l.exceptClause(h)
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: cond, Then: ops, Divergence: rules.LocalTeardown})
		}
	}
	if handled || len(destroys(final)) > 0 {
		return
	}
	for _, h := range handlers {
		if !l.swallows(h) {
			continue
		}
		// The teardown statements of the block after the try, also
		// under `if dist.is_initialized():`.
		var after []ast.Stmt
		teardown := func(s ast.Stmt) bool {
			if stmtCall(s) == nil {
				return false
			}
			ops := l.ops([]ast.Stmt{s})
			for _, o := range ops {
				if o.Op != "destroy" {
					return false
				}
			}
			return len(ops) > 0 // destroy_process_group(), or a cleanup() helper that calls it
		}
		for _, s := range rest {
			if teardown(s) {
				after = append(after, s)
			} else if i, ok := s.(*ast.If); ok {
				for _, in := range i.Body {
					if teardown(in) {
						after = append(after, in)
					}
				}
			}
		}
		if ops := destroys(after); len(ops) > 0 {
			cond := l.exceptClause(h)
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: cond, Then: ops, Divergence: rules.LocalSwallowedTeardown})
			return
		}
	}
}

// swallows reports a handler for any error (bare, Exception,
// BaseException) or for an interrupt (KeyboardInterrupt) whose body
// neither raises nor leaves: the code after the try runs on the rank
// whose work failed.
func (l *lowerer) swallows(h *ast.ExceptHandler) bool {
	if h.Type != nil && !catches(h.Type, "Exception", "BaseException", "KeyboardInterrupt") {
		return false
	}
	if anyStmt(h.Body, func(s ast.Stmt) bool { _, ok := s.(*ast.Raise); return ok }) || exits(h.Body) {
		return false
	}
	return true
}

// barriers returns the barriers among ops.
func barriers(ops []*rules.OpRef) []*rules.OpRef {
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Op == "barrier" {
			out = append(out, o)
		}
	}
	return out
}

// hostGroup reports a group whose teardown is local, with no peer taking
// part: a gloo (or MPI) group the program made with that backend, or the
// default group when this function initialises it so. (The program-wide
// default group's backend is the first init's, maybe another script's.)
func (l *lowerer) hostGroup(g *rules.Group) bool {
	if g == nil {
		return false
	}
	if g.Kind == rules.GroupAlloc {
		return !g.IsDevice()
	}
	if g.Kind != rules.GroupWorld {
		return false
	}
	for _, in := range l.initBackends(l.node, false) {
		if in.resolved {
			return in.backend == "gloo" || in.backend == "mpi"
		}
	}
	// Every init of the program makes a host group (a setup helper whose
	// backend parameter is "gloo" on every call).
	inits := l.r.Prog().Facts.Inits
	for _, in := range inits {
		if in == nil || (in.Backend != "gloo" && in.Backend != "mpi") {
			return false
		}
	}
	return len(inits) > 0
}

// initsFakeGroup reports a function that initialises torch.distributed
// with the "fake" backend (a FakeStore group that only traces or plans
// sharding in one process): it has no peers to wait in a collective.
// So does one that calls a function of the program doing it
// (autoparallel's setup_fake_process_group_if_needed).
func (l *lowerer) initsFakeGroup() bool {
	for _, in := range l.initBackends(l.node, true) {
		if in.backend == "fake" {
			return true
		}
	}
	return false
}

// initCall is an init_process_group call with a constant backend;
// resolved: the callee is torch's, not a name that merely ends so.
type initCall struct {
	backend  string
	resolved bool
}

// initBackends lists node's init_process_group calls that pass a constant
// backend, in order, and with follow those of the program functions it
// calls (one call deep).
func (l *lowerer) initBackends(node ast.Node, follow bool) []initCall {
	var out []initCall
	ast.Inspect(node, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		ext, fn := l.callee(c)
		resolved := ext == "torch.distributed.init_process_group"
		switch {
		case resolved || fn == nil && strings.HasSuffix(dotted(c.Func), "init_process_group"):
			if b := arg(c, api.Arg{Pos: 0, Name: "backend"}); b != nil {
				if v, ok := constStr(b); ok {
					out = append(out, initCall{backend: v, resolved: resolved})
				}
			}
		case follow && fn != nil && fn != l.fn:
			if body, _, ok := l.defOf(fn); ok {
				for _, st := range body {
					out = append(out, l.initBackends(st, false)...)
				}
			}
		}
		return true
	})
	return out
}

// withGradOff reports a with statement's item that turns autograd off
// (torch.no_grad(), torch.inference_mode(), set_grad_enabled(False)).
func withGradOff(items []*ast.WithItem) bool {
	for _, it := range items {
		e := it.ContextExpr
		if c, ok := e.(*ast.Call); ok {
			if lastDotted(c.Func) == "set_grad_enabled" && len(c.Args) == 1 {
				if k, ok := c.Args[0].(*ast.Constant); ok && k.Type == ast.ConstBool && !k.Bool {
					return true
				}
				continue
			}
			e = c.Func
		}
		if gradModeOff[lastDotted(e)] {
			return true
		}
	}
	return false
}

// gradModeOff names the context managers and decorators that turn
// autograd off (torch.no_grad(), torch.inference_mode()).
var gradModeOff = map[string]bool{"no_grad": true, "inference_mode": true}

// noGradLine reports whether a line of the function being lowered runs
// with autograd off: inside `with torch.no_grad():` (or
// inference_mode(), set_grad_enabled(False)), or anywhere in a function
// decorated with one.
func (l *lowerer) noGradLine(line int) bool { return NoGradAt(l.node, line) }

// NoGradAt reports whether a line of the definition def runs with
// autograd off: inside `with torch.no_grad():` (or inference_mode(),
// set_grad_enabled(False)), or anywhere in a def decorated with one.
func NoGradAt(def ast.Node, line int) bool {
	off := func(e ast.Expr) bool {
		if c, ok := e.(*ast.Call); ok {
			e = c.Func
			if lastDotted(c.Func) == "set_grad_enabled" && len(c.Args) == 1 {
				k, ok := c.Args[0].(*ast.Constant)
				return ok && k.Type == ast.ConstBool && !k.Bool
			}
		}
		return gradModeOff[lastDotted(e)]
	}
	_, _, decos, _ := defParts(def)
	for _, d := range decos {
		if off(d) {
			return true
		}
	}
	found := false
	ast.InspectBody(ast.DefBody(def), func(n ast.Node) bool {
		if found {
			return false
		}
		var items []*ast.WithItem
		switch w := n.(type) {
		case *ast.With:
			items = w.Items
		case *ast.AsyncWith:
			items = w.Items
		default:
			return true
		}
		sp := n.Span()
		if line < int(sp.Lineno) || line > int(sp.EndLineno) {
			return false
		}
		for _, it := range items {
			if off(it.ContextExpr) {
				found = true
			}
		}
		return !found
	})
	return found
}

// perPassOps drops, from what a rank skips by leaving one pass of a loop
// early or the loop itself, DDP forwards under no_grad whose only
// collective is the buffer broadcast: each rank issues it once, on its
// first such forward, however many passes it makes (DiffDock's
// evaluation loop, which skips empty batches; openvla-oft's validation,
// which stops when its time is up).
func (l *lowerer) perPassOps(ops []*rules.OpRef) []*rules.OpRef {
	out := ops[:0:0]
	for _, o := range ops {
		if o.BuffersOnly && o.Site == nil && (o.NoGrad || o.Pos.Path == l.file.Path && l.noGradLine(o.Pos.Line)) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// dropSyncedForwards drops, from the collectives of a rank test's arm,
// the DDP forwards under no_grad, written in the arm itself, whose module
// every rank last ran, before the test, in a no_grad forward outside any
// if (an evaluation loop): DDP cleared require_forward_param_sync there,
// so the arm's forward broadcasts no buffers (tacotron2's rank-0 sample
// after the validation loop).
func (l *lowerer) dropSyncedForwards(ops []*rules.OpRef, s *ast.If) []*rules.OpRef {
	if l.node == nil {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		if o.BuffersOnly && o.Site == nil && o.Pos.Path == l.file.Path && (o.NoGrad || l.noGradLine(o.Pos.Line)) && l.lastForwardNoGrad(o.Pos, s) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// lastForwardNoGrad reports whether the call at p, inside s, runs the
// forward of a module whose last forward before s in the function ran
// under no_grad, outside any if. The module is the callee of a direct
// forward (`model(x)`), or a name handed to a helper that runs one
// (`log_samples(writer, model, …)`), matched to earlier calls the same
// way (`validation_step(model, batch)` in the evaluation loop).
func (l *lowerer) lastForwardNoGrad(p rules.Pos, s *ast.If) bool {
	at := callAt(s, p)
	if at == nil {
		return false
	}
	modules := map[string]bool{}
	if l.forwardsOf(at) {
		modules[dotted(at.Func)] = true
	} else {
		for _, a := range at.Args {
			if d := dotted(a); d != "" {
				modules[d] = true
			}
		}
	}
	// runs reports a call that runs one of the modules' forward: a
	// direct call, or a helper handed one that issues a forward's
	// collective (st is its statement).
	runs := func(c *ast.Call, st ast.Stmt) bool {
		if modules[dotted(c.Func)] {
			return true
		}
		for _, a := range c.Args {
			if modules[dotted(a)] {
				for _, o := range l.ops([]ast.Stmt{st}) {
					if o.BuffersOnly {
						return true
					}
				}
				return false
			}
		}
		return false
	}
	top := int(s.Lineno)
	last, lastOK := 0, false
	var walk func(body []ast.Stmt)
	walk = func(body []ast.Stmt) {
		for _, st := range body {
			if int(st.Span().Lineno) >= top {
				return
			}
			switch st := st.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			case *ast.If:
				if sp := st.Span(); int(sp.EndLineno) >= top {
					// The if that holds s: the arm s is in, which every
					// rank that reaches s runs too.
					arm := st.Body
					if len(st.Orelse) > 0 && int(st.Orelse[0].Span().Lineno) <= top {
						arm = st.Orelse
					}
					walk(arm)
					return
				}
				ast.Inspect(st, func(n ast.Node) bool {
					if c, ok := n.(*ast.Call); ok && int(c.Lineno) > last && runs(c, st) {
						last, lastOK = int(c.Lineno), false
					}
					return true
				})
				continue
			}
			if blocks := ast.ChildBlocks(st); len(blocks) > 0 {
				for _, b := range blocks {
					walk(b)
				}
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				if c, ok := n.(*ast.Call); ok && int(c.Lineno) >= last && runs(c, st) {
					last, lastOK = int(c.Lineno), l.noGradLine(int(c.Lineno))
				}
				return true
			})
		}
	}
	walk(ast.DefBody(l.node))
	if last == 0 || !lastOK {
		return false
	}
	if n := len(l.loopBodies); n > 0 {
		// In a loop, what follows the test runs before it on the next
		// pass: a training forward there turns the broadcast back on.
		end := int(s.Span().EndLineno)
		for _, st := range l.loopBodies[n-1] {
			ok := true
			ast.Inspect(st, func(x ast.Node) bool {
				if c, isCall := x.(*ast.Call); isCall && int(c.Lineno) > end && !l.noGradLine(int(c.Lineno)) && runs(c, st) {
					ok = false
				}
				return ok
			})
			if !ok {
				return false
			}
		}
	}
	return true
}

// callAt returns the call that starts at p (an op's position) inside n,
// or nil.
func callAt(n ast.Node, p rules.Pos) *ast.Call {
	var at *ast.Call
	ast.Inspect(n, func(x ast.Node) bool {
		if c, ok := x.(*ast.Call); ok && int(c.Lineno) == p.Line && int(c.ColOffset)+1 == p.Col {
			at = c
		}
		return at == nil
	})
	return at
}

// forwardsOf reports a call of a module itself (`model(batch)`), not of a
// function: a dotted callee that the call graph does not resolve to a
// def of the program.
func (l *lowerer) forwardsOf(c *ast.Call) bool {
	if dotted(c.Func) == "" {
		return false
	}
	_, fn := l.callee(c)
	return fn == nil
}

// dropRunThisPass drops, from the next passes' collectives that a rank
// leaving the loop at exit skips, the DDP forwards under no_grad whose
// only collective is the buffer broadcast and which every rank ran in
// this pass already, before it reached the exit: a statement of the
// loop's body, before the one holding the exit, that no test guards.
// Each rank has then issued the one broadcast such forwards make, and
// the later ones make none (ReDAL's scoring loops, which leave on a
// rank-offset pool index after the forward).
func (l *lowerer) dropRunThisPass(ops []*rules.OpRef, exit ast.Stmt) []*rules.OpRef {
	if len(l.loopBodies) == 0 {
		return ops
	}
	var ran []ast.Stmt // the unguarded statements of the body before exit's
	for _, st := range l.passPrefix(exit) {
		switch st.(type) {
		case *ast.Assign, *ast.AnnAssign, *ast.AugAssign, *ast.ExprStmt, *ast.With:
			ran = append(ran, st)
		}
	}
	perPass := func(o *rules.OpRef) bool {
		return o.BuffersOnly && o.Site == nil && o.Pos.Path == l.file.Path && (o.NoGrad || l.noGradLine(o.Pos.Line))
	}
	broadcast := false
	for _, o := range ops {
		if perPass(o) && within(ran, o.Pos.Line) {
			broadcast = true
		}
	}
	if !broadcast {
		return ops
	}
	// The pass's first such forward made the broadcast; the others (a
	// Monte Carlo dropout's repeated forwards) make none.
	out := ops[:0:0]
	for _, o := range ops {
		if !perPass(o) {
			out = append(out, o)
		}
	}
	return out
}

// within reports a line inside one of stmts (a with block's body runs
// unguarded too, unless it holds an if).
func within(stmts []ast.Stmt, line int) bool {
	for _, st := range stmts {
		sp := st.Span()
		if line < int(sp.Lineno) || line > int(sp.EndLineno) {
			continue
		}
		guarded := false
		if w, ok := st.(*ast.With); ok {
			ast.InspectBody(w.Body, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.If, *ast.Try, *ast.For, *ast.While, *ast.Break, *ast.Continue, *ast.Return:
					guarded = true
				}
				return !guarded
			})
		}
		return !guarded
	}
	return false
}

// noteSentinel records, for `x = next(it, None)`, that x holds None once
// this rank's iterator is exhausted (sentinels); any other binding of x
// ends that.
func (l *lowerer) noteSentinel(s *ast.Assign) {
	for _, t := range s.Targets {
		if n, ok := t.(*ast.Name); ok {
			delete(l.sentinels, n.Id)
		}
	}
	if len(s.Targets) != 1 {
		return
	}
	n, ok := s.Targets[0].(*ast.Name)
	if !ok {
		return
	}
	c, ok := s.Value.(*ast.Call)
	if !ok || dotted(c.Func) != "next" || len(c.Args) != 2 || !isNone(c.Args[1]) {
		return
	}
	if l.sentinels == nil {
		l.sentinels = map[string]*ast.Assign{}
	}
	l.sentinels[n.Id] = s
}

// sentinelEnd records the rank branch of `if x is None: break` after `x =
// next(it, None)` in a loop: the sentinel form of exhaustBranch's
// `except StopIteration: break`, which leaves the loop on the rank whose
// data runs out first (finetrainers' validation loop).
func (l *lowerer) sentinelEnd(s *ast.If) {
	if l.notDist > 0 || l.loops == 0 || len(s.Orelse) > 0 || len(s.Body) == 0 || len(l.sentinels) == 0 {
		return
	}
	var v string
	switch t := s.Test.(type) {
	case *ast.Compare:
		if n, ok := t.Left.(*ast.Name); ok && len(t.Ops) == 1 && (t.Ops[0] == ast.Is || t.Ops[0] == ast.Eq) && isNone(t.Comparators[0]) {
			v = n.Id
		}
	case *ast.UnaryOp:
		if n, ok := t.Operand.(*ast.Name); ok && t.Op == ast.Not {
			v = n.Id
		}
	}
	at := l.sentinels[v]
	if at == nil {
		return
	}
	switch s.Body[len(s.Body)-1].(type) {
	case *ast.Break, *ast.Return:
	default:
		return
	}
	if l.evenShards([]ast.Stmt{at}) || l.joining > 0 {
		return
	}
	after := l.ops(l.skipped(s.Body))
	then := l.ops(s.Body)
	if len(after) == 0 {
		after = l.ops(l.nextIterations(s.Body))
	}
	if len(after) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(s.Test.Span()), Cond: l.text(s.Test), EarlyExit: true, Then: then, After: after, Divergence: rules.LocalEnd})
}

// isForwardOf reports `m.forward(x)` on a synchronising module m.
func isForwardOf(gs GradSyncer, c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	return ok && a.Attr == "forward" && gs.SyncModule(a.Value)
}

// resumeSkip reports a test that orders a loop variable against a
// position read under a host's file check (`if step < first_step:
// continue`): fsSkippedPasses reports the loop it bounds instead.
func (l *lowerer) resumeSkip(test ast.Expr) bool {
	loopVars := map[string]bool{}
	for _, t := range l.loopTargets {
		if t != nil {
			for _, n := range targetNames(t) {
				loopVars[n] = true
			}
		}
	}
	return len(loopVars) > 0 && l.skipsBefore(test, loopVars)
}
