package flow

import (
	"slices"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Program functions that regroup their arguments' objects. Stochastic
// gradient push's group_by_dtype,
//
//	def group_by_dtype(tensors):
//	    by_dtype = collections.defaultdict(list)
//	    for t in tensors:
//	        by_dtype[t.dtype].append(t)
//	    return by_dtype
//
// returns a new container of the same tensors and runs no kernel: its
// result is those objects under a new name (an EvUse From them), not a
// write on the current stream.

// regroupedArgs returns the names of the arguments whose objects a call
// of a regrouping program function hands back (ok false for any other
// call).
func (l *lowerer) regroupedArgs(c *ast.Call) (from []string, ok bool) {
	if len(c.Keywords) > 0 {
		return nil, false
	}
	return l.regroupedCall(c, references)
}

// regroupedCall returns, for a call of a regrouping function of the
// program, the names refs finds in the arguments the function regroups.
// Keywords may set the function's other parameters (decreasing=True),
// not the regrouped ones.
func (l *lowerer) regroupedCall(c *ast.Call, refs func(ast.Expr) ([]string, bool)) (from []string, ok bool) {
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil, false
	}
	rg := l.regrouping(fn)
	if rg.from == nil {
		return nil, false
	}
	if len(c.Keywords) > 0 {
		_, fargs, _ := l.defOf(fn)
		names := fargs.PositionalNames()
		for _, k := range c.Keywords {
			if k.Arg == "" || slices.ContainsFunc(rg.from, func(p int) bool { return p < len(names) && names[p] == k.Arg }) {
				return nil, false
			}
		}
	}
	shift := receiverShift(c, rg.first) // self.group(xs)
	for _, p := range rg.from {
		i := p - shift
		if i < 0 || i >= len(c.Args) {
			return nil, false
		}
		f, ok := refs(c.Args[i])
		if !ok {
			return nil, false
		}
		from = append(from, f...)
	}
	return from, true
}

// regrouping returns what regroups (or, for a generator, sliceYields)
// finds in a program function, computed once.
func (l *lowerer) regrouping(fn *rules.Function) regrouping {
	return summarize(&l.memo().regroups, fn, func() regrouping {
		body, args, ok := l.defOf(fn)
		if !ok {
			return regrouping{}
		}
		if rg := regroups(body, args); rg.from != nil {
			return rg
		}
		return sliceYields(body, args)
	})
}

// sliceYields reports a generator that yields slices of one of its
// positional parameters and nothing else (`for g in range(n): yield
// seq[g * size:(g + 1) * size]`, EcoRec's split_in_groups): its items
// are views of, or lists taken from, what it was handed. The parameter
// is not rebound, nor its methods called, nor handed to any call but
// len().
func sliceYields(body []ast.Stmt, args *ast.Arguments) regrouping {
	positional := args.PositionalNames()
	param := -1
	ok, yields := true, 0
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if !ok || n == nil {
				return false
			}
			switch x := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				ok = false
			case *ast.YieldFrom, *ast.Await:
				ok = false
			case *ast.Return:
				ok = x.Value == nil
			case *ast.Yield:
				sub, isSub := x.Value.(*ast.Subscript)
				if !isSub {
					ok = false
					return false
				}
				if _, isSlice := sub.Slice.(*ast.Slice); !isSlice {
					ok = false
					return false
				}
				nm, isNm := sub.Value.(*ast.Name)
				if !isNm {
					ok = false
					return false
				}
				i := slices.Index(positional, nm.Id)
				if i < 0 || param >= 0 && param != i {
					ok = false
					return false
				}
				param = i
				yields++
				if mentionsCall(sub.Slice) {
					ok = false
				}
				return false
			}
			return true
		})
	}
	if !ok || param < 0 || yields == 0 {
		return regrouping{}
	}
	name := positional[param]
	// The parameter itself: read by len() and sliced only.
	clean := true
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if !clean || n == nil {
				return false
			}
			switch x := n.(type) {
			case *ast.Name:
				if x.Id == name && x.Ctx != ast.Load {
					clean = false
				}
			case *ast.Call:
				if a, isAttr := x.Func.(*ast.Attribute); isAttr && isName(a.Value, name) {
					clean = false
				}
				for _, arg := range x.Args {
					if isName(arg, name) && dotted(x.Func) != "len" {
						clean = false
					}
				}
				for _, k := range x.Keywords {
					if isName(k.Value, name) {
						clean = false
					}
				}
			}
			return clean
		})
	}
	if !clean {
		return regrouping{}
	}
	return regrouping{from: []int{param}, first: positional[0]}
}

// regrouping is what regroups found: the positional parameters the
// returned container is filled from (nil: not a regrouping function),
// and the name of the first parameter.
type regrouping struct {
	from  []int
	first string
}

// regroups reports which positional parameters a function's returned
// container is filled from, or nil when it is not such a function: its
// body makes one new container, fills it, in loops over parameters, with
// those loops' elements only (keyed by anything computed without a call
// but a plain attribute read), and returns it.
func regroups(body []ast.Stmt, args *ast.Arguments) regrouping {
	positional := args.PositionalNames()
	params := map[string]int{}
	for i, name := range positional {
		params[name] = i
	}
	var out string // the container's name
	var from []int // the parameters looped over
	returned := false
	elems := map[string]bool{}
	var stmts func([]ast.Stmt) bool
	stmts = func(list []ast.Stmt) bool {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.ExprStmt:
				if c, ok := s.Value.(*ast.Constant); ok && c.Type == ast.ConstStr {
					continue // a docstring
				}
				if !fills(s.Value, out, elems) {
					return false
				}
			case *ast.Assign:
				if len(s.Targets) != 1 {
					return false
				}
				if n, ok := s.Targets[0].(*ast.Name); ok && out == "" && newContainer(s.Value) {
					out = n.Id
					continue
				}
				sub, ok := s.Targets[0].(*ast.Subscript)
				if !ok || !isName(sub.Value, out) || !plainKey(sub.Slice) || !isElem(s.Value, elems) {
					return false
				}
			case *ast.For:
				n, ok := s.Target.(*ast.Name)
				it, isName := s.Iter.(*ast.Name)
				if !ok || !isName || out == "" || len(s.Orelse) > 0 {
					return false
				}
				p, isParam := params[it.Id]
				if !isParam {
					return false
				}
				from = append(from, p)
				elems[n.Id] = true
				if !stmts(s.Body) {
					return false
				}
			case *ast.Return:
				if !isName(s.Value, out) {
					return false
				}
				returned = true
			default:
				return false
			}
		}
		return true
	}
	if !stmts(body) || !returned || len(from) == 0 {
		return regrouping{}
	}
	return regrouping{from: from, first: positional[0]}
}

// fills reports whether e only puts a loop element into the container:
// out[key].append(x), out.append(x), out.setdefault(key, []).append(x).
func fills(e ast.Expr, out string, elems map[string]bool) bool {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) != 1 || len(c.Keywords) > 0 || !isElem(c.Args[0], elems) {
		return false
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "append" {
		return false
	}
	switch r := a.Value.(type) {
	case *ast.Name:
		return r.Id == out
	case *ast.Subscript:
		return isName(r.Value, out) && plainKey(r.Slice)
	case *ast.Call:
		// out.setdefault(key, []).append(x)
		sa, ok := r.Func.(*ast.Attribute)
		return ok && sa.Attr == "setdefault" && isName(sa.Value, out) && len(r.Args) == 2 && plainKey(r.Args[0]) && newContainer(r.Args[1])
	}
	return false
}

// newContainer: {}, [], dict(), list(), defaultdict(list),
// collections.defaultdict(list), OrderedDict().
func newContainer(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Dict:
		return len(e.Keys) == 0
	case *ast.List:
		return len(e.Elts) == 0
	case *ast.Call:
		switch lastDotted(e.Func) {
		case "dict", "list", "OrderedDict":
			return len(e.Args) == 0 && len(e.Keywords) == 0
		case "defaultdict":
			return len(e.Args) == 1 && len(e.Keywords) == 0 && (dotted(e.Args[0]) == "list" || dotted(e.Args[0]) == "dict")
		}
	}
	return false
}

// plainKey: a key computed without a call: t.dtype, (t.dtype, t.device),
// a name, a constant.
func plainKey(e ast.Expr) bool {
	plain := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Call, *ast.Lambda, *ast.NamedExpr, *ast.Await, *ast.Yield, *ast.YieldFrom:
			plain = false
		}
		return plain
	})
	return plain
}

func isElem(e ast.Expr, elems map[string]bool) bool {
	n, ok := e.(*ast.Name)
	return ok && elems[n.Id]
}

func isName(e ast.Expr, name string) bool {
	n, ok := e.(*ast.Name)
	return ok && name != "" && n.Id == name
}
