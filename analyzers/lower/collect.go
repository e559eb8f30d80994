package lower

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// fn is a function declaration or literal of the package.
type fn struct {
	name   string
	obj    *types.Func // nil for literals
	node   ast.Node    // *ast.FuncDecl or *ast.FuncLit
	params []*types.Var
	items  []*item
	rf     *rules.Function
	parent *fn
	nlits  int
	// locks: runtime.LockOSThread runs before the function's first
	// communication (directly, or in a callee that locks first).
	locks bool
	// spawnParams: operands (receiver first) that are functions the
	// function runs on a new goroutine (a pool helper's `go f()`), and
	// whether on several at once.
	spawnParams map[int]bool
}

type itemKind int

const (
	itSite      itemKind = iota // a table API call
	itCall                      // a call of a function of this package
	itExt                       // a call of a summarised function of another package
	itSpawn                     // a go statement or spawner call
	itLit                       // a function literal run on the creator's goroutine
	itWait                      // a request wait (MPI_Wait)
	itBlock                     // a point where the goroutine may change threads
	itLock                      // runtime.LockOSThread
	itUnlock                    // runtime.UnlockOSThread, not deferred
	itRecord                    // cudaEventRecord(event, stream)
	itWaitEvent                 // cudaStreamWaitEvent(stream, event)
)

// item is one step of a function, in source order.
type item struct {
	kind itemKind
	call *ast.CallExpr // the call (nil for go statements of literals, blocks)
	at   ast.Node      // what positions refer to
	name string        // qualified API or callee name
	coll *api.Collective
	ops  []ast.Expr // receiver first (methods), then arguments
	// itCall / itLit / itSpawn
	callee *fn
	// itExt / itSpawn of a summarised function
	sum *Summary
	// itSpawn
	many, loop, joined bool
	// itWait: the request; itRecord/itWaitEvent: the stream
	arg ast.Expr
	ev  ast.Expr // itRecord/itWaitEvent: the event
}

// call edges made once per (caller, position)
type edgeKey struct {
	f   *fn
	pos token.Pos
}

func (b *builder) newFn(name string, obj *types.Func, node ast.Node, sig *types.Signature, parent *fn) *fn {
	f := &fn{name: name, obj: obj, node: node, parent: parent}
	if sig != nil {
		if r := sig.Recv(); r != nil {
			f.params = append(f.params, r)
		}
		for v := range sig.Params().Variables() {
			f.params = append(f.params, v)
		}
	}
	f.rf = &rules.Function{Name: name, Lang: rules.Go, Pos: b.pos(node.Pos(), token.NoPos)}
	b.funcs = append(b.funcs, f)
	b.byNode[node] = f
	b.prog.Funcs = append(b.prog.Funcs, f.rf)
	return f
}

// generated reports whether a file is cgo's generated glue (positions in
// the build cache, not in the module).
func (b *builder) generated(file *ast.File) bool {
	name := b.pass.Fset.Position(file.Pos()).Filename
	base := filepath.Base(name)
	return strings.HasPrefix(base, "_cgo_") || !strings.HasSuffix(base, ".go")
}

// collect creates the functions and their items.
func (b *builder) collect() {
	info := b.pass.TypesInfo
	var decls []*ast.FuncDecl
	for _, file := range b.pass.Files {
		if b.generated(file) {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := info.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			f := b.newFn(funcName(obj), obj, fd, obj.Signature(), nil)
			b.byObj[obj] = f
			decls = append(decls, fd)
		}
	}
	// Creators and cgo temporaries first: values are flow-insensitive.
	for _, file := range b.pass.Files {
		ast.Inspect(file, b.noteAssign)
	}
	for _, fd := range decls {
		b.scan(b.byNode[fd], fd.Body)
	}
	b.linkParamSpawns()
	b.computeLocks()
}

// noteSpawnParam records that f runs its function-valued parameter e on
// a new goroutine.
func (b *builder) noteSpawnParam(f *fn, e ast.Expr, many bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return
	}
	for i, p := range f.params {
		if p == v {
			if f.spawnParams == nil {
				f.spawnParams = map[int]bool{}
			}
			f.spawnParams[i] = f.spawnParams[i] || many
		}
	}
}

// linkParamSpawns turns the functions passed to pool helpers (a function
// of this package or a summarised one that runs its parameter on a new
// goroutine) into spawns: `submit(func() { … })` starts a goroutine.
func (b *builder) linkParamSpawns() {
	for _, f := range b.funcs {
		var out []*item
		changed := false
		for _, it := range f.items {
			out = append(out, it)
			var params map[int]bool
			switch {
			case it.kind == itCall && it.callee.spawnParams != nil:
				params = it.callee.spawnParams
			case it.kind == itExt && len(it.sum.SpawnParams) > 0:
				params = map[int]bool{}
				for _, p := range it.sum.SpawnParams {
					params[p] = it.sum.SpawnMany
				}
			default:
				continue
			}
			for idx, many := range params {
				if idx >= len(it.ops) {
					continue
				}
				sp := &item{kind: itSpawn, name: it.name, loop: it.loop, many: many || it.loop}
				switch a := ast.Unparen(it.ops[idx]).(type) {
				case *ast.FuncLit:
					for _, l := range f.items {
						if l.kind == itLit && l.at == a {
							l.kind, l.name, l.loop, l.many = itSpawn, it.name, it.loop, many || it.loop
							changed = true
						}
					}
					continue
				case *ast.Ident:
					if o, ok := b.pass.TypesInfo.Uses[a].(*types.Func); ok && b.byObj[o] != nil {
						sp.callee, sp.at = b.byObj[o], a
					}
				case *ast.SelectorExpr:
					if o, ok := b.pass.TypesInfo.Uses[a.Sel].(*types.Func); ok && b.byObj[o] != nil {
						sp.callee, sp.at = b.byObj[o], a
						if sel := b.pass.TypesInfo.Selections[a]; sel != nil && sel.Kind() == types.MethodVal {
							sp.ops = []ast.Expr{a.X}
						}
					}
				}
				if sp.callee != nil {
					out = append(out, sp)
					changed = true
				}
			}
		}
		if changed {
			f.items = out
		}
	}
}

func (b *builder) noteAssign(n ast.Node) bool {
	info := b.pass.TypesInfo
	bindCreator := func(lhs ast.Expr, rhs ast.Expr) {
		call, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok {
			return
		}
		name, _ := b.calleeName(call)
		gc := b.tables.GroupCreators[name]
		if gc == nil || gc.Out.Present() || gc.Returns == "world" {
			return
		}
		if obj := b.lhsObj(lhs); obj != nil {
			if _, dup := b.creator[obj]; !dup {
				b.creator[obj] = b.allocValue(name, gc.Library, call)
			}
		}
	}
	switch x := n.(type) {
	case *ast.AssignStmt:
		for i, l := range x.Lhs {
			if id, ok := l.(*ast.Ident); ok && strings.HasPrefix(id.Name, "_cgo") && len(x.Rhs) == len(x.Lhs) {
				if obj := info.ObjectOf(id); obj != nil {
					b.subst[obj] = x.Rhs[i]
				}
			}
		}
		if len(x.Rhs) == 1 {
			bindCreator(x.Lhs[0], x.Rhs[0])
		} else if len(x.Rhs) == len(x.Lhs) {
			for i := range x.Lhs {
				bindCreator(x.Lhs[i], x.Rhs[i])
			}
		}
	case *ast.ValueSpec:
		for i, id := range x.Names {
			if strings.HasPrefix(id.Name, "_cgo") && i < len(x.Values) {
				if obj := info.ObjectOf(id); obj != nil {
					b.subst[obj] = x.Values[i]
				}
			}
		}
		if len(x.Values) == 1 && len(x.Names) >= 1 {
			bindCreator(x.Names[0], x.Values[0])
		} else if len(x.Values) == len(x.Names) {
			for i := range x.Names {
				bindCreator(x.Names[i], x.Values[i])
			}
		}
	case *ast.CallExpr:
		// out-parameter creators: ncclCommInitRank(&comm, …), cudaStreamCreate(&s)
		name, _ := b.calleeName(x)
		if name == "" {
			return true
		}
		if gc := b.tables.GroupCreators[name]; gc != nil && gc.Out.Pos >= 0 && gc.Out.Pos < len(x.Args) {
			out := b.strip(x.Args[gc.Out.Pos])
			if ix, ok := out.(*ast.IndexExpr); ok && gc.Clique {
				out = b.strip(ix.X) // ncclCommInitAll(&comms[0], …) fills the array
			}
			if obj := b.lhsObj(out); obj != nil {
				if _, dup := b.creator[obj]; !dup {
					b.creator[obj] = b.allocValue(name, gc.Library, x)
				}
			}
		}
		if st := b.tables.Streams[name]; st != nil && st.Role == "new_stream" && st.Arg.Pos >= 0 && st.Arg.Pos < len(x.Args) {
			if obj := b.lhsObj(b.strip(x.Args[st.Arg.Pos])); obj != nil {
				if _, dup := b.creator[obj]; !dup {
					b.creator[obj] = b.mkValue("stream", "stream", name, "", x.Pos())
				}
			}
		}
	}
	return true
}

// lhsObj is the variable or field an expression names.
func (b *builder) lhsObj(e ast.Expr) types.Object {
	info := b.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if x.Name == "_" {
			return nil
		}
		return info.ObjectOf(x)
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		return info.ObjectOf(x.Sel)
	case *ast.IndexExpr:
		return b.lhsObj(x.X)
	case *ast.StarExpr:
		return b.lhsObj(x.X)
	}
	return nil
}

// funcName is the qualified name of a function or method: importpath.Func,
// importpath.Type.Method, or C.name for cgo's _Cfunc_name.
func funcName(f *types.Func) string {
	name := f.Name()
	for _, pre := range []string{"_Cfunc_", "_C2func_"} {
		if strings.HasPrefix(name, pre) {
			return "C." + strings.TrimPrefix(name, pre)
		}
	}
	if f.Pkg() == nil {
		return name
	}
	if recv := f.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		switch n := types.Unalias(t).(type) {
		case *types.Named:
			return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + name
		case *types.Interface:
			return f.FullName()
		}
		return f.FullName()
	}
	return f.Pkg().Path() + "." + name
}

// cName maps cgo's mangled identifiers of C variables, macros and
// constants back to "C.name".
func cName(id string) string {
	for _, pre := range []string{"_Cmacro_", "_Cvar_", "_Ciconst_", "_Cconst_", "_Cfconst_", "_Csconst_", "_Cfunc_", "_C2func_"} {
		if strings.HasPrefix(id, pre) {
			return "C." + strings.TrimPrefix(id, pre)
		}
	}
	return ""
}

// calleeName resolves a call's static callee.
func (b *builder) calleeName(call *ast.CallExpr) (string, *types.Func) {
	info := b.pass.TypesInfo
	fun := ast.Unparen(call.Fun)
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		return "", nil
	}
	f, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return rawCName(info, fun), nil
	}
	// Aliases name a binding's other import paths (cogentcore's MPI
	// package before it moved).
	return b.tables.Canonical(funcName(f)), f
}

// rawCName is "C.name" for a selector C.name of a file whose cgo
// processing failed (a C header missing on the machine: go list then hands
// back the file as written, and the failed import leaves "C" a package
// name with nothing in it), or "".
func rawCName(info *types.Info, e ast.Expr) string {
	se, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := se.X.(*ast.Ident)
	if !ok || id.Name != "C" {
		return ""
	}
	if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "C" {
		return "C." + se.Sel.Name
	}
	return ""
}

// operands lists a call's receiver (for method calls) and arguments.
func (b *builder) operands(call *ast.CallExpr, f *types.Func) []ast.Expr {
	if f != nil && f.Signature().Recv() != nil {
		if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if sel := b.pass.TypesInfo.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
				return append([]ast.Expr{se.X}, call.Args...)
			}
		}
	}
	return call.Args
}

// argOf returns the operand an api.Arg names (positions exclude the
// receiver), or nil.
func argOf(call *ast.CallExpr, a api.Arg) ast.Expr {
	if a.Pos >= 0 && a.Pos < len(call.Args) {
		return call.Args[a.Pos]
	}
	return nil
}

// scan walks one function body and records its items.
func (b *builder) scan(f *fn, body *ast.BlockStmt) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if !b.visit(f, n, stack) {
			return false
		}
		stack = append(stack, n)
		return true
	})
}

func loopDepth(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// visit handles one node; false skips its children.
func (b *builder) visit(f *fn, n ast.Node, stack []ast.Node) bool {
	info := b.pass.TypesInfo
	switch x := n.(type) {
	case *ast.FuncLit:
		if isCgoWrapper(x, stack) {
			return true // cgo's pointer-check closure: part of this function
		}
		lit := b.literal(f, x)
		f.items = append(f.items, &item{kind: itLit, at: x, callee: lit})
		return false
	case *ast.GoStmt:
		it := &item{kind: itSpawn, at: x, name: "go", loop: loopDepth(stack)}
		it.many = it.loop
		call := x.Call
		if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
			it.callee = b.literal(f, lit)
			it.ops = call.Args
		} else {
			name, obj := b.calleeName(call)
			it.ops = b.operands(call, obj)
			b.spawnTarget(it, name, obj)
			if obj == nil {
				b.noteSpawnParam(f, call.Fun, it.many)
			}
		}
		it.joined = joinedAfter(append(stack, x))
		f.items = append(f.items, it)
		f.items = append(f.items, &item{kind: itBlock, at: x, name: "go statement"})
		for _, a := range call.Args {
			ast.Inspect(a, func(m ast.Node) bool { return m == a || b.visitNested(f, m, stack) })
		}
		return false
	case *ast.SendStmt:
		f.items = append(f.items, &item{kind: itBlock, at: x, name: "channel send"})
	case *ast.SelectStmt:
		f.items = append(f.items, &item{kind: itBlock, at: x, name: "select"})
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			f.items = append(f.items, &item{kind: itBlock, at: x, name: "channel receive"})
		}
	case *ast.RangeStmt:
		if t := info.TypeOf(x.X); t != nil {
			if _, ok := t.Underlying().(*types.Chan); ok {
				f.items = append(f.items, &item{kind: itBlock, at: x, name: "channel receive"})
			}
		}
	case *ast.CallExpr:
		return b.visitCall(f, x, stack)
	}
	return true
}

// visitNested is visit for the arguments of a go statement, which run on
// the spawning goroutine.
func (b *builder) visitNested(f *fn, n ast.Node, stack []ast.Node) bool {
	if n == nil {
		return true
	}
	return b.visit(f, n, stack)
}

func isCgoWrapper(lit *ast.FuncLit, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	if call, ok := stack[len(stack)-1].(*ast.CallExpr); !ok || ast.Unparen(call.Fun) != lit {
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (id.Name == "_cgoCheckPointer" || strings.HasPrefix(id.Name, "_Cfunc_") || strings.HasPrefix(id.Name, "_C2func_")) {
			found = true
		}
		return !found
	})
	return found
}

// literal creates the Function of a function literal and scans it.
func (b *builder) literal(parent *fn, lit *ast.FuncLit) *fn {
	if f := b.byNode[lit]; f != nil {
		return f
	}
	top := parent
	for top.parent != nil {
		top = top.parent
	}
	top.nlits++
	sig, _ := b.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	f := b.newFn(fmt.Sprintf("%s$%d", top.name, top.nlits), nil, lit, sig, parent)
	b.scan(f, lit.Body)
	return f
}

// spawnTarget resolves the function a spawn runs, by its callee.
func (b *builder) spawnTarget(it *item, name string, obj *types.Func) {
	if obj == nil {
		return
	}
	it.name = "go"
	if t := b.byObj[obj]; t != nil {
		it.callee = t
		return
	}
	var s Summary
	if b.pass.ImportObjectFact(obj.Origin(), &s) {
		it.sum = &s
		it.name = name
	}
}

func (b *builder) visitCall(f *fn, call *ast.CallExpr, stack []ast.Node) bool {
	name, obj := b.calleeName(call)
	if name == "" {
		return true
	}
	if strings.HasPrefix(name, "C.") {
		// Report cgo calls at the call the user wrote: cgo wraps calls that
		// pass pointers in a closure whose inner call sits at the ')'.
		for i := len(stack) - 1; i > 0; i-- {
			if lit, ok := stack[i].(*ast.FuncLit); ok {
				if outer, ok := stack[i-1].(*ast.CallExpr); ok && ast.Unparen(outer.Fun) == lit && isCgoWrapper(lit, stack[:i]) {
					return b.visitCallAt(f, call, outer, name, obj, stack)
				}
				break
			}
		}
	}
	return b.visitCallAt(f, call, call, name, obj, stack)
}

func (b *builder) visitCallAt(f *fn, call *ast.CallExpr, at ast.Node, name string, obj *types.Func, stack []ast.Node) bool {
	if name == "runtime.LockOSThread" {
		f.items = append(f.items, &item{kind: itLock, call: call, at: at, name: name})
		return true
	}
	if name == "runtime.UnlockOSThread" {
		// `defer runtime.UnlockOSThread()` runs at the function's end; a
		// plain call undoes the lock for what follows it.
		if len(stack) == 0 || !isDefer(stack[len(stack)-1]) {
			f.items = append(f.items, &item{kind: itUnlock, call: call, at: at, name: name})
		}
		return true
	}
	if isBlocking(name) {
		f.items = append(f.items, &item{kind: itBlock, call: call, at: at, name: name})
	}
	if sp := b.tables.Spawners[name]; sp != nil && sp.Context == "goroutine" {
		it := &item{kind: itSpawn, call: call, at: at, name: name, loop: loopDepth(stack)}
		it.many = it.loop || sp.Many
		var target ast.Expr
		if sp.Target.Pos >= 0 && sp.Target.Pos < len(call.Args) {
			target = ast.Unparen(call.Args[sp.Target.Pos])
		}
		switch t := target.(type) {
		case *ast.FuncLit:
			it.callee = b.literal(f, t)
		case nil:
		default:
			// a function value: worker, w.loop, lib.Serve
			var tobj *types.Func
			switch e := t.(type) {
			case *ast.Ident:
				tobj, _ = b.pass.TypesInfo.Uses[e].(*types.Func)
			case *ast.SelectorExpr:
				tobj, _ = b.pass.TypesInfo.Uses[e.Sel].(*types.Func)
				if sel := b.pass.TypesInfo.Selections[e]; sel != nil && sel.Kind() == types.MethodVal {
					it.ops = []ast.Expr{e.X}
				}
			}
			if tobj != nil {
				if tf := b.byObj[tobj]; tf != nil {
					it.callee = tf
				} else {
					var s Summary
					if b.pass.ImportObjectFact(tobj, &s) {
						it.sum = &s
					}
				}
			} else {
				b.noteSpawnParam(f, t, it.many)
			}
		}
		stmtStack := stack
		it.joined = joinedAfter(append(stmtStack, call))
		f.items = append(f.items, it)
		for i, a := range call.Args {
			if i == sp.Target.Pos {
				continue
			}
			ast.Inspect(a, func(m ast.Node) bool { return m == a || b.visitNested(f, m, stack) })
		}
		if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			ast.Inspect(se.X, func(m ast.Node) bool { return b.visitNested(f, m, stack) })
		}
		return false
	}
	if c := b.tables.Collectives[name]; c != nil {
		f.items = append(f.items, &item{kind: itSite, call: call, at: at, name: name, coll: c, ops: b.operands(call, obj)})
		return true
	}
	if st := b.tables.Streams[name]; st != nil {
		switch st.Role {
		case "wait_work":
			f.items = append(f.items, &item{kind: itWait, call: call, at: at, name: name, arg: argOf(call, st.Arg)})
			return true
		case "record_event", "wait_event":
			k := itRecord
			if st.Role == "wait_event" {
				k = itWaitEvent
			}
			f.items = append(f.items, &item{kind: k, call: call, at: at, name: name, arg: argOf(call, st.Arg), ev: argOf(call, st.Event)})
			return true
		}
	}
	if obj == nil || obj.Pkg() == nil {
		return true
	}
	if t := b.byObj[obj]; t != nil {
		f.items = append(f.items, &item{kind: itCall, call: call, at: at, name: name, callee: t, ops: b.operands(call, obj), loop: loopDepth(stack)})
		return true
	}
	if obj.Pkg() != b.pass.Pkg {
		var s Summary
		if b.pass.ImportObjectFact(obj.Origin(), &s) {
			f.items = append(f.items, &item{kind: itExt, call: call, at: at, name: name, sum: &s, ops: b.operands(call, obj), loop: loopDepth(stack)})
		}
	}
	return true
}

// isBlocking lists calls after which a goroutine may resume on another OS
// thread (it parks, or it can be preempted in a long wait).
func isBlocking(name string) bool {
	switch name {
	case "time.Sleep", "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock",
		"sync.WaitGroup.Wait", "sync.Cond.Wait", "runtime.Gosched",
		"golang.org/x/sync/errgroup.Group.Wait":
		return true
	}
	return false
}

// joinedAfter reports whether the statement holding the spawn (the last
// element of stack) is followed, in its block, by a wait for what it
// spawned: x.Wait() (WaitGroup, errgroup, conc) or a channel receive. When
// the spawn ends a loop body, the statement after the loop counts.
func joinedAfter(stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		var list []ast.Stmt
		switch p := stack[i-1].(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		default:
			continue
		}
		stmt, ok := stack[i].(ast.Stmt)
		if !ok {
			continue
		}
		idx := -1
		for j, s := range list {
			if s == stmt {
				idx = j
			}
		}
		if idx < 0 {
			return false
		}
		for j := idx + 1; j < len(list); j++ {
			if isAddStmt(list[j]) {
				continue
			}
			return isJoin(list[j])
		}
		// last statement of a block: continue past an enclosing loop only
		if i >= 2 {
			switch stack[i-2].(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				i-- // the loop statement becomes the statement to follow
				continue
			}
		}
		return false
	}
	return false
}

// isAddStmt matches wg.Add(n), which may sit between a spawn and its wait.
// Another spawn may not: `go a(); go b(); wg.Wait()` joins b, not a.
func isAddStmt(s ast.Stmt) bool {
	if x, ok := s.(*ast.ExprStmt); ok {
		if c, ok := x.X.(*ast.CallExpr); ok {
			if se, ok := c.Fun.(*ast.SelectorExpr); ok && se.Sel.Name == "Add" {
				return true
			}
		}
	}
	return false
}

func isJoin(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if se, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && (se.Sel.Name == "Wait" || se.Sel.Name == "WaitAndRecover") {
				found = true
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				found = true
			}
		}
		return !found
	})
	return found
}

// computeLocks decides, for every function, whether it locks its OS
// thread before its first communication; callees first, to a fixpoint.
func (b *builder) computeLocks() {
	for range 4 {
		changed := false
		for _, f := range b.funcs {
			l := b.locksFirst(f)
			if l != f.locks {
				f.locks, changed = l, true
			}
		}
		if !changed {
			return
		}
	}
}

// LockOSThread calls nest: the thread stays locked until as many
// UnlockOSThread calls have run, so the locks are counted.
func (b *builder) locksFirst(f *fn) bool {
	held := 0
	for _, it := range f.items {
		switch it.kind {
		case itLock:
			held++
		case itUnlock:
			if held > 0 {
				held--
			}
		case itSite:
			return held > 0
		case itExt:
			if it.sum.Locks {
				held++
			} else if len(it.sum.Ops) > 0 {
				return held > 0
			}
		case itCall, itLit:
			if it.callee.locks {
				held++
			} else if b.hasOps(it.callee) {
				return held > 0
			}
		}
	}
	return held > 0
}

// undoneAt returns where f, having locked its OS thread, undoes the lock
// with a plain UnlockOSThread before it communicates again (nil if it
// does not). Only f's own items count: a callee's unlock is rare.
func (b *builder) undoneAt(f *fn) ast.Node {
	held := 0
	var unlock ast.Node
	for _, it := range f.items {
		switch it.kind {
		case itLock:
			held++
		case itUnlock:
			if held == 1 {
				unlock = it.at
			}
			if held > 0 {
				held--
			}
		case itSite:
			if held == 0 && unlock != nil {
				return unlock
			}
		case itExt:
			if held == 0 && unlock != nil && len(it.sum.Ops) > 0 {
				return unlock
			}
			if it.sum.Locks {
				held++
			}
		case itCall, itLit:
			if held == 0 && unlock != nil && b.hasOps(it.callee) {
				return unlock
			}
			if it.callee.locks {
				held++
			}
		}
	}
	return nil
}

// isDefer reports whether n is a defer statement.
func isDefer(n ast.Node) bool {
	_, ok := n.(*ast.DeferStmt)
	return ok
}

// hasOps reports whether f communicates on its own goroutine (memoised;
// a recursive cycle counts as silent).
func (b *builder) hasOps(f *fn) bool {
	switch b.opsMemo[f] {
	case 1, 3:
		return false
	case 2:
		return true
	}
	b.opsMemo[f] = 1
	res := false
	for _, it := range f.items {
		switch it.kind {
		case itSite:
			res = true
		case itExt:
			res = len(it.sum.Ops) > 0
		case itCall, itLit:
			res = b.hasOps(it.callee)
		}
		if res {
			break
		}
	}
	b.opsMemo[f] = 3
	if res {
		b.opsMemo[f] = 2
	}
	return res
}
