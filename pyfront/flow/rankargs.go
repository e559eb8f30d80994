package flow

import (
	"maps"
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Ranks handed to helpers.
//
// `rank = dist.get_rank(); save(model, rank)` makes save's parameter a
// rank: a condition on it inside save splits the ranks as the caller's
// would. RankArguments reads one function for such calls before the
// flow pass proper, so that the callee, lowered in any order, starts
// with its rank parameters known (RankParamer).

// rankWords are the lower-case fragments of the names every rank source
// of the API tables uses (get_rank, LOCAL_RANK, is_main_process,
// is_global_zero, process_index, is_world_process_zero).
var rankWords = []string{"rank", "main_process", "global_zero", "process_index", "process_zero"}

// RankArguments returns, for each program function that fn calls, the
// parameters to which fn passes a rank-dependent value. seed names fn's
// own parameters already known to hold a rank. The reading is
// flow-insensitive within fn: a variable assigned a rank value anywhere
// before the call counts. A parameter that receives an object only some
// ranks hold (`eval_fn = None`, then `if rank == 0: def eval_fn(m): …`,
// passed on: Primus-DLRM's trainer) is returned as HeldParam(name).
func RankArguments(fn *rules.Function, node ast.Node, r Resolver, seed []string) map[*rules.Function][]string {
	fd, ok := r.(FuncDefiner)
	if fn == nil || node == nil || !ok {
		return nil
	}
	body, l := bodyLowerer(fn, node, r)
	if l == nil {
		return nil
	}
	// Most functions never touch a rank: a look at the text spares them
	// the walk (a function with rank parameters is walked regardless).
	// (File checks: its own, or a helper's position it binds.)
	fsHere := l.src.mentionsAny(node.Span(), fsWords) || l.bindsFsCountCall(body)
	if len(seed) == 0 && !l.src.mentionsAny(node.Span(), rankWords) && !l.anyRootedSites() && !fsHere {
		return nil
	}
	for _, p := range seed {
		if rankParam(p) {
			l.rankVars[p] = true
		}
	}
	for _, name := range ShiftParams(seed) {
		markVar(&l.shiftVars, name, true)
	}
	l.seedRankAttrs(fn, node)
	l.heldLocals = heldLocals(body, l.isRank)
	// The arms' tests may read rank locals the walk below marks only in
	// order: rankLocalTest finds them here already.
	armTest := func(e ast.Expr) bool {
		return len(l.rankVars) > 0 && l.isRank(e) || l.rankValue(e) || rankLocalTest(body, e, l.rankValue)
	}
	for v := range armConstants(body, armTest) {
		l.rankVars[v] = true // it = 1; if local_rank == 0: it = 5, then Trainer(it)
	}
	if fsHere {
		// Locals bound to a file system check of this host (found =
		// os.path.exists(p)), flow-insensitive as the rest.
		markBound(body, l.fsVars, l.probeAnswer)
		// Positions read from stored data inside such a check (`if
		// len(ckpts) > 0: start_epoch = torch.load(ckpts[-1])["epoch"]`),
		// what is computed from them, until a name is bound again outside
		// the check (to what a broadcast agreed).
		// The names the function's file checks read: a loader the
		// program does not define, handed one of them under a check, reads
		// that host's file (loadsCheckedPath).
		checked := map[string]bool{}
		ast.InspectBody(body, func(n ast.Node) bool {
			if i, ok := n.(*ast.If); ok && l.fsProbe(i.Test) {
				ast.Inspect(i.Test, func(x ast.Node) bool {
					if nm, ok := x.(*ast.Name); ok {
						checked[nm.Id] = true
					}
					return true
				})
			}
			return true
		})
		rankArmStmts(body, true, l.fsProbe, func(st ast.Stmt, underCheck bool) {
			if x, ok := st.(*ast.ExprStmt); ok {
				// dist.broadcast_object_list(decision, src=0): what it
				// fills is rank 0's, the same everywhere.
				if c, ok := x.Value.(*ast.Call); ok {
					if site := l.r.Site(c); site != nil && uniformOps[site.Op] {
						for _, v := range site.Outputs {
							markVar(&l.fsCounts, v, false)
						}
					}
				}
				return
			}
			a, ok := st.(*ast.Assign)
			if !ok || len(a.Targets) != 1 {
				return
			}
			names := ast.SeqElts(a.Targets[0])
			read := underCheck && (l.storedValue(a.Value) || l.loadsFrom(a.Value, checked)) // it, epoch = model.load(ckpt)
			whole := len(names) == 0
			if whole {
				names = []ast.Expr{a.Targets[0]}
				read = underCheck && (l.storedValue(a.Value) || l.pathPosition(a.Value) || l.loadsFrom(a.Value, checked))
			}
			// (Also a helper's position, `start_epoch =
			// self.load_ckpt(model, ckpt)` returning what it read under its
			// own check, handed on to the loop's method: YouReID.)
			on := read || l.fromFsCount(a.Value) || whole && l.fsCountCall(a.Value, -1)
			for i, e := range names {
				if whole {
					i = -1
				}
				n, ok := e.(*ast.Name)
				if !ok || !on && underCheck {
					continue
				}
				if kept, set := l.ownValue(n.Id, a.Value, i); kept {
					// opts = resume(p, opts): what resume sets on it.
					// (Not cleared by a later resume of the object: this
					// reading has no order between arms.)
					for _, attr := range set {
						if on {
							markVar(&l.fsCounts, n.Id+"."+attr, true)
						}
					}
					continue
				}
				markVar(&l.fsCounts, n.Id, on)
			}
		})
	}
	out := map[*rules.Function][]string{}
	add := func(callee *rules.Function, param string) {
		for _, p := range out[callee] {
			if p == param {
				return
			}
		}
		out[callee] = append(out[callee], param)
	}
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			if len(s.Targets) == 1 {
				l.markShifts(s.Targets[0], s.Value)
				switch t := s.Targets[0].(type) {
				case *ast.Name:
					if l.rankValue(s.Value) {
						l.rankVars[t.Id] = true
					}
				case *ast.Attribute:
					// `options.master = rank == 0` on an object the
					// function hands on (CyCLIP's options namespace).
					if _, onName := t.Value.(*ast.Name); onName && l.rankValue(s.Value) {
						l.rankVars[dotted(t)] = true
					}
				}
			}
		}
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Lambda, *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				return false
			case *ast.Call:
				l.rankArguments(n, fd, add)
			}
			return true
		})
		return true
	})
	return out
}

// rankArguments records the parameters of call's program callee that
// receive a rank-dependent argument.
func (l *lowerer) rankArguments(call *ast.Call, fd FuncDefiner, add func(*rules.Function, string)) {
	heldArg := func(e ast.Expr) bool {
		n, ok := e.(*ast.Name)
		return ok && l.heldLocals[n.Id]
	}
	// A host's file system answer handed on (`maybe_load(t,
	// os.path.exists(p))`): a plain check or a local bound to one.
	fsArg := func(e ast.Expr) bool { return l.notDist == 0 && l.probeAnswer(e) }
	// A position read from a checkpoint this host found (`start_epoch =
	// torch.load(ckpt_list[-1])["epoch"]` after a glob), handed to the
	// helper whose loop it bounds (MTR's train_model).
	fsCountArg := func(e ast.Expr) bool {
		n, ok := e.(*ast.Name)
		return ok && l.notDist == 0 && l.fsCounts[n.Id]
	}
	// What an argument can carry, and how the parameter that receives it
	// is listed.
	// A rank value is a ring shift of the own rank or not (ShiftParam).
	shiftArg := func(e ast.Expr) bool { return l.notDist == 0 && l.rankShift(e) }
	otherRankArg := func(e ast.Expr) bool { return l.rankValue(e) && !shiftArg(e) }
	kinds := []struct {
		carries func(ast.Expr) bool
		param   func(string) string
	}{
		{l.rankValue, func(p string) string { return p }},
		{heldArg, HeldParam},
		{fsArg, FsParam},
		{fsCountArg, FsCountParam},
		{shiftArg, ShiftParam},
		{otherRankArg, NoShiftParam},
	}
	positions := make([][]int, len(kinds))
	keywords := make([][]string, len(kinds))
	carried := false
	for k, kind := range kinds {
		for i, a := range call.Args {
			if _, star := a.(*ast.Starred); star {
				break
			}
			if kind.carries(a) {
				positions[k] = append(positions[k], i)
				carried = true
			}
		}
		for _, kw := range call.Keywords {
			if kw.Arg != "" && kind.carries(kw.Value) {
				keywords[k] = append(keywords[k], kw.Arg)
				carried = true
			}
		}
	}
	// An object with rank attributes (`options.master`), handed whole:
	// the parameter that receives it has them too.
	rankAttrsOf := func(e ast.Expr) []string {
		n, ok := e.(*ast.Name)
		if !ok {
			return nil
		}
		var attrs []string
		for v := range l.rankVars {
			if rest, ok := strings.CutPrefix(v, n.Id+"."); ok && !strings.Contains(rest, ".") {
				attrs = append(attrs, rest)
			}
		}
		if l.notDist == 0 {
			// A position one of its attributes holds (`opt.start_epoch`,
			// set by a resume the object went through), marked "#".
			for v := range l.fsCounts {
				if rest, ok := strings.CutPrefix(v, n.Id+"."); ok && !strings.Contains(rest, ".") {
					attrs = append(attrs, "#"+rest)
				}
			}
		}
		slices.Sort(attrs)
		return attrs
	}
	// objParam names the callee's parameter attribute an entry of
	// rankAttrsOf reaches.
	objParam := func(param, a string) string {
		if attr, count := strings.CutPrefix(a, "#"); count {
			return FsCountParam(param + "." + attr)
		}
		return param + "." + a
	}
	objPositions := map[int][]string{}
	objKeywords := map[string][]string{}
	for i, a := range call.Args {
		if _, star := a.(*ast.Starred); star {
			break
		}
		if attrs := rankAttrsOf(a); len(attrs) > 0 {
			objPositions[i] = attrs
			carried = true
		}
	}
	for _, kw := range call.Keywords {
		if attrs := rankAttrsOf(kw.Value); kw.Arg != "" && len(attrs) > 0 {
			objKeywords[kw.Arg] = attrs
			carried = true
		}
	}
	if !carried {
		return
	}
	_, callee := l.r.Callee(call)
	if callee == nil || callee == l.fn {
		return
	}
	_, args, _, ok := defParts(fd.FuncDef(callee))
	if !ok || args == nil {
		return
	}
	positional := args.Positional()
	// obj.method(x), Class(x) running __init__ and obj(x) running
	// __call__: the receiver fills the first parameter.
	shift := 0
	_, isAttr := call.Func.(*ast.Attribute)
	if (isAttr || strings.HasSuffix(callee.Name, ".__init__") || strings.HasSuffix(callee.Name, ".__call__")) && len(positional) > 0 && (positional[0].Arg == "self" || positional[0].Arg == "cls") {
		shift = 1
	}
	for _, i := range slices.Sorted(maps.Keys(objPositions)) {
		if i+shift < len(positional) {
			for _, a := range objPositions[i] {
				add(callee, objParam(positional[i+shift].Arg, a))
			}
		}
	}
	for _, kw := range slices.Sorted(maps.Keys(objKeywords)) {
		for _, p := range append(positional, args.KwOnlyArgs...) {
			if p.Arg == kw {
				for _, a := range objKeywords[kw] {
					add(callee, objParam(kw, a))
				}
			}
		}
	}
	for k, kind := range kinds {
		for _, i := range positions[k] {
			if i+shift < len(positional) {
				add(callee, kind.param(positional[i+shift].Arg))
			}
		}
		for _, kw := range keywords[k] {
			for _, p := range append(positional, args.KwOnlyArgs...) {
				if p.Arg == kw {
					add(callee, kind.param(kw))
				}
			}
		}
	}
}

// bindsFsCountCall reports an assignment in body of what a program
// helper returns as a position read under its own file check
// (`start_epoch = self.load_ckpt(model, ckpt)`): a function whose text
// names no check still hands such a value on.
func (l *lowerer) bindsFsCountCall(body []ast.Stmt) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return false
	}
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok && !found && len(a.Targets) == 1 {
			if _, isName := a.Targets[0].(*ast.Name); isName {
				if c, isCall := a.Value.(*ast.Call); isCall {
					// Only a helper whose own text names a check is asked.
					_, fn := l.callee(c)
					if fn != nil && fn != l.fn && l.namesCheck(fd, fn) {
						found = l.fsCountCall(a.Value, -1)
					}
				}
			}
		}
		return !found
	})
	return found
}

// namesCheck reports a program function whose text names a file system
// check (fsWords).
func (l *lowerer) namesCheck(fd FuncDefiner, fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().namesChecks, fn, func() bool {
		node := fd.FuncDef(fn)
		f := l.r.Prog().File(fn.Pos.Path)
		if node == nil || f == nil {
			return false
		}
		return sourceFor(l.r, f).mentionsAny(node.Span(), fsWords)
	})
}

// probeAnswer reports a file system check's answer itself: a probe call
// (os.path.exists(p), a listing, a program function that returns one),
// a test or negation of one, or a local bound to one (fsVars). A value
// made from the answer (an object built from what the host found) is
// not.
func (l *lowerer) probeAnswer(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Name:
		return l.fsVars[x.Id]
	case *ast.Call:
		ext, fn := l.callee(x)
		if fsProbeCalls[ext] || ext == "" && fsProbeCalls[dotted(x.Func)] || fsListings[ext] {
			return true
		}
		return fn != nil && fn != l.fn && !constructs(x) && l.returnsFsProbeAt(x, fn)
	case *ast.UnaryOp:
		return x.Op == ast.Not && l.probeAnswer(x.Operand)
	case *ast.Compare, *ast.BoolOp:
		return l.fsProbe(e)
	}
	return false
}

// FsParam names a parameter that receives a file system check's answer
// from this host (os.path.exists(p), or a local bound to one), as
// RankArguments lists it beside the parameters that receive the rank.
func FsParam(name string) string { return "!" + name }

// IsFsParam undoes FsParam: the parameter's name, and whether p names such
// a parameter.
func IsFsParam(p string) (string, bool) { return strings.CutPrefix(p, "!") }

// FsCountParam names a parameter that receives a position read from
// stored data this host found (a resumed epoch), as RankArguments lists
// it beside the parameters that receive the rank.
func FsCountParam(name string) string { return "#" + name }

// IsFsCountParam undoes FsCountParam.
func IsFsCountParam(p string) (string, bool) { return strings.CutPrefix(p, "#") }

// ShiftParam names a parameter that receives the own rank moved round
// the ring by a shared offset ((rank + step) % world, rankShift) from a
// caller; NoShiftParam one that receives any other rank value. A
// parameter is a ring shift in the callee only when every caller hands
// it one (ShiftParams). Both are listed beside the parameter's own name,
// which says it holds a rank value either way.
func ShiftParam(name string) string { return "%" + name }

// NoShiftParam: see ShiftParam.
func NoShiftParam(name string) string { return "^" + name }

// ShiftParams returns the parameters of a listing that every caller
// hands a ring shift of its rank.
func ShiftParams(params []string) []string {
	var shifts []string
	for _, p := range params {
		if name, ok := strings.CutPrefix(p, "%"); ok && !slices.Contains(params, NoShiftParam(name)) {
			shifts = append(shifts, name)
		}
	}
	return shifts
}

// shiftMark reports a listing's ShiftParam or NoShiftParam entry, which
// only ShiftParams reads.
func shiftMark(p string) bool { return strings.HasPrefix(p, "%") || strings.HasPrefix(p, "^") }

// rankParam reports a listed parameter that receives the rank itself
// (not a held object, a file system answer, a stored position or the
// ring-shift marks).
func rankParam(p string) bool {
	_, held := IsHeldParam(p)
	_, fs := IsFsParam(p)
	_, count := IsFsCountParam(p)
	return !held && !fs && !count && !shiftMark(p)
}

// fsWords are fragments of the file system checks' names (fsProbe), for a
// look at a function's text before walking it for them.
var fsWords = []string{"exists", "isfile", "isdir", "listdir", "glob", "scandir", "iterdir", "walk", "is_file", "is_dir"}

// HeldParam names a parameter that receives an object only some ranks
// hold (None on the others), as RankArguments and RankParamer list it
// beside the parameters that receive the rank.
func HeldParam(name string) string { return "?" + name }

// IsHeldParam undoes HeldParam: the parameter's name, and whether p names
// a held parameter.
func IsHeldParam(p string) (string, bool) { return strings.CutPrefix(p, "?") }

// rankLocalTest reports a test that reads a local of body bound to a
// rank value (`local_rank == 0` after `local_rank =
// int(os.environ["LOCAL_RANK"])`).
func rankLocalTest(body []ast.Stmt, test ast.Expr, rankValue func(ast.Expr) bool) bool {
	names := map[string]bool{}
	ast.Inspect(test, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			names[nm.Id] = true
		}
		return true
	})
	found := false
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 && !found {
			if n, ok := a.Targets[0].(*ast.Name); ok && names[n.Id] && rankValue(a.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// armConstants returns the locals of body that a rank test's arm binds to
// a constant or to a position loaded from a checkpoint (rankCounter), and
// that are bound elsewhere to constants only (`it = 1`, then `if
// local_rank == 0: it = 5`): after the if they differ between ranks.
// Flow-insensitive, as RankArguments reads.
func armConstants(body []ast.Stmt, isRank func(ast.Expr) bool) map[string]bool {
	inArm, outside, other := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rankArmStmts(body, false, isRank, func(st ast.Stmt, underRank bool) {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			return
		}
		n, ok := a.Targets[0].(*ast.Name)
		if !ok {
			return
		}
		constant := isIntConst(a.Value) || isBoolConst(a.Value)
		switch {
		case underRank && (constant || loadedPosition(a.Value)):
			inArm[n.Id] = true
		case !underRank && constant:
			outside[n.Id] = true
		default:
			other[n.Id] = true
		}
	})
	out := map[string]bool{}
	for v := range inArm {
		if outside[v] && !other[v] {
			out[v] = true
		}
	}
	return out
}

// heldLocals returns the locals of body that hold an object only some
// ranks hold: bound to None and, elsewhere, only inside the arms of a
// rank test (an assignment or a def there), or to `X if <rank test> else
// None`. Flow-insensitive, as RankArguments reads.
func heldLocals(body []ast.Stmt, isRank func(ast.Expr) bool) map[string]bool {
	none, inArm, other := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rankArmStmts(body, false, isRank, func(st ast.Stmt, underRank bool) {
		switch st := st.(type) {
		case *ast.Assign:
			if len(st.Targets) != 1 {
				return
			}
			n, ok := st.Targets[0].(*ast.Name)
			if !ok {
				return
			}
			x, ifExp := st.Value.(*ast.IfExp)
			switch {
			case isNone(st.Value):
				none[n.Id] = true
			case ifExp && (isNone(x.Orelse) || isNone(x.Body)) && isRank(x.Test):
				none[n.Id], inArm[n.Id] = true, true
			case underRank:
				inArm[n.Id] = true
			default:
				other[n.Id] = true
			}
		case *ast.FunctionDef:
			if underRank {
				inArm[st.Name] = true
			} else {
				other[st.Name] = true
			}
		}
	})
	out := map[string]bool{}
	for v := range inArm {
		if none[v] && !other[v] {
			out[v] = true
		}
	}
	return out
}

// rankValue reports whether e is the rank itself or a test of it: a rank
// variable, a rank predicate (dist.get_rank(), trainer.global_rank,
// os.environ["RANK"]), int() of one, or a comparison or negation of one
// (is_main = rank == 0). A value merely computed from the rank — the
// group of this rank, a model chosen by rank — is not: handing it on
// does not make the callee's tests on it rank tests (torch's own
// `if _rank_not_in_group(group): return`).
func (l *lowerer) rankValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Name:
		return l.rankVars[x.Id]
	case *ast.Attribute:
		return l.rankAttr(x)
	case *ast.Subscript:
		return l.envRank(x.Value, x.Slice) || l.rankKey(x)
	case *ast.Call:
		if l.rankCall(x) {
			return true
		}
		if dotted(x.Func) == "int" && len(x.Args) == 1 {
			return l.rankValue(x.Args[0])
		}
	case *ast.Compare:
		// `local_rank != -1`, `local_rank > -1`, `local_rank is None`,
		// `local_rank >= 0` ask whether the job is distributed at all,
		// which every rank answers alike (isRank's exemption; RepCONC's
		// eval_balance(codes, local_rank > -1)).
		for _, c := range x.Comparators {
			if isMinusOne(c) || isNone(c) {
				return false
			}
		}
		if len(x.Ops) == 1 && len(x.Comparators) == 1 && (x.Ops[0] == ast.GtE || x.Ops[0] == ast.Lt) {
			if k, ok := x.Comparators[0].(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
				return false
			}
		}
		if l.rankValue(x.Left) {
			return true
		}
		for _, c := range x.Comparators {
			if l.rankValue(c) {
				return true
			}
		}
	case *ast.UnaryOp:
		return x.Op == ast.Not && l.rankValue(x.Operand)
	case *ast.BinOp:
		// n_layers // pp + int(rank < n_layers % pp): one more layer on
		// the first ranks (terapipe's stage sizes).
		return l.rankValue(x.Left) || l.rankValue(x.Right)
	case *ast.IfExp:
		// start = 5 if rank == 0 else 0: two different constants picked
		// by a rank test (an object chosen so is no rank value; see
		// rankOrNone for one only some ranks hold).
		a, okA := x.Body.(*ast.Constant)
		b, okB := x.Orelse.(*ast.Constant)
		return okA && okB && ast.Dump(a, ast.DumpOptions{}) != ast.Dump(b, ast.DumpOptions{}) && l.rankValue(x.Test)
	}
	return false
}

// RankAttrer is implemented by resolvers that know which attributes of a
// method's instance hold a rank test: `self.is_head = dist.get_rank() == 0`
// in one method makes `if self.is_head:` in another a rank test
// (SelfRankAttrs). RankAttrs returns them for fn's class and its bases.
type RankAttrer interface {
	RankAttrs(fn *rules.Function) []RankAttr
}

// RankAttr is an attribute of a class's instances that its methods
// assign a rank test.
type RankAttr struct {
	Name string
	// UniformIn: the group getters within whose groups every rank
	// answers the test alike, as for the table predicates it is made of
	// (self.tp_head = mpu.get_tensor_model_parallel_rank() == 0 is the
	// same on every rank of a data-parallel group); nil when none.
	UniformIn []string
	// Held: the attribute holds an object on some ranks and None on the
	// others (`self.ckpt_dir = d if rank == 0 else None`, or `if rank !=
	// 0: self.ckpt_dir = None`): a test of whether it is None is the rank
	// test, not the attribute's value (rankObject).
	Held bool
}

// MergeRankAttr adds a to list: an attribute assigned several tests is
// uniform only within the groups all of them are uniform in.
func MergeRankAttr(list []RankAttr, a RankAttr) []RankAttr {
	for i := range list {
		if list[i].Name == a.Name {
			list[i].Held = list[i].Held && a.Held
			var keep []string
			for _, g := range list[i].UniformIn {
				if slices.Contains(a.UniformIn, g) {
					keep = append(keep, g)
				}
			}
			list[i].UniformIn = keep
			return list
		}
	}
	return append(list, a)
}

// SelfRankAttrs returns the attributes of its instance that a method
// assigns the rank itself or a test of it (self.is_head = rank == 0,
// self.dp_rank = mpu.get_data_parallel_rank(), self.head = a == 0 and
// b == 0). seed names the method's parameters known to hold a rank.
func SelfRankAttrs(fn *rules.Function, node ast.Node, r Resolver, seed []string) []RankAttr {
	body, args, _, ok := defParts(node)
	if fn == nil || !ok || args == nil {
		return nil
	}
	pos := args.Positional()
	if len(pos) == 0 {
		return nil
	}
	self := pos[0].Arg
	// An attribute handed to init_process_group as this process's rank
	// (`rank=self.replicate_rank`, scaling_marl's trainer) is the rank,
	// whatever its name.
	var initAttrs []RankAttr
	if f := r.File(); f != nil && sourceFor(r, f).mentions(node.Span(), "init_process_group") {
		initAttrs = initRankAttrs(body, self)
	}
	// Most methods assign no attribute of their instance from anything
	// that could be a rank: a look at the syntax, then at the text, spares
	// them the lowerer.
	stores := false
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		if a, ok := ast.AsAssign(st); ok && len(a.Targets) == 1 {
			if t, ok := a.Targets[0].(*ast.Attribute); ok {
				if n, ok := t.Value.(*ast.Name); ok && n.Id == self {
					switch a.Value.(type) {
					case *ast.Call, *ast.Compare, *ast.BoolOp, *ast.Name, *ast.Attribute, *ast.UnaryOp, *ast.Subscript, *ast.IfExp, *ast.BinOp:
						stores = true
					case *ast.Constant:
						// (InspectStmts goes on to the next statement
						// whatever the callback returns: keep a match.)
						stores = stores || isNone(a.Value)
					}
				}
			}
		}
		switch st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		}
		return !stores
	})
	if !stores {
		return initAttrs
	}
	f := r.File()
	if f == nil || len(seed) == 0 && !sourceFor(r, f).mentionsAny(node.Span(), rankWords) {
		return initAttrs
	}
	l := newLowerer(fn, r)
	if l == nil {
		return initAttrs
	}
	held := map[string]bool{}
	for _, p := range seed {
		if name, ok := IsHeldParam(p); ok {
			held[name] = true
		} else if rankParam(p) {
			l.rankVars[p] = true
		}
	}
	out := initAttrs
	// plain: the attributes this method binds to the rank itself
	// (`self.slot = rank`), which a later test in it reads
	// (`self.last = self.slot == size - 1`, pySDC's controller).
	plain := map[string]bool{}
	readsPlain := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if a, ok := n.(*ast.Attribute); ok && plain[selfAttr(a, self)] {
				found = true
			}
			return !found
		})
		return found
	}
	ast.InspectStmts(body, func(s ast.Stmt) bool {
		if a, ok := ast.AsAssign(s); ok {
			s = a // `self.is_head: bool = rank == 0` binds as `=` does
		}
		switch s := s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			if len(s.Targets) != 1 {
				return true
			}
			switch t := s.Targets[0].(type) {
			case *ast.Name:
				if l.rankValue(s.Value) {
					l.rankVars[t.Id] = true
				}
			case *ast.Attribute:
				// isRank too: `int(os.environ.get("RANK", -1)) != -1` asks
				// whether the job is distributed, which ranks agree on.
				if selfAttr(t, self) == "" {
					break
				}
				if (l.rankTest(s.Value) || l.rankShare(s.Value)) && l.isRank(s.Value) {
					out = MergeRankAttr(out, RankAttr{Name: t.Attr, UniformIn: l.uniformIn(s.Value)})
				} else if derivedRank(s.Value) && (l.rankValue(s.Value) || l.isRank(s.Value)) {
					// `self.lrank = rank // n_hosts`, or another object's
					// such attribute copied (`self.lrank =
					// self.topology.lrank`): a number computed from the
					// rank, different on each node.
					out = MergeRankAttr(out, RankAttr{Name: t.Attr})
				} else if _, isCmp := s.Value.(*ast.Compare); isCmp && len(plain) > 0 && readsPlain(s.Value) {
					out = MergeRankAttr(out, RankAttr{Name: t.Attr})
				}
				if l.rankValue(s.Value) {
					plain[t.Attr] = true
				} else {
					delete(plain, t.Attr)
				}
				// X if rank == 0 else None, or a parameter some callers
				// pass only rank 0's object in (self.eval_fn = eval_fn).
				if v, ok := s.Value.(*ast.Name); l.rankOrNone(s.Value) || ok && held[v.Id] {
					out = MergeRankAttr(out, RankAttr{Name: t.Attr, Held: true})
				}
			}
		case *ast.If:
			// `if rank != 0: self.ckpt_dir = None` (in either arm).
			if l.rankTest(s.Test) && l.isRank(s.Test) {
				for _, arm := range [][]ast.Stmt{s.Body, s.Orelse} {
					for _, st := range arm {
						if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 && isNone(a.Value) {
							if t, ok := a.Targets[0].(*ast.Attribute); ok {
								if n, isName := t.Value.(*ast.Name); isName && n.Id == self {
									out = MergeRankAttr(out, RankAttr{Name: t.Attr, Held: true})
								}
							}
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// derivedRank reports arithmetic (rank // n, rank % n) or an attribute
// read, the shapes a number derived from the rank is stored in.
func derivedRank(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinOp:
		return true
	case *ast.Attribute:
		_, nested := x.Value.(*ast.Attribute)
		return nested
	}
	return false
}

// initRankAttrs returns the attributes of self that body hands to
// init_process_group as the rank.
func initRankAttrs(body []ast.Stmt, self string) []RankAttr {
	var out []RankAttr
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && lastDotted(c.Func) == "init_process_group" {
			for _, k := range c.Keywords {
				if a, ok := k.Value.(*ast.Attribute); ok && k.Arg == "rank" && selfAttr(a, self) != "" {
					out = MergeRankAttr(out, RankAttr{Name: a.Attr})
				}
			}
		}
		return true
	})
	return out
}

// rankShare reports what a program function computes for this rank from
// the rank passed to it (`divide_across_ranks(n, world, dist.get_rank())`,
// this rank's share of the videos): the instance that keeps it holds a
// different value on each rank, and a test of it elsewhere differs too
// (mdt's rollout callback).
func (l *lowerer) rankShare(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok || placement(c) {
		return false
	}
	_, body, ok := l.calleeDef(c)
	if !ok {
		return false
	}
	// A number: every return is arithmetic (a model or a logger made
	// for this rank is no share of anything).
	found, number := false, true
	ast.InspectBody(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok {
			found = true
			_, bare := r.Value.(*ast.Name) // return model: what it names is unknown
			number = number && r.Value != nil && !bare && arithmetic(r.Value)
		}
		return number
	})
	return found && number
}

// arithmetic reports an expression that computes a number from names and
// constants.
func arithmetic(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BinOp:
		return arithmetic(e.Left) && arithmetic(e.Right)
	case *ast.UnaryOp:
		return arithmetic(e.Operand)
	case *ast.IfExp:
		return arithmetic(e.Body) && arithmetic(e.Orelse)
	case *ast.Constant:
		return e.Type == ast.ConstInt || e.Type == ast.ConstFloat
	case *ast.Name:
		return true
	case *ast.Call:
		switch dotted(e.Func) {
		case "int", "min", "max", "round", "len", "math.ceil", "math.floor", "abs":
			for _, a := range e.Args {
				if !arithmetic(a) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// rankTest is rankValue, and also an and/or of tests one of which is
// one.
func (l *lowerer) rankTest(e ast.Expr) bool {
	if b, ok := e.(*ast.BoolOp); ok {
		for _, v := range b.Values {
			if l.rankTest(v) {
				return true
			}
		}
		return false
	}
	return l.rankValue(e)
}

// seedRankAttrs marks the rank attributes of fn's instance (RankAttrer)
// as rank values of the lowerer, under fn's first parameter's name.
func (l *lowerer) seedRankAttrs(fn *rules.Function, node ast.Node) {
	ra, ok := l.r.(RankAttrer)
	if !ok {
		return
	}
	attrs := ra.RankAttrs(fn)
	if len(attrs) == 0 {
		return
	}
	_, args, _, isDef := defParts(node)
	if !isDef || args == nil || len(args.Positional()) == 0 {
		return
	}
	self := args.Positional()[0].Arg
	for _, a := range attrs {
		if a.Held {
			l.setRankObject(self+"."+a.Name, nil, false)
			continue
		}
		l.rankVars[self+"."+a.Name] = true
		if len(a.UniformIn) > 0 {
			if l.uniformAttrs == nil {
				l.uniformAttrs = map[string][]string{}
			}
			l.uniformAttrs[self+"."+a.Name] = a.UniformIn
		}
	}
}

// RankFlagAttrs returns the attributes of its instance that a method sets
// only inside the arm of a rank test of its own: to True or False (`if
// self.rank == 0: … self.skip_first = True`), or to a value (`if
// self.is_main: self.last_saved = self.step`); and the attributes it sets
// to anything but a constant outside such arms. An attribute that one
// method sets on some ranks only differs between ranks wherever another
// method of the class, or a caller of it, tests it (pyGraphZero's coach
// skips its first self-play gather on rank 0 only, after loading the
// examples there; a trainer that records its last save step on rank 0
// saves again at the end on the others): the model makes such
// attributes rank attributes of the class unless some method computes
// them for every rank.
func RankFlagAttrs(fn *rules.Function, node ast.Node, r Resolver) (flags, computed []string) {
	body, args, _, ok := defParts(node)
	if fn == nil || !ok || args == nil || len(args.Positional()) == 0 {
		return nil, nil
	}
	self := args.Positional()[0].Arg
	candidate := false
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			for _, t := range st.Targets {
				attr := selfAttr(t, self)
				if attr == "" {
					continue
				}
				if !constantLike(st.Value) {
					computed = append(computed, attr)
				}
			}
		case *ast.If:
			ast.InspectStmts(st.Body, func(in ast.Stmt) bool {
				if as, ok := in.(*ast.Assign); ok && len(as.Targets) == 1 && selfAttr(as.Targets[0], self) != "" && !isNone(as.Value) {
					candidate = true
				}
				return !candidate
			})
		}
		return true
	})
	f := r.File()
	if !candidate || f == nil || !sourceFor(r, f).mentionsAny(node.Span(), rankWords) {
		return nil, computed
	}
	l := newLowerer(fn, r)
	if l == nil {
		return nil, computed
	}
	flags, values, outside := l.rankSetAttrs(fn)
	return slices.Compact(slices.Sorted(slices.Values(append(flags, values...)))), outside
}

// constantLike reports a value that is the same on every rank whatever
// ran before: a literal, a negated one, an empty display, or
// float("inf") — what a constructor starts a tracked value at.
func constantLike(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant:
		return true
	case *ast.UnaryOp:
		_, ok := e.Operand.(*ast.Constant)
		return ok
	case *ast.List:
		return len(e.Elts) == 0
	case *ast.Dict:
		return len(e.Keys) == 0
	case *ast.Call:
		f, ok := e.Func.(*ast.Name)
		if !ok || f.Id != "float" || len(e.Args) != 1 || len(e.Keywords) > 0 {
			return false
		}
		k, ok := e.Args[0].(*ast.Constant)
		return ok && k.Type == ast.ConstStr
	}
	return false
}

// bodyLowerer returns the statements of a function's (or module's) body
// and a lowerer for fn, for the flow-insensitive reads above; a nil
// lowerer when node is neither.
func bodyLowerer(fn *rules.Function, node ast.Node, r Resolver) ([]ast.Stmt, *lowerer) {
	body, _, _, isDef := defParts(node)
	if m, isMod := node.(*ast.Module); isMod {
		body = m.Body
	} else if !isDef {
		return nil, nil
	}
	return body, newLowerer(fn, r)
}

// RankExprsIn reports, for each of exprs (expressions of fn's body,
// node), whether it holds the rank or a test of it: directly, or through
// a local fn binds to one anywhere in its body (flow-insensitive, as
// RankArguments reads). The model asks it of the keywords that construct
// a data class (`DistEnv(master=dist.get_rank() == 0)`). Nil when fn's
// text names no rank at all.
func RankExprsIn(fn *rules.Function, node ast.Node, r Resolver, exprs []ast.Expr) []bool {
	body, l := bodyLowerer(fn, node, r)
	if l == nil {
		return nil
	}
	var seed []string
	if rp, ok := r.(RankParamer); ok {
		seed = rp.RankParams(fn)
	}
	if len(seed) == 0 && !l.src.mentionsAny(node.Span(), rankWords) {
		return nil
	}
	for _, p := range seed {
		if rankParam(p) {
			l.rankVars[p] = true
		}
	}
	markBound(body, l.rankVars, l.isRank)
	out := make([]bool, len(exprs))
	for i, e := range exprs {
		out[i] = l.rankValue(e) || l.isRank(e)
	}
	return out
}

// InstanceRankAttrer is implemented by resolvers that know the classes of
// an attribute's receiver: InstanceRankAttr reports `env.master` (or
// `self.env.master`) where every value env may hold is an instance of a
// class whose instances keep a rank in that attribute (set from the rank
// in a method, or passed the rank when a data class is constructed).
type InstanceRankAttrer interface {
	InstanceRankAttr(a *ast.Attribute) bool
}

// ProcessGroupObjecter is implemented by resolvers that can tell a
// torch.distributed.ProcessGroup apart: every value e may hold is one.
// Its rank and size are methods, so `pg.rank == 0` compares a bound
// method with 0 (never true) and reads no rank.
type ProcessGroupObjecter interface {
	ProcessGroupObject(e ast.Expr) bool
}

// markShifts marks, flow-insensitively as RankArguments reads, the locals
// an assignment binds to the own rank (ownVars) or a ring shift of it
// (shiftVars): `rank, ws = dist.get_rank(), dist.get_world_size()`,
// `send_idx = (rank + r) % ws`. A name bound once to anything else is
// neither.
func (l *lowerer) markShifts(target, value ast.Expr) {
	targets, values := []ast.Expr{target}, []ast.Expr{value}
	if elts := ast.SeqElts(target); elts != nil {
		vals := ast.SeqElts(value)
		if len(vals) != len(elts) {
			vals = make([]ast.Expr, len(elts)) // unpacked from one value: neither
		}
		targets, values = elts, vals
	}
	for i, t := range targets {
		n, ok := t.(*ast.Name)
		if !ok {
			continue
		}
		v := values[i]
		if l.notOwn[n.Id] {
			continue
		}
		own := v != nil && l.isOwnRank(v)
		shift := !own && v != nil && l.rankShift(v)
		if !own && !shift || own && l.shiftVars[n.Id] || shift && l.ownVars[n.Id] {
			markVar(&l.notOwn, n.Id, true)
			delete(l.ownVars, n.Id)
			delete(l.shiftVars, n.Id)
			continue
		}
		markVar(&l.ownVars, n.Id, own)
		markVar(&l.shiftVars, n.Id, shift)
		l.rankVars[n.Id] = true // the rank, or a shift of it, is a rank value
	}
}

// ObjectRankAttr is an attribute that a function sets, on an object it
// does not own as self, to a test of the rank (`params.is_master =
// params.node_id == 0 and params.local_rank == 0`, XLM's
// init_distributed_mode): Target is the object's expression.
type ObjectRankAttr struct {
	Target ast.Expr
	Attr   string
}

// ObjectRankAttrs returns the attributes fn sets to a rank test on
// objects other than its own instance: a parameter or a local that
// holds an options object (ObjectRankAttr). Nil when fn's text names
// no rank. method says fn is a method, whose first parameter is its
// instance (SelfRankAttrs reads those).
func ObjectRankAttrs(fn *rules.Function, node ast.Node, r Resolver, method bool) []ObjectRankAttr {
	body, args, _, ok := defParts(node)
	if !ok {
		return nil
	}
	self := ""
	if args != nil && len(args.Positional()) > 0 && method {
		self = args.Positional()[0].Arg
	}
	var cands []*ast.Assign
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			if len(st.Targets) != 1 {
				break
			}
			t, ok := st.Targets[0].(*ast.Attribute)
			if !ok {
				break
			}
			if n, ok := t.Value.(*ast.Name); ok && n.Id != self {
				switch st.Value.(type) {
				case *ast.Compare, *ast.BoolOp, *ast.UnaryOp:
					cands = append(cands, st)
				}
			}
		}
		return true
	})
	if len(cands) == 0 {
		return nil
	}
	// The lowerer is made for the few functions that store such a test.
	_, l := bodyLowerer(fn, node, r)
	if l == nil || !l.src.mentionsAny(node.Span(), rankWords) {
		return nil
	}
	markBound(body, l.rankVars, l.isRank)
	var out []ObjectRankAttr
	for _, st := range cands {
		if l.rankTest(st.Value) && l.isRank(st.Value) && len(l.uniformIn(st.Value)) == 0 {
			t := st.Targets[0].(*ast.Attribute)
			out = append(out, ObjectRankAttr{Target: t.Value, Attr: t.Attr})
		}
	}
	return out
}
