package ast

// SeqElts returns the elements of a list or tuple display, and nil for
// any other expression: the shapes whose elements the analyses follow one
// by one (`a, b = x, y`, `args=(pg,)`, `__all__ = [...]`).
func SeqElts(e Expr) []Expr {
	switch e := e.(type) {
	case *Tuple:
		return e.Elts
	case *List:
		return e.Elts
	}
	return nil
}

// ConstStrings returns the string constants among the elements of a list
// or tuple display, in order (`__all__ = ["a", "b"]`,
// `mesh_dim_names=("dp", "tp")`).
func ConstStrings(e Expr) []string {
	var out []string
	for _, x := range SeqElts(e) {
		if c, ok := x.(*Constant); ok && c.Type == ConstStr {
			out = append(out, c.Str)
		}
	}
	return out
}

// IntLiteral returns the value of an integer literal, negative ones too
// (`-1`); ok is false for anything else, big integers included.
func IntLiteral(e Expr) (v int64, ok bool) {
	neg := false
	if u, isUnary := e.(*UnaryOp); isUnary && u.Op == USub {
		neg, e = true, u.Operand
	}
	k, isConst := e.(*Constant)
	if !isConst || k.Type != ConstInt || k.Big != nil {
		return 0, false
	}
	if neg {
		return -k.Int, true
	}
	return k.Int, true
}

// CalleeName returns the last name of what a call calls: f for f(x) and
// for m.f(x); "" for any other callee (a subscript, a call's result).
func CalleeName(c *Call) string {
	switch f := c.Func.(type) {
	case *Name:
		return f.Id
	case *Attribute:
		return f.Attr
	}
	return ""
}
