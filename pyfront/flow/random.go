package flow

import (
	"slices"
	"strings"
	"sync"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Conditions on a random draw.
//
// A draw from a process-wide generator (Python's random module, NumPy's
// global state, torch's default generators) differs between ranks: they
// are seeded apart (seed + rank, for data diversity), or seeded alike and
// then consumed differently (data-dependent code draws a different number
// of times on each rank). LayerDrop, which skips a layer when a draw
// falls under its rate, hung FSDP training this way (fairscale#796,
// fairseq#3875): the rank that skipped a layer skipped its parameters'
// all-gather. A generator object the program makes for itself
// (random.Random(seed), np.random.default_rng(seed), torch.Generator) is
// left out: it is usually seeded for the decision it makes.

// randomCalls draw from a process-wide generator.
var randomCalls = map[string]bool{
	"random.random": true, "random.uniform": true, "random.randint": true, "random.randrange": true,
	"random.choice": true, "random.choices": true, "random.sample": true, "random.gauss": true,
	"random.getrandbits": true, "random.betavariate": true, "random.expovariate": true, "random.triangular": true,
	"numpy.random.rand": true, "numpy.random.random": true, "numpy.random.random_sample": true,
	"numpy.random.uniform": true, "numpy.random.randint": true, "numpy.random.choice": true,
	"numpy.random.randn": true, "numpy.random.normal": true, "numpy.random.binomial": true,
	"numpy.random.permutation": true, "torch.rand": true, "torch.randint": true, "torch.randn": true,
	"torch.randperm": true, "torch.bernoulli": true, "torch.multinomial": true, "torch.normal": true,
}

// seedCalls seed a process-wide generator: the generator's name
// (generatorOf) for each.
var seedCalls = map[string]string{
	"torch.manual_seed": "torch", "torch.cuda.manual_seed": "torch", "torch.cuda.manual_seed_all": "torch",
	"random.seed": "random", "numpy.random.seed": "numpy.random",
}

// generatorOf names the process-wide generator a draw of randomCalls
// takes from.
func generatorOf(draw string) string {
	switch {
	case strings.HasPrefix(draw, "numpy.random."):
		return "numpy.random"
	case strings.HasPrefix(draw, "random."):
		return "random"
	}
	return "torch"
}

// reseed records a seeding of a process-wide generator. Seeded with a
// value every rank holds alike (the step index), the draws that follow in
// this function are the same on every rank (a permutation of the ranks
// drawn for this step's groups); seeded with the rank (seed + rank, for
// data diversity), they are not.
func (l *lowerer) reseed(c *ast.Call, ext string) {
	gen, ok := seedCalls[ext]
	if !ok || ext == "" {
		return
	}
	uniform := len(c.Args) == 1 && len(c.Keywords) == 0 && !l.isRank(c.Args[0]) && !l.randomDraw(c.Args[0]) && !l.timingProbe(c.Args[0])
	if l.reseeded == nil {
		l.reseeded = map[string]bool{}
	}
	l.reseeded[gen] = uniform
}

// randomFills fill a tensor in place from torch's default generator
// (`torch.empty(n).uniform_()`, fairseq's LayerDrop).
var randomFills = map[string]bool{"uniform_": true, "bernoulli_": true, "normal_": true, "random_": true, "exponential_": true}

// randomDraw reports whether e depends on a draw from a process-wide
// generator, directly or through a local holding one. A value broadcast
// or all-reduced afterwards is the same on every rank and does not count.
func (l *lowerer) randomDraw(e ast.Expr) bool {
	return dependsOn(e, l.randVars, func(n ast.Node) (bool, bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if l.agreedCall(c) {
			return false, false
		}
		for _, k := range c.Keywords {
			if k.Arg == "generator" {
				return false, true // a generator of the program's own
			}
		}
		ext, fn := l.callee(c)
		if fn != nil {
			// What a program function returns depends on its arguments,
			// unless it returns only constants (`return True` / `return
			// False` on its configuration): random data passed to it
			// decides nothing.
			return false, !l.returnsConstants(fn)
		}
		if randomCalls[ext] || ext == "" && randomCalls[dotted(c.Func)] {
			name := ext
			if name == "" {
				name = dotted(c.Func)
			}
			return !l.reseeded[generatorOf(name)], false
		}
		if a, ok := c.Func.(*ast.Attribute); ok && randomFills[a.Attr] && (ext == "" || strings.HasPrefix(ext, "torch.")) {
			return true, false
		}
		return false, true
	})
}

// Iterations that skip elements on a random draw. fairseq's
// LayerDropModuleList is a ModuleList whose __iter__ draws a number per
// layer and yields only the layers whose draw clears the rate:
//
//	def __iter__(self):
//	    dropout_probs = torch.empty(len(self)).uniform_()
//	    for i, m in enumerate(super().__iter__()):
//	        if not self.training or (dropout_probs[i] > self.p):
//	            yield m
//
// `for layer in self.layers: x = layer(x)` then runs each layer's forward
// (an FSDP unit's all-gather) on the ranks whose draw kept it only
// (fairseq#3875).

// yieldGate is what a generator's yields depend on: the condition of an
// if around a yield (or one that skips to the next element), when it
// draws a random number.
type yieldGate struct {
	cond string
	ok   bool
}

// skippingIteration records a branch for `for x in it:` when iterating it
// runs a program generator whose yields depend on a random draw: the
// body's collectives run for the elements each rank's own draws keep.
func (l *lowerer) skippingIteration(iter ast.Expr, body []ast.Stmt) {
	it, fn, gate := l.gatedGenerator(iter, &l.memo().yieldGates, l.yieldGateOf)
	if it == nil {
		return
	}
	if ops := l.ops(body); len(ops) > 0 {
		// Quoted by the rule: `for … in self.layers`, whose …
		cond := "for … in " + l.text(iter) + "`, whose " + methodName(fn.Name) + " yields only when `" + gate.cond
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(it.Span()), Cond: cond, Then: ops, Divergence: rules.LocalRandom})
	}
}

// rankYieldGen returns, for `for x in it:`, what the loop iterates when
// that runs a program generator that yields only under a rank test (`if
// idx % world_size == self.rank: yield batch`, FuxiCTR's round-robin
// shard); nil otherwise.
func (l *lowerer) rankYieldGen(iter ast.Expr) ast.Expr {
	if l.notDist > 0 {
		return nil
	}
	it, _, _ := l.gatedGenerator(iter, &l.memo().rankYields, l.rankYieldGateOf)
	return it
}

// rankYieldLoop records, for a loop over such a generator (it, from
// rankYieldGen), the body's collectives: each rank runs the loop once per
// element of its own share, and shares differ in length unless the
// elements divide evenly.
func (l *lowerer) rankYieldLoop(it, iter ast.Expr, body []ast.Stmt) {
	if it == nil {
		return
	}
	if ops := l.joinShadowed(l.perPassOps(l.ops(body)), body); len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(it.Span()), Cond: l.text(iter), Then: ops, RankCount: true, Divergence: rules.RankTest})
	}
}

// gatedGenerator finds, among what a loop over iter iterates, the first
// program generator whose gate (gateOf, memoized in memo) holds: the
// iterated expression, the generator and its gate; it is nil when none.
func (l *lowerer) gatedGenerator(iter ast.Expr, memo *sync.Map, gateOf func(*rules.Function) yieldGate) (ast.Expr, *rules.Function, yieldGate) {
	ig, ok := l.r.(IterGeneratorer)
	if !ok {
		return nil, nil, yieldGate{}
	}
	for _, it := range iterated(iter) {
		gens := ig.IterGenerators(it)
		if c, ok := it.(*ast.Call); ok {
			// for p in checkpoints_iterator(d): a generator function of
			// the program called directly.
			if _, fn := l.callee(c); fn != nil && fn != l.fn && !slices.Contains(gens, fn) {
				gens = append(gens, fn)
			}
		}
		for _, fn := range gens {
			if gate := summarize(memo, fn, func() yieldGate { return gateOf(fn) }); gate.ok {
				return it, fn, gate
			}
		}
	}
	return nil, nil, yieldGate{}
}

// rankYieldGateOf finds the rank test a generator's yield sits under,
// read in the generator's own terms (a rank attribute such as self.rank,
// a rank call), not the caller's locals.
func (l *lowerer) rankYieldGateOf(fn *rules.Function) yieldGate {
	body, src, ok := l.generatorDef(fn)
	if !ok {
		return yieldGate{}
	}
	saved, savedObjects := l.rankVars, l.rankObjects
	l.rankVars, l.rankObjects = map[string]bool{}, nil
	defer func() { l.rankVars, l.rankObjects = saved, savedObjects }()
	var gate yieldGate
	ast.InspectBody(body, func(n ast.Node) bool {
		i, ok := n.(*ast.If)
		if gate.ok || !ok {
			return !gate.ok
		}
		// (Both arms yielding is a protocol: ASE's parallel_generator
		// has rank 0 yield and broadcast, the others receive and yield.)
		if containsYield(i.Body) != containsYield(i.Orelse) && l.isRank(i.Test) {
			gate = yieldGate{cond: nodeText(src, i.Test), ok: true}
		}
		return !gate.ok
	})
	return gate
}

// generatorDef returns the body of a program generator (a def with a
// yield, in any file) and its file's source, for quoting its tests.
func (l *lowerer) generatorDef(fn *rules.Function) (body []ast.Stmt, src *source, ok bool) {
	body, _, ok = l.defOf(fn)
	if !ok || !containsYield(body) {
		return nil, nil, false
	}
	f := l.r.Prog().File(fn.Pos.Path)
	if f == nil {
		return nil, nil, false
	}
	return body, l.memo().of(f), true
}

// iterated returns what a loop over iter iterates: iter itself, or the
// sequences enumerate(xs), zip(xs, ys), reversed(xs), list(xs) and
// tuple(xs) go over.
func iterated(iter ast.Expr) []ast.Expr {
	c, ok := iter.(*ast.Call)
	if !ok {
		return []ast.Expr{iter}
	}
	if !sequenceBuiltins[dotted(c.Func)] {
		return []ast.Expr{iter}
	}
	var out []ast.Expr
	for _, a := range c.Args {
		out = append(out, iterated(a)...)
	}
	return out
}

// yieldGateOf scans a generator's definition (in any file) for an if on
// a random draw that holds a yield or skips to the next element, with
// the locals it assigns from draws.
func (l *lowerer) yieldGateOf(fn *rules.Function) yieldGate {
	body, src, ok := l.generatorDef(fn)
	if !ok {
		return yieldGate{}
	}
	saved := l.randVars
	l.randVars = nil
	defer func() { l.randVars = saved }()
	var gate yieldGate
	var walk func(stmts []ast.Stmt)
	walk = func(stmts []ast.Stmt) {
		for _, s := range stmts {
			if gate.ok {
				return
			}
			switch s := s.(type) {
			case *ast.Assign:
				if len(s.Targets) == 1 {
					if n, ok := s.Targets[0].(*ast.Name); ok {
						markVar(&l.randVars, n.Id, l.randomDraw(s.Value))
					}
				}
			case *ast.If:
				gated := containsYield(s.Body) || containsYield(s.Orelse) || exits(s.Body) || len(s.Orelse) > 0 && exits(s.Orelse)
				if gated && l.randomDraw(s.Test) {
					gate = yieldGate{cond: nodeText(src, s.Test), ok: true}
					return
				}
				walk(s.Body)
				walk(s.Orelse)
			case *ast.For:
				walk(s.Body)
			case *ast.While:
				walk(s.Body)
			case *ast.With:
				walk(s.Body)
			case *ast.Try:
				walk(s.Body)
			}
		}
	}
	walk(body)
	return gate
}

// methodName is Class.method of a qualified name (its last two parts).
func methodName(qual string) string {
	parts := strings.Split(qual, ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ".")
}

// returnsConstants reports a program function whose every return is a
// constant or bare (a generator's yields aside), so that its result
// depends on its arguments only through which return runs.
func (l *lowerer) returnsConstants(fn *rules.Function) bool {
	return summarize(&l.memo().constRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		consts := ok
		ast.InspectBody(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.Return); ok {
				if r.Value != nil {
					if _, isConst := r.Value.(*ast.Constant); !isConst {
						consts = false
					}
				}
				return false
			}
			return consts
		})
		return consts
	})
}

// extensionLoaders compile and import a C++/CUDA extension: they return
// a Python module.
var extensionLoaders = map[string]bool{"torch.utils.cpp_extension.load": true, "torch.utils.cpp_extension.load_inline": true}

// hostResult says which results of a program function are host values
// (None, a constant, a flag): whole for the returned value itself, elems
// per element of the tuple it returns.
type hostResult struct {
	whole bool
	elems []bool
}

// hostCall reports whether value is a call of a program function whose
// result (index -1) or whose returned tuple's element index is a host
// value on every return: `out, ok, fast = select_backend(…)` of rtp-llm's
// returning (None, False, flag) holds no tensor to order on a stream.
func (l *lowerer) hostCall(value ast.Expr, index int) bool {
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	if fn == nil && index < 0 && (ext == "torch.device" || extensionLoaders[ext]) {
		// th.device("cuda:0") under an alias names a device; a compiled
		// extension is a Python module (RAP's cuda_preprocess): neither
		// holds device memory.
		return true
	}
	if a, method := c.Func.(*ast.Attribute); fn == nil && ext == "" && method && index < 0 {
		// pipeline_manager.data_transfer.recv_prompt_async(): a receiver
		// the analysis could not follow, calling one of the program's
		// methods of that name, each of which returns a host value
		// (StreamDiffusionV2's decoded prompt).
		// (A method that only hands the call on to another object's
		// method of the same name, `return self.comm.recv_prompt_async()`,
		// returns what that one does.)
		ms := l.methodsNamed(a.Attr)
		if len(ms) == 0 || len(ms) > 4 {
			return false
		}
		own := 0
		for _, m := range ms {
			if m == l.fn {
				return false
			}
			if l.delegates(m, a.Attr) {
				continue
			}
			own++
			if !summarizeGuarded(&l.memo().hostRets, m, func() hostResult { return l.hostResults(m) }).whole {
				return false
			}
		}
		return own > 0
	}
	if fn == nil || fn == l.fn {
		return false
	}
	r := summarizeGuarded(&l.memo().hostRets, fn, func() hostResult { return l.hostResults(fn) })
	if index < 0 {
		return r.whole
	}
	return index < len(r.elems) && r.elems[index]
}

// delegates reports a method whose every return calls a method of the
// given name on another object (`return self.comm.recv_prompt_async()`).
func (l *lowerer) delegates(fn *rules.Function, name string) bool {
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	rets, all := 0, true
	ast.InspectBody(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok {
			rets++
			c, isCall := r.Value.(*ast.Call)
			if !isCall {
				all = false
				return false
			}
			a, isAttr := c.Func.(*ast.Attribute)
			all = isAttr && a.Attr == name
		}
		return all
	})
	return rets > 0 && all
}

func (l *lowerer) hostResults(fn *rules.Function) hostResult {
	body, _, ok := l.defOf(fn)
	if !ok {
		return hostResult{}
	}
	// Locals bound only to host values.
	hostLocal := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		a, ok := ast.AsAssign(n)
		if !ok || len(a.Targets) != 1 {
			return true
		}
		if t, ok := a.Targets[0].(*ast.Name); ok {
			h := l.hostish(a.Value, nil)
			if prev, seen := hostLocal[t.Id]; seen {
				h = h && prev
			}
			hostLocal[t.Id] = h
		}
		return true
	})
	var rets []*ast.Return
	ast.InspectBody(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok {
			rets = append(rets, r)
			return false
		}
		return true
	})
	if len(rets) == 0 {
		return hostResult{}
	}
	res := hostResult{whole: true}
	for i, r := range rets {
		if !l.hostish(r.Value, hostLocal) {
			res.whole = false
		}
		t, isTuple := r.Value.(*ast.Tuple)
		if !isTuple || i > 0 && len(t.Elts) != len(res.elems) {
			res.elems = nil
			continue
		}
		if i == 0 {
			res.elems = make([]bool, len(t.Elts))
			for j := range res.elems {
				res.elems[j] = true
			}
		}
		if res.elems == nil {
			continue
		}
		for j, e := range t.Elts {
			res.elems[j] = res.elems[j] && l.hostish(e, hostLocal)
		}
	}
	return res
}

// hostish: None, a constant, a tuple of them, a local bound only to such
// values, a comparison of a string (`os.environ.get("FAST") == "1"`), a
// predicate's answer (is_…(), pynccl_enabled()), a program function's
// host result, or a host value (hostValue).
func (l *lowerer) hostish(e ast.Expr, locals map[string]bool) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *ast.Constant:
		return true
	case *ast.Name:
		return locals[e.Id] || rankIntName(e.Id)
	case *ast.BinOp:
		// (rank - 1 + world) % world: arithmetic on ranks and sizes
		// (V-Net-JEPA's ring neighbours).
		if e.Op != ast.MatMult && l.hostish(e.Left, locals) && l.hostish(e.Right, locals) {
			return true
		}
	case *ast.Tuple:
		for _, x := range e.Elts {
			if !l.hostish(x, locals) {
				return false
			}
		}
		return true
	case *ast.List:
		// `return []` where the rank gathered nothing (a pickled object
		// gather's non-destination ranks), `return [data]`.
		for _, x := range e.Elts {
			if !l.hostish(x, locals) {
				return false
			}
		}
		return true
	case *ast.Call:
		if ownRank(e) || worldSizeCalls[lastDotted(e.Func)] && len(e.Args)+len(e.Keywords) <= 1 {
			return true
		}
		name := lastDotted(e.Func)
		if strings.HasPrefix(name, "is_") || strings.HasPrefix(name, "has_") || strings.HasSuffix(name, "_enabled") || strings.HasSuffix(name, "_available") {
			return true
		}
		if l.hostCall(e, -1) {
			return true
		}
	case *ast.Compare:
		for _, x := range append([]ast.Expr{e.Left}, e.Comparators...) {
			if k, ok := x.(*ast.Constant); ok && k.Type == ast.ConstStr {
				return true
			}
		}
		return false
	}
	return hostValue(e)
}

// fsYieldLoop records, for `for x in it:` where iterating it runs a
// program generator whose yields come from this host's file system (a
// checkpoint directory polled until a new file shows up:
// the-algorithm-ml's checkpoints_iterator), the body's collectives: each
// host sees new files at its own moments, so ranks run their own number
// of passes.
func (l *lowerer) fsYieldLoop(iter ast.Expr, body []ast.Stmt) {
	if l.notDist > 0 || l.r.Prog().Facts.SingleHost() {
		return
	}
	it, _, _ := l.gatedGenerator(iter, &l.memo().fsYields, l.fsYieldGateOf)
	if it == nil {
		return
	}
	if ops := l.perPassOps(l.ops(body)); len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(it.Span()), Cond: l.text(iter), Then: ops, RankCount: true, Divergence: rules.HostCheck})
	}
}

// fsYieldGateOf finds a yield of a generator whose value depends on a file
// system check or listing the generator makes (read in its own terms).
func (l *lowerer) fsYieldGateOf(fn *rules.Function) yieldGate {
	body, src, ok := l.generatorDef(fn)
	if !ok {
		return yieldGate{}
	}
	saved, savedLists := l.fsVars, l.fsLists
	l.fsVars, l.fsLists = map[string]bool{}, nil
	defer func() { l.fsVars, l.fsLists = saved, savedLists }()
	markBound(body, l.fsVars, l.fsProbe)
	var gate yieldGate
	ast.InspectBody(body, func(n ast.Node) bool {
		if gate.ok {
			return false
		}
		switch y := n.(type) {
		case *ast.Yield:
			if y.Value != nil && l.fsProbe(y.Value) {
				gate = yieldGate{cond: nodeText(src, y.Value), ok: true}
			}
		case *ast.YieldFrom:
			if l.fsProbe(y.Value) {
				gate = yieldGate{cond: nodeText(src, y.Value), ok: true}
			}
		}
		return !gate.ok
	})
	return gate
}

// worldSizeCalls are the last names of the calls that return the number
// of ranks (a Python int).
var worldSizeCalls = map[string]bool{"get_world_size": true, "Get_size": true, "world_size": true, "process_count": true}

// rankIntName reports a name that by convention holds a rank or a count
// of ranks, a Python int: rank, local_rank, world, world_size, ws,
// nranks.
func rankIntName(id string) bool {
	switch id {
	case "rank", "world", "world_size", "ws", "nranks", "num_ranks", "local_rank", "global_rank", "world_rank":
		return true
	}
	return false
}
