package model

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
)

// Groups made on the gated ranks only. A communicator that only some
// ranks create has only those ranks as members, so those ranks alone may
// use it. TRL's GRPO trainer does
//
//	if self.accelerator.is_main_process:
//	    self.vllm_client = VLLMClient(...)
//	    self.vllm_client.init_communicator()   # PyNcclCommunicator(StatelessProcessGroup(...))
//	...
//	if self.accelerator.is_main_process:
//	    self.vllm_client.update_named_param(name, p)   # pynccl_comm.broadcast
//
// where the communicator joins the main process to the inference
// server's workers and no other trainer rank. An op of a rank branch
// whose group is created only where the branch's own condition holds
// (every chain of calls to the creation passes through the then-arm of an
// `if` with the same condition) is left out of the branch. A group that
// synchronises the default group on creation (new_group) cannot be made
// this way without hanging, which CV301 reports at the creation.

// maxGateDepth bounds how many callers up creationGated looks for the
// condition (the creation in a helper of a helper of the gated call).
const maxGateDepth = 3

// gatedCreations drops from the rank branches the ops on groups created
// under the branch's own condition only: Then's under the condition, and,
// for a branch whose ranks leave early, After's under its negation (the
// ranks that stay made the group).
func (b *builder) gatedCreations() {
	memo := map[gateQuery]bool{}
	for _, br := range b.prog.Branches {
		if br == nil || br.SetOrder || br.Members || br.StopsEarly || br.SkipsStep || br.DataCount || br.Reordered || br.Divergence != rules.RankTest {
			continue
		}
		if br.EarlyExit {
			br.After = b.dropGated(br.After, negated(br.Cond), br.Func, memo)
			continue
		}
		br.Then = b.dropGated(br.Then, br.Cond, br.Func, memo)
	}
}

// dropGated returns ops less those on a group whose creation runs only
// where cond holds. Destroying such a group there is fine too.
func (b *builder) dropGated(ops []*rules.OpRef, cond string, fn *rules.Function, memo map[gateQuery]bool) []*rules.OpRef {
	var kept []*rules.OpRef
	for _, o := range ops {
		g := o.Group
		if g != nil && g.Kind == rules.GroupUnknown && cond != "" && !o.Creates && b.unknownMadeGated(o, cond, fn, memo) {
			continue
		}
		node := b.groupFn[g]
		if g == nil || g.Kind != rules.GroupAlloc || o.Creates && o.Op != "destroy" || node == nil || cond == "" {
			kept = append(kept, o)
			continue
		}
		q := gateQuery{g: g, cond: cond}
		gated, ok := memo[q]
		if !ok {
			gated = b.creationGated(b.g.FuncOf(node), g.Pos.Line, cond, b.moduleOf(fn), 0)
			memo[q] = gated
		}
		if !gated && !b.attrGated(o, cond, fn, memo) {
			kept = append(kept, o)
		}
	}
	return kept
}

// sameCond reports whether two conditions' texts ask the same: equal
// texts, or two spellings of "this is global rank 0" (`self.rank == 0`
// where the group is made, `dist.get_rank() == 0` where it is used).
func sameCond(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return a == b || rankZeroTest(a) && rankZeroTest(b)
}

// rankZeroNames are the last names of the global rank's usual spellings.
var rankZeroNames = map[string]bool{
	"rank": true, "_rank": true, "global_rank": true, "_global_rank": true, "get_rank": true,
	"get_global_rank": true, "world_rank": true, "process_index": true,
}

// rankZeroTest reports a condition text that tests for global rank 0:
// `X == 0` or `0 == X` with X a rank's usual spelling (self.rank,
// dist.get_rank(), torch.distributed.get_rank()), or a flag named for it
// (accelerator.is_main_process, trainer.is_global_zero).
func rankZeroTest(cond string) bool {
	if envRankZero(cond) {
		return true
	}
	c := strings.ReplaceAll(cond, " ", "")
	last := func(x string) string {
		x = strings.TrimSuffix(x, "()")
		return x[strings.LastIndexByte(x, '.')+1:]
	}
	if l, r, ok := strings.Cut(c, "=="); ok {
		if r == "0" {
			return rankZeroNames[last(l)]
		}
		if l == "0" {
			return rankZeroNames[last(r)]
		}
		return false
	}
	return flow.RankZeroFlags[last(c)]
}

// envZero matches a test that an environment variable holds 0:
// `os.getenv("RANK") == "0"`, `int(os.environ["RANK"]) == 0`,
// `os.environ.get("LOCAL_RANK") == '0'`.
var envZero = regexp.MustCompile(`^(?:int\()?os\.(?:getenv\(|environ\.get\(|environ\[)["'](\w+)["'](?:,[^)]*)?[)\]]\)?==["']?0["']?$`)

// envRankZero reports a test of the launcher's environment for global
// rank 0: RANK is 0, or both NODE_RANK and LOCAL_RANK are (compose-rl's
// weight-update group, made only where both are "0").
func envRankZero(cond string) bool {
	vars := map[string]bool{}
	for _, part := range strings.Split(strings.Join(strings.Fields(cond), " "), " and ") {
		m := envZero.FindStringSubmatch(strings.ReplaceAll(strings.Trim(part, "()"), " ", ""))
		if m == nil {
			return false
		}
		vars[m[1]] = true
	}
	return len(vars) == 1 && vars["RANK"] || len(vars) == 2 && vars["NODE_RANK"] && vars["LOCAL_RANK"]
}

// negated is the text of a condition's negation as an `if` would read it
// ("not x" for "x", "x" for "not x"; "" for a longer test, which
// underCond then never matches).
func negated(cond string) string {
	if rest, ok := strings.CutPrefix(cond, "not "); ok {
		if inner, ok := strings.CutPrefix(rest, "("); ok && strings.HasSuffix(inner, ")") {
			return strings.TrimSuffix(inner, ")") // not (a and b)
		}
		if strings.ContainsAny(rest, " ") {
			return "" // not a and b
		}
		return rest
	}
	if strings.ContainsAny(cond, " ") {
		return "not (" + cond + ")"
	}
	return "not " + cond
}

// attrGated reports an op whose group is an attribute of the instance
// (group=self.sync_group) that its class only ever assigns where cond
// holds: a factory that makes the group may have other, ungated callers
// (the inference engine's workers join Trinity-RFT's weight-sync group
// through the trainer's own helper), but this class's attribute holds
// only what its gated calls made.
func (b *builder) attrGated(o *rules.OpRef, cond string, fn *rules.Function, memo map[gateQuery]bool) bool {
	return b.selfGroupGated(o, cond, fn, memo, false, nil)
}

// selfGroupGated asks, for an op of fn itself whose group is an
// attribute of the instance (group=self.g), whether the methods of fn's
// class store that attribute only where cond holds (and, with accept
// set, only values accept takes), memoized under unknown.
func (b *builder) selfGroupGated(o *rules.OpRef, cond string, fn *rules.Function, memo map[gateQuery]bool, unknown bool, accept func(*callgraph.Func, ast.Expr) bool) bool {
	s := o.Site
	if s == nil || s.Func != fn {
		return false // reached through a call: the group text is the callee's
	}
	attr, ok := strings.CutPrefix(s.GroupText, "self.")
	if !ok || strings.ContainsAny(attr, ".[(") {
		return false
	}
	f := b.fnOf(fn)
	if f == nil || f.Class == nil {
		return false
	}
	q := gateQuery{class: f.Class, attr: attr, cond: cond, unknown: unknown}
	if gated, ok := memo[q]; ok {
		return gated
	}
	gated := b.attrStoresGatedBy(f.Class, attr, cond, b.moduleOf(fn), accept)
	memo[q] = gated
	return gated
}

// unknownMadeGated reports an op on a group the analysis cannot see made
// (group=self.update_group) that its class stores only where cond holds,
// from a call of a function outside the program named for making a
// process group: OpenRLHF's actors keep
//
//	if torch.distributed.get_rank() == 0:
//	    self._model_update_group = init_process_group(backend=…, world_size=vllm_ranks + 1, rank=0, …)
//
// from their own distributed_util, a group of rank 0 and the inference
// engines only. A store of anything else (a getter that may hand back the
// default group) leaves the op in the branch.
func (b *builder) unknownMadeGated(o *rules.OpRef, cond string, fn *rules.Function, memo map[gateQuery]bool) bool {
	return b.selfGroupGated(o, cond, fn, memo, true, b.makesOutsideGroup)
}

// outsideGroupMakers are the last names of functions that make a process
// group (of ranks they are given), in the helper modules projects carry.
var outsideGroupMakers = map[string]bool{
	"init_process_group": true, "stateless_init_process_group": true, "init_custom_process_group": true,
	"new_group": true, "create_process_group": true,
}

// makesOutsideGroup reports a call of a function outside the program
// named for making a process group, or a group's name (a string, or a
// local of m bound only to strings: ray.util.collective's groups are
// named, `self._model_update_group = group_name`).
func (b *builder) makesOutsideGroup(m *callgraph.Func, value ast.Expr) bool {
	if stringExpr(value) {
		return true
	}
	if n, ok := value.(*ast.Name); ok {
		return boundToStrings(defBody(m.Node), n.Id)
	}
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	if cs := b.g.CallOf(c); cs != nil {
		for _, t := range cs.Targets {
			if t.Fn != nil {
				return false // the program's own: its groups are allocated
			}
		}
	}
	var name string
	switch fn := c.Func.(type) {
	case *ast.Name:
		name = fn.Id
	case *ast.Attribute:
		name = fn.Attr
	}
	// (A private copy counts too: `_init_process_group`, turbo-alignment's.)
	return outsideGroupMakers[strings.TrimLeft(name, "_")]
}

// stringExpr reports a string literal or f-string.
func stringExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.JoinedStr:
		return true
	case *ast.Constant:
		return e.Type == ast.ConstStr
	}
	return false
}

// boundToStrings reports whether body assigns name, and only strings.
func boundToStrings(body []ast.Stmt, name string) bool {
	bound, other := false, false
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		if a, ok := st.(*ast.Assign); ok {
			for _, t := range a.Targets {
				if n, ok := t.(*ast.Name); ok && n.Id == name {
					if stringExpr(a.Value) {
						bound = true
					} else {
						other = true
					}
				}
			}
		}
		return !other
	})
	return bound && !other
}

// attrStoresGatedBy reports whether the methods of c and its bases assign
// self.attr at least once, and only where cond holds; with accept set,
// every store other than None must also be a value accept takes.
func (b *builder) attrStoresGatedBy(c *callgraph.Class, attr, cond string, useMod *resolve.Module, accept func(m *callgraph.Func, value ast.Expr) bool) bool {
	classes, _ := b.g.MRO(c)
	stores := 0
	for _, m := range b.g.Funcs {
		if m.Class == nil || !slices.Contains(classes, m.Class) || m.Node == nil {
			continue
		}
		body, args := defBody(m.Node), funcArgs(m.Node)
		if args == nil || len(args.Positional()) == 0 {
			continue
		}
		self := args.Positional()[0].Arg
		gated := true
		ast.InspectStmts(body, func(st ast.Stmt) bool {
			a, ok := st.(*ast.Assign)
			if !ok {
				return gated
			}
			for _, t := range a.Targets {
				if at, ok := t.(*ast.Attribute); ok && at.Attr == attr {
					if n, ok := at.Value.(*ast.Name); ok && n.Id == self {
						stores++
						if isNoneExpr(a.Value) {
							continue // self.x = None: no group
						}
						if accept != nil && !accept(m, a.Value) || !b.creationGated(m, int(a.Pos.Lineno), cond, useMod, 0) {
							gated = false
						}
					}
				}
			}
			return gated
		})
		if !gated {
			return false
		}
	}
	return stores > 0
}

// gateQuery asks whether group g's creation, or (g nil) the stores of
// attribute attr in class's methods, run only where cond holds.
type gateQuery struct {
	g     *rules.Group
	class *callgraph.Class
	attr  string
	cond  string
	// unknown: the stores must make a group outside the program
	// (unknownMadeGated).
	unknown bool
}

// creationGated reports whether the statement of f at line runs only where
// cond (a condition's source text) holds: it sits in the then-arm of an
// `if cond:` of f, or every explicit call of f does, a few callers up.
// useMod is the module of the branch that uses the group.
func (b *builder) creationGated(f *callgraph.Func, line int, cond string, useMod *resolve.Module, depth int) bool {
	if f == nil || f.Module == nil {
		return false
	}
	if b.underCond(f, line, cond) {
		return true
	}
	if depth >= maxGateDepth {
		return false
	}
	callers := b.callersOf(f)
	if len(callers) == 0 {
		return false // an entry point: called from anywhere
	}
	for _, cs := range callers {
		at := int(cs.Node.Span().Lineno)
		if cs.Caller.Module != useMod && b.mainBlock(cs.Caller, at) {
			// Another module's script block: it runs when that file is
			// the program, not when the branch's module imports it.
			continue
		}
		if cs.Caller == f || !b.creationGated(cs.Caller, at, cond, useMod, depth+1) {
			return false
		}
	}
	return true
}

// underCond reports whether line lies in the body of an `if` of f whose
// (one-line) condition reads cond, or after an `if` of the same block
// whose condition is cond's negation and whose body leaves the function.
func (b *builder) underCond(f *callgraph.Func, line int, cond string) bool {
	file := b.files[f.Module.Path]
	if file == nil {
		return false
	}
	found := false
	lines := b.prepared.lines[file.Path]
	var visit func(stmts []ast.Stmt)
	visit = func(stmts []ast.Stmt) {
		for _, s := range stmts {
			sp := s.Span()
			if int(sp.EndLineno) < line {
				// `if not cond: return` before the line: what follows
				// runs only where cond holds.
				if i, ok := s.(*ast.If); ok && len(i.Orelse) == 0 && exits(i.Body) && sameCond(negated(testText(file.Src, lines, i.Test)), cond) {
					found = true
					return
				}
				continue
			}
			if int(sp.Lineno) > line {
				continue
			}
			switch s := s.(type) {
			case *ast.Assign:
				// g = new_group(…) if rank < 2 else None, then `if g is
				// not None:`: the ranks that hold the group are those
				// that made it.
				if x, ok := s.Value.(*ast.IfExp); ok && len(s.Targets) == 1 && isNoneExpr(x.Orelse) && inExpr(x.Body, line) {
					t := testText(file.Src, lines, s.Targets[0])
					found = t != "" && (cond == t || cond == t+" is not None")
					return
				}
			case *ast.If:
				if inStmts(s.Body, line) && impliesCond(file.Src, lines, s.Test, cond) {
					found = true
					return
				}
				visit(s.Body)
				visit(s.Orelse)
			case *ast.With:
				visit(s.Body)
			case *ast.AsyncWith:
				visit(s.Body)
			case *ast.Try:
				visit(s.Body)
				for _, h := range s.Handlers {
					visit(h.Body)
				}
				visit(s.Orelse)
				visit(s.Finalbody)
			case *ast.For:
				visit(s.Body)
			case *ast.AsyncFor:
				visit(s.Body)
			case *ast.While:
				visit(s.Body)
			}
		}
	}
	visit(ast.ScopeBody(f.Node))
	return found
}

// impliesCond reports whether test holds only where cond does: it reads
// cond, or is an `and` one of whose operands does (`rank == 0 and
// args.send_updates`: PipelineRL's weight-update group).
func impliesCond(src []byte, lines []int, test ast.Expr, cond string) bool {
	if sameCond(testText(src, lines, test), cond) {
		return true
	}
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.And {
		return slices.ContainsFunc(b.Values, func(v ast.Expr) bool { return impliesCond(src, lines, v, cond) })
	}
	return false
}

// inExpr reports whether line lies within e.
func inExpr(e ast.Expr, line int) bool {
	sp := e.Span()
	return int(sp.Lineno) <= line && line <= int(sp.EndLineno)
}

// inStmts reports whether line lies within one of stmts.
func inStmts(stmts []ast.Stmt, line int) bool {
	for _, s := range stmts {
		if sp := s.Span(); int(sp.Lineno) <= line && line <= int(sp.EndLineno) {
			return true
		}
	}
	return false
}

// testText is the source text of a one-line condition as the rank
// branches quote it ("" for one that spans lines); lines holds the
// offsets at which src's lines start.
func testText(src []byte, lines []int, e ast.Expr) string {
	sp := e.Span()
	n := int(sp.Lineno)
	if sp.EndLineno != sp.Lineno || n < 1 || n > len(lines) {
		return ""
	}
	line := src[lines[n-1]:]
	if end := bytes.IndexByte(line, '\n'); end >= 0 {
		line = line[:end]
	}
	a, z := int(sp.ColOffset), int(sp.EndColOffset)
	if a > z || z > len(line) {
		return ""
	}
	return string(line[a:z])
}

// moduleOf is the module of a model function (nil when unknown).
func (b *builder) moduleOf(rf *rules.Function) *resolve.Module {
	if f := b.fnOf(rf); f != nil {
		return f.Module
	}
	return nil
}

// mainBlock reports whether line of module body f lies under
// `if __name__ == "__main__":`.
func (b *builder) mainBlock(f *callgraph.Func, line int) bool {
	m, ok := f.Node.(*ast.Module)
	if !ok {
		return false
	}
	for _, s := range m.Body {
		if i, ok := s.(*ast.If); ok && inStmts(i.Body, line) && isMainTest(i.Test) {
			return true
		}
	}
	return false
}

// hasMainBlock reports whether a module has an `if __name__ ==
// "__main__":` block among its own statements: it runs as a script.
func hasMainBlock(m *ast.Module) bool {
	for _, s := range m.Body {
		if i, ok := s.(*ast.If); ok && isMainTest(i.Test) {
			return true
		}
	}
	return false
}

// mainBlockLines returns the first and last lines of a module's first
// top-level `if __name__ == "__main__":` block, or zeros.
func mainBlockLines(m *ast.Module) [2]int {
	for _, s := range m.Body {
		if i, ok := s.(*ast.If); ok && isMainTest(i.Test) {
			sp := i.Span()
			return [2]int{int(sp.Lineno), int(sp.EndLineno)}
		}
	}
	return [2]int{}
}

// isMainTest matches `__name__ == "__main__"` (either way round).
func isMainTest(e ast.Expr) bool {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Comparators) != 1 {
		return false
	}
	isName := func(x ast.Expr) bool { n, ok := x.(*ast.Name); return ok && n.Id == "__name__" }
	isMain := func(x ast.Expr) bool {
		k, ok := x.(*ast.Constant)
		return ok && k.Type == ast.ConstStr && k.Str == "__main__"
	}
	return isName(c.Left) && isMain(c.Comparators[0]) || isMain(c.Left) && isName(c.Comparators[0])
}

// defBody returns the body of a def or async def, nil otherwise.
func defBody(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.FunctionDef:
		return n.Body
	case *ast.AsyncFunctionDef:
		return n.Body
	}
	return nil
}
