package flow

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Collective counts that follow the data. Each rank loads its own batch,
// so a loop over the elements of a batch field (`for task in
// batch["tasks"]`) runs a different number of times on each rank, and so
// does a per-key collective on a dict keyed by them
// (`self.log_dict({f"loss_{t}": … for t in per_task}, sync_dist=True)`,
// Lightning#19106, R4). Such collectives become a RankBranch with
// DataCount set. The batch itself, and its keys() and items(), are left
// out: a collated batch has the same fields on every rank.

// lightningSteps are the LightningModule hooks whose second parameter is
// this rank's batch.
var lightningSteps = map[string]bool{"training_step": true, "validation_step": true, "test_step": true, "predict_step": true}

// stepBatch marks the batch parameter of a LightningModule step hook.
func (l *lowerer) stepBatch(fn *ast.FunctionDef) {
	if !lightningSteps[fn.Name] || fn.Args == nil {
		return
	}
	params := fn.Args.Positional()
	if len(params) < 2 || params[0].Arg != "self" {
		return
	}
	if l.batchVars == nil {
		l.batchVars = map[string]bool{}
	}
	l.batchVars[params[1].Arg] = true
}

// dataValued reports whether iterating e yields elements of this rank's
// data: a field of a batch (batch["tasks"], batch.labels), a dict filled
// per such element (dataVars), and what keeps their count: keys(),
// values(), items(), list(), sorted(), enumerate() and comprehensions.
func (l *lowerer) dataValued(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name:
		return l.dataVars[e.Id]
	case *ast.Subscript, *ast.Attribute:
		return l.batchPart(e) && !l.batchStructure(e)
	case *ast.ListComp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.GeneratorExp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.DictComp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.Call:
		if a, ok := e.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "keys", "values", "items", "copy":
				return l.dataValued(a.Value)
			case "unique", "tolist", "split", "chunk", "unbind", "nonzero":
				// The distinct values, or the pieces, of a batch field.
				return l.dataValued(a.Value)
			}
			return false
		}
		switch dotted(e.Func) {
		case "list", "tuple", "sorted", "enumerate", "reversed", "dict":
			return len(e.Args) > 0 && l.dataValued(e.Args[0])
		}
	}
	return false
}

// batchStructure reports a slice of the batch (batch[:], batch[1:]): a
// part of the batch's own structure, like the batch itself, not the
// values of one field. (batch.keys() and batch.items() reach dataValued
// as calls on the batch, and stay silent there.)
func (l *lowerer) batchStructure(e ast.Expr) bool {
	if s, ok := e.(*ast.Subscript); ok {
		if _, isSlice := s.Slice.(*ast.Slice); isSlice {
			return true
		}
	}
	return false
}

// dataLoop records a loop over this rank's data whose body issues
// collectives, and marks the dicts and lists the body fills per element.
func (l *lowerer) dataLoop(iter, target ast.Expr, body []ast.Stmt) []string {
	if len(l.batchVars) == 0 && len(l.dataVars) == 0 || !l.dataValued(iter) {
		return nil
	}
	if ops := l.ops(body); len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(iter.Span()), Cond: l.text(iter), Then: ops, DataCount: true, Divergence: rules.LocalData})
	}
	return filledIn(target, body)
}

// perKey records a per-key collective (log_dict) handed a dict keyed by
// this rank's data.
func (l *lowerer) perKey(c *ast.Call, site *rules.Site) {
	if site == nil || len(c.Args) == 0 || len(l.dataVars) == 0 && len(l.batchVars) == 0 {
		return
	}
	if e := l.tb.Collectives[site.API]; e == nil || !e.PerKey || !l.dataValued(c.Args[0]) {
		return
	}
	ops := l.nodeOps(c)
	if len(ops) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Args[0].Span()), Cond: l.text(c.Args[0]), Then: ops, DataCount: true, Divergence: rules.LocalData})
}

// trackData records whether the local v now holds values from this rank's
// data that dataValued follows (assign).
func (l *lowerer) trackData(v string, value ast.Expr) {
	if value != nil && (len(l.batchVars) > 0 || len(l.dataVars) > 0) && l.dataValued(value) {
		if l.dataVars == nil {
			l.dataVars = map[string]bool{}
		}
		l.dataVars[v] = true
	} else if l.dataVars != nil {
		delete(l.dataVars, v)
	}
}

// markFilled records, after a loop, the locals it filled per element of a
// set (setVars) and of this rank's data (dataVars).
func (l *lowerer) markFilled(perElement, perDatum []string) {
	for _, v := range perElement {
		l.setVars[v] = true
	}
	for _, v := range perDatum {
		if l.dataVars == nil {
			l.dataVars = map[string]bool{}
		}
		l.dataVars[v] = true
	}
}

// rankCounted asks, before the body is lowered, whether iter's length
// depends on the rank; rankLoop records the branch after it, when the
// body's sites know their group arguments.
func (l *lowerer) rankCounted(iter ast.Expr) bool {
	return l.notDist == 0 && (len(l.rankVars) > 0 || len(l.rankObjects) > 0 || len(l.nodeSplitVars) > 0 || len(l.rankLens) > 0 || mentionsCall(iter)) && l.rankCount(iter, 0)
}

// unknownLength is the length plainLists records for a value that may
// be a sequence of any length (`items = cfg.checkpoints`).
const unknownLength = -2

// armList is a list a rank test's arm binds to a local: the arm, and the
// list's length (-1 when computed: list(…), a comprehension, [x] * n).
type armList struct {
	under  *ast.If
	inElse bool
	length int
}

// trackArmList records the lists the arms of a rank test bind to v. When
// the two arms bind lists of different lengths (`if rank == src: keys =
// list(sd.keys())` / `else: keys = [None]`), the list's length differs
// between ranks after the if, whatever a broadcast_object_list then puts
// in it: that call fills each rank's list in place and keeps its length
// (the torch documentation asks every rank for a list of the same size).
//
// An if without an else that binds v to a list where v held one of
// another length before (`ckpts = sorted(glob(p))`, then `if rank == 0:
// ckpts = [ckpts[-1]]`) leaves it rank-dependent the same way.
func (l *lowerer) trackArmList(v string, value ast.Expr) {
	delete(l.rankLens, v)
	n, isList := listLength(value)
	if len(l.rankIfs) == 0 {
		// A binding outside rank arms: its length, if it is a list.
		switch value.(type) {
		case nil, *ast.Constant:
			delete(l.plainLists, v)
		default:
			if l.plainLists == nil {
				l.plainLists = map[string]int{}
			}
			if !isList {
				n = unknownLength // what a configuration holds
			}
			l.plainLists[v] = n
		}
	}
	if !isList || len(l.rankIfs) == 0 || l.uniformRankArms() {
		delete(l.armLists, v)
		return
	}
	top := l.rankIfs[len(l.rankIfs)-1]
	if before, ok := l.plainLists[v]; ok && len(top.s.Orelse) == 0 && !top.inElse && before != n && len(l.rankIfs) == 1 {
		if l.rankLens == nil {
			l.rankLens = map[string]bool{}
		}
		l.rankLens[v] = true
		delete(l.armLists, v)
		return
	}
	if o, ok := l.armLists[v]; ok && o.under == top.s && o.inElse != top.inElse {
		delete(l.armLists, v)
		if o.length != n {
			if l.rankLens == nil {
				l.rankLens = map[string]bool{}
			}
			l.rankLens[v] = true
		}
		return
	}
	if l.armLists == nil {
		l.armLists = map[string]armList{}
	}
	l.armLists[v] = armList{under: top.s, inElse: top.inElse, length: n}
}

// listLength returns the length of a list an expression makes: a display's
// elements, `[x] * K` with K a constant, and -1 for a list computed from
// something else (list(…), sorted(…), a comprehension, [x] * n).
func listLength(e ast.Expr) (int, bool) {
	switch e := e.(type) {
	case *ast.List:
		for _, x := range e.Elts {
			if _, star := x.(*ast.Starred); star {
				return -1, true
			}
		}
		return len(e.Elts), true
	case *ast.BinOp:
		if d, ok := e.Left.(*ast.List); ok && e.Op == ast.Mult {
			n, isList := listLength(d)
			k, isConst := e.Right.(*ast.Constant)
			if isList && n >= 0 && isConst && k.Type == ast.ConstInt {
				return n * int(k.Int), true
			}
			return -1, true
		}
	case *ast.ListComp:
		return -1, true
	case *ast.Call:
		switch dotted(e.Func) {
		case "list", "sorted":
			return -1, true
		}
	}
	return 0, false
}

// rankLoop records a loop whose number of passes depends on the rank and
// whose body issues collectives (rules.RankBranch.RankCount). Ops on a
// group the loop variable names (`for g in my_groups[rank]:
// all_reduce(t, group=g)`, each rank on the groups it belongs to) are
// the members' business and left out.
func (l *lowerer) rankLoop(iter, target ast.Expr, body []ast.Stmt) {
	names := map[string]bool{}
	ast.Inspect(target, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			names[nm.Id] = true
		}
		return true
	})
	var ops []*rules.OpRef
	// A DDP forward under no_grad broadcasts the buffers on a rank's
	// first such pass only, whatever its share's length (BasicSR's
	// `for idx in range(rank, len(dataset), world_size)` validation),
	// as in the `if idx % world_size != rank: continue` form.
	for _, o := range l.joinShadowed(l.perPassOps(l.ops(body)), body) {
		if o.Site != nil && o.Site.GroupText != "" && mentionsAny(o.Site.GroupText, names) {
			continue
		}
		ops = append(ops, o)
	}
	if len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(iter.Span()), Cond: l.text(iter), Then: ops, RankCount: true, Divergence: rules.RankTest,
			RankDef: l.rankDefText(iter)})
	}
}

// fsCounted reports a range() whose bounds depend on a file system
// answer of this host (`for step in range(start_step, n)` with the step
// read from a checkpoint a helper found, or None, on this host's disk),
// or a directory listing of this host itself: ranks whose hosts answer
// differently run different numbers of passes.
func (l *lowerer) fsCounted(iter ast.Expr) bool {
	if n, isName := iter.(*ast.Name); isName && l.withIters[n.Id] != nil {
		iter = l.withIters[n.Id]
	}
	c, ok := iter.(*ast.Call)
	if l.notDist > 0 {
		return false
	}
	// A loader resumed from this host's file, also through enumerate
	// and tqdm (`for i, batch in enumerate(loader, start_iter)`).
	inner := iter
	for depth := 0; depth < 3; depth++ {
		w, isCall := inner.(*ast.Call)
		if !isCall || len(w.Args) == 0 || lastDotted(w.Func) != "tqdm" && dotted(w.Func) != "enumerate" {
			break
		}
		inner = w.Args[0]
	}
	if n, isName := inner.(*ast.Name); isName && (l.fsLoaders[n.Id] || l.fsCuts[n.Id]) {
		// A loader resumed from this host's file, or a list cut under
		// its file check (`if os.path.exists(out): items =
		// items[len(done):]`).
		return true
	}
	if l.startedIterable(inner) {
		return true
	}
	if l.listing(iter) {
		// for f in sorted(glob.glob(pattern)): one pass per file this
		// host lists (AngelSlim's scale loader broadcasts per file).
		return true
	}
	if !ok || len(l.fsVars) == 0 && len(l.fsCounts) == 0 && !mentionsCall(iter) {
		return false
	}
	// tqdm(range(…)) and enumerate(range(…)) pass the range's passes on.
	for depth := 0; depth < 3 && len(c.Args) > 0 && (lastDotted(c.Func) == "tqdm" || dotted(c.Func) == "enumerate"); depth++ {
		inner, isCall := c.Args[0].(*ast.Call)
		if !isCall {
			break
		}
		c = inner
	}
	// range(load_step(p), n): a helper that reads the position under
	// its own file check (fsCountCall), inline.
	position := func(a ast.Expr) bool {
		return l.fsProbe(a) || l.fromFsCount(a) || l.fsCountCall(a, -1)
	}
	// itertools.islice(loader, consumed, None): the passes after the
	// consumed ones.
	if lastDotted(c.Func) == "islice" && len(c.Args) > 1 {
		return slices.ContainsFunc(c.Args[1:], position)
	}
	// tqdm.trange(a, b) is tqdm(range(a, b)).
	if dotted(c.Func) != "range" && !(lastDotted(c.Func) == "trange" && strings.Contains(l.r.Ref(c.Func), "tqdm")) {
		return false
	}
	if n, ok := rangeLength(c); ok {
		// range(start_epoch, start_epoch + epochs): as many passes on
		// every host, wherever each starts.
		return position(n)
	}
	return slices.ContainsFunc(c.Args, position)
}

// rangeLength returns n for range(a, a + n) or range(a, n + a), whose
// length is n whatever a is.
func rangeLength(c *ast.Call) (ast.Expr, bool) {
	if len(c.Args) != 2 || len(c.Keywords) > 0 {
		return nil, false
	}
	b, ok := c.Args[1].(*ast.BinOp)
	if !ok || b.Op != ast.Add {
		return nil, false
	}
	start := dotted(c.Args[0])
	switch {
	case start == "":
		return nil, false
	case dotted(b.Left) == start:
		return b.Right, true
	case dotted(b.Right) == start:
		return b.Left, true
	}
	return nil, false
}

// fsSkippedPasses records the rest of a loop's body after a test that
// skips the passes before a position read under a host's file check
// (`for step in range(total): if step < first_step: continue`, plaid's
// resumed loop): that test bounds the loop as `range(first_step, total)`
// would, so the collectives after it run a different number of times on
// hosts that resumed from different checkpoints.
func (l *lowerer) fsSkippedPasses(target ast.Expr, body []ast.Stmt) {
	if l.notDist > 0 || len(l.fsCounts) == 0 {
		return
	}
	loopVars := map[string]bool{}
	for _, n := range targetNames(target) {
		loopVars[n] = true
	}
	for i, st := range body {
		s, ok := st.(*ast.If)
		if !ok || len(s.Orelse) > 0 || len(s.Body) == 0 {
			continue
		}
		if _, skips := s.Body[len(s.Body)-1].(*ast.Continue); !skips || !l.skipsBefore(s.Test, loopVars) {
			continue
		}
		l.fsCountedLoop(s.Test, "if "+l.text(s.Test)+": continue", body[i+1:])
		return
	}
}

// skipsBefore reports a test that orders a loop variable against a
// position read under a host's file check (`step < first_step`,
// `start_iter > it`).
func (l *lowerer) skipsBefore(test ast.Expr, loopVars map[string]bool) bool {
	left, right, ok := orderingCompare(test)
	if !ok {
		return false
	}
	never := func(ast.Node) (bool, bool) { return false, true }
	return dependsOn(left, loopVars, never) && l.fromFsCount(right) ||
		dependsOn(right, loopVars, never) && l.fromFsCount(left)
}

// progressBars are tqdm's wrappers whose passes are their range's.
var progressBars = map[string]bool{"tqdm": true, "trange": true}

// fromFsCount reports whether e reads a local or an attribute path that
// holds such a position (markFsCount).
func (l *lowerer) fromFsCount(e ast.Expr) bool {
	if len(l.fsCounts) == 0 {
		return false
	}
	return dependsOn(e, l.fsCounts, func(n ast.Node) (bool, bool) {
		if c, ok := n.(*ast.Call); ok && l.agreedCall(c) {
			// fabric.broadcast(step, src=0): rank 0's position, the same
			// on every rank (the fix).
			return false, false
		}
		if c, ok := n.(*ast.Call); ok && l.frameworkObject(c) {
			// Accelerator(project_config=ProjectConfiguration(iteration=
			// it + 1)): the position only names the next checkpoint
			// folder of a framework object, which counts nothing
			// (AMPLIFY's trainer).
			return false, false
		}
		if a, ok := n.(*ast.Attribute); ok && a.Ctx == ast.Load {
			if d := dotted(a); d != "" && l.fsCounts[d] {
				return true, false
			}
			if d := l.propertyPath(a, l.fsCounts); d != "" && l.fsCounts[d] {
				return true, false // trainer.epoch, a property returning self._epoch
			}
		}
		if c, ok := n.(*ast.Call); ok {
			if d := l.getterPath(c); d != "" && l.fsCounts[d] {
				return true, false // reporter.get_epoch() returning self.epoch
			}
		}
		return false, true
	})
}

// getterPath returns the attribute path a call of a program method that
// only returns an attribute of its receiver reads (`reporter.get_epoch()`
// with `def get_epoch(self): return self.epoch` reads reporter.epoch);
// "" for any other call.
func (l *lowerer) getterPath(c *ast.Call) string {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || len(c.Args) > 0 || len(c.Keywords) > 0 {
		return ""
	}
	recv := dotted(a.Value)
	if recv == "" {
		return ""
	}
	_, fn := l.callee(c)
	if attr := l.returnedSelfAttr(fn); attr != "" {
		return recv + "." + attr
	}
	return ""
}

// propertyPath returns the attribute path a read of a program property
// reads when its getter only returns an attribute of its instance
// (`trainer.epoch` with `@property def epoch(self): return self._epoch`
// reads trainer._epoch), "" otherwise. Only a receiver some of whose
// attributes marked holds is asked about: the call graph (values, MRO,
// the class's properties) is asked only then.
func (l *lowerer) propertyPath(a *ast.Attribute, marked map[string]bool) string {
	recv := dotted(a.Value)
	pg, ok := l.r.(PropertyGetterer)
	if !ok || recv == "" || !keyUnder(marked, recv) {
		return ""
	}
	fn := l.propertyGetter(pg, a)
	if fn == nil || fn == l.fn {
		return ""
	}
	if attr := l.returnedSelfAttr(fn); attr != "" {
		return recv + "." + attr
	}
	return ""
}

// keyUnder reports a key of m that is an attribute path under recv.
func keyUnder(m map[string]bool, recv string) bool {
	for k := range m {
		if strings.HasPrefix(k, recv+".") {
			return true
		}
	}
	return false
}

// returnedSelfAttr returns X for a program method whose body is only
// `return self.X` (a getter, or a property's getter), "" otherwise.
func (l *lowerer) returnedSelfAttr(fn *rules.Function) string {
	if fn == nil {
		return ""
	}
	body, args, ok := l.defOf(fn)
	if !ok || len(body) != 1 || len(args.Positional()) != 1 {
		return ""
	}
	ret, ok := body[0].(*ast.Return)
	if !ok {
		return ""
	}
	attr, ok := ret.Value.(*ast.Attribute)
	if !ok || !isName(attr.Value, args.Positional()[0].Arg) {
		return ""
	}
	return attr.Attr
}

// markFsCount records whether v holds a position read from stored data
// under a host's file check (`if os.path.isfile(ckpt): start =
// torch.load(ckpt)["epoch"] + 1`), or one computed from such a position.
// Such a value bounds loops (fsCounted) but decides nothing else: what a
// resumed run does with its epoch elsewhere is the same kind of answer
// everywhere.
func (l *lowerer) markFsCount(v string, value ast.Expr) {
	// An object a program class builds from a position is no position
	// (`learner = Learner(env, cfg, start)`); the attributes its __init__
	// keeps of it are (`self.start_step = start_step`).
	var init *ast.FunctionDef
	if len(l.fsCounts) > 0 {
		init = l.programInit(value)
	}
	on := len(l.hostTests) > 0 && (l.storedValue(value) || l.pathPosition(value) || l.loadsCheckedPath(value)) || l.fromFsCount(value) && init == nil
	if init != nil {
		for a := range attrsFromArgs(value.(*ast.Call), init, l.fromFsCount) {
			markVar(&l.fsCounts, v+"."+a, true)
		}
	}
	helper := !on && l.fsCountCallAt(value, -1)
	markVar(&l.fsCounts, v, on || helper)
	if on && len(l.hostTests) > 0 && !l.fsVars[v] {
		l.noteFsOrigin(v, l.hostTests[len(l.hostTests)-1])
	} else if helper && !l.fsVars[v] {
		l.noteFsOrigin(v, value)
	}
}

// ownValue reports a call of a program function that hands back, as its
// result (i < 0) or as element i of the tuple it returns, one of its
// parameters unchanged, and passes the local v there: `stats, opt =
// resume(path, opt)` leaves opt the object it was, whatever resume read
// (ZenNAS's resume). set lists the attributes the function assigns on
// that parameter (`opt.start_epoch = ckpt["epoch"] + 1`): those, not the
// whole object, take what it read. Every return must hand the parameter
// back and the body must end in one (falling off the end returns None).
func (l *lowerer) ownValue(v string, value ast.Expr, i int) (kept bool, set []string) {
	c, ok := value.(*ast.Call)
	if !ok {
		return false, nil
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return false, nil
	}
	hb := l.handsBack(fn, i)
	if hb.param == "" {
		return false, nil
	}
	if a, passed := paramArgument(c, hb.params, hb.positional, slices.Index(hb.params, hb.param)).(*ast.Name); !passed || a.Id != v {
		return false, nil
	}
	return true, hb.set
}

// returnedAt keys handsBack: a function and the element of its result
// (-1: the whole result).
type returnedAt struct {
	fn *rules.Function
	i  int
}

// handedBack is what handsBack finds: the parameter every return hands
// back unchanged at that place ("" for none), the function's parameters
// (positional first), and the attributes it assigns on that parameter.
type handedBack struct {
	param      string
	params     []string
	positional int
	set        []string
}

// handsBack is ownValue's reading of the function itself, once per
// function and element.
func (l *lowerer) handsBack(fn *rules.Function, i int) handedBack {
	key := returnedAt{fn, i}
	if v, ok := l.memo().returnedParam.Load(key); ok {
		return v.(handedBack)
	}
	hb := handedBack{}
	if body, args, ok := l.defOf(fn); ok && len(body) > 0 {
		if _, ends := body[len(body)-1].(*ast.Return); ends {
			hb = returnedParam(body, args, i)
		}
	}
	l.memo().returnedParam.Store(key, hb)
	return hb
}

// returnedParam finds the parameter body hands back unchanged at element
// i of every return (handsBack).
func returnedParam(body []ast.Stmt, args *ast.Arguments, i int) handedBack {
	param, same := "", true
	ast.InspectBody(body, func(x ast.Node) bool {
		r, isRet := x.(*ast.Return)
		if !isRet || !same {
			return same
		}
		e := r.Value
		if t, isTuple := e.(*ast.Tuple); i >= 0 && isTuple && i < len(t.Elts) {
			e = t.Elts[i]
		} else if i >= 0 {
			e = nil
		}
		nm, isName := e.(*ast.Name)
		same = isName && (param == "" || nm.Id == param)
		if same {
			param = nm.Id
		}
		return same
	})
	if !same || param == "" || rebindsAny(body, []string{param}) {
		return handedBack{}
	}
	params, positional := paramsOf(args)
	if !slices.Contains(params, param) {
		return handedBack{} // a local, not a parameter
	}
	var set []string
	ast.InspectBody(body, func(x ast.Node) bool {
		for _, t := range everyBindingTarget(x) {
			if at, ok := t.(*ast.Attribute); ok && isName(at.Value, param) && !slices.Contains(set, at.Attr) {
				set = append(set, at.Attr)
			}
		}
		return true
	})
	slices.Sort(set)
	return handedBack{param: param, params: params, positional: positional, set: set}
}

// pathPosition reports a number parsed, in a host's file check, from
// the path it checks (`if os.path.exists(resume_path): step =
// int(os.path.basename(resume_path).split(".")[0])`): the checkpoint's
// name is the position, and only the hosts that see the file take it.
func (l *lowerer) pathPosition(value ast.Expr) bool {
	parsed := false
	ast.Inspect(value, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if f, ok := c.Func.(*ast.Name); ok && f.Id == "int" {
				parsed = true
			}
		}
		return !parsed
	})
	return parsed && l.readsCheckedPath(value)
}

// checkedPathValue reports a value bound in a host's file check from the
// path it checks, other than a position read from the file or its name
// (markFsCount's): `if os.path.exists(ckpt): cfg.resume = ckpt` (or a
// path joined from it, DeiT-style auto-resume) is set on the hosts that
// see the file only.
func (l *lowerer) checkedPathValue(value ast.Expr) bool {
	return pathBuilt(value) && l.readsCheckedPath(value)
}

// pathBuilt reports an expression that builds a path from others: a
// name, an attribute, an f-string, + / % joins, os.path.join and its
// kin (what snapshot_download or torch.load return is another matter).
func pathBuilt(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Name, *ast.Attribute, *ast.Constant, *ast.JoinedStr:
		return true
	case *ast.BinOp:
		return (x.Op == ast.Add || x.Op == ast.Div || x.Op == ast.Mod) && pathBuilt(x.Left) && pathBuilt(x.Right)
	case *ast.Call:
		switch lastDotted(x.Func) {
		case "join", "abspath", "realpath", "normpath", "expanduser", "str", "Path":
			for _, a := range x.Args {
				if !pathBuilt(a) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// readsCheckedPath reports a value, bound in a host's file check, that
// reads the path the innermost check tests or a local made from it
// (checkedNames).
func (l *lowerer) readsCheckedPath(value ast.Expr) bool {
	if len(l.hostTests) == 0 {
		return false
	}
	paths := map[string]bool{}
	collect := func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			for _, a := range c.Args {
				if d := dotted(a); d != "" {
					paths[d] = true
				}
			}
		}
		return true
	}
	test := l.hostTests[len(l.hostTests)-1]
	ast.Inspect(test, collect)
	if len(paths) == 0 {
		// `resuming = os.path.isfile(path)` … `if resuming:`: the path
		// the check kept in the local tested.
		if o := l.fsOriginOf(test); o != nil && o != ast.Node(test) {
			ast.Inspect(o, collect)
		}
	}
	reads := false
	ast.Inspect(value, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Name:
			reads = reads || n.Ctx == ast.Load && (paths[n.Id] || l.checkedNames[n.Id])
		case *ast.Attribute:
			if paths[dotted(n)] {
				reads = true
			}
		}
		return !reads
	})
	return reads
}

// storedValue reports a value read from stored data: a position picked
// from it (storedScalar), a whole loaded object (loadsStored), or what a
// program helper loads and returns (storedCall).
func (l *lowerer) storedValue(value ast.Expr) bool {
	return storedScalar(value) || l.loadsStored(value) || l.storedCall(value)
}

// storedCall reports a call of a program function that returns what it
// loaded from a file (returnsStored), or an element of its result: made
// under a host's file check (`if os.path.exists(p): step, start =
// net.loadFromFile(p, keys)`), it is that host's position.
func (l *lowerer) storedCall(e ast.Expr) bool {
	if s, ok := e.(*ast.Subscript); ok {
		e = s.Value
	}
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	_, fn := l.callee(c)
	return fn != nil && fn != l.fn && l.returnsStored(fn)
}

// startedIterable reports an iterable of a program class built with a
// position read from this host's checkpoint, which its __iter__ reads
// back from the attribute __init__ kept it in (maskrcnn-benchmark's
// IterationBasedBatchSampler(…, start_iter), iterated from start_iter
// to its last iteration): hosts that resumed at different positions run
// different numbers of passes.
func (l *lowerer) startedIterable(e ast.Expr) bool {
	if len(l.fsCounts) == 0 {
		return false
	}
	if n, isName := e.(*ast.Name); isName {
		e = LocalValue(l.node, n.Id)
	}
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	_, fn := l.callee(c)
	fd, isFD := l.r.(FuncDefiner)
	md, isMD := l.r.(MethodDefiner)
	if fn == nil || !isFD || !isMD || !strings.HasSuffix(fn.Name, ".__init__") {
		return false
	}
	init, ok := fd.FuncDef(fn).(*ast.FunctionDef)
	if !ok || init.Args == nil || len(init.Args.Positional()) == 0 {
		return false
	}
	iter, ok := md.MethodDef(fn, "__iter__").(*ast.FunctionDef)
	if !ok || iter.Args == nil || len(iter.Args.Positional()) == 0 {
		return false
	}
	kept := attrsFromArgs(c, init, l.fromFsCount)
	if len(kept) == 0 {
		return false
	}
	iterSelf := iter.Args.Positional()[0].Arg
	found := false
	ast.InspectBody(iter.Body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Attribute); ok && a.Ctx == ast.Load && kept[a.Attr] && isName(a.Value, iterSelf) {
			found = true
		}
		return !found
	})
	return found
}

// loadsCheckedPath reports, in a host's file check, a call of a method
// the program does not define whose name says it loads (load, resume,
// restore), handed what the check tested (`if len(ckpts) > 0: it, start
// = model.load_params_with_optimizer(ckpts[-1], …)`): what it returns
// is read from the file that host found.
func (l *lowerer) loadsCheckedPath(e ast.Expr) bool {
	if len(l.hostTests) == 0 {
		return false
	}
	checked := map[string]bool{}
	ast.Inspect(l.hostTests[len(l.hostTests)-1], func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			checked[nm.Id] = true
		}
		return true
	})
	return l.loadsFrom(e, checked)
}

// loadsFrom is loadsCheckedPath with the checked names given.
func (l *lowerer) loadsFrom(e ast.Expr, checked map[string]bool) bool {
	if s, ok := e.(*ast.Subscript); ok {
		e = s.Value
	}
	c, ok := e.(*ast.Call)
	if !ok || len(checked) == 0 {
		return false
	}
	if !loaderName(lastDotted(c.Func)) {
		return false
	}
	if _, fn := l.callee(c); fn != nil {
		return false // the program's own: returnsStored decides
	}
	for _, a := range c.Args {
		if readsAny(a, checked) {
			return true
		}
	}
	for _, k := range c.Keywords {
		if readsAny(k.Value, checked) {
			return true
		}
	}
	return false
}

// loaderName reports a name one of whose words starts with load, resume,
// restore or reload (load_checkpoint, loadFromFile, resume_from), not
// download or upload.
func loaderName(name string) bool {
	for _, w := range strings.Split(strings.ToLower(name), "_") {
		for _, p := range []string{"load", "resume", "restore", "reload"} {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

// returnsStored reports a program function that returns, in a return
// statement, what it loaded from a file or values picked from it
// (Enigmatisms' loadFromFile: `save = torch.load(path)` … `return
// [save[k] for k in keys]`).
func (l *lowerer) returnsStored(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().storedRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		stored := map[string]bool{}
		markBound(body, stored, func(v ast.Expr) bool {
			return l.loadsStored(v) || storedScalar(v) || readsAny(v, stored) || l.storedCall(v)
		})
		// (With no such local, a return of the load itself still counts:
		// `def _load_file(self, f): return torch.load(f)`.)
		found := false
		ast.InspectBody(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.Return); ok && r.Value != nil && (l.loadsStored(r.Value) || readsAny(r.Value, stored) || l.storedCall(r.Value)) {
				found = true
			}
			return !found
		})
		return found
	})
}

// readsAny reports an expression that reads one of names.
func readsAny(e ast.Expr, names map[string]bool) bool {
	return len(names) > 0 && dependsOn(e, names, func(ast.Node) (bool, bool) { return false, true })
}

// fsCountReturns returns, for a program function that checks a file on
// its host and returns a position read from stored data there or
// constants (`if not os.path.exists(ckpt): return 0, 0` … `return
// state["epoch"] + 1, state["best"]`, Point-BERT's resume_model), the
// indexes of the returned tuple's elements that hold such a position
// (-1 for a plain returned value); nil for any other function.
func (l *lowerer) fsCountReturns(fn *rules.Function) map[int]bool {
	return summarizeGuarded(&l.memo().fsCountElems, fn, func() map[int]bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return nil
		}
		return l.fsCountElems(body)
	})
}

// fsCountElems is fsCountReturns for a function body.
func (l *lowerer) fsCountElems(body []ast.Stmt) map[int]bool {
	checked := false
	// stored: locals holding a position read from stored data;
	// guarded: those of them bound in an arm of a file check.
	stored, guarded := map[string]bool{}, map[string]bool{}
	// hostNames: names and attributes bound to this host's listing or
	// check, or to what is made from one (`ckpt_dirs =
	// glob.glob(…)`, then `args.resume = ckpt_dirs[-1]`): a test of
	// one is a file check too (OneLLM's load_model).
	hostNames := map[string]bool{}
	readsHost := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Lambda:
				return false
			case *ast.Name:
				found = found || x.Ctx == ast.Load && hostNames[x.Id]
			case *ast.Attribute:
				if d := dotted(x); d != "" && hostNames[d] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := ast.AsAssign(n); ok && len(a.Targets) == 1 {
			if d := dotted(a.Targets[0]); d != "" && (l.listing(a.Value) || l.directFsProbe(a.Value) || readsHost(a.Value)) {
				hostNames[d] = true
			}
		}
		return true
	})
	var arms []*ast.If
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.If:
			if l.directFsProbe(n.Test) || len(hostNames) > 0 && readsHost(n.Test) {
				checked = true
				arms = append(arms, n)
				ast.InspectBody(n.Body, visit)
				ast.InspectBody(n.Orelse, visit)
				arms = arms[:len(arms)-1]
				return false
			}
		case *ast.Assign:
			if t, ok := n.Targets[0].(*ast.Name); ok && len(n.Targets) == 1 && (storedScalar(n.Value) || fromNames(n.Value, stored)) {
				stored[t.Id] = true
				if len(arms) > 0 {
					guarded[t.Id] = true
				}
			}
		}
		return true
	}
	ast.InspectBody(body, visit)
	if !checked {
		return nil
	}
	var rets [][]ast.Expr
	ast.InspectBody(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok && r.Value != nil {
			if t, ok := r.Value.(*ast.Tuple); ok {
				rets = append(rets, t.Elts)
			} else {
				rets = append(rets, []ast.Expr{r.Value})
			}
		}
		return true
	})
	if len(rets) == 0 {
		return nil
	}
	// out holds the counting elements' indexes (-1 for a plain
	// returned value).
	var out map[int]bool
	mark := func(i int) {
		if out == nil {
			out = map[int]bool{}
		}
		if len(rets[0]) == 1 {
			i = -1
		}
		out[i] = true
	}
	if len(rets) == 1 {
		// `start_epoch = 0` … `if os.path.isfile(latest):
		// start_epoch = ckpt["epoch"] + 1` … `return model,
		// start_epoch` (VideoChat2's setup_model).
		for i, e := range rets[0] {
			if n, ok := e.(*ast.Name); ok && guarded[n.Id] {
				mark(i)
			}
		}
		return out
	}
	for i := range rets[0] {
		counts, agreed := false, true
		for _, r := range rets {
			if len(r) != len(rets[0]) {
				return nil
			}
			switch e := r[i]; {
			case storedScalar(e) || fromNames(e, stored) || l.loadsStored(e):
				// (or the whole state it loaded, whose position
				// the caller reads: maskrcnn-benchmark's
				// Checkpointer.load returning {} or torch.load(f))
				counts = true
			case constantValue(e):
			default:
				agreed = false
			}
		}
		if counts && agreed {
			mark(i)
		}
	}
	return out
}

// fromNames reports an expression computed from names of set only,
// with constants (`start + 1`, `int(step)`).
func fromNames(e ast.Expr, set map[string]bool) bool {
	switch x := e.(type) {
	case *ast.Name:
		return set[x.Id]
	case *ast.BinOp:
		_, lc := x.Left.(*ast.Constant)
		_, rc := x.Right.(*ast.Constant)
		return fromNames(x.Left, set) && (rc || fromNames(x.Right, set)) || lc && fromNames(x.Right, set)
	case *ast.Call:
		if f, ok := x.Func.(*ast.Name); ok && (f.Id == "int" || f.Id == "float") && len(x.Args) == 1 {
			return fromNames(x.Args[0], set)
		}
	}
	return false
}

// noneReturnParams returns the parameters of a program function whose
// values decide whether it returns None: `if empty_flag.item() > 0:
// return None` with empty_flag computed from row_start and row_stop
// (plexus's _prepare_compact_minibatch), when other returns hand back a
// value. A caller that passes a rank-dependent value there gets None on
// some ranks only.
func (l *lowerer) noneReturnParams(fn *rules.Function) map[string]bool {
	return summarizeGuarded(&l.memo().noneParams, fn, func() map[string]bool {
		body, args, ok := l.defOf(fn)
		if !ok {
			return nil
		}
		deps := map[string]map[string]bool{}
		for _, p := range args.PositionalNames() {
			deps[p] = map[string]bool{p: true}
		}
		paramsOf := func(e ast.Expr) map[string]bool {
			var out map[string]bool
			ast.Inspect(e, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && nm.Ctx == ast.Load {
					for p := range deps[nm.Id] {
						if out == nil {
							out = map[string]bool{}
						}
						out[p] = true
					}
				}
				return true
			})
			return out
		}
		valued := false
		var out map[string]bool
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Assign:
				if ps := paramsOf(n.Value); len(ps) > 0 {
					for _, t := range n.Targets {
						for _, v := range targetNames(t) {
							deps[v] = ps
						}
					}
				}
			case *ast.If:
				if len(n.Body) == 1 && len(n.Orelse) == 0 {
					if r, ok := n.Body[0].(*ast.Return); ok && (r.Value == nil || isNone(r.Value)) {
						for p := range paramsOf(n.Test) {
							if out == nil {
								out = map[string]bool{}
							}
							out[p] = true
						}
					}
				}
			case *ast.Return:
				valued = valued || n.Value != nil && !isNone(n.Value)
			}
			return true
		})
		if !valued {
			return nil
		}
		return out
	})
}

// rankNoneCall reports a call of a program function handing a
// rank-dependent value to a parameter that decides whether it returns
// None (noneReturnParams): its result is None on some ranks only.
func (l *lowerer) rankNoneCall(value ast.Expr) bool {
	c, ok := value.(*ast.Call)
	if !ok || len(l.rankVars) == 0 {
		return false
	}
	fn, _, ok := l.calleeDef(c)
	if !ok {
		return false
	}
	params := l.noneReturnParams(fn)
	if len(params) == 0 {
		return false
	}
	_, args, _ := l.defOf(fn)
	names := args.PositionalNames()
	shift := 0
	if len(names) > 0 {
		shift = receiverShift(c, names[0])
	}
	for i, a := range c.Args {
		if j := i + shift; j < len(names) && params[names[j]] && l.isRank(a) {
			return true
		}
	}
	for _, k := range c.Keywords {
		if params[k.Arg] && l.isRank(k.Value) {
			return true
		}
	}
	return false
}

// fsCountCall reports a call of a program function whose result's
// element index (-1: the whole result) is a position fsCountReturns
// finds.
func (l *lowerer) fsCountCall(value ast.Expr, index int) bool {
	c, ok := value.(*ast.Call)
	if !ok || l.notDist > 0 {
		return false
	}
	_, fn := l.callee(c)
	return fn != nil && fn != l.fn && l.fsCountReturns(fn)[index]
}

// fsCountsOf is fsCountReturns for the callee of c, when it returns
// tuples of n elements.
func (l *lowerer) fsCountsOf(c *ast.Call, n int) map[int]bool {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil
	}
	counts := l.fsCountReturns(fn)
	for i := range counts {
		if i < 0 || i >= n {
			return nil
		}
	}
	return counts
}

// storedLoaders read a whole stored object (a training state) from a
// file.
var storedLoaders = map[string]bool{
	"torch.load": true, "json.load": true, "pickle.load": true, "numpy.load": true,
	"yaml.safe_load": true, "yaml.load": true, "safetensors.torch.load_file": true,
}

// loadsStored reports a call that loads a stored object (`state =
// torch.load(path)`): set under a host's file check, the position a
// resume later reads from it (`state["iter"]`) is that host's answer.
func (l *lowerer) loadsStored(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	ext, _ := l.callee(c)
	return storedLoaders[ext]
}

// fsBoundWhile records a while loop whose test reads a position read
// from stored data under a host's file check (`while current_iter <=
// total_iters:` after a resume found on this host's disk): each host
// runs its own number of passes.
func (l *lowerer) fsBoundWhile(s *ast.While) {
	if l.notDist > 0 || len(l.fsCounts) == 0 {
		return
	}
	if l.fromFsCount(s.Test) {
		l.fsWhile(s)
		return
	}
	// `while True: epoch += 1; if epoch > max_epoch: break` (DS-Net): the
	// loop's bound is the test of a break in its body (not in a loop of
	// its own).
	var find func(stmts []ast.Stmt) *ast.If
	find = func(stmts []ast.Stmt) *ast.If {
		for _, st := range stmts {
			x, ok := st.(*ast.If)
			if !ok {
				continue
			}
			if len(x.Body) == 1 && len(x.Orelse) == 0 && l.fromFsCount(x.Test) {
				if _, brk := x.Body[0].(*ast.Break); brk {
					return x
				}
			}
			if y := find(x.Body); y != nil {
				return y
			}
			if y := find(x.Orelse); y != nil {
				return y
			}
		}
		return nil
	}
	if x := find(s.Body); x != nil {
		l.fsCountedLoop(x.Test, "while … if "+l.text(x.Test)+": break", s.Body)
	}
}

// fsWhile records a while loop whose test depends on a file system answer
// and whose body issues collectives (Cond is "while <test>").
func (l *lowerer) fsWhile(s *ast.While) {
	l.fsCountedLoop(s.Test, "while "+l.text(s.Test), s.Body)
}

// fsLoop records a loop whose number of passes depends on a file system
// answer and whose body issues collectives: a warning, as for an if on
// such an answer.
func (l *lowerer) fsLoop(iter ast.Expr, body []ast.Stmt) {
	l.fsCountedLoop(iter, l.text(iter), body)
}

// fsCountedLoop records the loop whose bound (a for's iterable, a while's
// test) guard depends on a file system answer, labelled cond.
func (l *lowerer) fsCountedLoop(guard ast.Expr, cond string, body []ast.Stmt) {
	ops := l.ops(body)
	if len(ops) == 0 {
		return
	}
	br := &rules.RankBranch{Func: l.fn, Guard: l.pos(guard.Span()), Cond: cond, Then: ops, RankCount: true, Divergence: rules.HostCheck}
	if o := l.fsOriginOf(guard); o != nil {
		at := l.pos(o.Span())
		br.Origin = &at
	}
	l.addBranch(br)
}

// rankCount reports an iterable whose length depends on the rank: range()
// of a rank value, the rank's own element of a container (shards[rank]),
// the rank's stride of a list (xs[rank::world]), a local bound to one, and
// what keeps their count (enumerate, list, sorted, reversed, tuple).
func (l *lowerer) rankCount(e ast.Expr, depth int) bool {
	if depth > 5 {
		return false
	}
	switch e := e.(type) {
	case *ast.Call:
		name := dotted(e.Func)
		if name != "range" && rangeLike[l.r.Ref(e.Func)] {
			name = "range" // np.arange(rank, n, world): a range of numbers
		}
		switch name {
		case "range":
			if n, ok := rangeLength(e); ok {
				return l.countRank(n) // range(start, start + 3): three passes
			}
			for _, a := range e.Args {
				if l.countRank(a) {
					return true
				}
			}
		case "enumerate", "list", "sorted", "reversed", "tuple":
			return len(e.Args) > 0 && l.rankCount(e.Args[0], depth+1)
		}
		if a, ok := e.Func.(*ast.Attribute); ok && len(e.Args) == 0 && (a.Attr == "items" || a.Attr == "keys" || a.Attr == "values") {
			return l.rankCount(a.Value, depth+1) // envs.items() of the rank's envs
		}
		if loaderOver[lastDotted(e.Func)] {
			// DataLoader(data[rank::world], batch_size=4): batches of the
			// rank's share, as many as its length makes.
			if ds := arg(e, api.Arg{Pos: 0, Name: "dataset"}); ds != nil && l.rankCount(ds, depth+1) {
				return true
			}
			// DataLoader(ds, batch_size=bsz[rank]): as many samples on
			// each rank, cut into batches of the rank's own size
			// (FlashFlex's per-pipeline batch sizes).
			if bs := arg(e, api.Arg{Pos: 1, Name: "batch_size"}); bs != nil && l.isRank(bs) {
				return true
			}
			// DataLoader(ds, sampler=SubsetRandomSampler(np.arange(rank,
			// n, world))): the sampler yields the rank's stride (UniCL's
			// evaluation loader), as many as it holds.
			for _, sa := range []api.Arg{{Pos: 2, Name: "sampler"}, {Pos: 3, Name: "batch_sampler"}} {
				if sc, ok := arg(e, sa).(*ast.Call); ok && strings.HasSuffix(lastDotted(sc.Func), "Sampler") && len(sc.Args) > 0 && l.rankCount(sc.Args[0], depth+1) {
					return true
				}
			}
		}
		if lastDotted(e.Func) == "Subset" {
			// Subset(ds, list(range(rank, len(ds), world))): the rank's
			// stride of the data set.
			if idx := arg(e, api.Arg{Pos: 1, Name: "indices"}); idx != nil {
				return l.rankCount(idx, depth+1)
			}
		}
		if _, fn := l.callee(e); fn != nil && fn != l.fn && l.returnsRankShareAt(e, fn) {
			return true // my_task_ids(n): the rank's share, made by a helper
		}
	case *ast.Subscript:
		if l.isRank(e.Value) {
			return false // a container that is itself the rank's: its length is another question
		}
		if sl, ok := e.Slice.(*ast.Slice); ok {
			return sl.Lower != nil && l.countRank(sl.Lower) && sl.Step != nil
		}
		return l.countRank(e.Slice)
	case *ast.Name:
		if d := l.rankDefs[e.Id]; d != nil && l.rankCount(d, depth+1) {
			return true
		}
		if l.rankLens[e.Id] {
			return true // a list whose length the rank test's arms chose
		}
		// A node split handed the rank (split_dataset_by_node(ds,
		// rank=rank, …)) is a rank value too, but its length is the
		// split's question.
		return l.nodeSplitVars[e.Id]
	case *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
		// [r for i, r in enumerate(rows) if i % world == rank]: the
		// rank's own rows, picked by a filter that reads the rank (and
		// {tid: make(tid) for tid in … if …}, OpenTau's per-rank envs).
		gens, _ := comprehensionParts(e)
		for _, g := range gens {
			if l.rankCount(g.Iter, depth+1) {
				return true
			}
			for _, cond := range g.Ifs {
				if l.countRank(cond) {
					return true
				}
			}
		}
	}
	return false
}

// countRank is isRank for a count or an index: the rank itself, a local
// holding it, a rank call or rank attribute, and arithmetic on them, but
// not the attributes of an object that was merely made with the rank
// (`trainer.start_epoch` of `Trainer(local_rank=…)`).
func (l *lowerer) countRank(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Attribute:
			found = l.rankAttr(n)
			return false
		case *ast.Name:
			// A rank value, or a count bound on some ranks only (`n = 10;
			// if rank == 0: n = 5`).
			found = n.Ctx == ast.Load && (l.rankVars[n.Id] && !constructed(l.rankDefs[n.Id]) || l.rankObject(n.Id) || l.rankLens[n.Id])
		case *ast.Call:
			if l.rankCall(n) {
				found = true
			}
			return !found && len(n.Args) > 0 // len(xs) of a rank's list: walk
		case *ast.Lambda:
			return false
		}
		return !found
	})
	return found
}

// constructed: an instantiation (`Trainer(local_rank=…)`): an object,
// not a number.
func constructed(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	name := lastDotted(c.Func)
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// mentionsCall: e contains a call (a rank value may come from one without
// any rank local: range(dist.get_rank())).
func mentionsCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.Call); ok {
			found = true
		}
		return !found
	})
	return found
}

// mentionsAny reports whether source text names one of names as a whole
// identifier.
func mentionsAny(text string, names map[string]bool) bool {
	start := -1
	for i := 0; i <= len(text); i++ {
		word := i < len(text) && (text[i] == '_' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9')
		if word && start < 0 {
			start = i
		} else if !word && start >= 0 {
			if names[text[start:i]] && (start == 0 || text[start-1] != '.') {
				return true
			}
			start = -1
		}
	}
	return false
}

// fsBoundCallee records a call that hands a program function an object
// whose attribute holds this host's resume position (fsCounts: the
// epoch a loader set on `args` under its file check) when the function
// loops over a range that attribute of its parameter bounds (`train(args)`
// with `for epoch in range(args.current_epoch, args.num_epochs):`):
// every collective the call issues repeats once per pass, as many passes
// as this host's disk says (instructlab's training loop after its
// resume).
func (l *lowerer) fsBoundCallee(c *ast.Call) {
	if l.notDist > 0 || len(l.fsCounts) == 0 {
		return
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return
	}
	body, _, ok := l.defOf(fn)
	if !ok {
		return
	}
	params, from := l.boundArgs(c, fn)
	bound := map[string]string{}
	for i, p := range params {
		if from[i] != "" {
			bound[p] = from[i]
		}
	}
	if len(bound) == 0 {
		return
	}
	var iter ast.Expr
	var key string
	ast.InspectBody(body, func(n ast.Node) bool {
		f, ok := n.(*ast.For)
		if !ok || iter != nil {
			return iter == nil
		}
		r, ok := f.Iter.(*ast.Call)
		if !ok || dotted(r.Func) != "range" {
			return true
		}
		for _, a := range r.Args {
			p, rest, ok := strings.Cut(dotted(a), ".")
			if k := bound[p] + "." + rest; ok && bound[p] != "" && l.fsCounts[k] {
				iter, key = f.Iter, k
				return false
			}
		}
		return true
	})
	if iter == nil {
		return
	}
	ops := l.ops([]ast.Stmt{l.stmt})
	if len(ops) == 0 {
		return
	}
	at, text := l.posIn(fn, iter)
	if text == "" {
		return
	}
	br := &rules.RankBranch{Func: l.fn, Guard: at, Cond: text, Then: ops, RankCount: true, Divergence: rules.HostCheck}
	if o := l.fsOrigin[key]; o != nil {
		p := l.pos(o.Span())
		br.Origin = &p
	}
	l.addBranch(br)
}

// helperFsCounts marks, for a call of a program function
// (`load_model(args)`, `CkptLoader.load_meta(self, meta)`,
// `runner.resume(path)`), the attributes of its arguments that the
// function sets to a position read from stored data (`args.start_epoch =
// ckpt["epoch"] + 1`) where that position is this host's answer: the call
// sits under a file check of the caller, the store under a file check of
// the function, or under its test of an attribute the caller set from
// such a check (`if args.resume:` after `if os.path.exists(p):
// args.resume = p`, scale-mae's resume). The caller's loops over that
// position then run as many passes as this host's disk says (TFace's
// epoch loop after its meta loader).
func (l *lowerer) helperFsCounts(c *ast.Call) {
	if l.notDist > 0 {
		return
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return
	}
	body, args, ok := l.defOf(fn)
	if !ok || len(args.PositionalNames()) == 0 {
		return
	}
	// The caller's text for each parameter that receives a name or an
	// attribute path, the receiver included.
	bound := map[string]string{}
	params, from := l.boundArgs(c, fn)
	for i, p := range params {
		bound[p] = from[i]
	}
	if first := args.PositionalNames()[0]; receiverShift(c, first) == 1 {
		if recv := dotted(c.Func.(*ast.Attribute).Value); recv != "" {
			bound[first] = recv
		}
	}
	if len(bound) == 0 {
		return
	}
	var origin ast.Node
	if len(l.hostTests) > 0 {
		origin = l.hostTests[len(l.hostTests)-1]
	} else if len(l.hostAnswerTests) > 0 {
		// `if config.MODEL.RESUME: load_checkpoint(config)` with the
		// path found in this host's listing (HiViT's auto-resume).
		origin = l.hostAnswerTests[len(l.hostAnswerTests)-1]
	}
	sameFile := fn.Pos.Path == l.path
	// callerKey maps the function's `p.attr` to the caller's path for it.
	callerKey := func(e ast.Expr) string {
		a, ok := e.(*ast.Attribute)
		if !ok {
			return ""
		}
		d := dotted(a)
		p, rest, ok := strings.Cut(d, ".")
		if !ok || bound[p] == "" {
			return ""
		}
		return bound[p] + "." + rest
	}
	// hostVals: the helper's own names and paths bound where a host test
	// holds or from this host's listing (`checkpoint = torch.load(p)`
	// under `if os.path.isfile(p):`, `latest = max(latest, n)` in a loop
	// over glob(…), `args.resume = …` under `if latest >= 0:`): a later
	// test of one asks this host too (MixMIM's `if checkpoint is None:
	// return`, EVA-02's `if args.resume:`).
	hostVals := map[string]ast.Node{}
	// hostTest reports a test of the function that asks this host: a
	// file check of its own, a value it bound from one, or an attribute
	// the caller holds from one.
	hostTest := func(test ast.Expr) (bool, ast.Node) {
		if l.directFsProbe(test) {
			if sameFile {
				return true, test
			}
			return true, c
		}
		var from ast.Node
		ast.Inspect(test, func(n ast.Node) bool {
			if from != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.Name, *ast.Attribute:
				if h := hostVals[dotted(n.(ast.Expr))]; h != nil {
					from = h
					return false
				}
			}
			return true
		})
		if from != nil {
			return true, from
		}
		found := false
		var at ast.Node
		ast.Inspect(test, func(n ast.Node) bool {
			if found {
				return false
			}
			if a, ok := n.(*ast.Attribute); ok {
				if k := callerKey(a); k != "" && l.fsVars[k] {
					found, at = true, l.fsOrigin[k]
					return false
				}
			}
			return true
		})
		if at == nil {
			at = c
		}
		return found, at
	}
	// loaded: the helper's locals holding a whole stored object
	// (`checkpoint = torch.load(p)`).
	loaded := map[string]bool{}
	// storedLocals: the helper's locals bound to such a position where
	// a host test holds (`latest_step = int(f.read())`, then, after the
	// if, `args.start_epoch = latest_step`).
	storedLocals := map[string]bool{}
	stored := func(v ast.Expr) bool {
		if storedScalar(v) {
			return true
		}
		if n, ok := v.(*ast.Name); ok && storedLocals[n.Id] {
			return true
		}
		x, ok := v.(*ast.Subscript)
		if !ok {
			return false
		}
		n, ok := x.Value.(*ast.Name)
		return ok && loaded[n.Id]
	}
	mark := func(k string, host ast.Node) {
		markVar(&l.fsCounts, k, true)
		l.noteFsOrigin(k, host)
	}
	var walk func(stmts []ast.Stmt, host ast.Node)
	walk = func(stmts []ast.Stmt, host ast.Node) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.Assign:
				if len(s.Targets) == 1 {
					if n, ok := s.Targets[0].(*ast.Name); ok {
						markVar(&loaded, n.Id, l.loadsStored(s.Value))
					}
				}
				if host != nil && !isNone(s.Value) {
					for _, t := range s.Targets {
						if d := dotted(t); d != "" {
							hostVals[d] = host
						}
					}
				} else if host == nil && l.listing(s.Value) {
					// ckpts = sorted(glob(…)): `if not ckpts: return`
					// then asks this host (OSTrack's load_checkpoint).
					at := ast.Node(s.Value)
					if !sameFile {
						at = c
					}
					for _, t := range s.Targets {
						if d := dotted(t); d != "" {
							hostVals[d] = at
						}
					}
				}
				if host == nil || !stored(s.Value) {
					continue
				}
				for _, t := range s.Targets {
					if n, ok := t.(*ast.Name); ok {
						storedLocals[n.Id] = true
					}
					if k := callerKey(dictAttr(t)); k != "" {
						mark(k, host)
					} else if x, ok := t.(*ast.Subscript); ok {
						// run_variables[name] = checkpoint[name]: the
						// dict the caller passed holds the position
						// (DINO's restart_from_checkpoint).
						if n, ok := x.Value.(*ast.Name); ok && bound[n.Id] != "" {
							mark(bound[n.Id], host)
						}
					}
				}
			case *ast.If:
				arm := host
				ok, at := hostTest(s.Test)
				if ok && arm == nil {
					arm = at
				}
				walk(s.Body, arm)
				walk(s.Orelse, arm)
				if ok && host == nil && (len(s.Orelse) == 0 && exits(s.Body) || len(s.Orelse) > 0 && exits(s.Orelse) && !exits(s.Body)) {
					// `if not os.path.isfile(p): return` (or `if
					// os.path.isfile(p): … else: return`): what follows
					// runs only where this host found the file.
					host = at
				}
			case *ast.For:
				if host == nil && l.listing(s.Iter) {
					// for ckpt in glob(…): what the body computes from
					// the names is this host's.
					at := ast.Node(s.Iter)
					if !sameFile {
						at = c
					}
					walk(s.Body, at)
					continue
				}
				walk(s.Body, host)
			case *ast.While:
				walk(s.Body, host)
			case *ast.With:
				walk(s.Body, host)
			case *ast.Try:
				walk(s.Body, host)
				for _, h := range s.Handlers {
					walk(h.Body, host)
				}
				walk(s.Orelse, host)
				walk(s.Finalbody, host)
			}
		}
	}
	walk(body, origin)
}

// WebDataset split by node (and Hugging Face's split_dataset_by_node).
//
// A WebDataset whose shards are split between nodes (nodesplitter=
// wds.split_by_node, or split_by_node in a DataPipeline) gives each rank
// the samples of its own shards: ranks whose shards hold more samples run
// more batches, so a loop over it whose passes communicate (DDP's
// backward, a per-batch all_reduce) runs a different number of times on
// each rank, and the rank with more data waits at the end of the epoch
// (vqgan-training's trainer). WebDataset's answer is a fixed epoch length
// (.with_epoch(n)) or resampled shards (resampled=True), which make every
// rank's count the same.

// nodeSplitData reports an expression that makes a WebDataset (or a
// loader over one) split between nodes with no fixed epoch length.
func (l *lowerer) nodeSplitData(e ast.Expr) bool {
	split, fixed, hf := false, false, false
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.Name:
			split = split || l.nodeSplitVars[x.Id]
		case *ast.IfExp:
			walk(x.Body) // dataset.shuffle(1000) if do_shuffle else dataset
			walk(x.Orelse)
		case *ast.Call:
			if _, fn := l.callee(x); fn != nil && fn != l.fn && l.returnsNodeSplit(fn) {
				split = true // create_dataloader(url, …) that builds one
			}
			if lastDotted(x.Func) == "split_dataset_by_node" && len(x.Args) > 0 {
				// Hugging Face's split_dataset_by_node: a streaming
				// dataset's shards (or every world_size-th example), a
				// map-style one's contiguous slice, none evened out.
				split, hf = true, true
				walk(x.Args[0])
			}
			if a, ok := x.Func.(*ast.Attribute); ok {
				switch a.Attr {
				case "with_epoch", "with_length":
					fixed = true
				case "repeat":
					// repeat() and repeat(nbatches=n) set the length;
					// repeat(1) or repeat(nepochs=2) only pass over each
					// node's shards that many times.
					fixed = fixed || endlessRepeat(x)
				case "take":
					// split_dataset_by_node(ds, …).take(n): n examples
					// on every rank (a take before the split is cut
					// unevenly with the rest).
					before := split
					walk(a.Value)
					fixed = fixed || split && !before && hf
				}
				if a.Attr != "take" {
					walk(a.Value)
				}
			} else if n, ok := x.Func.(*ast.Name); ok {
				walk(n) // dataset_cls(url) of partial(wds.WebDataset, nodesplitter=…)
			}
			for _, k := range x.Keywords {
				switch k.Arg {
				case "nodesplitter":
					split = split || strings.HasSuffix(l.text(k.Value), "split_by_node")
				case "resampled":
					fixed = fixed || !isFalse(k.Value)
				}
			}
			for _, a := range x.Args {
				if strings.HasSuffix(l.text(a), "split_by_node") {
					split = true // wds.DataPipeline(…, wds.split_by_node, …)
				}
				if c, ok := a.(*ast.Call); ok && strings.HasSuffix(lastDotted(c.Func), "ResampledShards") {
					fixed = true
				}
			}
			if len(x.Args) > 0 && loaderOver[lastDotted(x.Func)] {
				walk(x.Args[0]) // WebLoader(dataset, …), DataLoader(dataset, …)
			}
		}
	}
	walk(e)
	return split && !fixed && (hf || l.src.mentions(ast.Pos{}, "webdataset") || l.src.mentions(ast.Pos{}, "split_dataset_by_node"))
}

// endlessRepeat reports a WebDataset repeat call that fixes the number of
// batches: no epoch count (or None), or an explicit batch count.
func endlessRepeat(c *ast.Call) bool {
	for _, k := range c.Keywords {
		switch k.Arg {
		case "nbatches":
			return !isNone(k.Value)
		case "nepochs":
			return isNone(k.Value)
		}
	}
	return len(c.Args) == 0 || isNone(c.Args[0])
}

// loaderOver are loaders whose first argument is the dataset they batch.
var loaderOver = map[string]bool{"WebLoader": true, "DataLoader": true}

// returnsNodeSplit reports a program function that returns a WebDataset
// split between nodes, or a loader over one, with no fixed epoch length
// (vqgan-training's create_dataloader).
func (l *lowerer) returnsNodeSplit(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().nodeSplitRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok || !l.memo().splitsByNode(l.r.Prog()) {
			return false
		}
		sub := *l
		sub.fn, sub.nodeSplitVars = fn, map[string]bool{}
		found := false
		walkBindings(body, func(t, v ast.Expr, _ *ast.Call, i int) {
			if n, ok := t.(*ast.Name); ok && i < 0 {
				markVar(&sub.nodeSplitVars, n.Id, sub.nodeSplitData(v))
			}
		}, func(r *ast.Return) {
			found = found || r.Value != nil && sub.nodeSplitData(r.Value)
		})
		return found
	})
}

// returnsRankShare reports a program function that returns a collection
// whose length depends on the rank (`rank, world = dist.get_rank(),
// dist.get_world_size()` … `return [i for i in range(n) if i % world ==
// rank]`, OpenTau's per-rank task list): a loop over what it returns runs
// a different number of passes on each rank.
func (l *lowerer) returnsRankShare(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().rankShareRets, fn, func() bool { return l.rankShareReturned(fn, nil) })
}

// returnsRankShareAt is returnsRankShare for the call c of fn, whose
// parameters that c hands the rank (`run_episodes(eps, rank, world)`) are
// the rank inside.
func (l *lowerer) returnsRankShareAt(c *ast.Call, fn *rules.Function) bool {
	if l.returnsRankShare(fn) {
		return true
	}
	_, args, ok := l.defOf(fn)
	if !ok {
		return false
	}
	params, positional := paramsOf(args)
	var ranked []string
	for i, p := range params {
		if a := paramArgument(c, params, positional, i); a != nil && l.isRank(a) {
			ranked = append(ranked, p)
		}
	}
	if len(ranked) == 0 {
		return false
	}
	key := fsAtKey{fn: fn, unset: strings.Join(ranked, ",")}
	if v, ok := l.memo().rankShareAt.Load(key); ok {
		return v.(bool)
	}
	l.memo().rankShareAt.Store(key, false) // recursion: not (yet)
	v := l.rankShareReturned(fn, ranked)
	l.memo().rankShareAt.Store(key, v)
	return v
}

// rankShareReturned computes returnsRankShare with the parameters ranked
// holding the rank.
func (l *lowerer) rankShareReturned(fn *rules.Function, ranked []string) bool {
	{
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		// Judged in a lowerer of its own: the caller's rank locals mean
		// nothing in the callee.
		sub := *l
		sub.fn, sub.rankVars, sub.rankDefs, sub.rankObjects, sub.nodeSplitVars, sub.rankLens = fn, map[string]bool{}, map[string]ast.Expr{}, nil, nil, nil
		for _, p := range ranked {
			sub.rankVars[p] = true
		}
		found := false
		walkBindings(body, func(t, v ast.Expr, from *ast.Call, i int) {
			n, ok := t.(*ast.Name)
			if !ok {
				return
			}
			delete(sub.rankVars, n.Id)
			delete(sub.rankDefs, n.Id)
			switch {
			case v != nil && sub.isRank(v), from != nil && sub.unpackedRankElements(from)[i]:
				sub.rankVars[n.Id] = true
			case v != nil && sub.rankCount(v, 0):
				sub.rankDefs[n.Id] = v
			}
		}, func(r *ast.Return) {
			found = found || r.Value != nil && sub.rankCount(r.Value, 0)
		})
		if !found {
			// A container a loop over the rank's share fills, returned
			// (`for ep in episodes[rank::world]: success[env] = …`, then
			// `return success`).
			ast.InspectBody(body, func(n ast.Node) bool {
				if f, ok := n.(*ast.For); ok && sub.rankCount(f.Iter, 0) {
					sub.rankAppends(f.Target, f.Iter, f.Body, false)
				}
				return true
			})
			ast.InspectBody(body, func(n ast.Node) bool {
				if r, ok := n.(*ast.Return); ok {
					if nm, ok := r.Value.(*ast.Name); ok && sub.rankLens[nm.Id] {
						found = true
					}
				}
				return !found
			})
		}
		return found
	}
}

// rangeLike are array constructors that count like range().
var rangeLike = map[string]bool{"numpy.arange": true, "torch.arange": true}

// Counters of the data a metric object was handed. A metric class that
// sums what its update() is given (`self.total += values.numel()`) and
// whose compute() returns early when the count is 0, before it gathers
// the sums across ranks, leaves the gather to the ranks that saw data: a
// rank whose evaluation shard was empty returns while the others wait
// (MaskGR's LocalMeanMetric). The count is this rank's own.

// counterMethods are the names metric classes give the method that takes
// a batch's values.
var counterMethods = []string{"update", "add", "add_batch", "accumulate", "update_state", "__call__", "forward", "append"}

// dataCounterTest reports a test that this instance's data counter is
// empty (`self.total == 0`, `not self.count`, `self.n < 1`), where
// another method of its class adds an amount of what it is handed to the
// counter (dataCounters).
func (l *lowerer) dataCounterTest(test ast.Expr) bool {
	var attr *ast.Attribute
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			attr, _ = t.Operand.(*ast.Attribute)
		}
	case *ast.Compare:
		if len(t.Ops) == 1 && len(t.Comparators) == 1 {
			if k, ok := t.Comparators[0].(*ast.Constant); ok && k.Type == ast.ConstInt &&
				(t.Ops[0] == ast.Eq && k.Int == 0 || t.Ops[0] == ast.LtE && k.Int == 0 || t.Ops[0] == ast.Lt && k.Int == 1) {
				attr, _ = t.Left.(*ast.Attribute)
			}
		}
	}
	if attr == nil {
		return false
	}
	self, ok := attr.Value.(*ast.Name)
	if !ok {
		return false
	}
	_, args, _, isDef := defParts(l.node)
	if !isDef || args == nil || len(args.Positional()) == 0 || args.Positional()[0].Arg != self.Id {
		return false
	}
	return l.dataCounters()[attr.Attr]
}

// dataCounters returns the attributes that a counterMethods method of
// this method's class (not the method itself) increments by an amount of
// one of its parameters: `self.total += values.numel()`, `+= len(x)`,
// `+= x.size(0)`, `+= x.shape[0]`.
func (l *lowerer) dataCounters() map[string]bool {
	md, ok := l.r.(MethodDefiner)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, name := range counterMethods {
		m, ok := md.MethodDef(l.fn, name).(*ast.FunctionDef)
		if !ok || ast.Node(m) == l.node || m.Args == nil || len(m.Args.Positional()) < 2 {
			continue
		}
		self := m.Args.Positional()[0].Arg
		params := map[string]bool{}
		for _, p := range m.Args.Positional()[1:] {
			params[p.Arg] = true
		}
		ast.InspectBody(m.Body, func(n ast.Node) bool {
			a, ok := n.(*ast.AugAssign)
			if !ok || a.Op != ast.Add {
				return true
			}
			t, ok := a.Target.(*ast.Attribute)
			if !ok || !isName(t.Value, self) {
				return true
			}
			if amountOf(a.Value, params) {
				out[t.Attr] = true
			}
			return true
		})
	}
	return out
}

// amountOf reports an amount of one of params: its numel(), len(), size
// or first dimension.
func amountOf(e ast.Expr, params map[string]bool) bool {
	root := func(x ast.Expr) bool {
		for {
			switch v := x.(type) {
			case *ast.Name:
				return params[v.Id]
			case *ast.Attribute:
				x = v.Value
			case *ast.Subscript:
				x = v.Value
			case *ast.Call:
				a, ok := v.Func.(*ast.Attribute)
				if !ok {
					return false
				}
				x = a.Value
			default:
				return false
			}
		}
	}
	switch v := e.(type) {
	case *ast.Call:
		if a, ok := v.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "numel", "nelement", "size", "__len__":
				return root(a.Value)
			}
		}
		if lastDotted(v.Func) == "len" && len(v.Args) == 1 {
			return root(v.Args[0])
		}
	case *ast.Subscript:
		if a, ok := v.Value.(*ast.Attribute); ok && a.Attr == "shape" {
			return root(a.Value)
		}
	}
	return false
}
