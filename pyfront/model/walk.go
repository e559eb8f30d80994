package model

import (
	"bytes"
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
	"strings"
)

// walker walks one module's statements in order, recording for each call
// its statement, indentation, loop nesting, enclosing stream context and
// what its result is bound to; and the start/join and submit/result
// patterns that order a spawned context before what follows.
type walker struct {
	b      *builder
	path   string
	src    []byte
	lines  []int
	fnNode ast.Node
	// joinedVars: per function node, variables started and joined at once.
	joinedVars map[ast.Node]map[string]bool
	assigned   map[*ast.Call]ast.Node // spawn call → function node (for joinedVars)
	backward   []bool                 // per backward call: inside a single-threaded-autograd with
	out        *walkFacts
}

// walkFacts is what the statement walk of some modules found. The walk
// runs over parts of the program side by side (each part into its own
// walkFacts, merged afterwards), so walkers never write the builder.
type walkFacts struct {
	info                          map[*ast.Call]*callInfo
	joined                        map[*ast.Call]bool
	loopCalls                     map[*ast.Call]bool // calls of program functions inside a loop or comprehension
	groupFn                       map[*rules.Group]ast.Node
	backwardFns                   map[ast.Node]bool
	backwardCalls, backwardSingle int
	// mpiLevels: mpi4py.rc.thread_level assignments, with the node of
	// the function that makes them.
	mpiLevels []walkedLevel
}

type walkedLevel struct {
	level string
	pos   rules.Pos
	fn    ast.Node
}

func newWalkFacts() *walkFacts {
	return &walkFacts{info: map[*ast.Call]*callInfo{}, joined: map[*ast.Call]bool{}, loopCalls: map[*ast.Call]bool{}, groupFn: map[*rules.Group]ast.Node{}, backwardFns: map[ast.Node]bool{}}
}

// walkModules walks the modules' statements into one walkFacts.
func (b *builder) walkModules(mods []*callgraph.ModuleInput) *walkFacts {
	out := newWalkFacts()
	for _, m := range mods {
		b.walkModule(m, out)
	}
	return out
}

// mergeWalk adds the facts of one part of the walk to the builder.
func (b *builder) mergeWalk(f *walkFacts) {
	for k, v := range f.info {
		b.info[k] = v
	}
	for k, v := range f.joined {
		b.joined[k] = v
	}
	for k, v := range f.loopCalls {
		b.loopCalls[k] = v
	}
	for k, v := range f.backwardFns {
		b.backwardFns[k] = v
	}
	for k, v := range f.groupFn {
		b.groupFn[k] = v
	}
	b.backwardCalls += f.backwardCalls
	b.backwardSingle += f.backwardSingle
	for _, l := range f.mpiLevels {
		b.prog.Facts.RequestMPIThreadLevel(l.level, l.pos, b.fn(b.g.FuncOf(l.fn)))
	}
}

type walkState struct {
	inLoop bool
	stream *rules.Stream
	single bool
	// notInst: names known not to hold an instance of a class here (the
	// else of `if isinstance(x, C):`, the body of `if not
	// isinstance(x, C):`).
	notInst []notInstance
}

// notInstance is a variable that does not hold an instance of cls.
type notInstance struct {
	name string
	cls  ast.Expr
}

// isinstanceTest recognises `isinstance(x, C)` and `not isinstance(x, C)`
// for a plain name x and one class C.
func isinstanceTest(test ast.Expr) (ni notInstance, negated, ok bool) {
	if u, isNot := test.(*ast.UnaryOp); isNot && u.Op == ast.Not {
		test, negated = u.Operand, true
	}
	c, isCall := test.(*ast.Call)
	if !isCall || len(c.Args) != 2 || len(c.Keywords) != 0 {
		return ni, false, false
	}
	if f, isName := c.Func.(*ast.Name); !isName || f.Id != "isinstance" {
		return ni, false, false
	}
	x, isName := c.Args[0].(*ast.Name)
	if !isName {
		return ni, false, false
	}
	switch c.Args[1].(type) {
	case *ast.Name, *ast.Attribute:
	default:
		return ni, false, false // a tuple of classes: not narrowed
	}
	return notInstance{name: x.Id, cls: c.Args[1]}, negated, true
}

// withNotInst returns st with one more known non-instance.
func (st walkState) withNotInst(ni notInstance) walkState {
	st.notInst = append(st.notInst[:len(st.notInst):len(st.notInst)], ni)
	return st
}

func (b *builder) walkModule(m *callgraph.ModuleInput, out *walkFacts) {
	f := b.files[m.Mod.Path]
	w := &walker{b: b, path: m.Mod.Path, joinedVars: map[ast.Node]map[string]bool{}, assigned: map[*ast.Call]ast.Node{}, out: out}
	if f != nil {
		w.src = f.Src
		w.lines = b.prepared.lines[f.Path]
	}
	w.fnNode = m.AST
	w.stmts(m.AST.Body, walkState{})
	for call, fnNode := range w.assigned {
		info := out.info[call]
		if info != nil && info.assigned != "" && w.joinedVars[fnNode][info.assigned] {
			out.joined[call] = true
		}
	}
	for _, single := range w.backward {
		out.backwardCalls++
		if single {
			out.backwardSingle++
		}
	}
}

// indent returns the leading whitespace of 1-based line n.
func (w *walker) indent(n int) string {
	if n < 1 || n > len(w.lines) {
		return ""
	}
	start := w.lines[n-1]
	end := start
	for end < len(w.src) && (w.src[end] == ' ' || w.src[end] == '\t') {
		end++
	}
	return string(w.src[start:end])
}

func (w *walker) stmts(list []ast.Stmt, st walkState) {
	for i, s := range list {
		w.stmt(s, st)
		if i+1 < len(list) {
			w.pattern(s, list[i+1])
			w.joinAfterLocalWork(s, list[i+1:])
		}
	}
}

// joinAfterLocalWork records "X.start(); <host-only statements>; X.join()":
// while the thread runs, the starting thread computes on the host and
// issues no collective, so the two never launch collectives at the same
// time (mpi4pyscf's load balancer, summing its tasks while the helper
// thread allgathers).
func (w *walker) joinAfterLocalWork(start ast.Stmt, rest []ast.Stmt) {
	x, m := methodStmt(start)
	if m != "start" || x == "" {
		return
	}
	for _, s := range rest {
		if y, m := methodStmt(s); m == "join" && y == x {
			w.markJoined(x)
			return
		}
		if !w.hostOnly(s) && !joinsOthers(s) {
			return
		}
	}
}

// joinsOthers reports a statement that only waits for other threads:
// `t.join()`, or a loop whose body does nothing else (`for t in workers:
// t.join()`, Kidand/chess's workers joined between its monitor thread's
// start and join). The waiting thread issues nothing meanwhile.
func joinsOthers(s ast.Stmt) bool {
	if _, m := methodStmt(s); m == "join" {
		_, ok := s.(*ast.ExprStmt)
		return ok
	}
	f, ok := s.(*ast.For)
	if !ok || len(f.Orelse) > 0 || len(f.Body) == 0 || pathText(f.Iter) == "" {
		return false // (an iterable that is a call may run anything)
	}
	for _, b := range f.Body {
		if !joinsOthers(b) {
			return false
		}
	}
	return true
}

// hostOnlyPrefixes: the external callees a host-only statement may call
// (builtins and standard computations; no communication library).
var hostOnlyPrefixes = []string{"<builtin>.", "math.", "time.", "logging.", "os.path.", "json.", "itertools.", "functools.", "operator.", "random.", "numpy."}

// notLocalTorch are the torch namespaces whose calls may communicate or
// run a wrapped module's forward or backward.
var notLocalTorch = []string{"torch.distributed", "torch.cuda.", "torch.nn.", "torch.autograd", "torch.utils.", "torch.multiprocessing"}

// localTorchOp reports a torch operator that only computes on this
// process's tensors (torch.randn, Tensor.sum): nothing of
// torch.distributed, and nothing the tables know as a collective, a
// spawner or a stream operation.
func (w *walker) localTorchOp(ext string) bool {
	name := w.b.t.Canonical(ext)
	if !strings.HasPrefix(name, "torch.") || name == "torch.Tensor.backward" || hasPrefix(name, notLocalTorch) {
		return false
	}
	return w.b.t.Collectives[name] == nil && w.b.t.Spawners[name] == nil && w.b.t.Streams[name] == nil
}

// hostOnly reports a statement that only computes on the host: it does
// not leave the block, yield or await, define anything, or call anything
// but builtins and standard modules.
func (w *walker) hostOnly(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.Assign, *ast.AugAssign, *ast.AnnAssign, *ast.ExprStmt, *ast.Pass:
	default:
		return false
	}
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.Yield, *ast.YieldFrom, *ast.Await, *ast.Lambda:
			ok = false
		case *ast.Call:
			cs := w.b.g.CallOf(n)
			if cs == nil || len(cs.Targets) == 0 {
				ok = false
				return false
			}
			for _, t := range cs.Targets {
				if t.Fn != nil || !hasPrefix(t.External, hostOnlyPrefixes) && !w.localTorchOp(t.External) {
					ok = false
					return false
				}
			}
		}
		return true
	})
	return ok
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// pattern records "X.start(); X.join()" and "X = submit(…); X.result()".
func (w *walker) pattern(a, next ast.Stmt) {
	if x, m := methodStmt(a); m == "start" && x != "" {
		if y, m2 := methodStmt(next); m2 == "join" && y == x {
			w.markJoined(x)
		}
	}
	if as, ok := a.(*ast.Assign); ok && len(as.Targets) == 1 {
		x := pathText(as.Targets[0])
		if call, ok := as.Value.(*ast.Call); ok && x != "" {
			if y, wait := waitStmt(next); wait && y == x {
				w.out.joined[call] = true
			}
		}
	}
}

// waitStmt matches "x.result()", "x.join()" or "x.wait()" as a statement
// (assigned, awaited or returned) that waits for the work to finish:
// with a timeout it may return while the work still runs.
func waitStmt(s ast.Stmt) (x string, ok bool) {
	x, m := methodStmt(s)
	if m != "result" && m != "join" && m != "wait" {
		return "", false
	}
	return x, waitsToEnd(stmtCall(s))
}

// waitsToEnd reports whether a result(), join() or wait() call waits
// without a time limit (no timeout, or timeout=None).
func waitsToEnd(call *ast.Call) bool {
	if call == nil {
		return false
	}
	if len(call.Args) > 0 {
		return isNoneExpr(call.Args[0])
	}
	for _, k := range call.Keywords {
		if k.Arg == "timeout" {
			return isNoneExpr(k.Value)
		}
	}
	return true
}

// stmtCall is the call a statement evaluates: its expression, assigned,
// awaited or returned value.
func stmtCall(s ast.Stmt) *ast.Call {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.Value
	case *ast.Assign:
		e = s.Value
	case *ast.Return:
		e = s.Value
	}
	if aw, ok := e.(*ast.Await); ok {
		e = aw.Value
	}
	call, _ := e.(*ast.Call)
	return call
}

func (w *walker) markJoined(x string) {
	m := w.joinedVars[w.fnNode]
	if m == nil {
		m = map[string]bool{}
		w.joinedVars[w.fnNode] = m
	}
	m[x] = true
}

// methodStmt matches "x.m(...)" as a statement (or assigned, awaited or
// returned).
func methodStmt(s ast.Stmt) (string, string) {
	call := stmtCall(s)
	if call == nil {
		return "", ""
	}
	attr, ok := call.Func.(*ast.Attribute)
	if !ok {
		return "", ""
	}
	return pathText(attr.Value), attr.Attr
}

func (w *walker) stmt(s ast.Stmt, st walkState) {
	switch n := s.(type) {
	case *ast.FunctionDef:
		w.exprs(s, st, exprsOfDef(n.DecoratorList, n.Args)...)
		w.body(n, n.Body)
	case *ast.AsyncFunctionDef:
		w.exprs(s, st, exprsOfDef(n.DecoratorList, n.Args)...)
		w.body(n, n.Body)
	case *ast.ClassDef:
		var es []ast.Expr
		es = append(es, n.DecoratorList...)
		es = append(es, n.Bases...)
		for _, k := range n.Keywords {
			es = append(es, k.Value)
		}
		w.exprs(s, st, es...)
		w.stmts(n.Body, walkState{})
	case *ast.For:
		w.exprs(s, st, n.Iter, n.Target)
		loop := st
		loop.inLoop = true
		w.stmts(n.Body, loop)
		w.stmts(n.Orelse, st)
	case *ast.AsyncFor:
		w.exprs(s, st, n.Iter, n.Target)
		loop := st
		loop.inLoop = true
		w.stmts(n.Body, loop)
		w.stmts(n.Orelse, st)
	case *ast.While:
		loop := st
		loop.inLoop = true
		w.exprs(s, loop, n.Test)
		w.stmts(n.Body, loop)
		w.stmts(n.Orelse, st)
	case *ast.If:
		w.exprs(s, st, n.Test)
		body, orelse := st, st
		if ni, negated, ok := isinstanceTest(n.Test); ok {
			if negated {
				body = st.withNotInst(ni)
			} else {
				orelse = st.withNotInst(ni)
			}
		}
		w.stmts(n.Body, body)
		w.stmts(n.Orelse, orelse)
	case *ast.With:
		w.with(s, n.Items, n.Body, st)
	case *ast.AsyncWith:
		w.with(s, n.Items, n.Body, st)
	case *ast.Try:
		w.stmts(n.Body, st)
		for _, h := range n.Handlers {
			w.exprs(s, st, h.Type)
			w.stmts(h.Body, st)
		}
		w.stmts(n.Orelse, st)
		w.stmts(n.Finalbody, st)
	case *ast.TryStar:
		w.stmts(n.Body, st)
		for _, h := range n.Handlers {
			w.exprs(s, st, h.Type)
			w.stmts(h.Body, st)
		}
		w.stmts(n.Orelse, st)
		w.stmts(n.Finalbody, st)
	case *ast.Match:
		w.exprs(s, st, n.Subject)
		for _, c := range n.Cases {
			w.exprs(s, st, c.Guard)
			w.stmts(c.Body, st)
		}
	case *ast.Assign:
		es := append([]ast.Expr{n.Value}, n.Targets...)
		w.exprs(s, st, es...)
		if call, ok := n.Value.(*ast.Call); ok && len(n.Targets) == 1 {
			if info := w.out.info[call]; info != nil {
				info.assigned = pathText(n.Targets[0])
				if info.assigned == "_" {
					info.assigned, info.discarded = "", true
				}
				w.assigned[call] = w.fnNode
			}
		}
		w.mpiLevel(n)
	case *ast.AnnAssign:
		w.exprs(s, st, n.Value, n.Target)
		if call, ok := n.Value.(*ast.Call); ok {
			if info := w.out.info[call]; info != nil {
				info.assigned = pathText(n.Target)
			}
		}
	case *ast.ExprStmt:
		w.exprs(s, st, n.Value)
		e := n.Value
		if aw, ok := e.(*ast.Await); ok {
			e = aw.Value
		}
		if call, ok := e.(*ast.Call); ok {
			if info := w.out.info[call]; info != nil {
				info.discarded = true
			}
		}
	default:
		var es []ast.Expr
		ast.Children(s, func(c ast.Node) {
			if e, ok := c.(ast.Expr); ok {
				es = append(es, e)
			}
		})
		w.exprs(s, st, es...)
	}
}

func exprsOfDef(decos []ast.Expr, a *ast.Arguments) []ast.Expr {
	out := append([]ast.Expr(nil), decos...)
	if a != nil {
		out = append(out, a.Defaults...)
		for _, d := range a.KwDefaults {
			if d != nil {
				out = append(out, d)
			}
		}
	}
	return out
}

func (w *walker) body(fn ast.Node, body []ast.Stmt) {
	saved := w.fnNode
	w.fnNode = fn
	w.stmts(body, walkState{})
	w.fnNode = saved
}

func (w *walker) with(s ast.Stmt, items []*ast.WithItem, body []ast.Stmt, st walkState) {
	inner := st
	for _, it := range items {
		w.exprs(s, st, it.ContextExpr, it.OptionalVars)
		call, ok := it.ContextExpr.(*ast.Call)
		if !ok {
			continue
		}
		if info := w.out.info[call]; info != nil {
			info.inWith = true
		}
		cs := w.b.g.CallOf(call)
		if cs == nil {
			continue
		}
		for _, name := range w.b.apis(cs) {
			sa := w.b.t.Streams[name]
			if sa == nil {
				continue
			}
			switch sa.Role {
			case "stream_context":
				if e := argExpr(call, sa.Arg); e != nil {
					inner.stream = w.b.streamOf(e)
				}
			case "disable_autograd_threads":
				if e := argExpr(call, sa.Arg); e != nil {
					if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstBool && !k.Bool {
						inner.single = true
					}
				}
			}
		}
	}
	w.stmts(body, inner)
	w.executorBlockJoins(items, body)
}

// executorBlockJoins records the tasks a `with ThreadPoolExecutor() as
// ex:` block submits one at a time (not in a loop or comprehension) and
// then only waits on or computes on the host until the block ends: the
// block's exit shuts the executor down and waits for them (even when a
// result(timeout=…) gave up first), so they run while the submitting
// thread issues no collective.
func (w *walker) executorBlockJoins(items []*ast.WithItem, body []ast.Stmt) {
	for _, it := range items {
		call, ok := it.ContextExpr.(*ast.Call)
		name, isName := it.OptionalVars.(*ast.Name)
		if !ok || !isName || !w.b.futuresExecutor(call) {
			continue
		}
		for i, s := range body {
			submits := directSubmits(s, name.Id)
			if len(submits) == 0 {
				continue
			}
			quiet := true
			for _, rest := range body[i+1:] {
				if !w.hostOnly(rest) && !waitsOnly(rest) {
					quiet = false
					break
				}
			}
			if quiet && (waitsOnly(s) || submitOnly(s)) {
				for _, c := range submits {
					w.out.joined[c] = true
				}
			}
		}
	}
}

// futuresExecutor reports a call that constructs a concurrent.futures
// executor, whose context manager waits for its tasks on exit.
func (b *builder) futuresExecutor(call *ast.Call) bool {
	cs := b.g.CallOf(call)
	if cs == nil {
		return false
	}
	for _, t := range cs.Targets {
		switch b.t.Canonical(t.External) {
		case "concurrent.futures.ThreadPoolExecutor", "concurrent.futures.thread.ThreadPoolExecutor",
			"concurrent.futures.ProcessPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor":
			return true
		}
	}
	return false
}

// directSubmits returns the ex.submit(...) calls statement s makes
// outside loops, comprehensions and nested definitions.
func directSubmits(s ast.Stmt, ex string) []*ast.Call {
	switch s.(type) {
	case *ast.Assign, *ast.ExprStmt, *ast.Return:
	default:
		return nil
	}
	var out []*ast.Call
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Lambda, *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
			return false
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && a.Attr == "submit" {
				if x, ok := a.Value.(*ast.Name); ok && x.Id == ex {
					out = append(out, n)
				}
			}
		}
		return true
	})
	return out
}

// submitOnly: "fut = ex.submit(…)" or "ex.submit(…)".
func submitOnly(s ast.Stmt) bool {
	call := stmtCall(s)
	if call == nil {
		return false
	}
	if _, isReturn := s.(*ast.Return); isReturn {
		return false
	}
	a, ok := call.Func.(*ast.Attribute)
	return ok && a.Attr == "submit"
}

// waitsOnly: a statement that only waits on a future, thread or work
// handle (with or without a time limit) and binds, returns or drops its
// result: "return fut.result(timeout=1)", "r = ex.submit(f).result()".
func waitsOnly(s ast.Stmt) bool {
	call := stmtCall(s)
	if call == nil {
		return false
	}
	a, ok := call.Func.(*ast.Attribute)
	if !ok || a.Attr != "result" && a.Attr != "join" && a.Attr != "wait" {
		return false
	}
	switch v := a.Value.(type) {
	case *ast.Name:
		return true
	case *ast.Call:
		// ex.submit(f).result(): the submit is the statement's own.
		sa, ok := v.Func.(*ast.Attribute)
		return ok && sa.Attr == "submit"
	}
	return false
}

// exprs records every call in the expressions (lambda bodies included;
// nested function bodies are walked as statements of their own).
func (w *walker) exprs(s ast.Stmt, st walkState, es ...ast.Expr) {
	// The statement's indentation is computed once, and only when a call
	// in it is recorded.
	indent, haveIndent := "", false
	indentOf := func() string {
		if !haveIndent {
			indent, haveIndent = w.indent(int(s.Span().Lineno)), true
		}
		return indent
	}
	var visit func(n ast.Node, inComp bool)
	visit = func(n ast.Node, inComp bool) {
		switch n.(type) {
		case *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
			inComp = true
		case *ast.Call:
			w.call(n.(*ast.Call), s, st, indentOf, inComp)
		}
		ast.Children(n, func(c ast.Node) { visit(c, inComp) })
	}
	for _, e := range es {
		if e != nil {
			visit(e, false)
		}
	}
}

func (w *walker) call(call *ast.Call, s ast.Stmt, st walkState, indentOf func() string, inComp bool) {
	cs := w.b.g.CallOf(call)
	if (st.inLoop || inComp) && cs != nil && len(w.b.groupAt) > 0 {
		if g := w.b.groupAt[callPos(cs)]; g != nil {
			g.PerIteration = true
		}
	}
	if cs != nil && len(w.b.groupAt) > 0 {
		if g := w.b.groupAt[callPos(cs)]; g != nil {
			w.out.groupFn[g] = w.fnNode
		}
	}
	if (st.inLoop || inComp) && cs != nil {
		for _, t := range cs.Targets {
			if t.Fn != nil {
				w.out.loopCalls[call] = true
				break
			}
		}
	}
	if w.b.needsInfo(cs) {
		w.out.info[call] = &callInfo{stmt: s, indent: indentOf(), inLoop: st.inLoop || inComp, stream: st.stream, singleThreadedAutograd: st.single, fnNode: w.fnNode, notInst: st.notInst}
	}
	if attr, ok := call.Func.(*ast.Attribute); ok && attr.Attr == "manual_backward" {
		w.out.backwardFns[w.fnNode] = true
	}
	if attr, ok := call.Func.(*ast.Attribute); ok && attr.Attr == "backward" {
		w.backward = append(w.backward, st.single)
		w.out.backwardFns[w.fnNode] = true
	} else if cs != nil {
		for _, name := range w.b.apis(cs) {
			if sa := w.b.t.Streams[name]; sa != nil && sa.Role == "backward" {
				w.backward = append(w.backward, st.single)
				break
			}
		}
	}
	if attr, ok := call.Func.(*ast.Attribute); ok && (attr.Attr == "result" || attr.Attr == "join" || attr.Attr == "wait") && waitsToEnd(call) {
		if inner, ok := attr.Value.(*ast.Call); ok {
			w.out.joined[inner] = true
		}
	}
}

// needsInfo reports whether a call's callInfo can be read later: every
// reader looks at calls of table APIs (sites, spawners, stream APIs,
// group creators) or at instantiations of program classes (subclasses of
// a spawning class). Recording only those keeps the walk from allocating
// for each of the program's calls.
func (b *builder) needsInfo(cs *callgraph.CallSite) bool {
	if cs == nil {
		return false
	}
	for _, name := range b.apis(cs) {
		if b.inTables(name) {
			return true
		}
	}
	for _, v := range b.g.CalleeValues(cs) {
		if b.g.Value(v).Kind == callgraph.KClass {
			return true
		}
	}
	return false
}

// mpiLevel reads "mpi4py.rc.thread_level = 'funneled'".
func (w *walker) mpiLevel(n *ast.Assign) {
	for _, t := range n.Targets {
		a, ok := t.(*ast.Attribute)
		if !ok || a.Attr != "thread_level" {
			continue
		}
		if w.b.ref(w.path, a.Value) != "mpi4py.rc" {
			continue
		}
		if c, ok := n.Value.(*ast.Constant); ok && c.Type == ast.ConstStr {
			w.out.mpiLevels = append(w.out.mpiLevels, walkedLevel{c.Str, w.b.pos(w.path, n), w.fnNode})
		}
	}
}

// Prepared is the part of the model's input that depends on each module's
// syntax alone: what its imported names denote and where its lines start.
// Prepare computes it; Load runs it on the spare core while the call
// graph is solved, and Build computes it itself when Input.Prepared is
// nil.
type Prepared struct {
	imports map[string]map[string]string // by module path
	// modules: the qualified names that some module imports with an
	// import statement (import a.b, import a.b as c): modules, not
	// objects.
	modules map[string]bool
	lines   map[string][]int // by file path
	// folded: by file path, an ASCII file's text in lower case (flow's
	// text searches); fsChecks: the lines that name a file system check
	// (fsCheckLines); streamy: the files that mention a stream or a
	// storage resize.
	folded   map[string][]byte
	fsChecks map[string][]int
	streamy  map[string]bool
	// gradReadFiles: the files that mention a backward pass and a read
	// of the gradients (clip_grad…, unscale_), which hvdGradReads reads.
	gradReadFiles map[string]bool
	// accelerated: some file mentions an accelerator (acceleratorWords).
	accelerated bool
	// trains: some file mentions a backward pass or a training loop
	// (trainingWords); without one, the hooks a wrapper installs for
	// backward never run.
	trains bool
	// eagerTops: the top-level packages some module imports when it is
	// itself imported (at module level, in a class body, under an if or
	// try there), not only inside a function that may never run
	// (mmengine's `import deepspeed` in the DeepSpeed branch of init_dist).
	eagerTops map[string]bool
	// fsdpManaged: the method calls on a module that a `with
	// FSDP.state_dict_type(module, …):` around them names (fsdpManagedCalls).
	fsdpManaged map[*ast.Call]bool
}

// Prepare computes what Build needs from the modules' syntax alone. It
// only reads its arguments, so it may run concurrently with
// callgraph.Build over the same modules.
func Prepare(mods []*callgraph.ModuleInput, files []*rules.File, t *api.Tables) *Prepared {
	if t == nil {
		t = api.Default()
	}
	p := &Prepared{imports: make(map[string]map[string]string, len(mods)), modules: map[string]bool{}, lines: make(map[string][]int, len(files))}
	p.eagerTops = map[string]bool{}
	for _, m := range mods {
		p.imports[m.Mod.Path] = importNames(m, t, p.modules)
		eagerImports(m, t, p.eagerTops)
	}
	p.folded = make(map[string][]byte, len(files))
	p.fsChecks = make(map[string][]int, len(files))
	p.streamy = map[string]bool{}
	p.gradReadFiles = map[string]bool{}
	stateDictTyped := map[string]bool{}
	for _, f := range files {
		starts := flow.LineStarts(f.Src)
		p.lines[f.Path] = starts
		p.folded[f.Path] = flow.Fold(f.Src)
		p.fsChecks[f.Path] = fsCheckLines(f, starts)
		if bytes.Contains(f.Src, []byte("tream")) || bytes.Contains(f.Src, []byte("resize_")) {
			p.streamy[f.Path] = true
		}
		if bytes.Contains(f.Src, []byte("state_dict_type")) {
			stateDictTyped[f.Path] = true
		}
		if bytes.Contains(f.Src, []byte("backward")) && (bytes.Contains(f.Src, []byte("clip_grad")) || bytes.Contains(f.Src, []byte("unscale_"))) {
			p.gradReadFiles[f.Path] = true
		}
		if !p.accelerated {
			p.accelerated = mentionsAccelerator(p.folded[f.Path], f.Src)
		}
		if !p.trains {
			p.trains = mentionsTraining(p.folded[f.Path], f.Src)
		}
	}
	// The words may be in comments and strings only ("no backward pass
	// is ever run"): the code must name one. A program taken to run no
	// backward must also say so: it runs its forwards under no_grad or
	// inference_mode (a library's wrapping helper, analysed without the
	// trainer that uses it, says nothing either way).
	textTrains := p.trains
	codeTrains, inference := false, false
	for _, m := range mods {
		t, i := namesTraining(m.AST)
		codeTrains = codeTrains || textTrains && t
		inference = inference || i
		if codeTrains {
			break
		}
	}
	p.trains = codeTrains || !inference
	for _, m := range mods {
		if stateDictTyped[m.Mod.Path] {
			p.fsdpManaged = fsdpManagedCalls(m.AST, p.fsdpManaged)
		}
	}
	return p
}

// fsdpManagedCalls adds to into (made when needed) the calls of a method
// of the module that a `with FSDP.state_dict_type(module, …):` names,
// made in its body: FSDP's state_dict_type takes a module holding FSDP
// modules, so its state_dict() and load_state_dict() there are FSDP's
// (InstructLLaMA's save helpers, analysed without a caller that passes
// the wrapped model).
func fsdpManagedCalls(mod ast.Node, into map[*ast.Call]bool) map[*ast.Call]bool {
	ast.Inspect(mod, func(n ast.Node) bool {
		var items []*ast.WithItem
		var body []ast.Stmt
		switch w := n.(type) {
		case *ast.With:
			items, body = w.Items, w.Body
		case *ast.AsyncWith:
			items, body = w.Items, w.Body
		default:
			return true
		}
		for _, it := range items {
			c, ok := it.ContextExpr.(*ast.Call)
			if !ok || len(c.Args) == 0 {
				continue
			}
			if a, ok := c.Func.(*ast.Attribute); !ok || a.Attr != "state_dict_type" {
				continue
			}
			module := pathText(c.Args[0])
			if module == "" {
				continue
			}
			for _, st := range body {
				ast.Inspect(st, func(x ast.Node) bool {
					switch x := x.(type) {
					case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
						return false
					case *ast.Call:
						if a, ok := x.Func.(*ast.Attribute); ok && pathText(a.Value) == module {
							if into == nil {
								into = map[*ast.Call]bool{}
							}
							into[x] = true
						}
					}
					return true
				})
			}
		}
		return true
	})
	return into
}

// namesTraining reports whether a module's code names a backward pass
// or a training loop (an identifier, attribute or definition whose name
// holds a training word: loss.backward, torch.autograd, trainer.fit,
// training_step), and whether it turns autograd off (no_grad,
// inference_mode).
func namesTraining(mod ast.Node) (training, inference bool) {
	has := func(s string) bool {
		s = strings.ToLower(s)
		for _, w := range trainingNames {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	note := func(s string) {
		training = training || has(s)
		inference = inference || s == "no_grad" || s == "inference_mode"
	}
	ast.Inspect(mod, func(n ast.Node) bool {
		if training {
			return false
		}
		switch n := n.(type) {
		case *ast.Name:
			note(n.Id)
		case *ast.Attribute:
			note(n.Attr)
		case *ast.FunctionDef:
			note(n.Name)
		case *ast.ImportFrom:
			note(n.Module)
		}
		return !training
	})
	return training, inference
}

// trainingNames are trainingWords as parts of identifiers.
var trainingNames = []string{"backward", "autograd", "fit", "train", "_step"}

// trainingWords, in lower case, name a backward pass or what runs one:
// loss.backward(), torch.autograd, a framework's fit() or train(), a
// Trainer, a training_step.
var trainingWords = [][]byte{[]byte("backward"), []byte("autograd"), []byte("fit("), []byte("train("), []byte("trainer"), []byte("_step(")}

// mentionsTraining reports whether a file's text names a backward pass
// or a training loop anywhere (code, strings or comments): folded is its
// lower-case text, or nil for a file that is not ASCII.
func mentionsTraining(folded, src []byte) bool { return mentionsAny(folded, src, trainingWords) }

// acceleratorWords name a device other than the CPU, in lower case. The
// short device names count only quoted or as a method, since "npu" is in
// "input" and "mps" in "dumps".
var acceleratorWords = func() [][]byte {
	var out [][]byte
	for _, w := range []string{"cuda", "gpu", "xpu", "rocm", "accelerat", "habana", "torch_npu", "backends.mps"} {
		out = append(out, []byte(w))
	}
	for _, d := range []string{"mps", "npu", "hpu", "mlu", "xla"} {
		out = append(out, []byte(`"`+d), []byte(`'`+d), []byte("."+d+"("))
	}
	return out
}()

// mentionsAccelerator reports whether a file's text names an accelerator
// anywhere (code, strings or comments): folded is its lower-case text, or
// nil for a file that is not ASCII.
func mentionsAccelerator(folded, src []byte) bool { return mentionsAny(folded, src, acceleratorWords) }

// mentionsAny reports whether a file's lower-case text (folded, or src
// folded here when nil) holds one of words.
func mentionsAny(folded, src []byte, words [][]byte) bool {
	if folded == nil {
		folded = bytes.ToLower(src)
	}
	for _, w := range words {
		if bytes.Contains(folded, w) {
			return true
		}
	}
	return false
}

// eagerImports adds to tops the top-level packages a module imports
// outside its functions.
func eagerImports(m *callgraph.ModuleInput, t *api.Tables, tops map[string]bool) {
	ast.Inspect(m.AST, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda:
			return false
		case *ast.Import:
			for _, a := range n.Names {
				tops[topPackage(t.Canonical(a.Name))] = true
			}
		case *ast.ImportFrom:
			if abs, ok := resolve.Absolute(m.Mod, n.Level, n.Module); ok {
				tops[topPackage(t.Canonical(abs))] = true
			}
		}
		return true
	})
}

// importNames records what each imported local name of a module denotes
// (for Ref on expressions the value analysis did not record), and adds
// the modules its import statements name to modules.
func importNames(m *callgraph.ModuleInput, t *api.Tables, modules map[string]bool) map[string]string {
	names := map[string]string{}
	ast.Inspect(m.AST, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Import:
			for _, a := range n.Names {
				modules[t.Canonical(a.Name)] = true
				if a.Asname != "" {
					names[a.Asname] = t.Canonical(a.Name)
				} else {
					top := a.Name
					for i := 0; i < len(top); i++ {
						if top[i] == '.' {
							top = top[:i]
							break
						}
					}
					names[top] = top
				}
			}
		case *ast.ImportFrom:
			abs, ok := resolve.Absolute(m.Mod, n.Level, n.Module)
			if !ok {
				return false
			}
			for _, a := range n.Names {
				if a.Name == "*" {
					names["*"+abs] = abs // no local name; counts as an import of abs
					continue
				}
				local := a.Asname
				if local == "" {
					local = a.Name
				}
				names[local] = t.Canonical(abs + "." + a.Name)
			}
		}
		return true
	})
	return names
}

// ref resolves a dotted expression through the module's imports
// ("dist.get_rank" → "torch.distributed.get_rank"), canonicalised. It
// reads only what Prepare recorded, so the statement walk and the
// function lowering may both call it.
func (b *builder) ref(path string, e ast.Expr) string {
	var parts []string
	for {
		switch x := e.(type) {
		case *ast.Attribute:
			parts = append(parts, x.Attr)
			e = x.Value
			continue
		case *ast.Name:
			q, ok := b.prepared.imports[path][x.Id]
			if !ok {
				return ""
			}
			for i := len(parts) - 1; i >= 0; i-- {
				q += "." + parts[i]
			}
			return b.t.Canonical(q)
		}
		return ""
	}
}
