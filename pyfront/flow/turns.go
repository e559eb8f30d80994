package flow

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Context managers that let the ranks run their block in turns.
//
// "Main process first" runs the with block on rank 0 before a barrier
// and on the other ranks after it (accelerate's main_process_first,
// transformers' TrainingArguments.main_process_first, YOLOv5's
// torch_distributed_zero_first, the @contextmanager functions programs
// write for it). That is symmetric as long as the block does not
// communicate: every rank passes the same barriers. A collective inside
// the block is issued by rank 0 before the barrier and by the others
// after it, so the ranks pair it with the barrier: rank 0 waits in the
// collective, the others in the barrier (a hang, or the two mixed up on
// one communicator). LambdaLabs' DeepSpeed guide builds a ZeRO-3 model,
// whose construction broadcasts, inside such a block.

// turnTakers are the library context managers of that kind, by the last
// name of their canonical name (a method on an object of unknown type
// matches too: args.main_process_first(desc=...)).
var turnTakers = map[string]bool{
	"main_process_first":           true, // accelerate, transformers
	"local_main_process_first":     true, // accelerate
	"rank_zero_first":              true, // lightning.fabric.Fabric
	"run_local_rank_zero_first":    true, // composer.utils.dist
	"torch_distributed_zero_first": true, // ultralytics, YOLOv5
}

// turnTaking reports whether call c makes a context manager that runs its
// block on some ranks before a collective and on the others after it.
func (l *lowerer) turnTaking(c *ast.Call) bool {
	ext, fn := l.callee(c)
	if fn != nil {
		return l.cmTakesTurns(fn)
	}
	name := ext
	if name == "" {
		name = dotted(c.Func)
	}
	return turnTakers[lastName(name)]
}

// cmTakesTurns reports a @contextmanager function of the program whose
// yield runs at different points on different ranks relative to a
// collective: a yield inside a rank test's arm, or a rank test before
// the yield whose arm communicates.
func (l *lowerer) cmTakesTurns(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().turns, fn, func() bool { return l.turnsBody(fn) })
}

func (l *lowerer) turnsBody(fn *rules.Function) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return false
	}
	body, args, decos, ok := defParts(fd.FuncDef(fn))
	if !ok || !contextManagerDecorated(decos) {
		return false
	}
	sub := *l
	sub.fn, sub.rankVars = fn, map[string]bool{}
	if args != nil {
		for _, p := range args.PositionalNames() {
			if strings.Contains(p, "rank") {
				sub.rankVars[p] = true // def torch_distributed_zero_first(local_rank)
			}
		}
	}
	markBound(body, sub.rankVars, sub.isRank)
	turns := false
	yielded := false
	for _, s := range body {
		if e, ok := s.(*ast.ExprStmt); ok && isYield(e.Value) {
			yielded = true
			continue
		}
		i, ok := s.(*ast.If)
		if !ok || !sub.isRank(i.Test) {
			continue
		}
		arms := append(append([]ast.Stmt{}, i.Body...), i.Orelse...)
		if stmtsYield(arms) {
			turns = true // if rank == 0: yield / barrier() / if rank > 0: yield
		} else if !yielded && sub.stmtsCommunicate(arms) {
			turns = true // if rank != 0: barrier() / yield / if rank == 0: barrier()
		}
	}
	return turns
}

// stmtsYield reports a yield statement among stmts (nested blocks too,
// not nested definitions).
func stmtsYield(stmts []ast.Stmt) bool {
	found := false
	ast.InspectBody(stmts, func(n ast.Node) bool {
		if e, ok := n.(*ast.ExprStmt); ok && isYield(e.Value) {
			found = true
		}
		return !found
	})
	return found
}

// stmtsCommunicate reports a call among stmts that issues a collective.
func (l *lowerer) stmtsCommunicate(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		if len(l.nodeOps(s)) > 0 {
			return true
		}
	}
	return false
}

// turnsBlock records, for `with c: body` where c takes turns, the
// collectives body issues.
func (l *lowerer) turnsBlock(c *ast.Call, body []ast.Stmt) {
	if !l.turnTaking(c) {
		return
	}
	if exit := systemExitIn(body); exit != nil {
		// sys.exit() in the block raises SystemExit into the manager at
		// its yield: the ranks that run the block first leave without the
		// barrier after it, and the others wait in theirs (AQLM's
		// master_rank_first around a save-and-exit).
		if ops := l.nodeOps(c); len(ops) > 0 && !l.yieldInFinally(c) {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(exit.Span()), Cond: l.text(c), Then: ops, InTurns: true, EarlyExit: true})
		}
	}
	var ops []*rules.OpRef
	for _, s := range body {
		ops = append(ops, l.nodeOps(s)...)
	}
	if len(ops) == 0 || onlyWorldBarriers(ops) {
		// Barriers on the default group inside the block meet barriers:
		// rank 0 passes [block's, exit's], the others [entry's, block's],
		// the same count of the same operation (Amphion's trainers call
		// wait_for_everyone in a loader built inside main_process_first).
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Pos), Cond: l.text(c), Then: ops, InTurns: true})
}

// joinedLoops records, for `with model.join():` (DDP's own context for
// uneven inputs), each loop of its block whose body issues collectives of
// its own: a rank that runs out of data leaves the loop and joins, and
// join() shadows only DDP's gradient all-reduce and buffer broadcast for
// it; an explicit collective in the loop (a metric all-reduce, a gather
// for logging) then has no partner on that rank. Join([model, optim])
// with other joinables is left alone: they shadow their own collectives.
//
// A while loop that takes its batches with next() and leaves on
// StopIteration (`while True: try: batch = next(it) except
// StopIteration: break`, icefall's and lhotse's loops) is such a loop too.
func (l *lowerer) joinedLoops(c *ast.Call, body []ast.Stmt) {
	type dataLoop struct {
		iter ast.Expr
		body []ast.Stmt
	}
	var loops []dataLoop
	collect := func(body []ast.Stmt) {
		ast.InspectBody(body, func(n ast.Node) bool {
			switch f := n.(type) {
			case *ast.For:
				loops = append(loops, dataLoop{f.Iter, f.Body})
				return false
			case *ast.While:
				if it := nextUntilExhausted(f.Body); it != nil {
					loops = append(loops, dataLoop{it, f.Body})
				}
				return false
			}
			return true
		})
	}
	collect(body)
	// `with model.join(): train_model(…)`: the loops of a function of
	// this file that the block calls run inside the join too
	// (EAT-DistGNN's epoch loop with its metric all-reduce).
	if len(loops) == 0 {
		for _, st := range body {
			if call := stmtCall(st); call != nil {
				if _, fn := l.r.Callee(call); fn != nil && fn != l.fn && fn.Pos.Path == l.file.Path {
					if fbody, _, ok := l.defOf(fn); ok {
						collect(fbody)
					}
				}
			}
		}
	}
	// `with gen.join():` shadows gen's collectives only: another DDP
	// model's forward in the loop (a GAN's discriminator) broadcasts
	// its buffers unshadowed.
	joined := ""
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "join" {
		joined = dotted(a.Value)
	}
	for _, loop := range loops {
		if l.agreedExit(loop.body) {
			continue // the ranks agree every step whether to leave together
		}
		var ops []*rules.OpRef
		for _, s := range loop.body {
			for _, o := range l.nodeOps(s) {
				if o.Site != nil || joined != "" && (o.Op == ForwardOp || o.Op == BackwardOp) && l.otherModel(s, o.Pos, joined, loop.body) {
					ops = append(ops, o)
				}
			}
		}
		if len(ops) > 0 {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(loop.iter.Span()), Cond: l.text(loop.iter), Then: ops, JoinedLoop: true, Under: ptrPos(l.pos(c.Pos)), JoinedModel: joined})
		}
	}
}

// joinedNames returns the models a join() call joins: the receiver of
// `net.join()`, or the names listed in `Join([net, opt])`.
func joinedNames(c *ast.Call) []string {
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "join" {
		if d := dotted(a.Value); d != "" {
			return []string{d}
		}
		return nil
	}
	var out []string
	if len(c.Args) > 0 {
		for _, e := range ast.SeqElts(c.Args[0]) {
			if d := dotted(e); d != "" {
				out = append(out, d)
			}
		}
	}
	return out
}

// joinShadowed drops, inside join() blocks, the forwards and backwards of
// the joined models from the collectives a loop over body repeats a
// rank's own number of times: join() shadows them for the ranks that
// ran out (DDP's uneven inputs, `with net.join(): for i in
// range(num_iters):`). Another model's, and explicit collectives, stay.
func (l *lowerer) joinShadowed(ops []*rules.OpRef, body []ast.Stmt) []*rules.OpRef {
	if len(l.joinedModels) == 0 || len(ops) == 0 {
		return ops
	}
	out := ops[:0:0]
	for _, o := range ops {
		if o.Site == nil && (o.Op == ForwardOp || o.Op == BackwardOp) && o.Pos.Path == l.path && l.joinedOp(o, body) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// joinedOp reports an op of body that is a forward or backward of
// models that enclosing join() blocks name, and of no other model.
func (l *lowerer) joinedOp(o *rules.OpRef, body []ast.Stmt) bool {
	for _, st := range body {
		if callAt(st, o.Pos) == nil {
			continue
		}
		models := l.modelsAt(st, o.Pos, body)
		for _, m := range models {
			if !slices.ContainsFunc(l.joinedModels, func(names []string) bool {
				return slices.Contains(names, strings.TrimSuffix(m, ".module"))
			}) {
				return false
			}
		}
		return len(models) > 0
	}
	return false
}

// otherModel reports a forward or backward at p, in st, of a wrapped
// model other than joined (modelsAt): `disc(fake)` inside `with
// gen.join():`, or `d_loss.backward()` with `d_loss = disc(x).mean()`.
func (l *lowerer) otherModel(st ast.Stmt, p rules.Pos, joined string, body []ast.Stmt) bool {
	return slices.ContainsFunc(l.modelsAt(st, p, body), func(m string) bool { return m != joined && m != joined+".module" })
}

// modelsAt returns the wrapped models, by their dotted names, of the
// forward or backward at p, in st: the module a forward calls, or the
// modules whose forwards the loss a backward is called on was computed
// from, following the loss's names to their last bindings before it in
// the loop's body (`out = net(x)`, `loss = out.sum()`, then
// `loss.backward()`).
func (l *lowerer) modelsAt(st ast.Stmt, p rules.Pos, body []ast.Stmt) []string {
	gs, ok := l.r.(GradSyncer)
	if !ok {
		return nil
	}
	at := callAt(st, p)
	if at == nil {
		return nil
	}
	var models []string
	seen := map[string]bool{}
	var collect func(e ast.Expr, depth int)
	collect = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Call:
				if gs.SyncModule(n.Func) {
					if d := dotted(n.Func); d != "" && !slices.Contains(models, d) {
						models = append(models, d)
					}
				}
			case *ast.Name:
				if n.Ctx == ast.Load && depth < 3 && !seen[n.Id] {
					seen[n.Id] = true
					if v := lastBindingBefore(body, n.Id, p.Line); v != nil {
						collect(v, depth+1)
					}
				}
			}
			return true
		})
	}
	a, isMethod := at.Func.(*ast.Attribute)
	if !isMethod || a.Attr != "backward" {
		collect(&ast.Call{Func: at.Func}, 3)
		return models
	}
	collect(a.Value, 0)
	return models
}

// lastBindingBefore returns the value of the last single-target
// assignment to name above line in body, or nil.
func lastBindingBefore(body []ast.Stmt, name string, line int) ast.Expr {
	var v ast.Expr
	ast.InspectBody(body, func(x ast.Node) bool {
		if as, ok := ast.AsAssign(x); ok && len(as.Targets) == 1 && int(as.Span().Lineno) < line {
			if t, ok := as.Targets[0].(*ast.Name); ok && t.Id == name {
				v = as.Value
			}
		}
		return true
	})
	return v
}

// nextUntilExhausted returns the iterator a while loop's body takes its
// elements from with next(), in a try whose StopIteration handler leaves
// the loop; nil for any other loop.
func nextUntilExhausted(body []ast.Stmt) ast.Expr {
	for _, s := range body {
		t, ok := s.(*ast.Try)
		if !ok {
			continue
		}
		leaves := false
		for _, h := range t.Handlers {
			if h.Type != nil && namesStopIteration(h.Type) && len(h.Body) > 0 {
				switch h.Body[len(h.Body)-1].(type) {
				case *ast.Break, *ast.Return:
					leaves = true
				}
			}
		}
		if !leaves {
			continue
		}
		var it ast.Expr
		ast.InspectBody(t.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok && it == nil && dotted(c.Func) == "next" && len(c.Args) >= 1 {
				it = c.Args[0]
			}
			return it == nil
		})
		if it != nil {
			return it
		}
	}
	return nil
}

func ptrPos(p rules.Pos) *rules.Pos { return &p }

// agreedExit reports a loop body that leaves on a test that communicates
// (`if all_done(group): break`, wenet's monitored-barrier join): the
// ranks decide together when to stop.
func (l *lowerer) agreedExit(body []ast.Stmt) bool {
	for _, s := range body {
		i, ok := s.(*ast.If)
		if !ok || len(i.Body) == 0 {
			continue
		}
		if _, brk := i.Body[len(i.Body)-1].(*ast.Break); brk && len(l.nodeOps(i.Test)) > 0 {
			return true
		}
	}
	return false
}

// systemExitIn returns the first statement in stmts (nested blocks too,
// not nested definitions) that ends the process by raising SystemExit
// (processExit, less os._exit, which runs no handler at all).
func systemExitIn(stmts []ast.Stmt) *ast.Call {
	var found *ast.Call
	ast.InspectBody(stmts, func(n ast.Node) bool {
		if e, ok := n.(*ast.ExprStmt); ok && found == nil {
			if c := processExit(e); c != nil && dotted(c.Func) != "os._exit" {
				found = c
			}
		}
		return found == nil
	})
	return found
}

// yieldInFinally reports a program context manager whose yield sits in a
// try with a finally: what follows the yield runs on an exception too.
func (l *lowerer) yieldInFinally(c *ast.Call) bool {
	_, fn := l.callee(c)
	if fn == nil {
		return false
	}
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return false
	}
	body, _, _, ok := defParts(fd.FuncDef(fn))
	if !ok {
		return false
	}
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if t, ok := n.(*ast.Try); ok && len(t.Finalbody) > 0 && stmtsYield(t.Body) {
			found = true
		}
		return !found
	})
	return found
}

// onlyWorldBarriers reports whether every op is a blocking barrier on the
// default group.
func onlyWorldBarriers(ops []*rules.OpRef) bool {
	for _, o := range ops {
		if o.Site == nil || o.Site.Op != "barrier" || o.Site.Async || o.Gate != "" || o.GateArg != "" ||
			o.Site.Group == nil || o.Site.Group.Kind != rules.GroupWorld {
			return false
		}
	}
	return true
}
