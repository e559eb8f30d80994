package flow

import (
	"maps"
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Taints across an if's arms. Each arm starts from the taints the walk
// had before the if, and after it a name holds a host's answer (a clock
// reading, a random draw) if it does at the end of some arm that reaches
// the code after the if. Without this, an arm that rebinds a tainted
// name to a plain value (`if args.real_data: resume_from_epoch = 0`)
// cleared the taint for the path that skipped the arm too (RoboFlamingo's
// resume epoch, found by a glob on this host, still bounds the epoch loop
// when real_data is False), and what the then arm tainted leaked into
// the else arm.

// taintMaps are the lowerer's maps whose entries say "this name holds a
// host's answer" (or a clock reading, a random draw, or a value computed
// from this rank's own forward: `if distributed: loss = model(x)` / `else:
// loss = model.forward_seq_coord(x)` leaves loss this rank's own on the
// distributed path, flowprogen's NaN skip).
func (l *lowerer) taintMaps() []*map[string]bool {
	return []*map[string]bool{&l.fsVars, &l.fsCounts, &l.fsLists, &l.timeVars, &l.randVars, &l.localVars}
}

// taints is a copy of the taint maps at one point of the walk, and of
// notNone, whose entries hold only where every path agrees.
type taints struct {
	maps    []map[string]bool
	notNone map[string]bool
}

func (l *lowerer) saveTaints() taints {
	ms := l.taintMaps()
	out := taints{maps: make([]map[string]bool, len(ms)), notNone: maps.Clone(l.notNone)}
	for i, m := range ms {
		out.maps[i] = maps.Clone(*m)
	}
	return out
}

// restoreTaints makes t the walk's taints (copies: the walk goes on
// marking them).
func (l *lowerer) restoreTaints(t taints) {
	for i, m := range l.taintMaps() {
		*m = maps.Clone(t.maps[i])
	}
	l.notNone = maps.Clone(t.notNone)
}

// unionTaints adds t to the walk's taints; a name stays never-None only
// where t says so too.
func (l *lowerer) unionTaints(t taints) {
	for i, m := range l.taintMaps() {
		for k := range t.maps[i] {
			markVar(m, k, true)
		}
	}
	for k := range l.notNone {
		if !t.notNone[k] {
			delete(l.notNone, k)
		}
	}
}

// mergeArmTaints sets the taints after an if from those at the end of
// its then arm (then, which exits when thenExits) and those the walk
// has at the end of its else arm (elseExits).
func (l *lowerer) mergeArmTaints(s *ast.If, then taints, thenExits, elseExits bool) {
	ok, thenSingle := l.singleProcessArm(s.Test)
	if !ok {
		// `if comm != MPI.COMM_SELF: gen = comm.bcast(gen, root=0)`: on
		// the other arm the communicator holds this process alone
		// (propulate's single-rank workers), whose answer its own
		// collectives share with nobody. (Only the taints: the ops of
		// such an arm may still use another group.)
		ok, thenSingle = commSelfTest(s.Test)
	}
	if ok {
		// `if is_distributed: flag = broadcast(flag)`: the other arm is
		// one process, which disagrees with nobody; the distributed
		// arm's taints are the ones that matter.
		if !thenSingle {
			l.restoreTaints(then)
		}
		return
	}
	switch {
	case thenExits && !elseExits:
		// Only the else arm reaches the code after the if.
	case elseExits && !thenExits:
		l.restoreTaints(then)
	default:
		filled := noneFilled(s)
		alike := l.noneAlikeAfter(s, then)
		l.unionTaints(then)
		// `if x is None: x = f"{stem}.pth"`: on the other path the test
		// said x is not None, so x is never None after the if (LiteGen's
		// EMA path).
		if filled != "" && then.notNone[filled] {
			markVar(&l.notNone, filled, true)
		}
		for _, x := range alike {
			markVar(&l.notNone, x, true)
		}
	}
}

// noneAlikeAfter returns the names that one arm of s leaves never None
// and the other leaves as no host's answer, where every rank takes the
// same arm: whether such a name is None after the if is then the same on
// every rank, though it may be on some paths (`if load_from is None and
// self.auto_resume: load_from = f"{stem}.ema.pth"`, LiteGen's EMA path
// behind its auto-resume flag). (notNone's one use, neverNoneTest, asks
// only that.) The walk's maps hold the else arm's end; then the then
// arm's.
func (l *lowerer) noneAlikeAfter(s *ast.If, then taints) []string {
	tainted := func(ms []map[string]bool, x string) bool {
		for _, m := range ms {
			if m[x] {
				return true
			}
		}
		return false
	}
	var elseMaps []map[string]bool
	for _, m := range l.taintMaps() {
		elseMaps = append(elseMaps, *m)
	}
	var out []string
	consider := func(x string, otherMaps []map[string]bool) {
		if !tainted(otherMaps, x) && !l.rankVars[x] && !l.localVars[x] {
			out = append(out, x)
		}
	}
	for x := range then.notNone {
		if !l.notNone[x] {
			consider(x, elseMaps)
		}
	}
	for x := range l.notNone {
		if !then.notNone[x] {
			consider(x, then.maps)
		}
	}
	if len(out) == 0 {
		return nil
	}
	if _, differs := l.divergence(s.Test); differs {
		return nil // the ranks may take different arms
	}
	slices.Sort(out)
	return out
}

// noneFilled returns x for `if x is None:` whose else arm (if any) does
// not bind x: on the path that skips the then arm, x is not None.
func noneFilled(s *ast.If) string {
	c, ok := s.Test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Is || !isNone(c.Comparators[0]) {
		return ""
	}
	n, ok := c.Left.(*ast.Name)
	if !ok {
		return ""
	}
	bound := false
	for _, st := range s.Orelse {
		ast.Inspect(st, func(x ast.Node) bool {
			if nm, ok := x.(*ast.Name); ok && nm.Id == n.Id && nm.Ctx != ast.Load {
				bound = true
			}
			return !bound
		})
	}
	if bound {
		return ""
	}
	return n.Id
}

// singleProcessArm reports an if one of whose arms runs only in a
// single-process job (`if dist.is_initialized():`, `if world_size > 1:`,
// `if args.distributed:`, `if local_rank != -1:`, and their negations);
// thenSingle says which.
func (l *lowerer) singleProcessArm(test ast.Expr) (ok, thenSingle bool) {
	if ok, single := l.distributedTest(test); ok {
		return true, single
	}
	if singleProcess(test) || launchedTest(test, ast.Eq) {
		return true, true
	}
	if multiWorld(test) || distributedFlag(test) || launchedTest(test, ast.NotEq) {
		return true, false
	}
	if b, isBool := test.(*ast.BoolOp); isBool && b.Op == ast.And {
		// `local_rank == -1 and args.evaluate_during_training`: the
		// then arm needs every conjunct, one of which is a single process.
		for _, v := range b.Values {
			if ok, single := l.singleProcessArm(v); ok && single {
				return true, true
			}
		}
	}
	return false, false
}

// commSelfTest takes apart a comparison of a communicator with mpi4py's
// COMM_SELF: self is true for `c == MPI.COMM_SELF`, `c is MPI.COMM_SELF`
// (eq true) and their negations (eq false).
func commSelfTest(test ast.Expr) (self, eq bool) {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return false, false
	}
	isSelf := func(e ast.Expr) bool { return strings.HasSuffix(dotted(e), "COMM_SELF") }
	if !isSelf(c.Left) && !isSelf(c.Comparators[0]) {
		return false, false
	}
	switch c.Ops[0] {
	case ast.Eq, ast.Is:
		return true, true
	case ast.NotEq, ast.IsNot:
		return true, false
	}
	return false, false
}

// launchedTest reports `rank != -1` (op NotEq: the job was launched
// distributed) or `rank == -1` (op Eq: it was not), for a name ending in
// rank (RANK, local_rank).
func launchedTest(test ast.Expr, op ast.CmpOp) bool {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != op || !isMinusOne(c.Comparators[0]) {
		return false
	}
	d := dotted(c.Left)
	return d != "" && strings.Contains(strings.ToLower(lastName(d)), "rank")
}

// isBoolConst reports a True or False literal.
func isBoolConst(e ast.Expr) bool {
	k, ok := e.(*ast.Constant)
	return ok && k.Type == ast.ConstBool
}

// mayIssueNothing reports an elif chain (an else arm that is one if) on
// tests every rank answers alike (a flag of the configuration) that
// ends without an else and some of whose arms communicate: on the path
// that falls through it, nothing is issued. A chain whose tests ask
// whether the job is distributed falls through only in a single
// process, and does not count.
func (l *lowerer) mayIssueNothing(orelse []ast.Stmt) bool {
	if len(orelse) != 1 {
		return false
	}
	s, ok := orelse[0].(*ast.If)
	if !ok {
		return false
	}
	if ok, _ := l.singleProcessArm(s.Test); ok {
		return false
	}
	if div, diverges := l.divergence(s.Test); diverges {
		// An elif on the rank itself splits the ranks on its own terms.
		// One on another file check of this host (`if save.exists():
		// barrier()` / `elif quit.exists(): barrier()`, qlora-pipe) is
		// answered no on a host that sees neither file, which then
		// issues nothing.
		return div == rules.HostCheck && len(s.Orelse) == 0 && len(l.ops(s.Body)) > 0
	}
	if len(s.Orelse) == 0 {
		return len(l.ops(s.Body)) > 0
	}
	return l.mayIssueNothing(s.Orelse)
}

// sameGatedArms reports a rank test whose else arm issues what its then
// arm does under the same conditions: both gate their collectives by the
// same tests every rank answers alike (`if rank == 0: if i % k == 0:
// barrier()` / `else: if i % k == 0: barrier()`), or the else is an elif
// on a flag the then arm's own test also requires (disttgl's `if
// args.partial_eval and rank == 0: …` / `elif args.partial_eval: …`),
// so the ranks that skip one arm's collectives skip the other's alike.
func (l *lowerer) sameGatedArms(s *ast.If) bool {
	then, ok := l.gatedShape(s.Body)
	if !ok || then == "" {
		return false
	}
	if els, ok := l.gatedShape(s.Orelse); ok && els == then {
		return true
	}
	if len(s.Orelse) != 1 {
		return false
	}
	e, isIf := s.Orelse[0].(*ast.If)
	b, isAnd := s.Test.(*ast.BoolOp)
	if !isIf || len(e.Orelse) != 0 || !isAnd || b.Op != ast.And {
		return false
	}
	if !slices.ContainsFunc(b.Values, func(v ast.Expr) bool { return l.text(v) == l.text(e.Test) }) {
		return false
	}
	els, ok := l.gatedShape(e.Body)
	return ok && els == then
}

// gatedShape writes the collectives stmts issue with the tests that gate
// them (`if(i % k == 0){barrier@WORLD}`); ok is false when a test splits
// the ranks itself.
func (l *lowerer) gatedShape(stmts []ast.Stmt) (string, bool) {
	var sb strings.Builder
	for _, st := range stmts {
		if i, isIf := st.(*ast.If); isIf {
			body, ok1 := l.gatedShape(i.Body)
			els, ok2 := l.gatedShape(i.Orelse)
			if !ok1 || !ok2 {
				return "", false
			}
			if body == "" && els == "" {
				continue // gates no collective
			}
			if _, diverges := l.divergence(i.Test); diverges {
				return "", false
			}
			sb.WriteString("if(" + l.text(i.Test) + "){" + body + "}else{" + els + "}")
			continue
		}
		for _, o := range l.nodeOps(st) {
			sb.WriteString(o.Op + "@")
			if o.Group != nil {
				sb.WriteString(o.Group.ID)
			}
			sb.WriteString(";")
		}
	}
	return sb.String(), true
}
