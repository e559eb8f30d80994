package model

import (
	"bytes"
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Synchronised passes (flow.GradSyncer): loss.backward() on a loss
// computed from the forward of a DistributedDataParallel or FSDP module
// all-reduces the gradients over the module's group, and an FSDP module's
// forward all-gathers its parameters. They are no sites (no rule but
// CV301 compares them), but they take part in the collective sequences
// that rank branches and summaries compare.

// gradSync records the synchronised backward and forward calls.
func (b *builder) gradSync() {
	b.implicitOps = map[*ast.Call]*rules.OpRef{}
	b.syncOps = map[ast.Node][]*rules.OpRef{}
	b.syncBackwards()
	b.shardedForwards()
	b.trainerModelBypasses()
}

// trainerHookBase reports the trainers that hand compute_loss the model
// to run, wrapped for the launch (DistributedDataParallel under
// torchrun), while self.model stays the unwrapped module.
func trainerHookBase(ext string) bool {
	switch ext {
	case "transformers.Trainer", "transformers.trainer.Trainer", "transformers.Seq2SeqTrainer",
		"transformers.trainer_seq2seq.Seq2SeqTrainer":
		return true
	}
	return strings.HasPrefix(ext, "trl.") && strings.HasSuffix(ext, "Trainer")
}

// trainerModelBypasses records an override of a transformers Trainer's
// compute_loss(self, model, inputs, …) that runs the forward on
// self.model (or model.module) and never calls the model it is handed
// (vec2text's Corrector): under a multi-process launch without DeepSpeed
// or FSDP the Trainer passes its DistributedDataParallel wrapper as
// `model` and keeps self.model the module inside, so the loss the
// Trainer's training_step backpropagates never went through DDP's
// forward, and no gradient is all-reduced.
func (b *builder) trainerModelBypasses() {
	for _, f := range b.g.Funcs {
		if f.Class == nil || shortName(f.Name) != "compute_loss" {
			continue
		}
		def, ok := f.Node.(*ast.FunctionDef)
		if !ok || def.Args == nil {
			continue
		}
		params := def.Args.Positional()
		if len(params) < 2 || params[1].Arg != "model" {
			continue
		}
		_, exts := b.g.MRO(f.Class)
		if !slices.ContainsFunc(exts, func(e string) bool { return trainerHookBase(b.t.Canonical(e)) }) {
			continue
		}
		var bypass *ast.Call
		callee := ""
		handed := false
		ast.InspectBody(def.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.Call)
			if !ok {
				return true
			}
			switch fn := c.Func.(type) {
			case *ast.Name:
				handed = handed || fn.Id == "model"
			case *ast.Attribute:
				switch t := pathText(fn); {
				case t == "model.forward":
					handed = true
				case t == "self.model" || t == "model.module":
					if bypass == nil {
						bypass, callee = c, t
					}
				}
			}
			return true
		})
		if bypass == nil || handed {
			continue
		}
		path := f.Module.Path
		at := b.pos(path, bypass)
		b.prog.Bypasses = append(b.prog.Bypasses, &rules.Bypass{
			Func: b.fn(f), Backward: at, Forward: at, Callee: callee, Wrapper: "model", Direct: true,
			TrainerHook: "transformers.Trainer.compute_loss",
		})
	}
}

// forwardingMethods are a module's methods that run its forward.
var forwardingMethods = map[string]bool{"generate": true, "forward": true}

// forwardRunners are library functions that run the forward of the
// module they are handed (profilers counting FLOPs, tracers), by
// canonical name.
var forwardRunners = map[string]bool{
	"fvcore.nn.FlopCountAnalysis":                          true,
	"fvcore.nn.ActivationCountAnalysis":                    true,
	"fvcore.nn.flop_count":                                 true,
	"thop.profile":                                         true,
	"ptflops.get_model_complexity_info":                    true,
	"calflops.calculate_flops":                             true,
	"torchsummary.summary":                                 true,
	"torch.jit.trace":                                      true,
	"torch.onnx.export":                                    true,
	"deepspeed.profiling.flops_profiler.get_model_profile": true,
	// torchinfo runs the forward only when it is given an input.
	"torchinfo.summary": true,
}

// forwardRunnerModule returns the module a forward runner's call c
// (canonical name ref) runs: its first argument (OpenSTL's
// `FlopCountAnalysis(model, x)` on rank 0, with the DDP wrapper); nil
// for any other call, or a torchinfo summary given no input.
func forwardRunnerModule(ref string, c *ast.Call) ast.Expr {
	if !forwardRunners[ref] {
		return nil
	}
	if ref == "torchinfo.summary" && len(c.Args) < 2 && !slices.ContainsFunc(c.Keywords, func(k *ast.Keyword) bool {
		return k.Arg == "input_size" || k.Arg == "input_data"
	}) {
		return nil
	}
	if len(c.Args) > 0 {
		if _, starred := c.Args[0].(*ast.Starred); !starred {
			return c.Args[0]
		}
		return nil
	}
	for _, k := range c.Keywords {
		if k.Arg == "model" || k.Arg == "func" || k.Arg == "module" {
			return k.Value
		}
	}
	return nil
}

// callsUnwrapHelper reports a call whose every target is a program
// function that returns the module inside the wrapper it is given
// (flow.UnwrapHelper).
func (b *builder) callsUnwrapHelper(c *ast.Call) bool {
	cs := b.g.CallOf(c)
	if cs == nil || len(cs.Targets) == 0 {
		return false
	}
	for _, t := range cs.Targets {
		if t.Fn == nil || !flow.UnwrapHelper(t.Fn.Node) {
			return false
		}
	}
	return true
}

// boundFromUnwrapHelper reports a local of body that every assignment
// binds to what an unwrap helper returns (callsUnwrapHelper).
func (b *builder) boundFromUnwrapHelper(body []ast.Stmt, name string) bool {
	binds, unwrapped := 0, 0
	ast.InspectBody(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Assign:
			if len(x.Targets) == 1 {
				if t, ok := x.Targets[0].(*ast.Name); ok && t.Id == name {
					if c, ok := x.Value.(*ast.Call); ok && b.callsUnwrapHelper(c) {
						unwrapped++
					}
				}
			}
		case *ast.Name:
			if x.Id == name && x.Ctx == ast.Store {
				binds++
			}
		}
		return true
	})
	return binds > 0 && binds == unwrapped
}

// shardedForwards finds the calls of modules whose forward communicates
// (forward_sync: FSDP): model(x) under `if rank == 0` waits in the
// parameters' all-gather for ranks that never join it.
func (b *builder) shardedForwards() {
	group := b.wrapperGroup(forwardSync, true)
	sharded, shardGroup := b.fullyShardedClasses()
	if group == nil && len(sharded) == 0 {
		return // the program constructs no such module
	}
	for _, cs := range b.g.Calls {
		c := cs.Node
		if c == nil || cs.Caller == nil || b.sites[c] != nil {
			continue
		}
		path := cs.Caller.Module.Path
		module := c.Func
		if ref := b.ref(path, c.Func); ref != "" {
			// A profiler or tracer handed the model runs its forward.
			if module = forwardRunnerModule(ref, c); module == nil {
				continue
			}
		} else if a, ok := module.(*ast.Attribute); ok && forwardingMethods[a.Attr] {
			// model.generate(…) (and model.forward(…)) runs the
			// module's forward, step after step.
			module = a.Value
		}
		if n, ok := module.(*ast.Name); ok && unwrappedBefore(ast.DefBody(cs.Caller.Node), n.Id, int(c.Span().Lineno)) {
			continue // model = model.module before the call: the inner module
		}
		if inUnwrappedArm(ast.DefBody(cs.Caller.Node), pathText(module), c) {
			continue // `if hasattr(g, "module"): g.module(x) else: g(x)`: g is no wrapper there
		}
		if freshModuleBefore(ast.DefBody(cs.Caller.Node), module, int(c.Span().Lineno)) {
			continue // self.model = Net(…) just before: not the wrapper
		}
		var g *rules.Group
		buffersOnly := false
		switch {
		case group != nil && b.wrapperValue(module, forwardSync, true):
			g = b.wrapperGroupNear(path, forwardSync, true, group)
			buffersOnly = !(len(sharded) > 0 && b.callsShardedModule(module, sharded)) && b.buffersOnly(module)
			if buffersOnly && (b.wrappedWithoutBuffers(cs.Caller) || b.localWrapperWithoutBuffers(cs.Caller, module)) {
				continue // no buffers to broadcast
			}
		case len(sharded) > 0 && b.callsShardedModule(module, sharded):
			g = shardGroup
		default:
			continue
		}
		// (Asked only of a call that may run a wrapper's forward: both
		// read the helper's or the caller's body.)
		if mc, ok := module.(*ast.Call); ok && b.callsUnwrapHelper(mc) {
			continue // get_base_model(model)(x): the inner module
		}
		if n, ok := module.(*ast.Name); ok && b.boundFromUnwrapHelper(ast.DefBody(cs.Caller.Node), n.Id) {
			continue // gen_model = get_base_model(model); gen_model.generate(…)
		}
		op := &rules.OpRef{Op: flow.ForwardOp, Group: g, Pos: b.pos(path, c), BuffersOnly: buffersOnly,
			NoGrad: buffersOnly && flow.NoGradAt(cs.Caller.Node, int(c.Span().Lineno))}
		if n, ok := module.(*ast.Name); ok && isParam(funcArgs(cs.Caller.Node), n.Id) {
			op.ModuleParam = n.Id
		}
		b.implicitOps[c] = op
		b.syncOps[cs.Caller.Node] = append(b.syncOps[cs.Caller.Node], op)
	}
}

// unwrappedBefore reports whether the last statement of body before line
// that binds name rebinds it to its own module: `model = model.module`,
// also under `if hasattr(model, "module"):` (CodeBERT's rank-0 evaluation,
// which then runs the inner module's generate).
// freshModuleBefore reports a module expression (a name or self.model)
// that the function body binds, last before line, to a module it builds
// there (`self.model = SpeakerIdetification(…)`, `net = Net().cuda()`):
// a call of a class, by its capitalized name, that is no data-parallel
// wrapper. A profiler handed it next (VoiceprintRecognition's torchinfo
// summary) runs the bare module's forward, whatever the attribute holds
// later.
func freshModuleBefore(body []ast.Stmt, module ast.Expr, line int) bool {
	path := pathText(module)
	if path == "" {
		return false
	}
	fresh := false
	for _, st := range body {
		if int(st.Span().Lineno) >= line {
			break
		}
		a, ok := st.(*ast.Assign)
		if ok && len(a.Targets) == 1 && pathText(a.Targets[0]) == path {
			if _, sub := a.Targets[0].(*ast.Subscript); !sub {
				fresh = builtModule(a.Value)
				continue
			}
		}
		rebound := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Name:
				rebound = rebound || x.Ctx == ast.Store && x.Id == path
			case *ast.Attribute:
				rebound = rebound || x.Ctx == ast.Store && pathText(x) == path
			}
			return !rebound
		})
		if rebound {
			fresh = false
		}
	}
	return fresh
}

// builtModule reports a call of a class by its capitalized name that
// wraps nothing for data parallelism, possibly moved or switched after
// (`Net(cfg).cuda()`, `nn.Linear(8, 2).to(device).eval()`).
func builtModule(e ast.Expr) bool {
	for {
		c, ok := e.(*ast.Call)
		if !ok {
			return false
		}
		a, isAttr := c.Func.(*ast.Attribute)
		if isAttr && moduleMoves[a.Attr] {
			e = a.Value
			continue
		}
		name := lastIdent(c.Func)
		if name == "" || name[0] < 'A' || name[0] > 'Z' {
			return false
		}
		for _, w := range []string{"DataParallel", "DDP", "FSDP", "Sharded", "Engine"} {
			if strings.Contains(name, w) {
				return false
			}
		}
		return true
	}
}

// moduleMoves are a module's methods that return the module itself.
var moduleMoves = map[string]bool{"cuda": true, "to": true, "cpu": true, "eval": true, "train": true, "float": true, "half": true,
	"bfloat16": true, "double": true, "requires_grad_": true, "to_empty": true}

func unwrappedBefore(body []ast.Stmt, name string, line int) bool {
	unwrap := func(st ast.Stmt) (binds, unwraps bool) {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 || !isName(a.Targets[0], name) {
			return false, false
		}
		if x, ok := a.Value.(*ast.IfExp); ok {
			// `m = model.module if isinstance(model, DDP) else model`.
			if subject, ok := wrapperTest(x.Test); ok && subject != "" {
				m, isAttr := x.Body.(*ast.Attribute)
				return true, isAttr && m.Attr == "module" && pathText(m.Value) == subject && pathText(x.Orelse) == subject
			}
		}
		m, ok := a.Value.(*ast.Attribute)
		return true, ok && m.Attr == "module" && isName(m.Value, name)
	}
	last := false
	for _, st := range body {
		if int(st.Span().Lineno) >= line {
			break
		}
		// `if isinstance(self.model, DDP): m = self.model.module` / `else:
		// m = self.model` (MASR's evaluate): m is the inner module either way.
		if i, ok := st.(*ast.If); ok && len(i.Body) == 1 && len(i.Orelse) == 1 {
			if subject, ok := wrapperTest(i.Test); ok && subject != "" {
				a, aok := i.Body[0].(*ast.Assign)
				b, bok := i.Orelse[0].(*ast.Assign)
				if aok && bok && len(a.Targets) == 1 && len(b.Targets) == 1 && isName(a.Targets[0], name) && isName(b.Targets[0], name) {
					m, isAttr := a.Value.(*ast.Attribute)
					last = isAttr && m.Attr == "module" && pathText(m.Value) == subject && pathText(b.Value) == subject
					continue
				}
			}
		}
		if i, ok := st.(*ast.If); ok && len(i.Orelse) == 0 && len(i.Body) == 1 {
			if c, ok := i.Test.(*ast.Call); ok && isName(c.Func, "hasattr") && len(c.Args) == 2 && isName(c.Args[0], name) {
				if k, ok := c.Args[1].(*ast.Constant); ok && k.Str == "module" {
					if binds, unwraps := unwrap(i.Body[0]); binds {
						last = unwraps
						continue
					}
				}
			}
			// `if isinstance(model, DDP): model = model.module` (SSD's
			// do_evaluation): where it is a wrapper, the inner module.
			if c, ok := i.Test.(*ast.Call); ok && isName(c.Func, "isinstance") && len(c.Args) == 2 && isName(c.Args[0], name) {
				if binds, unwraps := unwrap(i.Body[0]); binds {
					last = unwraps
					continue
				}
			}
		}
		if binds, unwraps := unwrap(st); binds {
			last = unwraps
			continue
		}
		rebound := false
		ast.Inspect(st, func(n ast.Node) bool {
			if x, ok := n.(*ast.Name); ok && x.Id == name && x.Ctx == ast.Store {
				rebound = true
			}
			return !rebound
		})
		if rebound {
			last = false
		}
	}
	return last
}

// wrapperTest recognises a test of whether a module is a wrapper:
// hasattr(m, "module") or isinstance(m, …); subject is m's path.
func wrapperTest(test ast.Expr) (subject string, ok bool) {
	c, isCall := test.(*ast.Call)
	if !isCall || len(c.Args) != 2 {
		return "", false
	}
	switch {
	case isName(c.Func, "hasattr"):
		if k, ok := c.Args[1].(*ast.Constant); !ok || k.Str != "module" {
			return "", false
		}
	case isName(c.Func, "isinstance"):
	default:
		return "", false
	}
	return pathText(c.Args[0]), true
}

// inUnwrappedArm reports a call inside the arm of a test of whether the
// module is a wrapper where it is not: the else arm of `if
// hasattr(g, "module"):` (or of isinstance), the then arm of `if not …`.
func inUnwrappedArm(body []ast.Stmt, module string, call *ast.Call) bool {
	if module == "" {
		return false
	}
	line := int(call.Span().Lineno)
	inside := func(stmts []ast.Stmt) bool {
		return len(stmts) > 0 && int(stmts[0].Span().Lineno) <= line && line <= int(stmts[len(stmts)-1].Span().EndLineno)
	}
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		i, ok := n.(*ast.If)
		if !ok || found {
			return !found
		}
		test, negated := i.Test, false
		if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
			test, negated = u.Operand, true
		}
		if subject, ok := wrapperTest(test); ok && subject == module {
			if negated && inside(i.Body) || !negated && inside(i.Orelse) {
				found = true
			}
		}
		return !found
	})
	return found
}

// wrapsNothing reports an argument whose values the analysis knows and
// none of which a wrapper construction made or fully_shard sharded: a
// module passed to a helper that runs its forward (`evaluate(model)`
// with a model fresh from from_pretrained) communicates nothing there.
func (b *builder) wrapsNothing(x ast.Expr) bool {
	vals := b.g.ExprValues(x)
	if len(vals) == 0 {
		return false
	}
	if b.sharded == nil {
		b.sharded, _ = b.fullyShardedClasses()
		if b.sharded == nil {
			b.sharded = map[*callgraph.Class]bool{}
		}
	}
	if len(b.sharded) > 0 && b.callsShardedModule(x, b.sharded) {
		return false
	}
	for _, v := range vals {
		val := b.g.Value(v)
		if val == nil || val.Kind == callgraph.KOpaque && b.wrapperValueID(v) {
			return false
		}
	}
	return true
}

// wrapperValueID reports whether v is an instance that a construction
// whose table entry synchronises gradients or forwards made.
func (b *builder) wrapperValueID(v callgraph.ValueID) bool {
	val := b.g.Value(v)
	if val == nil || val.Kind != callgraph.KOpaque {
		return false
	}
	c := b.constructedBy(val)
	return c != nil && (c.GradSync || c.ForwardSync)
}

// constructedBy returns the table entry of the construction that made the
// opaque instance val ("torch.nn.parallel.DistributedDataParallel()"),
// or nil.
func (b *builder) constructedBy(val *callgraph.Value) *api.Collective {
	return b.t.Collectives[b.t.Canonical(strings.TrimSuffix(val.Name, "()"))]
}

// forwardSync tests a wrapper entry whose module's forward communicates.
// Constructions that turn that off (DDP's broadcast_buffers=False) make
// values of their own (Values.quietForwards), which wrapperValue passes
// over, and their sites name no group for the forward.
func forwardSync(c *api.Collective) bool { return c.ForwardSync }

// fullyShard is FSDP2's wrapper: fully_shard(module) turns the module it
// is given into an FSDP module in place, whose forward all-gathers its
// parameters (torchtitan shards each transformer block, then the root).
var fullyShard = map[string]bool{"torch.distributed.fsdp.fully_shard": true}

// fullyShardedClasses returns the program classes whose instances the
// program hands to fully_shard, and the group their forwards gather on:
// the default group when no call names a mesh, unknown otherwise.
func (b *builder) fullyShardedClasses() (map[*callgraph.Class]bool, *rules.Group) {
	var out map[*callgraph.Class]bool
	group := b.in.Values.World()
	for _, cs := range b.g.Calls {
		if cs.Node == nil || !b.callsExternal(cs, fullyShard) {
			continue
		}
		vals, _ := b.g.ArgValues(cs, 0, "module")
		for _, c := range b.instanceClasses(vals) {
			if out == nil {
				out = map[*callgraph.Class]bool{}
			}
			out[c] = true
		}
		if len(cs.Node.Args) > 1 {
			group = b.unknown
		}
		for _, k := range cs.Node.Keywords {
			if k.Arg == "mesh" || k.Arg == "" {
				group = b.unknown
			}
		}
	}
	return out, group
}

// callsExternal reports whether the call resolves to one of the external
// symbols names holds (canonical names).
func (b *builder) callsExternal(cs *callgraph.CallSite, names map[string]bool) bool {
	for _, t := range cs.Targets {
		if t.External != "" && names[b.t.Canonical(t.External)] {
			return true
		}
	}
	return false
}

// callsShardedModule reports whether callee may be an instance of one of
// the classes fully_shard made FSDP modules of.
func (b *builder) callsShardedModule(callee ast.Expr, sharded map[*callgraph.Class]bool) bool {
	vals := b.g.ExprValues(callee)
	for _, v := range vals {
		// An nn.Sequential calls the modules it holds.
		if val := b.g.Value(v); val != nil && val.Kind == callgraph.KContainer && val.Name == callgraph.SequentialKind {
			vals = append(vals[:len(vals):len(vals)], b.g.ElementValues(v, -1)...)
		}
	}
	for _, c := range b.instanceClasses(vals) {
		if sharded[c] {
			return true
		}
	}
	return false
}

// syncBackwards finds, in every function with a backward call, the ones
// whose loss comes from a synchronising module's forward.
func (b *builder) syncBackwards() {
	if len(b.backwardFns) == 0 {
		return
	}
	var wrappers bool
	for name, c := range b.t.Collectives {
		if c.GradSync && b.importedTops[topPackage(name)] {
			wrappers = true
			break
		}
	}
	if !wrappers {
		return
	}
	group := b.wrapperGroup(func(c *api.Collective) bool { return c.GradSync }, false)
	if group == nil {
		group = b.in.Values.world // a framework wraps the model
	}
	helpers, callers := b.backwardHelpers()
	helperLoss := func(c *ast.Call) ast.Expr {
		cs := b.g.CallOf(c)
		if cs == nil {
			return nil
		}
		for _, t := range cs.Targets {
			if p := helpers[t.Fn]; t.Fn != nil && p != "" {
				if x, _, _ := boundArg(t.Fn, c, p); x != nil {
					return x
				}
			}
		}
		return nil
	}
	for _, f := range b.g.Funcs {
		if !b.backwardFns[f.Node] && !callers[f] {
			continue
		}
		var body []ast.Stmt
		switch n := f.Node.(type) {
		case *ast.FunctionDef:
			body = n.Body
		case *ast.AsyncFunctionDef:
			body = n.Body
		case *ast.Module:
			body = n.Body
		default:
			continue
		}
		path := f.Module.Path
		forward := func(c *ast.Call) bool { return b.syncForward(path, c) }
		synced := flow.SyncedBackwardsVia(body, forward, helperLoss)
		near := b.wrapperGroupNear(path, func(c *api.Collective) bool { return c.GradSync }, false, group)
		for _, c := range synced {
			op := &rules.OpRef{Op: flow.BackwardOp, Group: near, Pos: b.pos(path, c)}
			b.implicitOps[c] = op
			b.syncOps[f.Node] = append(b.syncOps[f.Node], op)
		}
		b.bypassedBackwards(f, path, body, helperLoss)
		b.engineBypasses(f, path, body)
		b.hvdGradReads(f, path, body)
	}
}

// engineBypasses records the backwards of body on a loss from a DeepSpeed
// engine's forward that are not the engine's own: `model_engine, *_ =
// deepspeed.initialize(…)`, `loss = f(model_engine(x))`, then
// `loss.backward(); optimizer.step()` instead of
// `model_engine.backward(loss); model_engine.step()`. The engine reduces
// the gradients across the data-parallel group in its backward (and
// scales the loss, and partitions the gradients under ZeRO); a plain
// backward leaves each rank's its own (Expert-Slicing's MoE test).
func (b *builder) engineBypasses(f *callgraph.Func, path string, body []ast.Stmt) {
	engines := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			return true
		}
		value := a.Value
		if sub, ok := value.(*ast.Subscript); ok {
			if k, ok := sub.Slice.(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
				value = sub.Value // deepspeed.initialize(…)[0]
			}
		}
		c, ok := value.(*ast.Call)
		if !ok || !b.callsAPI(c, "deepspeed.initialize") {
			return true
		}
		target := a.Targets[0]
		if elts := ast.SeqElts(target); len(elts) > 0 && value == a.Value {
			target = elts[0]
		}
		if n, ok := target.(*ast.Name); ok {
			engines[n.Id] = true
		}
		return true
	})
	if len(engines) == 0 {
		return
	}
	engineOf := func(c *ast.Call) string {
		fn := c.Func
		if a, ok := fn.(*ast.Attribute); ok && a.Attr == "forward" {
			fn = a.Value
		}
		if n, ok := fn.(*ast.Name); ok && engines[n.Id] {
			return n.Id
		}
		return ""
	}
	for name := range engines {
		forward := func(c *ast.Call) bool { return engineOf(c) == name }
		for _, back := range flow.SyncedBackwards(body, forward) {
			a, ok := back.Func.(*ast.Attribute)
			if !ok || a.Attr != "backward" || len(back.Args) > 0 {
				continue // engine.backward(loss), a framework's backward(loss)
			}
			if root := pathText(a.Value); root == "" || engines[strings.SplitN(root, ".", 2)[0]] {
				continue
			}
			var fwd *ast.Call
			ast.InspectBody(body, func(n ast.Node) bool {
				if c, ok := n.(*ast.Call); ok && fwd == nil && forward(c) {
					fwd = c
				}
				return fwd == nil
			})
			if fwd == nil {
				continue
			}
			b.prog.Bypasses = append(b.prog.Bypasses, &rules.Bypass{
				Func: b.fn(f), Backward: b.pos(path, back), Forward: b.pos(path, fwd),
				Callee: name, Wrapper: name, Engine: true, Loss: pathText(a.Value),
			})
		}
	}
}

// hvdGradReads records the gradient reads of body between a backward and
// the step of a Horovod DistributedOptimizer that no synchronize() of the
// optimizer precedes: `loss.backward()`, `clip_grad_norm_(params, 1.0)`,
// `opt.step()` (l2hmc-qcd's trainer). Horovod's documentation asks for
// `opt.synchronize()` before the clip and the step under
// `with opt.skip_synchronize():`.
func (b *builder) hvdGradReads(f *callgraph.Func, path string, body []ast.Stmt) {
	if !b.prepared.gradReadFiles[path] {
		return
	}
	type stmtCall struct {
		c    *ast.Call
		stmt ast.Stmt
	}
	var calls []stmtCall
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		var exprs []ast.Node
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.If:
			exprs = []ast.Node{st.Test}
		case *ast.While:
			exprs = []ast.Node{st.Test}
		case *ast.For:
			exprs = []ast.Node{st.Iter}
		case *ast.AsyncFor:
			exprs = []ast.Node{st.Iter}
		case *ast.With:
			for _, it := range st.Items {
				exprs = append(exprs, it.ContextExpr)
			}
		case *ast.AsyncWith:
			for _, it := range st.Items {
				exprs = append(exprs, it.ContextExpr)
			}
		case *ast.Try, *ast.TryStar, *ast.Match:
		default:
			exprs = []ast.Node{st}
		}
		for _, e := range exprs {
			ast.Inspect(e, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Lambda:
					return false
				case *ast.Call:
					calls = append(calls, stmtCall{n, st})
				}
				return true
			})
		}
		return true
	})
	slices.SortStableFunc(calls, func(x, y stmtCall) int {
		a, c := x.c.Span(), y.c.Span()
		if a.Lineno != c.Lineno {
			return int(a.Lineno - c.Lineno)
		}
		return int(a.ColOffset - c.ColOffset)
	})
	// A synchronize() covers the steps of its own block and of the
	// blocks inside it, not one in another arm (`if clip: opt.synchronize()
	// … else: opt.step()`): each statement's block, as a path of
	// (statement, arm) indexes.
	// A step under `with opt.skip_synchronize():` waits for nothing: a
	// synchronize() came before it on its path, or it is no step that
	// waits.
	blocks := map[ast.Stmt]string{}
	var skipping []string // the bodies of skip_synchronize() blocks
	var place func(stmts []ast.Stmt, in string)
	place = func(stmts []ast.Stmt, in string) {
		for i, st := range stmts {
			blocks[st] = in
			for j, arm := range ast.ChildBlocks(st) {
				inner := in + strconv.Itoa(i) + "." + strconv.Itoa(j) + "/"
				if w, ok := st.(*ast.With); ok && slices.ContainsFunc(w.Items, func(it *ast.WithItem) bool {
					c, ok := it.ContextExpr.(*ast.Call)
					return ok && lastDotted(c.Func) == "skip_synchronize"
				}) {
					skipping = append(skipping, inner)
				}
				place(arm, inner)
			}
		}
	}
	place(body, "/")
	// runs places the statements for ordering: a with statement's body
	// runs whenever the statement does, so it adds no block (a
	// synchronize() inside `with amp.scale_loss(…):` covers the step after
	// it). Statement numbers are unique here, as the body's own indexes
	// would collide with the enclosing block's.
	runs := map[ast.Stmt]string{}
	stmtNo := 0
	var placeRuns func(stmts []ast.Stmt, in string)
	placeRuns = func(stmts []ast.Stmt, in string) {
		for _, st := range stmts {
			runs[st] = in
			stmtNo++
			me := stmtNo
			_, with := st.(*ast.With)
			_, asyncWith := st.(*ast.AsyncWith)
			for j, arm := range ast.ChildBlocks(st) {
				if with || asyncWith {
					placeRuns(arm, in)
				} else {
					placeRuns(arm, in+strconv.Itoa(me)+"."+strconv.Itoa(j)+"/")
				}
			}
		}
	}
	placeRuns(body, "/")
	skipped := func(st ast.Stmt) bool {
		return slices.ContainsFunc(skipping, func(in string) bool { return strings.HasPrefix(blocks[st], in) })
	}
	var backward, read *stmtCall
	// optimizer → its synchronize() calls since the backward, and those
	// that came before the read (only they order it).
	synced := map[string][]stmtCall{}
	var syncedAtRead map[string][]stmtCall
	covering := func(in map[string][]stmtCall, opt string, st ast.Stmt) *stmtCall {
		for i, sc := range in[opt] {
			if strings.HasPrefix(runs[st], runs[sc.stmt]) {
				return &in[opt][i]
			}
		}
		return nil
	}
	for i := range calls {
		c := calls[i].c
		a, isAttr := c.Func.(*ast.Attribute)
		switch {
		case isAttr && a.Attr == "backward":
			backward, read = &calls[i], nil
			clear(synced)
		case isAttr && a.Attr == "synchronize":
			synced[pathText(a.Value)] = append(synced[pathText(a.Value)], calls[i])
		case backward != nil && read == nil && b.readsGrads(c):
			read = &calls[i]
			syncedAtRead = maps.Clone(synced)
		case isAttr && a.Attr == "step" && read != nil && covering(syncedAtRead, pathText(a.Value), read.stmt) == nil &&
			onePath(runs[read.stmt], runs[calls[i].stmt]) && b.callsAPI(c, "horovod.torch.DistributedOptimizer.step"):
			opt := pathText(a.Value)
			// A synchronize() after the read (`clip_grad_value_(…)`, then
			// `opt.synchronize()`, then the step under skip_synchronize:
			// ZenNAS's apex arm) waits too late for it; with none, a step
			// under skip_synchronize() waits for nothing and is no such
			// step.
			late := covering(synced, opt, calls[i].stmt)
			if late != nil && !strings.HasPrefix(runs[read.stmt], runs[late.stmt]) {
				// The synchronize() is behind a test the read is not
				// (`if clip: opt.synchronize(); clip(); step under
				// skip_synchronize()` after a read of the norm): judged at
				// the step of the other path.
				continue
			}
			if opt == "" || late == nil && skipped(calls[i].stmt) || b.horovodElse(body, calls[i].stmt, opt) {
				continue
			}
			sp := read.stmt.Span()
			g := &rules.GradRead{
				Func: b.fn(f), Read: b.pos(path, read.c), ReadText: pathText(read.c.Func),
				Backward: b.pos(path, backward.c), Step: b.pos(path, c), Optimizer: opt,
				StmtLine: int(sp.Lineno), Indent: lineIndent(b.files[path].Src, int(sp.Lineno)),
			}
			if late != nil {
				g.LateSync = b.pos(path, late.c)
				// The fix moves it above the read only from the read's own
				// block: from an outer one, the paths that skip the read's
				// block would lose their wait.
				g.LateSyncAlone = runs[late.stmt] == runs[read.stmt] && aloneOnLines(late.stmt, late.c, b.files[path].Src)
			}
			b.prog.GradReads = append(b.prog.GradReads, g)
			backward, read = nil, nil
		}
	}
}

// aloneOnLines reports a statement that is the call c alone
// (`opt.synchronize()`) on a line of its own, up to a comment: deleting
// the line removes nothing else.
func aloneOnLines(st ast.Stmt, c *ast.Call, src []byte) bool {
	x, ok := st.(*ast.ExprStmt)
	if !ok || x.Value != ast.Expr(c) {
		return false
	}
	sp := st.Span()
	if sp.Lineno != sp.EndLineno {
		return false
	}
	indent := lineIndent(src, int(sp.Lineno))
	line := srcLine(src, int(sp.Lineno))
	from, to := int(sp.ColOffset), int(sp.EndColOffset)
	if from != len(indent) || to > len(line) {
		return false
	}
	rest := strings.TrimSpace(line[to:])
	return rest == "" || strings.HasPrefix(rest, "#")
}

// srcLine returns 1-based line n of src without its line ending.
func srcLine(src []byte, n int) string {
	start, ok := lineStart(src, n)
	if !ok {
		return ""
	}
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	return strings.TrimRight(string(src[start:start+end]), "\r")
}

// horovodElse reports a step in the else arm of an if whose then arm
// steps the same optimizer under `with opt.skip_synchronize():`, where
// the then arm or another if on the same test synchronizes it
// (asv-subtools' trainer: `if
// use_horovod(): opt.synchronize()`, the clip, then `if use_horovod():
// with opt.skip_synchronize(): opt.step()` / `else: opt.step()`): the
// test says whether the optimizer is Horovod's at all, and the else arm's
// is the plain one, with nothing in flight. (A then arm that clips and
// an else arm that does not, `if clip: …` around the same Horovod
// optimizer, is no such test.)
func (b *builder) horovodElse(body []ast.Stmt, step ast.Stmt, opt string) bool {
	var ifs []*ast.If
	var collect func(stmts []ast.Stmt)
	collect = func(stmts []ast.Stmt) {
		for _, st := range stmts {
			if x, ok := st.(*ast.If); ok {
				ifs = append(ifs, x)
			}
			for _, arm := range ast.ChildBlocks(st) {
				collect(arm)
			}
		}
	}
	collect(body)
	for _, x := range ifs {
		// The idiom itself: the step is a statement of the else arm, the
		// skipping with one of the then arm.
		if !slices.Contains(x.Orelse, step) || !skipsSync(x.Body, opt) {
			continue
		}
		key := testKey(x.Test)
		for _, y := range ifs {
			// The then arm's own synchronize() counts as well (`if
			// opt.dist_mode == 'horovod': loss.backward();
			// opt.synchronize(); …` / `else: loss.backward(); clip;
			// opt.step()`, ZenNAS's trainer).
			if key != "" && testKey(y.Test) == key && synchronizes(y.Body, opt) && b.wrapsUnder(key) {
				return true
			}
		}
	}
	return false
}

// wrapsUnder reports a Horovod DistributedOptimizer made in the arm of an
// if on the test key names, or on a conjunction with it, somewhere in the
// program (`if use_horovod(): optimizer = hvd.DistributedOptimizer(…)`).
func (b *builder) wrapsUnder(key string) bool {
	for _, m := range b.in.Modules {
		if m == nil || m.AST == nil {
			continue
		}
		found := false
		ast.InspectStmts(m.AST.Body, func(st ast.Stmt) bool {
			x, ok := st.(*ast.If)
			if found || !ok || !testRequires(x.Test, key) {
				return !found
			}
			ast.InspectBody(x.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.Call); ok && lastDotted(c.Func) == "DistributedOptimizer" {
					found = true
				}
				return !found
			})
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// testRequires reports a test that holds only where the test key names
// holds: that test itself, or a conjunction with it (`opt.dist_mode ==
// 'horovod' and not opt.independent_training`).
func testRequires(e ast.Expr, key string) bool {
	if b, ok := e.(*ast.BoolOp); ok && b.Op == ast.And {
		return slices.ContainsFunc(b.Values, func(v ast.Expr) bool { return testRequires(v, key) })
	}
	return testKey(e) == key
}

// testKey names a test made of a name, an attribute path or a call of
// one without arguments (`use_horovod()`, `self.args.hvd`), or a
// comparison of a path with a constant (`opt.dist_mode == 'horovod'`);
// "" for others.
func testKey(e ast.Expr) string {
	if c, ok := e.(*ast.Compare); ok && len(c.Ops) == 1 {
		k, isConst := c.Comparators[0].(*ast.Constant)
		if p := pathText(c.Left); p != "" && isConst {
			return p + " " + strconv.Itoa(int(c.Ops[0])) + " " + ast.Dump(k, ast.DumpOptions{})
		}
		return ""
	}
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 && len(c.Keywords) == 0 {
		if p := pathText(c.Func); p != "" {
			return p + "()"
		}
		return ""
	}
	return pathText(e)
}

// synchronizes reports an `opt.synchronize()` call among stmts.
func synchronizes(stmts []ast.Stmt, opt string) bool {
	found := false
	ast.InspectBody(stmts, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found {
			if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "synchronize" && pathText(a.Value) == opt {
				found = true
			}
		}
		return !found
	})
	return found
}

// skipsSync reports a `with opt.skip_synchronize():` among stmts.
func skipsSync(stmts []ast.Stmt, opt string) bool {
	return slices.ContainsFunc(stmts, func(st ast.Stmt) bool {
		w, ok := st.(*ast.With)
		return ok && slices.ContainsFunc(w.Items, func(it *ast.WithItem) bool {
			c, ok := it.ContextExpr.(*ast.Call)
			if !ok {
				return false
			}
			a, ok := c.Func.(*ast.Attribute)
			return ok && a.Attr == "skip_synchronize" && pathText(a.Value) == opt
		})
	})
}

// onePath reports two blocks (paths of hvdGradReads' placement) that one
// run can pass through both of: one holds the other.
func onePath(a, b string) bool { return strings.HasPrefix(a, b) || strings.HasPrefix(b, a) }

// lineStart returns the offset in src where 1-based line n starts.
func lineStart(src []byte, n int) (int, bool) {
	start := 0
	for line := 1; line < n; line++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	return start, true
}

// lineIndent returns the leading whitespace of 1-based line n of src.
func lineIndent(src []byte, n int) string {
	start, ok := lineStart(src, n)
	if !ok {
		return ""
	}
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// readsGrads reports a call that reads or rescales the parameters'
// gradients: torch's clip_grad_norm_ / clip_grad_value_ (and the old
// clip_grad_norm), a GradScaler's unscale_, a call handed a gradient
// (`torch.linalg.norm(p.grad)`), or a method or function of the program
// whose own statements read one (a trainer's gradient-norm helper).
func (b *builder) readsGrads(c *ast.Call) bool {
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "unscale_" {
		return true
	}
	for _, x := range c.Args {
		if readsGradData(x) {
			return true
		}
	}
	cs := b.g.CallOf(c)
	if cs == nil {
		return false
	}
	for _, v := range b.g.CalleeValues(cs) {
		if val := b.g.Value(v); val != nil && (val.Kind == callgraph.KFunc || val.Kind == callgraph.KBound) && val.Fn != nil {
			for _, st := range ast.DefBody(val.Fn.Node) {
				if readsGradData(st) {
					return true
				}
			}
		}
	}
	for _, name := range b.apis(cs) {
		if !strings.HasPrefix(name, "torch.nn.utils.") {
			continue
		}
		switch name[strings.LastIndexByte(name, '.')+1:] {
		case "clip_grad_norm_", "clip_grad_norm", "clip_grad_value_":
			return true
		}
	}
	return false
}

// readsGradData reports a read of a tensor's gradient data in n (`p.grad`
// handed to a call, or a method called on it), not a test of whether it
// is None; nested definitions are not entered.
func readsGradData(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Compare:
			// `p.grad is not None`: the operands may still read data
			// (`p.grad.norm() > 0`); a bare `.grad` against None does not.
			if len(x.Ops) == 1 && (x.Ops[0] == ast.Is || x.Ops[0] == ast.IsNot) {
				if a, ok := x.Left.(*ast.Attribute); ok && a.Attr == "grad" {
					return false
				}
			}
		case *ast.Attribute:
			found = found || x.Attr == "grad" && x.Ctx == ast.Load
		}
		return !found
	})
	return found
}

// callsAPI reports whether c calls the API named (canonical name).
func (b *builder) callsAPI(c *ast.Call, name string) bool {
	cs := b.g.CallOf(c)
	return cs != nil && slices.Contains(b.apis(cs), name)
}

// backwardHelpers returns the program functions that run backward on a
// loss they are handed (timm's and Swin's NativeScaler.__call__, a
// train_step(loss, …) helper), with that parameter, and the functions
// that call them.
func (b *builder) backwardHelpers() (map[*callgraph.Func]string, map[*callgraph.Func]bool) {
	var helpers map[*callgraph.Func]string
	for _, f := range b.g.Funcs {
		if !b.backwardFns[f.Node] {
			continue
		}
		args := funcArgs(f.Node)
		if args == nil {
			continue
		}
		var params []string
		for i, a := range args.Positional() {
			if i == 0 && f.Class != nil && !f.Static {
				continue // self
			}
			params = append(params, a.Arg)
		}
		if p := flow.BackwardParam(ast.DefBody(f.Node), params); p != "" {
			if helpers == nil {
				helpers = map[*callgraph.Func]string{}
			}
			helpers[f] = p
		}
	}
	if len(helpers) == 0 {
		return nil, nil
	}
	callers := map[*callgraph.Func]bool{}
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Caller == nil {
			continue
		}
		for _, t := range cs.Targets {
			if t.Fn != nil && helpers[t.Fn] != "" {
				callers[cs.Caller] = true
			}
		}
	}
	return helpers, callers
}

// backwardLosses returns the names body calls backward() on
// (`loss.backward()`).
func backwardLosses(body []ast.Stmt) map[string]bool {
	out := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "backward" {
				if x, ok := a.Value.(*ast.Name); ok {
					out[x.Id] = true
				}
			}
		}
		return true
	})
	return out
}

// bypassedBackwards records the backward calls of f whose loss comes
// from a call of the module a DistributedDataParallel wraps (CV304):
// `ddp.module(x)`, a method or submodule of it
// (`action_head.module.predict_action(…)`), or the module reached another
// way (`raw = unwrap(ddp)`, `raw[0](x)`), when no forward of that wrapper
// feeds a backward of f: the wrapper's forward is what arms DDP's
// gradient all-reduce for the next backward (gradient accumulation that
// bypasses it between synchronised steps is fine). A function that
// all-reduces or reduce-scatters something itself is taken to
// synchronise the gradients by hand.
func (b *builder) bypassedBackwards(f *callgraph.Func, path string, body []ast.Stmt, helperLoss func(*ast.Call) ast.Expr) {
	fn := b.fn(f)
	losses := backwardLosses(body)
	locals := assignedValues(body)
	for _, s := range b.prog.Sites {
		if s.Func == fn && (s.Op == "all_reduce" || s.Op == "reduce_scatter" || s.Op == "allreduce") {
			// The loss itself all-reduced for the log (OpenP5's
			// `dist.all_reduce(loss)` after the step) averages no
			// gradient; nor does a count of correct predictions
			// (torch-sla's `correct = (out.argmax(1) == y).sum()`).
			if src := b.siteSrc[s]; src.cs != nil && len(src.cs.Node.Args) > 0 {
				if n, ok := src.cs.Node.Args[0].(*ast.Name); ok && (losses[n.Id] || metricLocal(locals[n.Id])) {
					continue
				}
			}
			return
		}
	}
	type bypass struct {
		call    *ast.Call
		wrapper []callgraph.ValueID
	}
	var candidates []bypass
	via := map[*ast.Call]string{}     // helper calls that bypass a wrapper passed to them: the wrapper's text here
	rebound := map[*ast.Call]string{} // calls through a path rebound to its wrapper's module: the path
	unwraps := b.unwrappedRebinds(body)
	origin := map[*ast.Call]*wrapping{} // calls of a module by the name it had before it was wrapped
	wrapped := b.wrappedOriginals(path, body)
	between := b.unwrapsBetweenPasses(f) // self.X rebound to its module between two calls of f
	var passUnwrap map[*ast.Call]*ast.Assign
	// (A helper that runs backward on the loss it is handed, open_clip's
	// backward(total_loss, scaler), is a backward too.)
	flow.SyncedBackwardsVia(body, func(c *ast.Call) bool {
		if p, u := reboundCall(c, unwraps); u != nil {
			candidates = append(candidates, bypass{c, u.wrapper})
			rebound[c] = p
		} else if a := passCall(c, between); a != nil {
			candidates = append(candidates, bypass{c, nil})
			if passUnwrap == nil {
				passUnwrap = map[*ast.Call]*ast.Assign{}
			}
			passUnwrap[c] = a
			rebound[c] = pathText(a.Targets[0])
		} else if w := originalCall(c, wrapped); w != nil {
			candidates = append(candidates, bypass{c, nil})
			origin[c] = w
		} else if w := b.bypassedWrapper(c, locals); w != nil {
			candidates = append(candidates, bypass{c, w})
		} else if w := b.bypassingHelper(c); w != "" {
			candidates = append(candidates, bypass{c, nil})
			via[c] = w
		}
		return false
	}, helperLoss)
	// A module's own forward (`raw_model(x)`) before its other methods
	// (`raw_model.init_memory_states(…)`, whose result may feed the same
	// loss): the finding names the forward.
	slices.SortStableFunc(candidates, func(x, y bypass) int {
		_, xn := x.call.Func.(*ast.Name)
		_, yn := y.call.Func.(*ast.Name)
		switch {
		case xn && !yn:
			return -1
		case yn && !xn:
			return 1
		}
		return 0
	})
	// One finding per backward: a backward whose loss bypasses two
	// wrappers is reported once, one of two backwards each after its own
	// bypass is reported each (the value net's and the policy net's in a
	// music RL trainer).
	reported := map[*ast.Call]bool{}
	originReported := map[*wrapping]bool{}
	for _, k := range candidates {
		backs := flow.SyncedBackwardsVia(body, func(c *ast.Call) bool { return c == k.call }, helperLoss)
		backs = slices.DeleteFunc(backs, func(c *ast.Call) bool { return reported[c] })
		if len(backs) == 0 {
			continue // not what the loss is computed from
		}
		callee := cmp.Or(b.exprText(f, k.call.Func), pathText(k.call.Func))
		wrapper, direct := "", false
		if a, ok := k.call.Func.(*ast.Attribute); ok && a.Attr == "module" && pathText(a.Value) != "" {
			wrapper, direct = pathText(a.Value), true
		} else if i := strings.LastIndex(callee, ".module"); i > 0 {
			wrapper = callee[:i]
		} else if w := via[k.call]; w != "" {
			wrapper = w
		} else if o := origin[k.call]; o != nil {
			wrapper, direct = o.wrapper, pathText(k.call.Func) == o.module
		} else {
			wrapper = moduleOwner(k.call)
		}
		// The same wrapper's own forward feeding a backward arms the
		// reducer. The analysis has one value for every wrapper of a
		// kind, so a named wrapper is told by its name (vla(x) does not
		// arm action_head's reducer); an unnamed one by any wrapper's.
		own := func(c *ast.Call) bool {
			if p := rebound[k.call]; p != "" {
				// Through the path itself the module is called; the
				// wrapper is reached, if at all, under another name.
				if t := pathText(c.Func); t == p || strings.HasPrefix(t, p+".") {
					return false
				}
			}
			if wrapper != "" {
				t := pathText(c.Func)
				return t == wrapper || t == wrapper+".forward"
			}
			for _, v := range b.g.ExprValues(c.Func) {
				if slices.Contains(k.wrapper, v) {
					return true
				}
			}
			return false
		}
		if len(flow.SyncedBackwardsVia(body, own, helperLoss)) > 0 {
			continue
		}
		var discarded, wrappedAt *rules.Pos
		if a := passUnwrap[k.call]; a != nil {
			at := b.pos(path, a)
			discarded, callee = &at, pathText(a.Targets[0])
		} else if p := rebound[k.call]; p != "" {
			at := b.pos(path, unwraps[p].stmt)
			discarded, callee = &at, p
		}
		if o := origin[k.call]; o != nil {
			// The wrap is often on one arm of a configuration test
			// whose other arm trains the plain module: the first
			// backward is the one after the wrap, and one finding per
			// wrap is enough (alignn's validation forward reaches the
			// plain arm's backward too).
			if originReported[o] {
				continue
			}
			originReported[o] = true
			wrappedAt, backs = &o.at, backs[:1]
		}
		for _, back := range backs {
			reported[back] = true
			b.prog.Bypasses = append(b.prog.Bypasses, &rules.Bypass{
				Func: fn, Backward: b.pos(path, back), Forward: b.pos(path, k.call),
				Callee: cmp.Or(callee, "the wrapped module"), Wrapper: wrapper,
				Direct: direct, Discarded: discarded, WrappedAt: wrappedAt,
			})
		}
	}
}

// unwrap is a name or attribute path that a function rebinds to the
// module inside the DistributedDataParallel it held.
type unwrap struct {
	stmt    *ast.Assign
	wrapper []callgraph.ValueID
}

// unwrappedRebinds returns the names and attribute paths that a function
// rebinds, unconditionally, to the module inside their own
// DistributedDataParallel and never assigns again (`model = DDP(model)`
// then `model = model.module`; Musicgen_finetune's `model.lm =
// model.lm.module`): the wrapper is thrown away, and every call through
// them afterwards runs past it.
func (b *builder) unwrappedRebinds(body []ast.Stmt) map[string]*unwrap {
	var out map[string]*unwrap
	wrapped := map[string][]callgraph.ValueID{} // paths assigned a wrapper just made
	for _, st := range body {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			continue
		}
		p := pathText(a.Targets[0])
		if p == "" {
			continue
		}
		if c, isCall := a.Value.(*ast.Call); isCall {
			// model.lm = DDP(model.lm, …): the wrapper, also where the
			// analysis keeps no value for the attribute (an object a
			// library made).
			wrapped[p] = nil
			for _, v := range b.g.ExprValues(c) {
				if e := b.constructedBy(b.g.Value(v)); e != nil && isDDP(e) {
					wrapped[p] = append(wrapped[p], v)
				}
			}
			continue
		}
		m, ok := a.Value.(*ast.Attribute)
		if !ok || m.Attr != "module" || pathText(m.Value) != p {
			continue
		}
		ws := wrapped[p]
		for _, v := range b.g.ExprValues(a.Value) {
			if w := b.ddpModuleOf(v); w >= 0 && !slices.Contains(ws, w) {
				ws = append(ws, w)
			}
		}
		if ws == nil {
			continue
		}
		if out == nil {
			out = map[string]*unwrap{}
		}
		out[p] = &unwrap{stmt: a, wrapper: ws}
	}
	if out == nil {
		return nil
	}
	// Assigned again anywhere after the unwrap (a fresh wrapper, or the
	// wrapper kept elsewhere and put back): not this shape.
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			for _, t := range a.Targets {
				if u := out[pathText(t)]; u != nil && after(a.Span(), u.stmt.Span()) {
					delete(out, pathText(t))
				}
			}
		}
		return true
	})
	return out
}

// wrapping is a module a function wraps under another name: `ddp =
// DDP(model)`, or `model = accelerator.prepare(net)`.
type wrapping struct {
	module, wrapper string // their source texts
	at              rules.Pos
	end             ast.Pos
	rebinds         []ast.Pos // assignments of the module's name after the wrap
}

// wrappedOriginals returns the modules the function wraps under another
// name, in DistributedDataParallel or through accelerate's prepare() (the
// element of its result in the module's position), and does not assign
// again afterwards, by their text: a forward called through the module's
// own name after that runs past the wrapper (a ROCm DDP tutorial's
// `model(x)` beside `ddp_model`; alignn's `net(…)` after `model =
// accelerator.prepare(net)`).
func (b *builder) wrappedOriginals(path string, body []ast.Stmt) map[string]*wrapping {
	var out map[string]*wrapping
	// aliases: locals bound to an attribute path (`trainable =
	// pipeline.unet`), with the statement: wrapping the local in place
	// leaves the module reachable by the path.
	aliases := map[string]*ast.Assign{}
	add := func(module ast.Expr, wrapper ast.Expr, a *ast.Assign) {
		m, w := pathText(module), pathText(wrapper)
		if m != "" && m == w {
			// trainable, opt = accelerator.prepare(trainable, opt) after
			// trainable = pipeline.unet (d3po): the module is still
			// pipeline.unet, which the training forward calls.
			if al := aliases[m]; al != nil && after(a.Span(), al.Span()) {
				m = pathText(al.Value)
			}
		}
		if m == "" || w == "" || m == w {
			return
		}
		if out == nil {
			out = map[string]*wrapping{}
		}
		out[m] = &wrapping{module: m, wrapper: w, at: b.pos(path, a), end: a.Span()}
	}
	// compiled: locals bound to torch.compile(module) (`cm =
	// torch.compile(model)`): wrapping cm wraps the same module, which
	// the original name still runs past the wrapper. names: locals bound
	// to another name (`raw_model = model`), with the statement.
	compiled := map[string]string{}
	var names []*ast.Assign
	compiledArg := func(e ast.Expr) ast.Expr {
		if c, ok := e.(*ast.Call); ok && len(c.Args) > 0 && b.callsAPI(c, "torch.compile") {
			return c.Args[0]
		}
		return nil
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		a, ok := ast.AsAssign(n) // `raw_model: GPT = model` too
		if !ok || len(a.Targets) != 1 {
			return true
		}
		if t, isName := a.Targets[0].(*ast.Name); isName {
			if _, ok := a.Value.(*ast.Name); ok {
				names = append(names, a)
			}
			// Recorded once this statement's own wrap has read it.
			defer func() {
				if _, isAttr := a.Value.(*ast.Attribute); isAttr && pathText(a.Value) != "" {
					aliases[t.Id] = a
				} else {
					delete(aliases, t.Id)
				}
				if x := compiledArg(a.Value); x != nil && pathText(x) != "" {
					compiled[t.Id] = pathText(x)
				} else if v, ok := a.Value.(*ast.Name); ok && v.Id != t.Id {
					// `compiled_model = model`, compiled only under a
					// flag (nanogpt-titans): the same module either way.
					compiled[t.Id] = cmp.Or(compiled[v.Id], v.Id)
				} else {
					delete(compiled, t.Id)
				}
			}()
		}
		c, ok := a.Value.(*ast.Call)
		if !ok {
			return true
		}
		if site := b.sites[c]; site != nil && preparers[site.API] {
			if t, ok := a.Targets[0].(*ast.Tuple); ok && len(t.Elts) == len(c.Args) {
				for i, x := range c.Args {
					add(x, t.Elts[i], a)
				}
			} else if len(c.Args) == 1 {
				add(c.Args[0], a.Targets[0], a)
			}
			return true
		}
		for _, v := range b.g.ExprValues(c) {
			if e := b.constructedBy(b.g.Value(v)); e != nil && isDDP(e) {
				m := callArg(c, 0, "module")
				if m != nil && slices.Contains(b.g.ExprValues(m), v) {
					// The argument is that wrapper already: the call hands
					// it back, or its module (atlas's
					// get_unwrapped_model_if_wrapped(model)), wrapping
					// nothing.
					break
				}
				if x := compiledArg(m); x != nil {
					m = x // DDP(torch.compile(model))
				}
				if m != nil {
					add(m, a.Targets[0], a)
					if src := compiled[pathText(m)]; src != "" {
						add(&ast.Name{Id: src}, a.Targets[0], a)
					}
				}
				break
			}
		}
		return true
	})
	if out == nil {
		return nil
	}
	// Another name for the module after the wrap (`raw_model = model`,
	// nanogpt-titans): its forward runs past the wrapper too.
	for _, a := range names {
		t := a.Targets[0].(*ast.Name)
		if w := out[pathText(a.Value)]; w != nil && out[t.Id] == nil && t.Id != w.wrapper && after(a.Span(), w.end) {
			out[t.Id] = &wrapping{module: t.Id, wrapper: w.wrapper, at: w.at, end: a.Span()}
		}
	}
	// Assigned again after the wrap (`model = ddp_model`, a fresh
	// module): a forward after that calls something else.
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			for _, t := range a.Targets {
				for _, x := range append([]ast.Expr{t}, ast.SeqElts(t)...) {
					if w := out[pathText(x)]; w != nil && after(a.Span(), w.end) {
						w.rebinds = append(w.rebinds, a.Span())
					}
				}
			}
		}
		return true
	})
	return out
}

// originalCall returns the wrapping whose module a call runs by its own
// name (`model(x)`, `model.encode(x)`) after the wrap, or nil.
func originalCall(c *ast.Call, wrapped map[string]*wrapping) *wrapping {
	for m, w := range wrapped {
		if forwardThrough(c, m) && after(c.Span(), w.end) &&
			!slices.ContainsFunc(w.rebinds, func(p ast.Pos) bool { return after(c.Span(), p) }) {
			return w
		}
	}
	return nil
}

// after reports whether p starts after q ends.
func after(p, q ast.Pos) bool {
	return p.Lineno > q.EndLineno || p.Lineno == q.EndLineno && p.ColOffset >= q.EndColOffset
}

// unwrapsBetweenPasses returns the attributes of a method's instance
// (`self.model`, by their text in f), with the assignment, that another
// method of the class rebinds to the module inside their wrapper in a loop that also calls f
// (`for epoch in …: self.train_one_epoch(); self.model =
// accelerator.unwrap_model(self.model)`, AgentGym's trainer): from the
// second pass on, f's forward through the attribute runs past the
// wrapper. nil when there is none.
func (b *builder) unwrapsBetweenPasses(f *callgraph.Func) map[string]*ast.Assign {
	def, ok := f.Node.(*ast.FunctionDef)
	if !ok || f.Class == nil || f.Class.Node == nil || def.Args == nil || len(def.Args.Positional()) == 0 {
		return nil
	}
	self := def.Args.Positional()[0].Arg
	var out map[string]*ast.Assign
	for _, st := range f.Class.Node.Body {
		g, ok := st.(*ast.FunctionDef)
		if !ok || g == def || g.Args == nil || len(g.Args.Positional()) == 0 {
			continue
		}
		recv := g.Args.Positional()[0].Arg
		ast.InspectStmts(g.Body, func(s ast.Stmt) bool {
			var loop []ast.Stmt
			switch s := s.(type) {
			case *ast.For:
				loop = s.Body
			case *ast.While:
				loop = s.Body
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				return false
			default:
				return true
			}
			calls := false
			var unwraps []*ast.Assign
			ast.InspectStmts(loop, func(in ast.Stmt) bool {
				switch in := in.(type) {
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
					return false
				case *ast.ExprStmt:
					if c, ok := in.Value.(*ast.Call); ok && pathText(c.Func) == recv+"."+def.Name {
						calls = true
					}
				case *ast.Assign:
					if len(in.Targets) == 1 && unwrapsItself(in.Targets[0], in.Value) && strings.HasPrefix(pathText(in.Targets[0]), recv+".") {
						unwraps = append(unwraps, in)
					}
					if c, ok := in.Value.(*ast.Call); ok && pathText(c.Func) == recv+"."+def.Name {
						calls = true // results, step = self.train_one_epoch(…)
					}
				}
				return true
			})
			if calls {
				for _, a := range unwraps {
					if out == nil {
						out = map[string]*ast.Assign{}
					}
					attr := strings.TrimPrefix(pathText(a.Targets[0]), recv+".")
					out[self+"."+attr] = a
				}
			}
			return true
		})
	}
	return out
}

// unwrapsItself reports `x = x.module` or `x = accelerator.unwrap_model(x)`.
func unwrapsItself(target, value ast.Expr) bool {
	t := pathText(target)
	if t == "" {
		return false
	}
	switch v := value.(type) {
	case *ast.Attribute:
		return v.Attr == "module" && pathText(v.Value) == t
	case *ast.Call:
		a, ok := v.Func.(*ast.Attribute)
		return ok && a.Attr == "unwrap_model" && len(v.Args) >= 1 && pathText(v.Args[0]) == t
	}
	return false
}

// passCall returns the unwrap a call runs past (`self.model(**batch)`,
// `self.model.generate(…)`), or nil.
func passCall(c *ast.Call, unwraps map[string]*ast.Assign) *ast.Assign {
	for p, a := range unwraps {
		if forwardThrough(c, p) {
			return a
		}
	}
	return nil
}

// reboundCall returns the rebound path a call runs through (`model(x)`,
// `model.lm.compute_predictions(…)`) after its unwrap, or nil.
func reboundCall(c *ast.Call, unwraps map[string]*unwrap) (string, *unwrap) {
	for p, u := range unwraps {
		if forwardThrough(c, p) && after(c.Span(), u.stmt.Span()) {
			return p, u
		}
	}
	return "", nil
}

// forwardThrough reports a call that runs the forward of the module at
// path p, or a method or submodule of it (`model(x)`, `model.encode(x)`),
// not one of the module's utilities (`.parameters()`, `.train()`).
func forwardThrough(c *ast.Call, p string) bool {
	if a, ok := c.Func.(*ast.Attribute); ok && moduleUtilities[a.Attr] {
		return false
	}
	t := pathText(c.Func)
	return t == p || strings.HasPrefix(t, p+".")
}

// bypassingHelper returns, for a call of a program function that returns
// a value computed past the wrapper of a DistributedDataParallel passed
// to it (`run_forward_pass(vla, action_head, …)` whose loss comes from
// `action_head.module.predict_action(…)`, with no forward of
// action_head's own), the caller's text for that wrapper; "" otherwise.
func (b *builder) bypassingHelper(c *ast.Call) string {
	cs := b.g.CallOf(c)
	if cs == nil {
		return ""
	}
	for _, t := range cs.Targets {
		if t.Fn == nil {
			continue
		}
		param := b.bypassedParam(t.Fn)
		if param == "" {
			continue
		}
		if x, _, _ := boundArg(t.Fn, c, param); x != nil {
			return pathText(x)
		}
	}
	return ""
}

// bypassedParam returns the parameter of f holding a DistributedDataParallel
// whose module f calls past it (`param.module.m(…)`) to compute what it
// returns, with no forward of that parameter feeding the return; ""
// when there is none. Memoized per function.
func (b *builder) bypassedParam(f *callgraph.Func) string {
	if p, ok := b.bypassParams[f]; ok {
		return p
	}
	b.bypassParams[f] = ""
	def, ok := f.Node.(*ast.FunctionDef)
	if !ok || def.Args == nil {
		return ""
	}
	locals := assignedValues(def.Body)
	param := ""
	flow.ReturnsDerived(def.Body, func(c *ast.Call) bool {
		if param != "" || b.bypassedWrapper(c, locals) == nil {
			return false
		}
		t := pathText(c.Func)
		w := ""
		if i := strings.Index(t, ".module"); i > 0 && isParam(def.Args, t[:i]) {
			w = t[:i]
		} else if root, _, _ := strings.Cut(t, "."); isParam(def.Args, root) && slices.ContainsFunc(locals[root], func(v ast.Expr) bool {
			return pathText(v) == root+".module"
		}) {
			// `if distributed: model = model.module` then
			// model.encode(x) (CLIPSelf's loss helper).
			w = root
		}
		if w == "" {
			return false
		}
		if flow.ReturnsDerived(def.Body, func(c *ast.Call) bool { return pathText(c.Func) == w || pathText(c.Func) == w+".forward" }) {
			return false
		}
		if flow.ReturnsDerived(def.Body, func(x *ast.Call) bool { return x == c }) {
			param = w
		}
		return false
	})
	b.bypassParams[f] = param
	return param
}

// moduleUtilities are nn.Module methods that run no forward.
var moduleUtilities = map[string]bool{
	"cuda": true, "cpu": true, "to": true, "train": true, "eval": true, "parameters": true, "named_parameters": true,
	"buffers": true, "named_buffers": true, "state_dict": true, "load_state_dict": true, "zero_grad": true,
	"requires_grad_": true, "half": true, "float": true, "bfloat16": true, "double": true, "apply": true,
	"modules": true, "named_modules": true, "children": true, "named_children": true, "get_submodule": true,
}

// bypassedWrapper returns the DistributedDataParallel wrappers whose
// wrapped module the call c runs past them (`ddp.module(x)`,
// `ddp.module.encode(x)`, `raw[0](x)` after `raw = unwrap(ddp)`), or nil:
// an expression along the callee's chain of attributes and subscripts
// (or what the function bound to the name at its root) holds a wrapper's
// `.module`.
func (b *builder) bypassedWrapper(c *ast.Call, locals map[string][]ast.Expr) []callgraph.ValueID {
	if a, ok := c.Func.(*ast.Attribute); ok && moduleUtilities[a.Attr] {
		return nil
	}
	if w := b.bypassedArgument(c); w != nil {
		return w
	}
	check := func(x ast.Expr) []callgraph.ValueID {
		var out []callgraph.ValueID
		for _, v := range b.g.ExprValues(x) {
			if w := b.ddpModuleOf(v); w >= 0 {
				out = append(out, w)
			}
		}
		return out
	}
	e := c.Func
	for depth := 0; e != nil && depth < 8; depth++ {
		if w := check(e); w != nil {
			return w
		}
		switch x := e.(type) {
		case *ast.Attribute:
			e = x.Value
		case *ast.Subscript:
			e = x.Value
		case *ast.Name:
			// raw = unwrap(model): the values the function bound to it.
			for _, v := range locals[x.Id] {
				if w := check(v); w != nil {
					return w
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// bypassedArgument returns the DistributedDataParallel wrappers whose
// wrapped module a call hands to a program function that calls it
// (`pretrain_loss(dyn.module if hasattr(dyn, "module") else dyn, z)`,
// whose body runs `dynamics(z)`), or nil.
func (b *builder) bypassedArgument(c *ast.Call) []callgraph.ValueID {
	cs := b.g.CallOf(c)
	if cs == nil {
		return nil
	}
	for _, t := range cs.Targets {
		if t.Fn == nil {
			continue
		}
		args := funcArgs(t.Fn.Node)
		if args == nil {
			continue
		}
		for _, p := range allParams(args) {
			x, _, _ := boundArg(t.Fn, c, p.Arg)
			if x == nil || !callsName(t.Fn.Node, p.Arg) {
				continue
			}
			for _, v := range b.g.ExprValues(x) {
				if w := b.ddpModuleOf(v); w >= 0 {
					return []callgraph.ValueID{w}
				}
			}
		}
	}
	return nil
}

// moduleOwner returns the text of X in the first `X.module` among a
// call's arguments (`dyn` in `loss(dyn.module if hasattr(dyn, "module")
// else dyn, z)`), or "".
func moduleOwner(c *ast.Call) string {
	owner := ""
	for _, a := range append(append([]ast.Expr(nil), c.Args...), keywordValues(c)...) {
		ast.Inspect(a, func(n ast.Node) bool {
			if x, ok := n.(*ast.Attribute); ok && x.Attr == "module" && owner == "" {
				owner = pathText(x.Value)
			}
			return owner == ""
		})
	}
	return owner
}

func keywordValues(c *ast.Call) []ast.Expr {
	var out []ast.Expr
	for _, k := range c.Keywords {
		out = append(out, k.Value)
	}
	return out
}

// ddpModuleOf returns the DistributedDataParallel wrapper whose `.module`
// v is, or -1.
func (b *builder) ddpModuleOf(v callgraph.ValueID) callgraph.ValueID {
	val := b.g.Value(v)
	if val == nil || val.Kind != callgraph.KBoundExternal || !strings.HasSuffix(val.Name, ".module") {
		return -1
	}
	w := b.g.Value(val.Recv)
	if w == nil || w.Kind != callgraph.KOpaque {
		return -1
	}
	if e := b.constructedBy(w); e != nil && isDDP(e) {
		return val.Recv
	}
	return -1
}

// callsName reports whether a function's body calls its local name
// (`dynamics(z)`, `dynamics.forward(z)`), outside nested definitions.
func callsName(fn ast.Node, name string) bool {
	found := false
	ast.InspectBody(defBody(fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Call:
			f := n.Func
			if a, ok := f.(*ast.Attribute); ok && a.Attr == "forward" {
				f = a.Value
			}
			if nm, ok := f.(*ast.Name); ok && nm.Id == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignedValues maps each name a statement list assigns (nested
// definitions left out) to the values assigned to it.
func assignedValues(body []ast.Stmt) map[string][]ast.Expr {
	out := map[string][]ast.Expr{}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Assign:
			for _, t := range n.Targets {
				if nm, ok := t.(*ast.Name); ok {
					out[nm.Id] = append(out[nm.Id], n.Value)
				}
			}
		}
		return true
	})
	return out
}

// preparers wrap the modules they are handed and return them in order:
// accelerate's prepare, Fabric's setup (model, then its optimizers) and
// setup_module.
var preparers = map[string]bool{
	"accelerate.Accelerator.prepare":       true,
	"lightning.fabric.Fabric.setup":        true,
	"lightning.fabric.Fabric.setup_module": true,
}

// metricLocal reports a local every assignment of which computes a
// comparison of values (`(pred.argmax(1) == y).sum()`): a count or an
// accuracy, never a gradient.
func metricLocal(values []ast.Expr) bool {
	if len(values) == 0 {
		return false
	}
	for _, v := range values {
		compares := false
		ast.Inspect(v, func(n ast.Node) bool {
			if _, ok := n.(*ast.Compare); ok {
				compares = true
			}
			return !compares
		})
		if !compares {
			return false
		}
	}
	return true
}

// isDDP reports torch's DistributedDataParallel, whose reducer all-reduces
// gradients only in a backward that follows its own forward.
func isDDP(c *api.Collective) bool {
	return c.GradSync && strings.HasSuffix(c.Name, ".DistributedDataParallel") && strings.HasPrefix(c.Name, "torch.")
}

// syncForward reports whether call runs the forward of a module that a
// grad_sync table entry made (model(x) or model.forward(x), where model
// holds a DistributedDataParallel): not the wrapper's construction, whose
// callee is the class itself.
func (b *builder) syncForward(path string, call *ast.Call) bool {
	if b.sites[call] != nil || b.ref(path, call.Func) != "" && !b.callsProgram(call) {
		// (A name imported from another module of the program has a
		// reference too: `from sd_util import denoise` is followed.)
		return false
	}
	if b.syncModel(call.Func) {
		return true
	}
	return b.forwardsArgument(call) || b.returnsSyncForward(call)
}

// callsProgram reports a call that resolves to a function of the program.
func (b *builder) callsProgram(call *ast.Call) bool {
	cs := b.g.CallOf(call)
	return cs != nil && slices.ContainsFunc(cs.Targets, func(t callgraph.Target) bool { return t.Fn != nil })
}

// returnsSyncForward reports a call of a program function (a method, an
// instance's __call__) that returns what a synchronising module's forward
// computed (OSTrack's actor: `loss = self.actor(data)` runs `return
// self.net(data).mean()` on the DDP net): the caller's backward of it
// reduces the gradients.
func (b *builder) returnsSyncForward(call *ast.Call) bool {
	cs := b.g.CallOf(call)
	if cs == nil {
		return false
	}
	for _, t := range cs.Targets {
		if t.Fn == nil || t.Fn.Module == nil {
			continue
		}
		if b.syncReturns == nil {
			b.syncReturns = map[*callgraph.Func]bool{}
		}
		r, done := b.syncReturns[t.Fn]
		if !done {
			b.syncReturns[t.Fn] = false // recursion: not (yet)
			if body := ast.DefBody(t.Fn.Node); body != nil {
				path := t.Fn.Module.Path
				r = flow.ReturnsDerived(body, func(c *ast.Call) bool { return b.syncForward(path, c) })
			}
			b.syncReturns[t.Fn] = r
		}
		if r {
			return true
		}
	}
	return false
}

// forwardsArgument reports a call of a program function that runs the
// forward of a synchronising module passed to it: compute_log_probs(model,
// batch) whose body calls model(...).
func (b *builder) forwardsArgument(call *ast.Call) bool {
	cs := b.g.CallOf(call)
	if cs == nil {
		return false
	}
	for _, t := range cs.Targets {
		if t.Fn == nil {
			continue
		}
		def, ok := t.Fn.Node.(*ast.FunctionDef)
		if !ok {
			continue
		}
		params := def.Args.Args
		if _, isAttr := call.Func.(*ast.Attribute); isAttr && t.Fn.Class != nil && !t.Fn.Static && len(params) > 0 {
			params = params[1:] // the receiver
		}
		for i, a := range call.Args {
			if i < len(params) && b.syncModel(a) && callsParam(def.Body, params[i].Arg) {
				return true
			}
		}
		for _, k := range call.Keywords {
			if k.Arg != "" && b.syncModel(k.Value) && callsParam(def.Body, k.Arg) {
				return true
			}
		}
	}
	return false
}

// callsParam reports whether body (nested definitions left out) calls
// the parameter name, or its forward method.
func callsParam(body []ast.Stmt, name string) bool {
	found := false
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return
		case *ast.Call:
			f := n.Func
			if a, ok := f.(*ast.Attribute); ok && a.Attr == "forward" {
				f = a.Value
			}
			if x, ok := f.(*ast.Name); ok && x.Id == name {
				found = true
				return
			}
		}
		ast.Children(n, visit)
	}
	for _, s := range body {
		visit(s)
	}
	return found
}

// syncModel reports whether e holds an instance a grad_sync constructor
// made (model, self.model), or its forward method.
func (b *builder) syncModel(e ast.Expr) bool {
	return b.wrapperValue(e, func(c *api.Collective) bool { return c.GradSync }, false)
}

// wrapperValue reports whether e holds an instance, or the forward method
// of an instance, that a constructor entry with the property made. For
// the forward's communication, instances of constructions that turned it
// off do not count.
func (b *builder) wrapperValue(e ast.Expr, has func(*api.Collective) bool, forward bool) bool {
	quiet := b.in.Values.quietForwards
	for _, v := range b.g.ExprValues(e) {
		val := b.g.Value(v)
		if val == nil || forward && (quiet[v] || val.Kind == callgraph.KBoundExternal && quiet[val.Recv]) {
			continue
		}
		var name string
		switch val.Kind {
		case callgraph.KOpaque:
			// The instance the construction made: "…DistributedDataParallel()".
			name = strings.TrimSuffix(val.Name, "()")
		case callgraph.KBoundExternal, callgraph.KExternal:
			// model.forward
			n, ok := strings.CutSuffix(val.Name, ".forward")
			if !ok {
				continue
			}
			name = strings.TrimSuffix(n, "()")
		default:
			continue
		}
		if c := b.t.Collectives[b.t.Canonical(name)]; c != nil && has(c) {
			return true
		}
	}
	return false
}

// buffersOnly reports whether every wrapper e may hold communicates in
// its forward only to broadcast buffers (DDP's broadcast_buffers; not
// FSDP's parameter all-gather).
func (b *builder) buffersOnly(e ast.Expr) bool {
	buffers := func(c *api.Collective) bool { return c.ForwardSync && c.ForwardSyncUnless.Present() }
	others := func(c *api.Collective) bool { return c.ForwardSync && !c.ForwardSyncUnless.Present() }
	return b.wrapperValue(e, buffers, true) && !b.wrapperValue(e, others, true)
}

// wrapperGroup is the group the program's wrappers with the property
// communicate over: the one group all their constructions name, or
// unknown when they differ (which wrapper a value comes from is not
// tracked); nil when the program constructs none. For the forward's
// group, constructions that turn the forward's communication off do not
// count.
func (b *builder) wrapperGroup(has func(*api.Collective) bool, forward bool) *rules.Group {
	return b.wrapperGroupIn("", has, forward)
}

// wrapperGroupIn is wrapperGroup over the constructions in the file at
// path ("": anywhere).
func (b *builder) wrapperGroupIn(path string, has func(*api.Collective) bool, forward bool) *rules.Group {
	var group *rules.Group
	for _, s := range b.prog.Sites {
		if path != "" && s.Pos.Path != path {
			continue
		}
		c := b.t.Collectives[s.API]
		if c == nil || !has(c) {
			continue
		}
		if src := b.siteSrc[s]; forward && src.cs != nil && forwardTurnedOff(src.cs, c) {
			continue // a construction whose forward does not communicate
		}
		switch {
		case group == nil:
			group = s.Group
		case !sameGroup(group, s.Group):
			return b.unknown
		}
	}
	return group
}

// wrapperGroupNear is wrapperGroup for the forwards and backwards of the
// file at path: when the file itself constructs such wrappers, their
// group, so that another program analysed in the same run (a monorepo, a
// directory of examples) with wrappers on other groups does not make
// this file's unknown; else the whole run's, whole.
func (b *builder) wrapperGroupNear(path string, has func(*api.Collective) bool, forward bool, whole *rules.Group) *rules.Group {
	return cmp.Or(b.wrapperGroupIn(path, has, forward), whole)
}

// sameGroup reports whether two known groups are the same one.
func sameGroup(a, c *rules.Group) bool {
	if a == nil || c == nil || a.Kind == rules.GroupUnknown || c.Kind == rules.GroupUnknown {
		return false
	}
	return a == c || a.Kind == rules.GroupWorld && c.Kind == rules.GroupWorld
}

// SyncForward implements flow.GradSyncer.
func (r *resolver) SyncForward(call *ast.Call) bool {
	return r.b.implicitOps != nil && r.b.syncForward(r.mod, call)
}

// SyncModule implements flow.GradSyncer.
func (r *resolver) SyncModule(e ast.Expr) bool {
	return r.b.implicitOps != nil && r.b.syncModel(e)
}

// ShardsGrads implements flow.GradSharder.
func (r *resolver) ShardsGrads(e ast.Expr) bool {
	return r.b.wrapperValue(e, func(c *api.Collective) bool { return c.ShardsGrads }, false)
}

// Syncs implements flow.GradSyncer.
func (r *resolver) Syncs(fn *rules.Function) bool {
	f := r.b.fnOf(fn)
	return f != nil && len(r.b.syncOps[f.Node]) > 0
}

// ImplicitOp implements flow.GradSyncer.
func (r *resolver) ImplicitOp(call *ast.Call) *rules.OpRef { return r.b.implicitOps[call] }

// localScalerSteps are the GradScaler steps whose inf/NaN check reads the
// gradients this process holds and nothing else. The sharded scalers
// (torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler,
// fairscale.optim.grad_scaler.ShardedGradScaler) all-reduce the check.
var localScalerSteps = map[string]bool{
	"torch.cuda.amp.GradScaler.step":             true,
	"torch.cuda.amp.grad_scaler.GradScaler.step": true,
	"torch.amp.GradScaler.step":                  true,
	"torch.amp.grad_scaler.GradScaler.step":      true,
}

// scalerSkips finds GradScaler.step calls in files that shard their
// model's gradients (a construction whose table entry has shards_grads:
// FSDP, fairscale's ShardedDataParallel). There each rank's scaler
// checks its own gradient shard and skips the optimizer step on an
// overflow that the other ranks do not see (R14). A file that names
// ShardedGradScaler is taken to pick the right scaler for that model.
func (b *builder) scalerSkips() {
	sharders := map[string][]*rules.Site{}
	for _, s := range b.prog.Sites {
		if c := b.t.Collectives[s.API]; c != nil && c.ShardsGrads {
			sharders[s.Pos.Path] = append(sharders[s.Pos.Path], s)
		}
	}
	if len(sharders) == 0 {
		return
	}
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Caller == nil {
			continue
		}
		path := cs.Caller.Module.Path
		if len(sharders[path]) == 0 || !b.callsExternal(cs, localScalerSteps) {
			continue
		}
		// The wrapper built in the same function if there is one, else
		// one of the same class, else the file's first.
		fn := b.fn(cs.Caller)
		sharder := b.scalerSharder(cs.Caller, fn, sharders[path])
		if sharder == nil || b.files[path] == nil || b.namesShardedScaler(path) {
			continue
		}
		pos := b.pos(path, cs.Node)
		step := &rules.OpRef{Op: "step", Group: sharder.Group, Pos: pos}
		b.prog.Branches = append(b.prog.Branches, &rules.RankBranch{
			Func: fn, Guard: pos, Cond: cmp.Or(pathText(cs.Node.Func), "GradScaler.step"),
			Divergence: rules.LocalValue, Then: []*rules.OpRef{step}, SkipsStep: true, Sharder: sharder,
		})
	}
}

// scalerSharder picks the gradient-sharding wrapper whose model the
// GradScaler step in caller may be stepping: one built in the same
// function, else in a method of the step's own class (or a class
// related to it by inheritance), else one outside any class. A method of
// a class that builds no wrapper and calls no function that does steps
// an optimizer of its own model: another class of the file that wraps
// its model in FSDP says nothing about this one (minChatGPT's
// single-process SFT trainer beside its FSDP trainer). nil: none.
func (b *builder) scalerSharder(caller *callgraph.Func, fn *rules.Function, sharders []*rules.Site) *rules.Site {
	for _, s := range sharders {
		if s.Func == fn {
			return s
		}
	}
	cls := enclosingClass(caller)
	if cls == nil {
		return sharders[0]
	}
	var outside *rules.Site
	for _, s := range sharders {
		sf := b.fnOf(s.Func)
		if sf == nil {
			return s
		}
		other := enclosingClass(sf)
		if other == nil {
			if outside == nil {
				outside = s
			}
			continue
		}
		if other == cls || b.relatedClasses(cls, other) || b.classCalls(cls, sf) {
			return s
		}
	}
	return outside
}

// enclosingClass is the class whose method f is, or whose method f is
// nested in; nil for functions outside any class.
func enclosingClass(f *callgraph.Func) *callgraph.Class {
	for ; f != nil; f = f.Parent {
		if f.Class != nil {
			return f.Class
		}
	}
	return nil
}

// relatedClasses reports whether one of a and b is among the other's
// bases (in the program).
func (b *builder) relatedClasses(a, c *callgraph.Class) bool {
	for _, pair := range [][2]*callgraph.Class{{a, c}, {c, a}} {
		mro, _ := b.g.MRO(pair[0])
		if slices.Contains(mro, pair[1]) {
			return true
		}
	}
	return false
}

// classCalls reports whether a method of cls (or a function nested in
// one) calls target directly.
func (b *builder) classCalls(cls *callgraph.Class, target *callgraph.Func) bool {
	for _, f := range b.g.Funcs {
		if enclosingClass(f) != cls {
			continue
		}
		for _, cs := range f.Calls {
			for _, t := range cs.Targets {
				if t.Fn == target {
					return true
				}
			}
		}
	}
	return false
}

// namesShardedScaler reports whether the module at path refers to a
// ShardedGradScaler in its code (an import, a name, an attribute).
func (b *builder) namesShardedScaler(path string) bool {
	const name = "ShardedGradScaler"
	if !bytes.Contains(b.files[path].Src, []byte(name)) {
		return false
	}
	found := false
	for _, m := range b.in.Modules {
		if m.Mod.Path != path {
			continue
		}
		ast.Inspect(m.AST, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Name:
				found = found || n.Id == name
			case *ast.Attribute:
				found = found || n.Attr == name
			case *ast.Alias:
				found = found || lastName(n.Name) == name
			}
			return !found
		})
	}
	return found
}
