package ast

// Visitor's Visit is called for each node Walk meets; if it returns a
// non-nil Visitor w, Walk visits the node's children with w and then calls
// w.Visit(nil).
type Visitor interface {
	Visit(node Node) (w Visitor)
}

// Walk traverses the tree rooted at node in depth-first, field order.
func Walk(v Visitor, node Node) {
	if v = v.Visit(node); v == nil {
		return
	}
	Children(node, func(c Node) { Walk(v, c) })
	v.Visit(nil)
}

// Inspect traverses the tree in depth-first field order, calling f(node)
// for each node; when f returns true, Inspect visits the node's children
// and then calls f(nil).
func Inspect(node Node, f func(Node) bool) {
	// Walk with f as the Visitor, without an interface call on every
	// node: the analyses inspect the whole program several times over.
	if !f(node) {
		return
	}
	// The commonest nodes are walked here directly; the rest through
	// Children. The order is Children's.
	switch n := node.(type) {
	case *Name, *Constant:
	case *Attribute:
		inspectExpr(n.Value, f)
	case *Call:
		inspectExpr(n.Func, f)
		inspectExprs(n.Args, f)
		for _, k := range n.Keywords {
			Inspect(k, f)
		}
	case *Keyword:
		inspectExpr(n.Value, f)
	case *Subscript:
		inspectExpr(n.Value, f)
		inspectExpr(n.Slice, f)
	case *Tuple:
		inspectExprs(n.Elts, f)
	case *List:
		inspectExprs(n.Elts, f)
	case *BinOp:
		inspectExpr(n.Left, f)
		inspectExpr(n.Right, f)
	case *UnaryOp:
		inspectExpr(n.Operand, f)
	case *BoolOp:
		inspectExprs(n.Values, f)
	case *Compare:
		inspectExpr(n.Left, f)
		inspectExprs(n.Comparators, f)
	case *ExprStmt:
		inspectExpr(n.Value, f)
	case *Assign:
		inspectExprs(n.Targets, f)
		inspectExpr(n.Value, f)
	case *Return:
		inspectExpr(n.Value, f)
	case *If:
		inspectExpr(n.Test, f)
		for _, s := range n.Body {
			Inspect(s, f)
		}
		for _, s := range n.Orelse {
			Inspect(s, f)
		}
	default:
		Children(node, func(c Node) { Inspect(c, f) })
	}
	f(nil)
}

func inspectExpr(x Expr, f func(Node) bool) {
	if x != nil {
		Inspect(x, f)
	}
}

func inspectExprs(xs []Expr, f func(Node) bool) {
	for _, x := range xs {
		if x != nil {
			Inspect(x, f)
		}
	}
}

// Children calls fn for each direct, non-nil child node of n in field order
// (operators, contexts and plain values are not nodes).
func Children(n Node, fn func(Node)) {
	e := func(x Expr) {
		if x != nil {
			fn(x)
		}
	}
	es := func(xs []Expr) {
		for _, x := range xs {
			if x != nil {
				fn(x)
			}
		}
	}
	ss := func(xs []Stmt) {
		for _, x := range xs {
			fn(x)
		}
	}
	ps := func(xs []Pattern) {
		for _, x := range xs {
			fn(x)
		}
	}
	tps := func(xs []TypeParam) {
		for _, x := range xs {
			fn(x)
		}
	}
	args := func(a *Arguments) {
		if a != nil {
			fn(a)
		}
	}
	kws := func(xs []*Keyword) {
		for _, x := range xs {
			fn(x)
		}
	}
	gens := func(xs []*Comprehension) {
		for _, x := range xs {
			fn(x)
		}
	}
	switch n := n.(type) {
	case *Module:
		ss(n.Body)
		for _, t := range n.TypeIgnores {
			fn(t)
		}
	case *FunctionDef:
		args(n.Args)
		ss(n.Body)
		es(n.DecoratorList)
		e(n.Returns)
		tps(n.TypeParams)
	case *AsyncFunctionDef:
		args(n.Args)
		ss(n.Body)
		es(n.DecoratorList)
		e(n.Returns)
		tps(n.TypeParams)
	case *ClassDef:
		es(n.Bases)
		kws(n.Keywords)
		ss(n.Body)
		es(n.DecoratorList)
		tps(n.TypeParams)
	case *Return:
		e(n.Value)
	case *Delete:
		es(n.Targets)
	case *Assign:
		es(n.Targets)
		e(n.Value)
	case *TypeAlias:
		e(n.Name)
		tps(n.TypeParams)
		e(n.Value)
	case *AugAssign:
		e(n.Target)
		e(n.Value)
	case *AnnAssign:
		e(n.Target)
		e(n.Annotation)
		e(n.Value)
	case *For:
		e(n.Target)
		e(n.Iter)
		ss(n.Body)
		ss(n.Orelse)
	case *AsyncFor:
		e(n.Target)
		e(n.Iter)
		ss(n.Body)
		ss(n.Orelse)
	case *While:
		e(n.Test)
		ss(n.Body)
		ss(n.Orelse)
	case *If:
		e(n.Test)
		ss(n.Body)
		ss(n.Orelse)
	case *With:
		for _, it := range n.Items {
			fn(it)
		}
		ss(n.Body)
	case *AsyncWith:
		for _, it := range n.Items {
			fn(it)
		}
		ss(n.Body)
	case *Match:
		e(n.Subject)
		for _, c := range n.Cases {
			fn(c)
		}
	case *Raise:
		e(n.Exc)
		e(n.Cause)
	case *Try:
		ss(n.Body)
		for _, h := range n.Handlers {
			fn(h)
		}
		ss(n.Orelse)
		ss(n.Finalbody)
	case *TryStar:
		ss(n.Body)
		for _, h := range n.Handlers {
			fn(h)
		}
		ss(n.Orelse)
		ss(n.Finalbody)
	case *Assert:
		e(n.Test)
		e(n.Msg)
	case *Import:
		for _, a := range n.Names {
			fn(a)
		}
	case *ImportFrom:
		for _, a := range n.Names {
			fn(a)
		}
	case *ExprStmt:
		e(n.Value)
	case *BoolOp:
		es(n.Values)
	case *NamedExpr:
		e(n.Target)
		e(n.Value)
	case *BinOp:
		e(n.Left)
		e(n.Right)
	case *UnaryOp:
		e(n.Operand)
	case *Lambda:
		args(n.Args)
		e(n.Body)
	case *IfExp:
		e(n.Test)
		e(n.Body)
		e(n.Orelse)
	case *Dict:
		// Keys and values interleaved, as they appear in the source.
		for i, v := range n.Values {
			if i < len(n.Keys) {
				e(n.Keys[i])
			}
			e(v)
		}
	case *Set:
		es(n.Elts)
	case *ListComp:
		e(n.Elt)
		gens(n.Generators)
	case *SetComp:
		e(n.Elt)
		gens(n.Generators)
	case *DictComp:
		e(n.Key)
		e(n.Value)
		gens(n.Generators)
	case *GeneratorExp:
		e(n.Elt)
		gens(n.Generators)
	case *Await:
		e(n.Value)
	case *Yield:
		e(n.Value)
	case *YieldFrom:
		e(n.Value)
	case *Compare:
		e(n.Left)
		es(n.Comparators)
	case *Call:
		e(n.Func)
		es(n.Args)
		kws(n.Keywords)
	case *FormattedValue:
		e(n.Value)
		e(n.FormatSpec)
	case *JoinedStr:
		es(n.Values)
	case *Attribute:
		e(n.Value)
	case *Subscript:
		e(n.Value)
		e(n.Slice)
	case *Starred:
		e(n.Value)
	case *List:
		es(n.Elts)
	case *Tuple:
		es(n.Elts)
	case *Slice:
		e(n.Lower)
		e(n.Upper)
		e(n.Step)
	case *Comprehension:
		e(n.Target)
		e(n.Iter)
		es(n.Ifs)
	case *ExceptHandler:
		e(n.Type)
		ss(n.Body)
	case *Arguments:
		for _, a := range n.PosOnlyArgs {
			fn(a)
		}
		for _, a := range n.Args {
			fn(a)
		}
		if n.Vararg != nil {
			fn(n.Vararg)
		}
		for _, a := range n.KwOnlyArgs {
			fn(a)
		}
		es(n.KwDefaults)
		if n.Kwarg != nil {
			fn(n.Kwarg)
		}
		es(n.Defaults)
	case *Arg:
		e(n.Annotation)
	case *Keyword:
		e(n.Value)
	case *WithItem:
		e(n.ContextExpr)
		e(n.OptionalVars)
	case *MatchCase:
		if n.Pattern != nil {
			fn(n.Pattern)
		}
		e(n.Guard)
		ss(n.Body)
	case *MatchValue:
		e(n.Value)
	case *MatchSingleton:
		if n.Value != nil {
			fn(n.Value)
		}
	case *MatchSequence:
		ps(n.Patterns)
	case *MatchMapping:
		es(n.Keys)
		ps(n.Patterns)
	case *MatchClass:
		e(n.Cls)
		ps(n.Patterns)
		ps(n.KwdPatterns)
	case *MatchAs:
		if n.Pattern != nil {
			fn(n.Pattern)
		}
	case *MatchOr:
		ps(n.Patterns)
	case *TypeVar:
		e(n.Bound)
		e(n.DefaultValue)
	case *ParamSpec:
		e(n.DefaultValue)
	case *TypeVarTuple:
		e(n.DefaultValue)
	}
}

// ScopeBody is the body of a function definition or of a module (nil for
// other nodes).
func ScopeBody(n Node) []Stmt {
	if m, ok := n.(*Module); ok {
		return m.Body
	}
	return DefBody(n)
}

// DefBody is the body of a function definition (nil for other nodes).
func DefBody(n Node) []Stmt {
	switch n := n.(type) {
	case *FunctionDef:
		return n.Body
	case *AsyncFunctionDef:
		return n.Body
	}
	return nil
}

// InspectBody is Inspect over each statement of a function's (or
// module's) body, staying in that scope: nested function, class and
// lambda definitions are neither passed to f nor entered.
func InspectBody(body []Stmt, f func(Node) bool) {
	g := func(n Node) bool {
		switch n.(type) {
		case *FunctionDef, *AsyncFunctionDef, *ClassDef, *Lambda:
			return false
		}
		return f(n)
	}
	for _, s := range body {
		Inspect(s, g)
	}
}

// InspectStmts calls f for every statement of list and, when f returns
// true, for the statements nested in it (bodies of compound statements,
// functions and classes included), in source order. Expressions are not
// visited: it is the cheap walk for statement-level facts (imports).
func InspectStmts(list []Stmt, f func(Stmt) bool) {
	for _, s := range list {
		if !f(s) {
			continue
		}
		switch s := s.(type) {
		case *FunctionDef:
			InspectStmts(s.Body, f)
		case *AsyncFunctionDef:
			InspectStmts(s.Body, f)
		case *ClassDef:
			InspectStmts(s.Body, f)
		case *For:
			InspectStmts(s.Body, f)
			InspectStmts(s.Orelse, f)
		case *AsyncFor:
			InspectStmts(s.Body, f)
			InspectStmts(s.Orelse, f)
		case *While:
			InspectStmts(s.Body, f)
			InspectStmts(s.Orelse, f)
		case *If:
			InspectStmts(s.Body, f)
			InspectStmts(s.Orelse, f)
		case *With:
			InspectStmts(s.Body, f)
		case *AsyncWith:
			InspectStmts(s.Body, f)
		case *Match:
			for _, c := range s.Cases {
				InspectStmts(c.Body, f)
			}
		case *Try:
			inspectTry(s.Body, s.Handlers, s.Orelse, s.Finalbody, f)
		case *TryStar:
			inspectTry(s.Body, s.Handlers, s.Orelse, s.Finalbody, f)
		}
	}
}

func inspectTry(body []Stmt, handlers []*ExceptHandler, orelse, final []Stmt, f func(Stmt) bool) {
	InspectStmts(body, f)
	for _, h := range handlers {
		InspectStmts(h.Body, f)
	}
	InspectStmts(orelse, f)
	InspectStmts(final, f)
}

// ChildBlocks returns the statement lists directly inside st: an if's
// or a loop's body and else, a with's body, a try's body, handlers, else
// and finally, a match's cases; nil for a simple statement or a
// definition.
func ChildBlocks(st Stmt) [][]Stmt {
	switch st := st.(type) {
	case *If:
		return [][]Stmt{st.Body, st.Orelse}
	case *For:
		return [][]Stmt{st.Body, st.Orelse}
	case *AsyncFor:
		return [][]Stmt{st.Body, st.Orelse}
	case *While:
		return [][]Stmt{st.Body, st.Orelse}
	case *With:
		return [][]Stmt{st.Body}
	case *AsyncWith:
		return [][]Stmt{st.Body}
	case *Try:
		out := [][]Stmt{st.Body, st.Orelse, st.Finalbody}
		for _, h := range st.Handlers {
			out = append(out, h.Body)
		}
		return out
	case *TryStar:
		out := [][]Stmt{st.Body, st.Orelse, st.Finalbody}
		for _, h := range st.Handlers {
			out = append(out, h.Body)
		}
		return out
	case *Match:
		var out [][]Stmt
		for _, c := range st.Cases {
			out = append(out, c.Body)
		}
		return out
	}
	return nil
}

// AsAssign returns n as an assignment: itself, or for an annotated one
// that binds a value (`self.is_head: bool = rank == 0`) the plain
// assignment it amounts to (a new node, not part of the tree).
func AsAssign(n Node) (*Assign, bool) {
	switch a := n.(type) {
	case *Assign:
		return a, true
	case *AnnAssign:
		if a.Value != nil {
			return &Assign{Pos: a.Pos, Targets: []Expr{a.Target}, Value: a.Value}, true
		}
	}
	return nil, false
}
