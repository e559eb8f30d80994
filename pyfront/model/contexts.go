package model

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// contexts creates the main context and one context per (spawn site,
// entry function): threads, pools, autograd callbacks, library background
// threads; and contexts for subclasses of spawning classes (Thread.run,
// autograd.Function.backward).
func (b *builder) contexts() {
	b.main = &rules.Context{ID: 0, Kind: rules.Main}
	b.prog.Contexts = append(b.prog.Contexts, b.main)
	for _, f := range b.g.Funcs {
		if deadNested(f) {
			continue // what it would start never starts
		}
		for _, cs := range f.Calls {
			if cs.Node == nil {
				continue
			}
			for _, name := range b.apis(cs) {
				sp := b.t.Spawners[name]
				if sp == nil || (sp.Subclass && !sp.Target.Present()) {
					continue
				}
				if sp.Context == "autograd" && sp.Framework != "" && !sp.Target.Present() && !b.prepared.trains {
					// FSDP's or DDP's backward hooks in a program that
					// never runs backward (a forward-only export check
					// under inference_mode): nothing calls them.
					continue
				}
				if b.callSpawn(f, cs, name, sp) {
					break
				}
			}
		}
	}
	b.decoratorSpawns()
	b.subclassSpawns()
	b.orderDoneCallbacks()
	b.serialize()
	if b.backwardCalls > 0 && b.backwardSingle == b.backwardCalls {
		for _, c := range b.prog.Contexts {
			if c.Kind == rules.Autograd {
				c.SingleThreadedAutograd = true
			}
		}
	}
}

// decoratorSpawns makes the contexts of functions that a decorator
// registers to run on threads (api.Spawner.Decorates: FastAPI's
// @app.put("/generate") on a plain def runs it on the server's worker
// pool, several requests at once).
func (b *builder) decoratorSpawns() {
	for _, d := range b.g.Funcs {
		if !d.Decorated {
			continue
		}
		var decos []ast.Expr
		async := false
		switch n := d.Node.(type) {
		case *ast.FunctionDef:
			decos = n.DecoratorList
		case *ast.AsyncFunctionDef:
			decos, async = n.DecoratorList, true
		}
		for _, dec := range decos {
			call, ok := dec.(*ast.Call)
			if !ok {
				continue
			}
			cs := b.g.CallOf(call)
			if cs == nil || cs.Caller == nil {
				continue
			}
			for _, name := range b.apis(cs) {
				sp := b.t.Spawners[name]
				if sp == nil || !sp.Decorates || sp.SyncOnly && async {
					continue
				}
				c := b.newContext(sp.Context, cs.Caller, call, name)
				c.Many = sp.Many
				c.Entry = b.fn(d)
				b.spawns = append(b.spawns, &spawn{ctx: c, cs: cs, sp: sp, caller: cs.Caller})
				break
			}
		}
	}
}

// deadNested reports a function defined inside another one whose name
// the enclosing function never reads: nothing calls it, registers it or
// hands it on (GLM's gradient hook whose register_hook line is commented
// out). Only a plain def counts; a decorated one is used by its
// decorator.
func deadNested(f *callgraph.Func) bool {
	if f.Parent == nil || f.Class != nil || f.Decorated {
		return false
	}
	var name string
	switch d := f.Node.(type) {
	case *ast.FunctionDef:
		name = d.Name
	case *ast.AsyncFunctionDef:
		name = d.Name
	default:
		return false // a lambda is an expression: it is used where it is written
	}
	body := ast.DefBody(f.Parent.Node) // nil for a module body: its names are importable
	if len(body) == 0 {
		return false
	}
	used := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if used {
				return false
			}
			switch n := n.(type) {
			case *ast.Name:
				if n.Id == name && n.Ctx == ast.Load {
					used = true
				}
			case *ast.Constant:
				if n.Type == ast.ConstStr && n.Str == name {
					used = true // getattr(…, "name"), locals()["name"]
				}
			case *ast.Call:
				if fn, ok := n.Func.(*ast.Name); ok && (fn.Id == "locals" || fn.Id == "vars") {
					used = true
				}
			}
			return true
		})
	}
	return !used
}

func (b *builder) newContext(kind string, f *callgraph.Func, at ast.Node, api string) *rules.Context {
	c := &rules.Context{ID: len(b.prog.Contexts), Kind: rules.ContextKind(kind), Spawn: b.pos(f.Module.Path, at), SpawnAPI: api, SpawnIn: b.fn(f)}
	if c.Kind == "" {
		c.Kind = rules.Thread
	}
	b.prog.Contexts = append(b.prog.Contexts, c)
	return c
}

// callSpawn handles a call of a spawning API; it reports whether it made
// a context.
func (b *builder) callSpawn(f *callgraph.Func, cs *callgraph.CallSite, name string, sp *api.Spawner) bool {
	if elsewhere(cs.Node, sp) {
		return false
	}
	info := b.info[cs.Node]
	var pool string // the one-worker pool cs submits to, if it is one
	if sp.Context == string(rules.Pool) {
		pool = b.singleWorker(f, cs.Node)
	}
	many := (spawnMany(sp, info, b.joined[cs.Node]) || sp.Context == string(rules.Thread) && !b.joined[cs.Node] && b.calledInLoop(f) ||
		sp.Context == string(rules.Pool) && b.gatheredTwice(f)) && pool == "" && !rpcPerDestination(f.Node, cs.Node, sp)
	entries, bound := b.targetFuncs(cs, sp)
	var ext *api.Collective
	var extTarget ast.Expr
	if len(entries) == 0 {
		ext, extTarget = b.externalTarget(cs, sp)
	}
	if len(entries) == 0 && ext == nil && sp.Framework == "" && sp.Context != "background" {
		return false
	}
	var groups []*rules.Group
	if sp.Group.Present() {
		if e := argExpr(cs.Node, sp.Group); e != nil {
			groups = b.groupsOf(b.g.ExprValues(e), e)
		} else {
			groups = []*rules.Group{b.in.Values.world}
		}
	}
	label := name
	if name == "torch.Tensor.register_hook" && nodeHookReceiver(cs.Node) {
		// The tables merge Node.register_hook into Tensor's; name the
		// one the program calls in messages.
		label = "torch.autograd.graph.Node.register_hook"
	}
	instead := b.otherArm(f, cs.Node)
	backendGate := b.defaultBackendGate(f, cs.Node)
	mk := func(entry *callgraph.Func, isBound bool) *rules.Context {
		c := b.newContext(sp.Context, f, cs.Node, label)
		c.Instead = instead
		c.DefaultBackend = backendGate
		c.Many = many
		c.Serial = pool
		c.Joined = b.joined[cs.Node]
		if !c.Joined && !many && sp.Context == string(rules.Thread) {
			c.JoinedAt = b.joinedLater(f, cs.Node)
		}
		c.Framework = sp.Framework
		if len(groups) > 0 {
			c.Group = groups[0]
		}
		if entry != nil {
			c.Entry = b.fn(entry)
		}
		if sp.Framework != "" {
			c.Groups, c.GroupChoice = b.frameworkGroups(f, cs, name, sp)
		}
		s := &spawn{ctx: c, cs: cs, sp: sp, bound: isBound, caller: f}
		s.args, s.kw = spawnArgs(cs.Node, sp)
		b.spawns = append(b.spawns, s)
		return c
	}
	if len(entries) == 0 {
		c := mk(nil, false)
		if ext != nil {
			b.spawnedSite(f, cs, sp, ext, extTarget, c)
		}
		return true
	}
	for i, e := range entries {
		mk(e, bound[i])
	}
	return true
}

// externalTarget returns the collective of the tables that a spawn runs
// directly (ex.submit(dcp.save, state, …), Thread(target=dist.barrier)),
// and the target expression; nil when the target is not one.
func (b *builder) externalTarget(cs *callgraph.CallSite, sp *api.Spawner) (*api.Collective, ast.Expr) {
	if !sp.Target.Present() {
		return nil, nil
	}
	e := argExpr(cs.Node, sp.Target)
	if e == nil {
		return nil, nil
	}
	vals, _ := b.g.ArgValues(cs, sp.Target.Pos, sp.Target.Name)
	for _, v := range vals {
		val := b.g.Value(v)
		if val == nil || val.Kind != callgraph.KExternal {
			continue
		}
		if c := b.t.Collectives[b.t.Canonical(val.Name)]; c != nil && !c.Method {
			return c, e
		}
	}
	return nil, nil
}

// spawnedSite makes the site of a collective that a spawn runs directly
// (externalTarget): at the spawn call, with the arguments the spawn
// passes on, issued by the spawned context c alone, not by the thread
// that spawns it.
func (b *builder) spawnedSite(f *callgraph.Func, cs *callgraph.CallSite, sp *api.Spawner, coll *api.Collective, target ast.Expr, c *rules.Context) {
	args, kw := spawnArgs(cs.Node, sp)
	call := &ast.Call{Pos: cs.Node.Pos, Func: target, Args: args}
	names := make([]string, 0, len(kw))
	for k := range kw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		call.Keywords = append(call.Keywords, &ast.Keyword{Arg: k, Value: kw[k]})
	}
	site := b.newSite(b.fn(f), f, &callgraph.CallSite{ID: -1, Node: call, At: call, Caller: f}, coll)
	if b.spawnedBy == nil {
		b.spawnedBy = map[*rules.Site]*rules.Context{}
	}
	b.spawnedBy[site] = c
}

// nodeHookReceiver reports a register_hook call on an autograd graph
// node rather than a tensor, by the receiver's name (grad_acc, acc_grad,
// …grad_fn…, …next_functions…): the gradient accumulator hooks of
// hand-written DDP and ZeRO code.
func nodeHookReceiver(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	var text string
	ast.Inspect(a.Value, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Name:
			text += x.Id + " "
		case *ast.Attribute:
			text += x.Attr + " "
		}
		return true
	})
	for _, w := range []string{"grad_acc", "acc_grad", "grad_fn", "next_functions", "accumulator"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// elsewhere reports whether the call runs its work in another process
// (api.Spawner.ElsewhereArg): no thread of this one issues it.
func elsewhere(c *ast.Call, sp *api.Spawner) bool {
	if !sp.ElsewhereArg.Present() {
		return false
	}
	e := argExpr(c, sp.ElsewhereArg)
	if e == nil {
		return false
	}
	last := lastComponent(e)
	return last != "" && slices.Contains(sp.ElsewhereValues, last)
}

// lastComponent is what a table value of an argument is matched with:
// the last dotted component of its text (HYBRID_SHARD of
// ShardingStrategy.HYBRID_SHARD), or a string constant's value.
func lastComponent(e ast.Expr) string {
	if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstStr {
		return k.Str
	}
	last := pathText(e)
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		last = last[i+1:]
	}
	return last
}

// argIn is argExpr, and also the value a **kwargs dict that f builds
// once gives the argument's keyword (FSDP(m, **cfg) with cfg =
// dict(sharding_strategy=…)).
func argIn(f *callgraph.Func, call *ast.Call, a api.Arg) ast.Expr {
	if e := argExpr(call, a); e != nil || call == nil || a.Name == "" || f == nil {
		return e
	}
	for _, k := range call.Keywords {
		if n, ok := k.Value.(*ast.Name); ok && k.Arg == "" {
			for fn := f; fn != nil; fn = fn.Parent {
				if kw := flow.LocalDict(fn.Node, n.Id); kw != nil {
					return kw(a.Name)
				}
			}
		}
	}
	return nil
}

// kwargsMatch reports a `**name` argument of call, name a **kwargs
// parameter of f (or a dict f was handed), whose values include an
// external constant whose last component is one of values
// (ShardingStrategy.HYBRID_SHARD passed by f's callers).
func (b *builder) kwargsMatch(f *callgraph.Func, call *ast.Call, values []string) bool {
	for _, k := range call.Keywords {
		n, ok := k.Value.(*ast.Name)
		if !ok || k.Arg != "" {
			continue
		}
		for _, c := range b.g.ParamValues(f, n.Id) {
			for _, v := range b.g.ElementValues(c, -1) {
				if val := b.g.Value(v); val.Kind == callgraph.KExternal && slices.Contains(values, lastName(val.Name)) {
					return true
				}
			}
		}
	}
	return false
}

// localCandidates returns what e may be: e itself, or, for a name that
// f (or a function enclosing it) assigns, each value assigned
// (`strategy = HYBRID_SHARD if multi else FULL_SHARD` in branches).
func localCandidates(f *callgraph.Func, e ast.Expr) []ast.Expr {
	n, ok := e.(*ast.Name)
	if !ok {
		return []ast.Expr{e}
	}
	for fn := f; fn != nil; fn = fn.Parent {
		if vals := flow.LocalValues(fn.Node, n.Id); len(vals) > 0 {
			var out []ast.Expr
			for _, v := range vals {
				if x, ok := v.(*ast.IfExp); ok {
					out = append(out, x.Body, x.Orelse)
				} else {
					out = append(out, v)
				}
			}
			return out
		}
	}
	return []ast.Expr{e}
}

// frameworkGroups returns the communicators a framework's hooks drive:
// the intra/inter pair when the multi-communicator argument matches
// (HYBRID_SHARD, a 2-D mesh), else the group argument's groups; choice
// when those are alternatives (groupChoice).
func (b *builder) frameworkGroups(f *callgraph.Func, cs *callgraph.CallSite, name string, sp *api.Spawner) (groups []*rules.Group, choice bool) {
	if sp.MultiCommArg.Present() {
		e := argIn(f, cs.Node, sp.MultiCommArg)
		if e == nil && sp.MultiCommArg.Name != "" && b.kwargsMatch(f, cs.Node, sp.MultiCommValues) {
			// super().__init__(module, **fsdp_kwargs), the subclass's
			// callers passing sharding_strategy=HYBRID_SHARD.
			e = cs.Node
		}
		if e != nil {
			match := e == cs.Node
			var lasts []string
			for _, x := range localCandidates(f, e) {
				lasts = append(lasts, lastComponent(x))
			}
			for _, v := range sp.MultiCommValues {
				if v != "" && slices.Contains(lasts, v) {
					match = true
				}
				if v == "2d" {
					for _, val := range b.g.ExprValues(e) {
						if m, ok := b.g.Value(val).Data.(*mesh); ok && m.ndims >= 2 {
							match = true
						}
					}
				}
			}
			if match {
				pos := b.pos(f.Module.Path, cs.Node)
				short := shortName(name)
				intra := &rules.Group{ID: short + "@" + pos.Short() + "[intra]", Kind: rules.GroupAlloc, API: name, Pos: pos}
				inter := &rules.Group{ID: short + "@" + pos.Short() + "[inter]", Kind: rules.GroupAlloc, API: name, Pos: pos}
				return []*rules.Group{intra, inter}, false
			}
		}
	}
	if c := b.t.Collectives[name]; c != nil && c.Group.Present() {
		if e := argExpr(cs.Node, c.Group); e != nil {
			groups := b.groupsOf(b.g.ExprValues(e), e)
			return groups, len(groups) > 1 && b.groupChoice(f, cs, e)
		}
		return []*rules.Group{b.in.Values.world}, false
	}
	return nil, false
}

// groupChoice reports a group argument whose several groups are
// alternatives: a conditional expression, or a local of the calling
// function bound only there (`pg = intra if use_intra else WORLD`, or in
// the arms of an if), with the call outside any loop. A wrapper made once
// holds one group; a parameter or a loop could hand it a different group
// on each call.
func (b *builder) groupChoice(f *callgraph.Func, cs *callgraph.CallSite, e ast.Expr) bool {
	if info := b.info[cs.Node]; info == nil || info.inLoop {
		return false
	}
	// one: a single group's expression, not a (intra, inter) tuple.
	one := func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Tuple, *ast.List:
			return false
		case *ast.IfExp:
			_, t1 := x.Body.(*ast.Tuple)
			_, t2 := x.Orelse.(*ast.Tuple)
			return !t1 && !t2
		}
		return true
	}
	switch e := e.(type) {
	case *ast.IfExp:
		return one(e)
	case *ast.Name:
		if isParam(funcArgs(f.Node), e.Id) {
			return false
		}
		vals := flow.LocalValues(f.Node, e.Id)
		for _, v := range vals {
			if !one(v) {
				return false
			}
		}
		return len(vals) > 0
	}
	return false
}

// spawnArgs returns the expressions passed on to the entry function.
func spawnArgs(call *ast.Call, sp *api.Spawner) ([]ast.Expr, map[string]ast.Expr) {
	if sp.State.Present() {
		if e := argExpr(call, sp.State); e != nil {
			return []ast.Expr{e}, nil
		}
		return nil, nil
	}
	if sp.Args.Present() {
		e := argExpr(call, sp.Args)
		args := ast.SeqElts(e)
		var kw map[string]ast.Expr
		if d, ok := argExpr(call, sp.Kwargs).(*ast.Dict); ok {
			kw = map[string]ast.Expr{}
			for i, k := range d.Keys {
				if c, ok := k.(*ast.Constant); ok && c.Type == ast.ConstStr {
					kw[c.Str] = d.Values[i]
				}
			}
		}
		return args, kw
	}
	// submit(fn, *args, **kwargs), to_thread(fn, …), run_in_executor(ex, fn, …)
	if sp.Target.Pos >= 0 && sp.Target.Pos < len(call.Args) {
		var kw map[string]ast.Expr
		for _, k := range call.Keywords {
			if k.Arg != "" && k.Arg != sp.Target.Name {
				if kw == nil {
					kw = map[string]ast.Expr{}
				}
				kw[k.Arg] = k.Value
			}
		}
		return call.Args[sp.Target.Pos+1:], kw
	}
	return nil, nil
}

// targetFuncs returns the functions a spawner's target argument may be,
// and whether each is bound (a method of an instance).
func (b *builder) targetFuncs(cs *callgraph.CallSite, sp *api.Spawner) ([]*callgraph.Func, []bool) {
	if !sp.Target.Present() {
		return nil, nil
	}
	vals, ok := b.g.ArgValues(cs, sp.Target.Pos, sp.Target.Name)
	if !ok {
		return nil, nil
	}
	var out []*callgraph.Func
	var bound []bool
	seen := map[*callgraph.Func]bool{}
	var add func(v callgraph.ValueID, depth int)
	add = func(v callgraph.ValueID, depth int) {
		val := b.g.Value(v)
		if val == nil || depth > 4 {
			return
		}
		switch val.Kind {
		case callgraph.KFunc, callgraph.KBound:
			if !seen[val.Fn] {
				seen[val.Fn] = true
				out = append(out, val.Fn)
				bound = append(bound, val.Kind == callgraph.KBound)
			}
		case callgraph.KPartial:
			add(val.Recv, depth+1)
		case callgraph.KInstance:
			fns, _ := b.g.Lookup(val.Class, "__call__")
			for _, f := range fns {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
					bound = append(bound, true)
				}
			}
		}
	}
	for _, v := range vals {
		add(v, 0)
	}
	if len(out) > 1 && cs.Node != nil {
		out, bound = acceptingArgs(out, bound, cs.Node, sp)
	}
	return out, bound
}

// acceptingArgs keeps, of several possible targets, those whose
// signature takes the positional arguments the spawner hands them
// (Thread(target=client.listen, args=(stop,)) cannot run a listen(self)
// of another client class: the call would raise). When none does, or the
// arguments are not a literal tuple, all are kept.
func acceptingArgs(fns []*callgraph.Func, bound []bool, call *ast.Call, sp *api.Spawner) ([]*callgraph.Func, []bool) {
	if !sp.Args.Present() || sp.Kwargs.Present() && argExpr(call, sp.Kwargs) != nil {
		return fns, bound
	}
	n := 0
	if x := argExpr(call, sp.Args); x != nil {
		elts := ast.SeqElts(x)
		if elts == nil || slices.ContainsFunc(elts, func(e ast.Expr) bool { _, star := e.(*ast.Starred); return star }) {
			return fns, bound
		}
		n = len(elts)
	}
	var keptFns []*callgraph.Func
	var keptBound []bool
	for i, f := range fns {
		args := funcArgs(f.Node)
		if args == nil {
			return fns, bound
		}
		params := len(args.Positional())
		if bound[i] && params > 0 {
			params-- // the instance fills self
		}
		required := params - len(args.Defaults)
		if n >= required && (n <= params || args.Vararg != nil) {
			keptFns = append(keptFns, f)
			keptBound = append(keptBound, bound[i])
		}
	}
	if len(keptFns) == 0 {
		return fns, bound
	}
	return keptFns, keptBound
}

// subclassSpawns makes contexts for classes deriving from a spawning
// class (threading.Thread → run, torch.autograd.Function → backward).
func (b *builder) subclassSpawns() {
	inst := map[*callgraph.Class][]*callgraph.CallSite{}
	for _, cs := range b.g.Calls {
		if cs.Node == nil || cs.Caller == nil {
			continue
		}
		for _, v := range b.g.CalleeValues(cs) {
			if val := b.g.Value(v); val.Kind == callgraph.KClass {
				inst[val.Class] = append(inst[val.Class], cs)
			}
		}
	}
	bases := map[string]*api.Spawner{}
	var baseNames []string
	for name, sp := range b.t.Spawners {
		if !sp.Subclass || sp.RunMethod == "" {
			continue
		}
		base := strings.TrimSuffix(name, "."+sp.RunMethod)
		bases[base] = sp
		baseNames = append(baseNames, base)
	}
	for _, c := range b.g.Classes {
		_, exts := b.g.MRO(c)
		for _, e := range exts {
			e = b.t.Canonical(e)
			sp := bases[e]
			if sp == nil {
				continue
			}
			fns, _ := b.g.Lookup(c, sp.RunMethod)
			if len(fns) == 0 {
				continue
			}
			api := e
			if !strings.HasSuffix(api, "."+sp.RunMethod) && sp.Context == "autograd" {
				api = e + "." + sp.RunMethod
			}
			sites := inst[c]
			if sp.Context == "autograd" && (!b.classNamed(c) || b.unappliedNamesake(c) || b.onlyUnusedAliases(c) || b.appliedOnlyWithoutGrad(c) || b.withoutForward(c, exts)) {
				// An autograd Function nothing applies, or that only
				// code running without autograd applies: its backward
				// never runs (msn's unused AllGather, scale-mae's kNN
				// GatherLayer).
				break
			}
			if sp.Context == "autograd" || len(sites) == 0 {
				// The engine calls backward; the class definition is the registration.
				for _, fn := range fns {
					ctx := b.newContext(sp.Context, c.Func, c.Node, b.spawnerName(sp))
					ctx.Entry = b.fn(fn)
					ctx.Framework = sp.Framework
				}
				break
			}
			for _, cs := range sites {
				info := b.info[cs.Node]
				for _, fn := range fns {
					ctx := b.newContext(sp.Context, cs.Caller, cs.Node, b.spawnerName(sp))
					ctx.Entry = b.fn(fn)
					ctx.Many = spawnMany(sp, info, b.joined[cs.Node])
					ctx.Joined = b.joined[cs.Node]
					if !ctx.Joined && !ctx.Many && sp.Context == string(rules.Thread) {
						// thr = Worker(); thr.start(); …; thr.join()
						ctx.JoinedAt = b.joinedLater(cs.Caller, cs.Node)
					}
					ctx.Framework = sp.Framework
				}
			}
			_ = api
			break
		}
	}
}

// withoutForward reports an autograd Function that defines no forward:
// nothing in the program's part of its MRO does, and its only external
// bases are autograd's own Function classes, which leave forward
// abstract. Its apply raises before any graph is recorded, so its
// backward never runs (VGen's DiffScatter, whose two `symbolic`s stand
// where forward should be).
func (b *builder) withoutForward(c *callgraph.Class, exts []string) bool {
	if fns, ext := b.g.Lookup(c, "forward"); len(fns) > 0 || ext != "" && !b.autogradBase(ext) {
		return false
	}
	for _, e := range exts {
		if e = b.t.Canonical(e); e != "builtins.object" && e != "object" && !b.autogradBase(e) {
			return false
		}
	}
	return true
}

// autogradBase reports the class whose subclasses' backward the
// autograd engine runs (the tables' autograd spawner base,
// torch.autograd.Function, under any spelling they alias), or a member
// of it (torch.autograd.Function.forward).
func (b *builder) autogradBase(name string) bool {
	name = b.t.Canonical(name)
	for _, base := range []string{name, strings.TrimSuffix(name, "."+shortName(name))} {
		if sp := b.t.Spawners[base+".backward"]; sp != nil && sp.Subclass && sp.Context == string(rules.Autograd) {
			return true
		}
	}
	return false
}

// classNamed reports whether the program names class c anywhere but in
// its definition (AllGather.apply(x), apply = AllGather.apply, a registry
// of Functions): the source text holds the class's name as a word more
// often than it defines classes of that name, comments aside. A Function
// no code names is never applied.
// unappliedNamesake reports an autograd Function whose name another
// class of the program also has, that no apply call resolves to, and
// that its own module names nowhere but in its definition: the uses the
// text shows are the other class's (torchgt's two _SeqScatter, one of
// them never applied).
func (b *builder) unappliedNamesake(c *callgraph.Class) bool {
	if b.classDefs(c.Node.Name) < 2 || len(b.applyCalls()[c]) > 0 {
		return false
	}
	f := b.files[c.Module.Path]
	if f == nil {
		return false
	}
	return wordUses(f.Src, []byte(c.Node.Name), 2, false) <= 1 // the class statement alone
}

// classDefs counts the program's classes named name.
func (b *builder) classDefs(name string) int {
	defs := 0
	for _, k := range b.g.Classes {
		if k.Node.Name == name {
			defs++
		}
	}
	return defs
}

// wordUses counts the occurrences of word in src as a whole identifier,
// up to limit (it stops there); with skipComments, not those after a #
// on their line.
func wordUses(src, word []byte, limit int, skipComments bool) int {
	uses := 0
	for i := bytes.Index(src, word); i >= 0 && uses < limit; {
		end := i + len(word)
		ls := bytes.LastIndexByte(src[:i], '\n') + 1
		if (i == 0 || !identByte(src[i-1])) && (end == len(src) || !identByte(src[end])) && !(skipComments && bytes.IndexByte(src[ls:i], '#') >= 0) {
			uses++
		}
		j := bytes.Index(src[end:], word)
		if j < 0 {
			break
		}
		i = end + j
	}
	return uses
}

func (b *builder) classNamed(c *callgraph.Class) bool {
	if b.namedClasses == nil {
		b.namedClasses = map[string]bool{}
	}
	name := c.Node.Name
	if v, ok := b.namedClasses[name]; ok {
		return v
	}
	defs := b.classDefs(name)
	uses := 0
	word := []byte(name)
	var in []string // the files whose text holds the word
	for _, f := range b.files {
		if f == nil {
			continue
		}
		if n := wordUses(f.Src, word, defs+1, true); n > 0 { // (not in a comment)
			uses += n
			in = append(in, f.Path)
		}
	}
	if uses > defs {
		// The text may name it in a string only (a log message, a
		// docstring: QuintNet's f"Send.backward: …"): count the code's
		// names.
		uses = 0
		for _, m := range b.in.Modules {
			if slices.Contains(in, m.Mod.Path) {
				uses += namesIdentifier(m.AST, name)
			}
		}
	}
	b.namedClasses[name] = uses > defs
	return uses > defs
}

// namesIdentifier counts the names, attributes, imported names and class
// statements of mod that are ident.
func namesIdentifier(mod ast.Node, ident string) int {
	n := 0
	ast.Inspect(mod, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Name:
			if x.Id == ident {
				n++
			}
		case *ast.Attribute:
			if x.Attr == ident {
				n++
			}
		case *ast.Alias:
			if lastName(x.Name) == ident || x.Asname == ident {
				n++
			}
		case *ast.ClassDef:
			if x.Name == ident {
				n++
			}
		}
		return true
	})
	return n
}

// aliasLine matches a line that only binds a name to a Function's apply
// (`allgather2 = AllGather2.apply`).
var aliasLine = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z_0-9]*)\s*=\s*([A-Za-z_][A-Za-z_0-9]*)\.apply\s*(#.*)?$`)

// onlyUnusedAliases reports a Function that the program names only to
// bind its apply to a name nothing else mentions (V-Sparse's
// `allgather2 = AllGather2.apply`, never called): it is never applied.
func (b *builder) onlyUnusedAliases(c *callgraph.Class) bool {
	name := c.Node.Name
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	def := regexp.MustCompile(`^\s*class\s+` + regexp.QuoteMeta(name) + `\b`)
	var aliases []string
	for _, f := range b.files {
		if f == nil || !bytes.Contains(f.Src, []byte(name)) {
			continue
		}
		for _, line := range bytes.Split(f.Src, []byte("\n")) {
			code, _, _ := bytes.Cut(line, []byte("#"))
			if !word.Match(code) || def.Match(code) {
				continue
			}
			m := aliasLine.FindSubmatch(line)
			if m == nil || string(m[2]) != name {
				return false // named some other way: applied, passed, registered
			}
			aliases = append(aliases, string(m[1]))
		}
	}
	if len(aliases) == 0 {
		return false
	}
	for _, a := range aliases {
		uses := 0
		aw := regexp.MustCompile(`\b` + regexp.QuoteMeta(a) + `\b`)
		for _, f := range b.files {
			if f != nil && bytes.Contains(f.Src, []byte(a)) {
				uses += len(aw.FindAllIndex(f.Src, -1))
			}
		}
		if uses > 1 {
			return false
		}
	}
	return true
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// spawnMany reports whether a spawn makes several concurrent contexts:
// the API itself runs many workers (a pool map), or the spawn sits in a
// loop and is not joined right away. A thread joined right after its start
// inside a loop body ("for ...: t.start(); t.join()") ends before the next
// iteration starts another, so the loop runs them one at a time.
// singleWorker returns a key for the pool that call c submits to when it
// has one worker (ThreadPoolExecutor(max_workers=1), ThreadPool(1)),
// bound in the calling function (an assignment, `with … as ex`) or, for
// self.x, in a method of its class; "" otherwise. Its tasks run one after
// another on one thread, in the order they were submitted, however many
// there are: torch's own thread-based async checkpointing, and the
// hand-rolled kind (vLLM's KV pipe submits its sends and its receives to
// one such self.transport_thread). Submits to one pool share its key,
// which becomes their contexts' Serial.
func (b *builder) singleWorker(f *callgraph.Func, c *ast.Call) string {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || f == nil {
		return ""
	}
	recv := pathText(a.Value)
	if recv == "" {
		return ""
	}
	scope, key := f.Node, f.Module.Path+":"+f.Name+":"+recv
	if strings.HasPrefix(recv, "self.") && f.Class != nil && f.Class.Node != nil {
		scope, key = f.Class.Node, f.Module.Path+":"+f.Class.Name+"."+recv
	}
	if scope == nil {
		return ""
	}
	names := []string{recv}
	if cd, ok := scope.(*ast.ClassDef); ok && strings.HasPrefix(recv, "self.") {
		// self.pool, a property that makes the pool on first use and
		// keeps it in self._pool (OLMo-core's trainer).
		if kept := propertyReturns(cd, strings.TrimPrefix(recv, "self.")); kept != "" {
			names = append(names, kept)
		}
	}
	found := false
	ast.Inspect(scope, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			for _, t := range n.Targets {
				found = found || slices.Contains(names, pathText(t)) && onePool(n.Value)
			}
		case *ast.WithItem:
			found = found || n.OptionalVars != nil && slices.Contains(names, pathText(n.OptionalVars)) && onePool(n.ContextExpr)
		}
		return !found
	})
	if !found {
		return ""
	}
	return "one-worker pool " + key
}

// propertyReturns is the attribute of self (`self._pool`) that the
// class's property name returns, or "".
func propertyReturns(cd *ast.ClassDef, name string) string {
	for _, st := range cd.Body {
		fd, ok := st.(*ast.FunctionDef)
		if !ok || fd.Name != name {
			continue
		}
		prop := false
		for _, d := range fd.DecoratorList {
			if n := pathText(d); n == "property" || strings.HasSuffix(n, "cached_property") {
				prop = true
			}
		}
		if !prop {
			return ""
		}
		var out string
		ast.InspectBody(fd.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.Return); ok && r.Value != nil {
				if t := pathText(r.Value); strings.HasPrefix(t, "self.") {
					out = t
				}
			}
			return out == ""
		})
		return out
	}
	return ""
}

// onePool: ThreadPoolExecutor(1) / (max_workers=1), ThreadPool(1) /
// (processes=1).
func onePool(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	switch shortName(pathText(c.Func)) {
	case "ThreadPoolExecutor", "ThreadPool":
	default:
		return false
	}
	var n ast.Expr
	if len(c.Args) > 0 {
		n = c.Args[0]
	}
	for _, k := range c.Keywords {
		if k.Arg == "max_workers" || k.Arg == "processes" {
			n = k.Value
		}
	}
	k, ok := n.(*ast.Constant)
	return ok && k.Type == ast.ConstInt && k.Int == 1
}

// otherArm returns the extent of the other arm of the if of f whose arm
// holds the spawning call, when the if's test reads only settings of the
// instance (attributes of self, compared with constants): the two arms are
// alternatives for the object's whole life (OLMo-core's
// `if self.use_thread: pool.submit(f) else: f()`, vLLM's P2P engine's
// send_type). Nil otherwise.
func (b *builder) otherArm(f *callgraph.Func, call *ast.Call) []rules.Extent {
	body := ast.DefBody(f.Node)
	if len(body) == 0 || call == nil || f.Class == nil {
		return nil
	}
	line := int(call.Span().Lineno)
	var out []rules.Extent
	ifsAround(body, line, false, func(st *ast.If) {
		arm, other, inElse := st.Body, st.Orelse, false
		if !inStmts(arm, line) {
			arm, other, inElse = other, arm, true
		}
		if inStmts(arm, line) && b.settingsTest(st.Test) {
			if len(other) > 0 {
				out = append(out, extentOf(f.Module.Path, other))
			}
			if attr, val, ok := settingEquals(st.Test); ok && !inElse {
				out = append(out, b.contradicting(f.Class, attr, val)...)
			}
		}
	})
	// `if self.rank == 0: raise …` before the spawn: it runs only where
	// the setting is otherwise (atropos's weight bridge starts its
	// receiver thread on the other ranks, and its sender raises there).
	for _, st := range body {
		if int(st.Span().Lineno) >= line {
			break
		}
		i, ok := st.(*ast.If)
		if !ok || len(i.Orelse) > 0 || !exits(i.Body) || !b.settingsTest(i.Test) {
			continue
		}
		if attr, val, ok := settingEquals(i.Test); ok {
			out = append(out, b.contradictingUnder(f.Class, func(t ast.Expr) (bool, bool) { return settingOtherwise(t, attr, val) })...)
		} else if attr, val, ok := settingDiffers(i.Test); ok {
			out = append(out, b.contradicting(f.Class, attr, val)...)
		}
	}
	return out
}

// settingDiffers is settingEquals for `self.X != val`.
func settingDiffers(e ast.Expr) (attr, val string, ok bool) {
	c, isCmp := e.(*ast.Compare)
	if !isCmp || len(c.Ops) != 1 || c.Ops[0] != ast.NotEq {
		return "", "", false
	}
	eq := *c
	eq.Ops = []ast.CmpOp{ast.Eq}
	return settingEquals(&eq)
}

// settingOtherwise tells whether test is true when setting attr is not
// val: known for comparisons of attr with val itself (== and !=) and not
// of them.
func settingOtherwise(test ast.Expr, attr, val string) (holds, known bool) {
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			h, k := settingOtherwise(t.Operand, attr, val)
			return !h, k
		}
	case *ast.Compare:
		if len(t.Ops) != 1 || len(t.Comparators) != 1 || pathText(t.Left) != attr {
			return false, false
		}
		k, ok := t.Comparators[0].(*ast.Constant)
		if !ok || ast.Dump(k, ast.DumpOptions{}) != val {
			return false, false
		}
		switch t.Ops[0] {
		case ast.Eq:
			return false, true
		case ast.NotEq:
			return true, true
		}
	}
	return false, false
}

// extentOf is the lines a non-empty statement list spans in file path.
func extentOf(path string, stmts []ast.Stmt) rules.Extent {
	first, last := stmts[0].Span(), stmts[len(stmts)-1].Span()
	return rules.Extent{Path: path, Start: int(first.Lineno), End: int(last.EndLineno)}
}

// settingEquals splits `self.X == C` (C a string or number constant) into
// "self.X" and C's text.
func settingEquals(e ast.Expr) (attr, val string, ok bool) {
	c, isCmp := e.(*ast.Compare)
	if !isCmp || len(c.Ops) != 1 || c.Ops[0] != ast.Eq || len(c.Comparators) != 1 {
		return "", "", false
	}
	attr = pathText(c.Left)
	k, isConst := c.Comparators[0].(*ast.Constant)
	if !strings.HasPrefix(attr, "self.") || !isConst || (k.Type != ast.ConstStr && k.Type != ast.ConstInt) {
		return "", "", false
	}
	return attr, ast.Dump(k, ast.DumpOptions{}), true
}

// contradicting returns the extents, in the methods of class c, of the
// arms that run only when setting attr is not val: the body of `if
// self.X == other:` or `if self.X != val:`, and the else of `if self.X ==
// val:`.
func (b *builder) contradicting(c *callgraph.Class, attr, val string) []rules.Extent {
	return b.contradictingUnder(c, func(test ast.Expr) (bool, bool) { return settingHolds(test, attr, val) })
}

// contradictingUnder is contradicting for the implication holds gives:
// whether a test is true where the spawn runs, when known.
func (b *builder) contradictingUnder(c *callgraph.Class, settingHolds func(ast.Expr) (bool, bool)) []rules.Extent {
	if c.Node == nil {
		return nil
	}
	var out []rules.Extent
	add := func(stmts []ast.Stmt) {
		if len(stmts) > 0 {
			out = append(out, extentOf(c.Module.Path, stmts))
		}
	}
	forEachBlock(c.Node.Body, func(block []ast.Stmt) {
		for n, st := range block {
			i, ok := st.(*ast.If)
			if !ok {
				continue
			}
			holds, known := settingHolds(i.Test)
			if !known {
				continue
			}
			if holds {
				add(i.Orelse)
				if exits(i.Body) {
					// `if self.X == val: ...; return`: what follows
					// runs only when the setting is not val.
					add(block[n+1:])
				}
			} else {
				add(i.Body)
			}
		}
	})
	return out
}

// settingHolds tells whether test is true when setting attr is val:
// known only for comparisons of attr with constants (==, !=, in and not
// in a display of constants) and not, and, or of them.
func settingHolds(test ast.Expr, attr, val string) (holds, known bool) {
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			h, k := settingHolds(t.Operand, attr, val)
			return !h, k
		}
	case *ast.BoolOp:
		holds = t.Op == ast.And
		for _, v := range t.Values {
			h, k := settingHolds(v, attr, val)
			if !k {
				return false, false
			}
			if t.Op == ast.And {
				holds = holds && h
			} else {
				holds = holds || h
			}
		}
		return holds, len(t.Values) > 0
	case *ast.Compare:
		if len(t.Ops) != 1 || len(t.Comparators) != 1 || pathText(t.Left) != attr {
			return false, false
		}
		switch k := t.Comparators[0].(type) {
		case *ast.Constant:
			same := ast.Dump(k, ast.DumpOptions{}) == val
			switch t.Ops[0] {
			case ast.Eq:
				return same, true
			case ast.NotEq:
				return !same, true
			}
		case *ast.Tuple, *ast.List, *ast.Set:
			// `if self.X in ("PUT", "PUT_ASYNC"):`
			in := false
			for _, e := range ast.SeqElts(k) {
				kc, ok := e.(*ast.Constant)
				if !ok {
					return false, false
				}
				in = in || ast.Dump(kc, ast.DumpOptions{}) == val
			}
			switch t.Ops[0] {
			case ast.In:
				return in, true
			case ast.NotIn:
				return !in, true
			}
		}
	}
	return false, false
}

// forEachBlock calls f with every statement list in stmts, nested ones
// too (the bodies of compound statements, not of nested definitions).
func forEachBlock(stmts []ast.Stmt, f func([]ast.Stmt)) {
	f(stmts)
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.FunctionDef:
			forEachBlock(st.Body, f) // a method of the class
		case *ast.AsyncFunctionDef:
			forEachBlock(st.Body, f)
		case *ast.If:
			forEachBlock(st.Body, f)
			forEachBlock(st.Orelse, f)
		case *ast.For:
			forEachBlock(st.Body, f)
		case *ast.While:
			forEachBlock(st.Body, f)
		case *ast.With:
			forEachBlock(st.Body, f)
		case *ast.Try:
			forEachBlock(st.Body, f)
			forEachBlock(st.Orelse, f)
			forEachBlock(st.Finalbody, f)
			for _, h := range st.Handlers {
				forEachBlock(h.Body, f)
			}
		}
	}
}

// settingsTest reports a test that reads only attributes of self,
// queries whose answer is fixed for the process (processConstants), and
// constants, in comparisons or boolean operations: a process takes the
// same arm every time.
func (b *builder) settingsTest(e ast.Expr) bool {
	ok := true
	seen := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Attribute:
			if strings.HasPrefix(pathText(n), "self.") {
				seen = true // self.use_thread, self.bookkeeping_device.type
				return false
			}
			ok = false
		case *ast.Call:
			if b.processConstant(n) {
				seen = true // dist.get_backend() == "gloo"
				return false
			}
			ok = false
		case *ast.Name, *ast.Subscript, *ast.Lambda:
			ok = false
		}
		return ok
	})
	return ok && seen
}

// defaultBackendGate returns the backend that a test of the default
// group's backend around call names (`if dist.get_backend() == "gloo":`
// with call in its body, an elif's included): the backend of the default
// group wherever call runs. "" when call has no such test around it.
func (b *builder) defaultBackendGate(f *callgraph.Func, call *ast.Call) string {
	body := ast.DefBody(f.Node)
	if len(body) == 0 || call == nil {
		return ""
	}
	line := int(call.Span().Lineno)
	gate := ""
	ifsAround(body, line, true, func(st *ast.If) {
		if inStmts(st.Body, line) {
			if be := b.backendEquals(st.Test); be != "" {
				gate = be
			}
		}
	})
	return gate
}

// ifsAround calls f for each if of body, outermost first, whose extent
// holds line, looking into the with and try blocks (and, with loops,
// the loops) that hold it.
func ifsAround(body []ast.Stmt, line int, loops bool, f func(*ast.If)) {
	for _, st := range body {
		sp := st.Span()
		if int(sp.Lineno) > line || int(sp.EndLineno) < line {
			continue
		}
		switch st := st.(type) {
		case *ast.If:
			f(st)
			ifsAround(st.Body, line, loops, f)
			ifsAround(st.Orelse, line, loops, f)
		case *ast.For:
			if loops {
				ifsAround(st.Body, line, loops, f)
			}
		case *ast.While:
			if loops {
				ifsAround(st.Body, line, loops, f)
			}
		case *ast.With:
			ifsAround(st.Body, line, loops, f)
		case *ast.Try:
			ifsAround(st.Body, line, loops, f)
		}
	}
}

// backendEquals returns the backend a test `dist.get_backend() == "gloo"`
// (either way round) names, lower case; "" for any other test.
func (b *builder) backendEquals(e ast.Expr) string {
	cmp, ok := e.(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != ast.Eq {
		return ""
	}
	l, r := cmp.Left, cmp.Comparators[0]
	if _, ok := l.(*ast.Constant); ok {
		l, r = r, l
	}
	c, ok := l.(*ast.Call)
	k, isConst := r.(*ast.Constant)
	if !ok || !isConst || k.Type != ast.ConstStr || len(c.Args) > 0 || len(c.Keywords) > 0 {
		return ""
	}
	cs := b.g.CallOf(c)
	if cs == nil || len(cs.Targets) == 0 {
		return ""
	}
	for _, t := range cs.Targets {
		if b.t.Canonical(t.External) != "torch.distributed.get_backend" {
			return ""
		}
	}
	return normBackend(k.Str)
}

// processConstants answer the same for the whole life of a process once
// the default group exists.
var processConstants = map[string]bool{
	"torch.distributed.get_backend": true, "torch.distributed.get_world_size": true,
	"torch.distributed.is_initialized": true, "torch.distributed.is_available": true,
	"torch.cuda.is_available": true, "torch.cuda.device_count": true,
}

// processConstant reports a call, without arguments, of processConstants.
func (b *builder) processConstant(c *ast.Call) bool {
	if len(c.Args) > 0 || len(c.Keywords) > 0 {
		return false
	}
	cs := b.g.CallOf(c)
	if cs == nil || len(cs.Targets) == 0 {
		return false
	}
	for _, t := range cs.Targets {
		if !processConstants[b.t.Canonical(t.External)] {
			return false
		}
	}
	return true
}

// calledInLoop reports a function that a loop of its caller calls: a
// thread it starts is started once per pass (PipeDream's start(fn, args)
// helper, called per peer and direction).
func (b *builder) calledInLoop(f *callgraph.Func) bool {
	if f.Parent == nil {
		return false // a module body
	}
	for _, cs := range b.callersOf(f) {
		if b.loopCalls[cs.Node] {
			return true
		}
	}
	return false
}

// gatheredTwice reports a coroutine that a caller runs concurrently with
// itself: two of asyncio.gather's arguments call it, or a starred
// comprehension of its calls (torchstore's transfers, each of which runs
// its blocking send in asyncio.to_thread).
func (b *builder) gatheredTwice(f *callgraph.Func) bool {
	if _, async := f.Node.(*ast.AsyncFunctionDef); !async {
		return false
	}
	callsF := func(e ast.Expr) bool {
		c, ok := e.(*ast.Call)
		if !ok {
			return false
		}
		if cs := b.g.CallOf(c); cs != nil {
			for _, t := range cs.Targets {
				if t.Fn == f {
					return true
				}
			}
		}
		return false
	}
	seen := map[*callgraph.Func]bool{}
	for _, cs := range b.callersOf(f) {
		caller := cs.Caller
		if caller == nil || seen[caller] {
			continue
		}
		seen[caller] = true
		found := false
		ast.Inspect(caller.Node, func(n ast.Node) bool {
			g, ok := n.(*ast.Call)
			if found || !ok || lastName(pathText(g.Func)) != "gather" {
				return !found
			}
			calls := 0
			for _, a := range g.Args {
				if st, ok := a.(*ast.Starred); ok {
					switch comp := st.Value.(type) {
					case *ast.ListComp:
						if callsF(comp.Elt) {
							calls += 2
						}
					case *ast.GeneratorExp:
						if callsF(comp.Elt) {
							calls += 2
						}
					}
				} else if callsF(a) {
					calls++
				}
			}
			found = calls >= 2
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// rpcCalls run their target on the destination's RPC thread pool.
var rpcCalls = map[string]bool{
	"torch.distributed.rpc.rpc_async": true, "torch.distributed.rpc.rpc_sync": true, "torch.distributed.rpc.remote": true,
}

// rpcPerDestination reports an RPC sent once to each destination of a
// loop (`for name in workers: futs.append(rpc.rpc_async(name, f))`, or
// the comprehension): the loop's variable is the destination and no
// other loop inside it repeats the call, and what rpc_async and remote
// return is waited later in the function (torch.futures.wait_all, a
// wait(), to_here()). Each destination then runs one call at a time on
// its pool (dearth's parameter sync), not several at once.
func rpcPerDestination(fn ast.Node, c *ast.Call, sp *api.Spawner) bool {
	if !rpcCalls[sp.Name] {
		return false
	}
	to, ok := argExpr(c, argSpec(0, "to")).(*ast.Name)
	if !ok {
		return false
	}
	at := c.Span()
	inside := func(n ast.Node) bool { return within(at, n.Span()) }
	var loop ast.Node // the innermost loop holding c
	var target, iter ast.Expr
	ast.InspectBody(defBody(fn), func(n ast.Node) bool {
		if n == nil || !inside(n) {
			return true
		}
		switch x := n.(type) {
		case *ast.For:
			loop, target, iter = x, x.Target, x.Iter
		case *ast.AsyncFor:
			loop, target, iter = x, x.Target, x.Iter
		case *ast.While:
			loop, target, iter = x, nil, nil
		default:
			if gens, ok := generators(n); ok {
				loop = n
				target, iter = soleTarget(gens)
			}
		}
		return true
	})
	// The destinations: a collection held in a name or attribute, or a
	// range of ranks; not one joined with itself (`names + names`).
	distinct := false
	switch x := iter.(type) {
	case *ast.Name, *ast.Attribute:
		distinct = true
	case *ast.Call:
		distinct = lastName(pathText(x.Func)) == "range"
	}
	if loop == nil || !distinct || !isName(target, to.Id) {
		return false
	}
	if sp.Name == "torch.distributed.rpc.rpc_sync" {
		return true // it returns when the destination is done
	}
	end := loop.Span()
	waited := false
	ast.InspectBody(defBody(fn), func(n ast.Node) bool {
		if w, ok := n.(*ast.Call); ok && after(w.Span(), end) {
			switch last := lastName(pathText(w.Func)); {
			case last == "wait_all", last == "wait", last == "to_here":
				waited = true
			}
		}
		return !waited
	})
	return waited
}

// generators returns a comprehension's generators; ok is false for any
// other node.
func generators(n ast.Node) (gens []*ast.Comprehension, ok bool) {
	switch x := n.(type) {
	case *ast.ListComp:
		return x.Generators, true
	case *ast.GeneratorExp:
		return x.Generators, true
	case *ast.SetComp:
		return x.Generators, true
	case *ast.DictComp:
		return x.Generators, true
	}
	return nil, false
}

// soleTarget is the target and the iterable of a comprehension's one
// generator, nils when it has several.
func soleTarget(gens []*ast.Comprehension) (target, iter ast.Expr) {
	if len(gens) != 1 {
		return nil, nil
	}
	return gens[0].Target, gens[0].Iter
}

func spawnMany(sp *api.Spawner, info *callInfo, joined bool) bool {
	return sp.Many || (info != nil && info.inLoop && !joined)
}

func (b *builder) spawnerName(sp *api.Spawner) string { return sp.Name }

// orderDoneCallbacks links a future's done-callback to the context whose
// work completes that future, when the future comes from a spawning call
// in the same function (`fut = dcp.async_save(…)`, then
// `fut.add_done_callback(cb)`; or `pool.submit(f).add_done_callback(cb)`):
// the callback starts only once that work is done (rules.Context.After).
func (b *builder) orderDoneCallbacks() {
	byCall := map[*ast.Call]*rules.Context{}
	for _, s := range b.spawns {
		if s.cs != nil && s.cs.Node != nil && byCall[s.cs.Node] == nil {
			byCall[s.cs.Node] = s.ctx
		}
	}
	for _, s := range b.spawns {
		if s.cs == nil || s.cs.Node == nil || !doneCallbackAPI(s.sp.Name) {
			continue
		}
		a, ok := s.cs.Node.Func.(*ast.Attribute)
		if !ok {
			continue
		}
		var from *ast.Call
		switch recv := a.Value.(type) {
		case *ast.Call:
			from = recv
		case *ast.Name:
			from = assignedCall(s.caller, recv.Id, s.cs.Node)
		}
		if c := byCall[from]; c != nil && c != s.ctx {
			s.ctx.After = c
		}
	}
}

// doneCallbackAPI reports a spawner that runs a callback when a future
// completes.
func doneCallbackAPI(name string) bool {
	return strings.HasSuffix(name, ".add_done_callback") || strings.HasSuffix(name, ".then")
}

// assignedCall is the call whose result f last binds to name before the
// call at (a plain `name = call(…)` in f's own body), or nil.
func assignedCall(f *callgraph.Func, name string, at *ast.Call) *ast.Call {
	if f == nil {
		return nil
	}
	var found *ast.Call
	ast.InspectBody(ast.DefBody(f.Node), func(n ast.Node) bool {
		as, ok := n.(*ast.Assign)
		if !ok || len(as.Targets) != 1 || !before(as, at) {
			return true
		}
		if t, ok := as.Targets[0].(*ast.Name); ok && t.Id == name {
			if c, ok := as.Value.(*ast.Call); ok {
				found = c
			}
		}
		return true
	})
	return found
}

// joinedLater returns where the function that makes the thread of spawn
// (bound to a variable: `t = Thread(…)`) waits for it without a time
// limit, by a `t.join()` statement later in the block that holds the
// spawn statement; the zero Pos when there is none.
func (b *builder) joinedLater(f *callgraph.Func, spawn *ast.Call) rules.Pos {
	info := b.info[spawn]
	if info == nil || info.assigned == "" || info.stmt == nil || f.Node == nil {
		return rules.Pos{}
	}
	var at rules.Pos
	var visit func(stmts []ast.Stmt) bool
	visit = func(stmts []ast.Stmt) bool {
		for i, st := range stmts {
			if st != info.stmt {
				continue
			}
			for _, later := range stmts[i+1:] {
				if x, m := methodStmt(later); m == "join" && x == info.assigned && waitsToEnd(stmtCall(later)) {
					at = b.pos(f.Module.Path, later)
					return true
				}
			}
			return true
		}
		for _, st := range stmts {
			for _, inner := range ast.ChildBlocks(st) {
				if visit(inner) {
					return true
				}
			}
		}
		return false
	}
	visit(ast.ScopeBody(f.Node))
	return at
}
