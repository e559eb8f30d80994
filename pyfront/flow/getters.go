package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Program functions that hand back an object they already hold. torchrec's
//
//	def _prefetch_context(self) -> PrefetchTrainPipelineContext:
//	    ctx = self._contexts[1]
//	    assert isinstance(ctx, PrefetchTrainPipelineContext)
//	    if self.should_assert_context_invariants(ctx):
//	        self._assert_module_contexts(ctx, target_fqns)
//	    return ctx
//
// runs no kernel that makes its result: `ctx = self._prefetch_context()`
// names self._contexts under a new name (an EvUse From it), not a tensor
// written on the current stream.

// getterRefs returns the names, at the call, of the objects a call of a
// getter program function returns (ok false for any other call).
func (l *lowerer) getterRefs(c *ast.Call) (from []string, ok bool) {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil, false
	}
	g := summarize(&l.memo().getters, fn, func() getter {
		if body, args, ok := l.defOf(fn); ok && args.Vararg == nil && args.Kwarg == nil {
			return getterOf(body, args)
		}
		return getter{}
	})
	if g.returns == nil || len(c.Keywords) > 0 {
		return nil, false
	}
	bound := boundPositionals(c, g.params, g.first)
	closure := strings.HasPrefix(fn.Name, l.fn.Name+".") && !strings.Contains(fn.Name[len(l.fn.Name)+1:], ".")
	for i, r := range g.returns {
		if g.free[i] {
			// A name the function does not bind: in a closure defined
			// in the function being lowered, that function's variable.
			if !closure {
				return nil, false
			}
			from = append(from, r)
			continue
		}
		at, ok := rebased(bound, r)
		if !ok {
			return nil, false
		}
		from = append(from, at)
	}
	return from, true
}

// rebased names, at a call, what a reference rooted at a parameter of
// the callee (self.bufs) refers to: the root replaced by the reference
// the call binds to it (bound: boundPositionals).
func rebased(bound map[string]ast.Expr, ref string) (string, bool) {
	root, rest, _ := strings.Cut(ref, ".")
	refs, ok := references(bound[root])
	if !ok || len(refs) != 1 {
		return "", false
	}
	if rest != "" {
		return refs[0] + "." + rest, true
	}
	return refs[0], true
}

// boundPositionals maps a function's positional parameters (params, the
// first named first) to the expressions a call passes them: a method
// called on a receiver gets it as the first.
func boundPositionals(c *ast.Call, params []string, first string) map[string]ast.Expr {
	bound := map[string]ast.Expr{}
	args := c.Args
	if receiverShift(c, first) == 1 {
		bound[first] = c.Func.(*ast.Attribute).Value
		args = append([]ast.Expr{nil}, args...)
	}
	for i, p := range params {
		if i < len(args) && args[i] != nil {
			bound[p] = args[i]
		}
	}
	return bound
}

// getter is what getterOf found: the references the function returns,
// rooted at its parameters (nil: not a getter), its positional
// parameters and the first one's name.
type getter struct {
	returns []string
	// free: the return is rooted at a name the function neither takes
	// nor binds (a closure's variable of the enclosing function).
	free   []bool
	params []string
	first  string
}

// getterOf reports what a function returns when it is a getter: its body
// names existing objects (local = a reference through a parameter),
// checks them (assert, raise, an if whose arms do the same, calls that are
// not in-place methods, locals it does not return), and returns such
// references, each rooted at a parameter.
func getterOf(body []ast.Stmt, args *ast.Arguments) getter {
	positional := args.PositionalNames()
	params := map[string]bool{}
	for _, p := range positional {
		params[p] = true
	}
	for _, p := range args.KwOnlyArgs {
		params[p.Arg] = true
	}
	if args.Vararg != nil {
		params[args.Vararg.Arg] = true
	}
	if args.Kwarg != nil {
		params[args.Kwarg.Arg] = true
	}
	locals := map[string]string{} // local -> the parameter-rooted reference it names
	freeLocal := map[string]bool{}
	var returns []string
	var free []bool
	isFree := false // set by root: the reference is rooted at a free name
	root := func(e ast.Expr) (string, bool) {
		isFree = false
		refs, ok := references(e)
		if !ok || len(refs) != 1 {
			return "", false
		}
		head, rest, dotted := strings.Cut(refs[0], ".")
		if r, ok := locals[head]; ok {
			if r == "" {
				return "", false // a local computed otherwise
			}
			isFree = freeLocal[head]
			if dotted {
				return r + "." + rest, true
			}
			return r, true
		}
		if !params[head] && head != "self" && head != "cls" {
			isFree = true
			return refs[0], true
		}
		return refs[0], params[head]
	}
	var stmts func([]ast.Stmt) bool
	stmts = func(list []ast.Stmt) bool {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.ExprStmt:
				switch v := s.Value.(type) {
				case *ast.Constant:
					if v.Type != ast.ConstStr {
						return false
					}
				case *ast.Call:
					if a, ok := v.Func.(*ast.Attribute); ok && strings.HasSuffix(a.Attr, "_") && !strings.HasSuffix(a.Attr, "__") {
						return false // x.fill_(): may write what is returned
					}
				default:
					return false
				}
			case *ast.Assert, *ast.Raise, *ast.Pass:
			case *ast.Assign:
				n, ok := s.Targets[0].(*ast.Name)
				if len(s.Targets) != 1 || !ok || params[n.Id] {
					return false
				}
				locals[n.Id], _ = root(s.Value) // "": not returnable
				freeLocal[n.Id] = isFree
			case *ast.AnnAssign:
				n, ok := s.Target.(*ast.Name)
				if !ok || s.Value == nil || params[n.Id] {
					return false
				}
				locals[n.Id], _ = root(s.Value)
				freeLocal[n.Id] = isFree
			case *ast.If:
				if !stmts(s.Body) || !stmts(s.Orelse) {
					return false
				}
			case *ast.Return:
				if s.Value == nil {
					return false
				}
				r, ok := root(s.Value)
				if !ok {
					return false
				}
				returns = append(returns, r)
				free = append(free, isFree)
			default:
				return false
			}
		}
		return true
	}
	if !stmts(body) || len(returns) == 0 {
		return getter{}
	}
	first := ""
	if len(positional) > 0 {
		first = positional[0]
	}
	return getter{returns: returns, free: free, params: positional, first: first}
}

// Program functions that only record their argument's memory as used by
// a stream. torchrec's
//
//	def recursive_record_stream(res, stream):
//	    if isinstance(res, torch.Tensor) and res.device.type in ["cuda", "mtia"]:
//	        res.record_stream(stream)
//	    elif isinstance(res, (list, tuple)):
//	        for v in res:
//	            PipelinedPostproc.recursive_record_stream(v, stream)
//
// reads no device memory of res: passing a tensor to it is the protection
// that t.record_stream(s) is, not a read on the current stream.

// recordOnlyArgs returns which positional arguments of a call go to
// parameters its program callee only records (nil when none do).
func (l *lowerer) recordOnlyArgs(c *ast.Call, fn *rules.Function) map[int]bool {
	if fn == nil || fn == l.fn {
		return nil
	}
	rec := summarizeGuarded(&l.memo().recordOnly, fn, func() recordOnly {
		if body, args, ok := l.defOf(fn); ok {
			// Handing a parameter on to another helper that only
			// records it (RecIS's _holdables_of(batch) filling a list
			// through a recursive _collect) records it too.
			return recordOnlyOf(fn, body, args, func(c *ast.Call, i int) bool {
				_, callee := l.callee(c)
				return callee != nil && callee != fn && l.recordOnlyArgs(c, callee)[i]
			})
		}
		return recordOnly{}
	})
	if len(rec.params) == 0 {
		return nil
	}
	shift := receiverShift(c, rec.first)
	var out map[int]bool
	for i := range c.Args {
		if rec.params[i+shift] {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}

// recordOnly is what recordOnlyOf found: the positions of the parameters
// the function only records, and the first parameter's name.
type recordOnly struct {
	params map[int]bool
	first  string
}

// recordOnlyOf finds the positional parameters whose every use in the
// body is metadata (isinstance, len, .device, .dtype, .shape, .is_cuda),
// p.record_stream(s), filing it in a container (ops.append((h, p))),
// iteration (for v in p, p.values(), p.items()) whose variables are used
// the same way, or handing it to the function itself or, as positional
// argument i of call c, to a function that only records it (handed; nil:
// none does).
func recordOnlyOf(fn *rules.Function, body []ast.Stmt, args *ast.Arguments, handed func(c *ast.Call, i int) bool) recordOnly {
	positional := args.PositionalNames()
	if len(positional) == 0 {
		return recordOnly{}
	}
	self := lastName(fn.Name)
	// loops: for each iterated name, the names its for statements bind;
	// iterated: the Name nodes that are such loops' iterables.
	loops := map[string][]string{}
	iterated := map[ast.Node]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if f, ok := n.(*ast.For); ok {
			if root := iterRoot(f.Iter); root != nil {
				iterated[root] = true
				ast.Inspect(f.Target, func(t ast.Node) bool {
					if v, ok := t.(*ast.Name); ok {
						loops[root.Id] = append(loops[root.Id], v.Id)
					}
					return true
				})
			}
		}
		return true
	})
	// called: attributes called as methods (p.sum()), which may read
	// the tensor; any other attribute of it (p.block_idx, p.shape) is a
	// Python attribute, read on the host, or a view (tensorViews).
	called := map[*ast.Attribute]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if a, ok := c.Func.(*ast.Attribute); ok {
				called[a] = true
			}
		}
		return true
	})
	// accessed: p.values() and the like handed on to the function itself
	// or to another that only records (RecIS's `_collect_holdables(
	// obj.values(), out)` for a ragged tensor): the accessor hands back
	// a tensor the object keeps, which the callee only records in turn.
	accessed := map[*ast.Attribute]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		for i, x := range c.Args {
			ac, ok := x.(*ast.Call)
			if !ok || len(ac.Args) > 0 || len(ac.Keywords) > 0 {
				continue
			}
			if a, ok := ac.Func.(*ast.Attribute); ok && keptAccessors[a.Attr] && (lastDotted(c.Func) == self || handed != nil && handed(c, i)) {
				accessed[a] = true
			}
		}
		return true
	})
	// bad: names loaded somewhere other than an allowed place.
	bad := map[string]bool{}
	var visit func(n, parent ast.Node)
	visit = func(n, parent ast.Node) {
		if id, ok := n.(*ast.Name); ok {
			if a, isAttr := parent.(*ast.Attribute); isAttr && accessed[a] {
				return
			}
			if id.Ctx == ast.Load && !iterated[id] && !recordUse(parent, self, called) && !handedOn(parent, id, handed) {
				bad[id.Id] = true
			}
			return
		}
		if _, ok := n.(*ast.Lambda); ok {
			return
		}
		if c, ok := n.(*ast.Call); ok {
			if a, ok := c.Func.(*ast.Attribute); ok && storeMethods[a.Attr] {
				// self.ops.append((handle, tensors)): filed on the host,
				// no device memory read.
				visit(a.Value, c)
				for _, x := range c.Args {
					for _, e := range storedRefs(x) {
						if _, isName := e.(*ast.Name); !isName {
							visit(e, c)
						}
					}
				}
				return
			}
		}
		ast.Children(n, func(c ast.Node) { visit(c, n) })
	}
	for _, s := range body {
		visit(s, nil)
	}
	out := recordOnly{first: positional[0]}
	for i, p := range positional {
		if !usesName(body, p) {
			continue
		}
		// p and every loop variable taken from it, transitively.
		derived, clean := map[string]bool{p: true}, true
		work := []string{p}
		for len(work) > 0 && clean {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			clean = !bad[v]
			for _, w := range loops[v] {
				if !derived[w] {
					derived[w] = true
					work = append(work, w)
				}
			}
		}
		if clean {
			if out.params == nil {
				out.params = map[int]bool{}
			}
			out.params[i] = true
		}
	}
	return out
}

// handedOn reports whether parent is a call that passes id as a
// positional argument that handed accepts.
func handedOn(parent ast.Node, id *ast.Name, handed func(*ast.Call, int) bool) bool {
	c, ok := parent.(*ast.Call)
	if !ok || handed == nil {
		return false
	}
	for i, a := range c.Args {
		if a == ast.Expr(id) {
			return handed(c, i)
		}
	}
	return false
}

// recordUse reports whether a name loaded directly under parent is used
// only for its metadata or another attribute that is no view of its data
// (LiteGen's `str(t.block_idx)`), its record_stream, or handed to the
// function named self.
func recordUse(parent ast.Node, self string, called map[*ast.Attribute]bool) bool {
	switch p := parent.(type) {
	case *ast.Attribute:
		switch p.Attr {
		case "device", "dtype", "shape", "is_cuda", "record_stream":
			return true
		}
		return !called[p] && !tensorViews[p.Attr]
	case *ast.Call:
		switch lastDotted(p.Func) {
		case "isinstance", "len", "is_tensor", "hasattr", self:
			return true
		}
	}
	return false
}

// keptAccessors are the methods of a container or a ragged tensor that
// hand back what it keeps (a jagged tensor's values and offsets), not a
// computed tensor.
var keptAccessors = map[string]bool{"values": true, "offsets": true, "weight": true, "weights": true, "keys": true, "items": true}

// tensorViews are the attributes of a tensor that are tensors sharing
// its data: reading one reads the tensor.
var tensorViews = map[string]bool{"data": true, "grad": true, "T": true, "mT": true, "H": true, "mH": true, "real": true, "imag": true}

// storeMethods file their arguments in a container.
var storeMethods = map[string]bool{"append": true, "extend": true, "appendleft": true, "put": true, "put_nowait": true}

// storedRefs returns the expressions a stored value is made of: the
// elements of a tuple or list display (nested), or the value itself.
func storedRefs(x ast.Expr) []ast.Expr {
	switch x.(type) {
	case *ast.Tuple, *ast.List:
		var out []ast.Expr
		for _, e := range ast.SeqElts(x) {
			out = append(out, storedRefs(e)...)
		}
		return out
	}
	return []ast.Expr{x}
}

// iterRoot is the name a for loop iterates: p in `for v in p`,
// `p.values()`, `p.items()`.
func iterRoot(e ast.Expr) *ast.Name {
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 && len(c.Keywords) == 0 {
		if a, ok := c.Func.(*ast.Attribute); ok && (a.Attr == "values" || a.Attr == "items") {
			e = a.Value
		}
	}
	n, _ := e.(*ast.Name)
	return n
}

// usesName reports whether body loads name.
func usesName(body []ast.Stmt, name string) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Name); ok && id.Ctx == ast.Load && id.Id == name {
			found = true
		}
		return !found
	})
	return found
}

// Program functions that hand back buffers they keep, or new ones with
// nothing pending. SMORE's embedding reader
//
//	def get_or_create_buf(self, name, n):
//	    if name in self.read_buf and self.read_buf[name][0].shape[0] >= n:
//	        return self.read_buf[name]
//	    buf = torch.zeros(n, self.embed_dim).pin_memory()
//	    out = torch.zeros(n, self.embed_dim).cuda(self.device)
//	    self.read_buf[name] = (buf, out)
//	    return (buf, out)
//
// returns either the pair its dictionary keeps or a pinned host buffer
// and a finished upload: `buf, out = self.get_or_create_buf(name, n)`
// names objects made before the call, not tensors written on the current
// stream by it. getterOf does not cover it: the function stores what it
// made, and a dictionary's item is read with a key that is no constant
// (`t[idx]` on a tensor would gather).

// keptResult is what keptOf found: per position of the tuples the
// function returns (elems) and for its result as a whole, the
// references rooted at its parameters that may be returned there (host
// values and finished uploads add none); ok false when some return is
// neither.
type keptResult struct {
	ok    bool
	whole []string
	elems [][]string
	// unpacked: no return is a tuple display; every element of the
	// result is an item of what whole names.
	unpacked bool
	params   []string
	first    string
}

// keptRefs returns, at the call, the names of the objects that element
// index (-1: the whole result) of a call of a program function may be:
// ok when the function returns only kept objects and host values there.
func (l *lowerer) keptRefs(c *ast.Call, index int) (from []string, ok bool) {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil, false
	}
	k := summarizeGuarded(&l.memo().keptRets, fn, func() keptResult { return l.keptOf(fn) })
	if !k.ok {
		return nil, false
	}
	refs := k.whole
	if index >= 0 && !k.unpacked {
		if index >= len(k.elems) {
			return nil, false
		}
		refs = k.elems[index]
	}
	bound := boundPositionals(c, k.params, k.first)
	for _, kw := range c.Keywords {
		if kw.Arg == "" {
			return nil, false // **kwargs: any parameter may be bound
		}
		bound[kw.Arg] = kw.Value
	}
	for _, r := range refs {
		r, item := strings.CutSuffix(r, "[]")
		root, _, _ := strings.Cut(r, ".")
		if item && !l.ownDict(bound[root]) {
			return nil, false
		}
		at, ok := rebased(bound, r)
		if !ok {
			return nil, false
		}
		from = append(from, at)
	}
	return from, true
}

func (l *lowerer) keptOf(fn *rules.Function) keptResult {
	body, args, ok := l.defOf(fn)
	if !ok || args.Vararg != nil || args.Kwarg != nil {
		return keptResult{}
	}
	params := map[string]bool{}
	positional := args.PositionalNames()
	for _, p := range positional {
		params[p] = true
	}
	first := ""
	if len(positional) > 0 {
		first = positional[0]
	}
	dicts := l.classDictAttrs(fn)
	// settled: locals bound only to host values or finished uploads.
	settled := map[string]bool{}
	inPlace := false
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if len(n.Targets) == 1 {
				if t, isName := n.Targets[0].(*ast.Name); isName {
					if params[t.Id] {
						inPlace = true // a parameter rebound: no longer the caller's object
					}
					s := l.hostish(n.Value, nil) || syncedUpload(n.Value)
					if prev, seen := settled[t.Id]; seen {
						s = s && prev
					}
					settled[t.Id] = s
				}
			}
		case *ast.AugAssign, *ast.AnnAssign, *ast.For, *ast.AsyncFor, *ast.With, *ast.AsyncWith:
			// Rebinding and work the scan does not follow.
			inPlace = true
		case *ast.Call:
			if a, isAttr := n.Func.(*ast.Attribute); isAttr && strings.HasSuffix(a.Attr, "_") && !strings.HasSuffix(a.Attr, "__") {
				if x, isName := a.Value.(*ast.Name); !isName || !settled[x.Id] {
					inPlace = true // x.zero_(): a kernel may write what is returned
				}
			}
		}
		return !inPlace
	})
	if inPlace {
		return keptResult{}
	}
	// ref is the parameter-rooted object e names: self.bufs, or an item
	// of a dictionary the class keeps (self.read_buf[name]).
	ref := func(e ast.Expr) (string, bool) {
		if s, isSub := e.(*ast.Subscript); isSub {
			if a, isAttr := s.Value.(*ast.Attribute); isAttr && dicts[a.Attr] {
				if x, isName := a.Value.(*ast.Name); isName && x.Id == first {
					return first + "." + a.Attr, true
				}
			}
			if x, isName := s.Value.(*ast.Name); isName && params[x.Id] && x.Id != first {
				// buf_dict[name]: an item of a dictionary the caller
				// passes, which keptRefs checks at the call.
				return x.Id + "[]", true
			}
		}
		refs, isRef := references(e)
		if !isRef || len(refs) != 1 {
			return "", false
		}
		head, _, _ := strings.Cut(refs[0], ".")
		return refs[0], params[head]
	}
	res := keptResult{ok: true, params: positional, first: first}
	n := -1 // the returned tuples' length
	var rets []*ast.Return
	ast.InspectBody(body, func(x ast.Node) bool {
		if r, isRet := x.(*ast.Return); isRet {
			rets = append(rets, r)
		}
		return true
	})
	for _, r := range rets {
		if t, isTuple := r.Value.(*ast.Tuple); isTuple {
			if n >= 0 && n != len(t.Elts) {
				return keptResult{}
			}
			n = len(t.Elts)
		}
	}
	if len(rets) == 0 {
		return keptResult{}
	}
	res.elems = make([][]string, max(n, 0))
	res.unpacked = n < 0
	for _, r := range rets {
		if r.Value == nil {
			return keptResult{}
		}
		if t, isTuple := r.Value.(*ast.Tuple); isTuple {
			for i, e := range t.Elts {
				if l.hostish(e, settled) || syncedUpload(e) {
					continue
				}
				x, isRef := ref(e)
				if !isRef {
					return keptResult{}
				}
				res.elems[i] = append(res.elems[i], x)
				res.whole = append(res.whole, x)
			}
			continue
		}
		// A kept sequence returned whole: each element is one of its items.
		x, isRef := ref(r.Value)
		if !isRef {
			return keptResult{}
		}
		res.whole = append(res.whole, x)
		for i := range res.elems {
			res.elems[i] = append(res.elems[i], x)
		}
	}
	return res
}

// ownDict reports e, in the function being lowered, as an attribute of
// its receiver that its class's __init__ binds to a new dictionary.
func (l *lowerer) ownDict(e ast.Expr) bool {
	a, ok := e.(*ast.Attribute)
	if !ok {
		return false
	}
	x, ok := a.Value.(*ast.Name)
	if !ok {
		return false
	}
	_, args, ok := l.defOf(l.fn)
	if !ok || len(args.Positional()) == 0 || args.Positional()[0].Arg != x.Id {
		return false
	}
	return l.classDictAttrs(l.fn)[a.Attr]
}

// classDictAttrs returns the attributes that the __init__
// of fn's class binds once, to a new dictionary: an item of one is a
// look-up, not a gather.
func (l *lowerer) classDictAttrs(fn *rules.Function) map[string]bool {
	md, ok := l.r.(MethodDefiner)
	if !ok {
		return nil
	}
	init, ok := md.MethodDef(fn, "__init__").(*ast.FunctionDef)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, a := range onceBoundAttrs(init, newDict) {
		out[a] = true
	}
	return out
}

// newDict reports a new dictionary: {}, a display, dict(), OrderedDict(),
// defaultdict(…).
func newDict(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Dict:
		return true
	case *ast.Call:
		switch lastDotted(e.Func) {
		case "dict", "OrderedDict", "defaultdict":
			return true
		}
	}
	return false
}
