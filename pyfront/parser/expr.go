package parser

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// starExpressions: star_expression (',' star_expression)* [','] — a Tuple
// when there is a comma.
func (p *parser) starExpressions() ast.Expr {
	start := p.pos
	first := p.starExpression()
	if !p.at(scanner.Comma) {
		return first
	}
	elts := make([]ast.Expr, 1, 4)
	elts[0] = first
	for p.accept(scanner.Comma) {
		if !p.startsExpression() {
			break
		}
		elts = append(elts, p.starExpression())
	}
	return &ast.Tuple{Pos: p.span(start), Elts: elts, Ctx: ast.Load}
}

// startsExpression reports whether the current token can begin an
// expression (used after a trailing comma).
func (p *parser) startsExpression() bool {
	switch p.kind() {
	case scanner.Name, scanner.Number, scanner.String, scanner.LPar, scanner.LSqb, scanner.LBrace,
		scanner.Minus, scanner.Plus, scanner.Tilde, scanner.Star, scanner.Ellipsis,
		scanner.KwNot, scanner.KwLambda, scanner.KwAwait, scanner.KwNone, scanner.KwTrue, scanner.KwFalse:
		return true
	}
	return false
}

func (p *parser) starExpression() ast.Expr {
	if p.at(scanner.Star) {
		start := p.pos
		p.next()
		v := p.bitwiseOr()
		return &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Load}
	}
	return p.expression()
}

func (p *parser) starNamedExpression() ast.Expr {
	if p.at(scanner.Star) {
		start := p.pos
		p.next()
		v := p.bitwiseOr()
		return &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Load}
	}
	return p.namedExpression()
}

// namedExpression: NAME ':=' expression | expression !':='.
func (p *parser) namedExpression() ast.Expr {
	if p.at(scanner.Name) && p.peekKind(1) == scanner.ColonEq {
		start := p.pos
		t := p.tok()
		target := &ast.Name{Pos: tokPos(t), Id: p.text(t), Ctx: ast.Store}
		p.next()
		p.next()
		v := p.expression()
		return &ast.NamedExpr{Pos: p.span(start), Target: target, Value: v}
	}
	e := p.expression()
	if p.at(scanner.ColonEq) {
		p.failNode(e, "cannot use assignment expressions with %s", exprKindName(e))
	}
	return e
}

// expression: disjunction ['if' disjunction 'else' expression] | lambdef.
func (p *parser) expression() ast.Expr {
	// Depth is restored by try and statementRecover after a bailout, so
	// no defer is needed on this hot path.
	p.enter()
	if p.at(scanner.KwLambda) {
		e := p.lambdef()
		p.leave()
		return e
	}
	start := p.pos
	body := p.disjunction()
	if !p.at(scanner.KwIf) {
		p.leave()
		return body
	}
	p.next()
	test := p.disjunction()
	if !p.accept(scanner.KwElse) {
		p.fail("expected 'else' after 'if' expression")
	}
	orelse := p.expression()
	p.leave()
	return &ast.IfExp{Pos: p.span(start), Test: test, Body: body, Orelse: orelse}
}

func (p *parser) lambdef() ast.Expr {
	start := p.pos
	p.next()
	args := p.parameters(scanner.Colon, false)
	p.expect(scanner.Colon)
	body := p.expression()
	return &ast.Lambda{Pos: p.span(start), Args: args, Body: body}
}

func (p *parser) disjunction() ast.Expr {
	start := p.pos
	first := p.conjunction()
	if !p.at(scanner.KwOr) {
		return first
	}
	vals := []ast.Expr{first}
	for p.accept(scanner.KwOr) {
		vals = append(vals, p.conjunction())
	}
	return &ast.BoolOp{Pos: p.span(start), Op: ast.Or, Values: vals}
}

func (p *parser) conjunction() ast.Expr {
	start := p.pos
	first := p.inversion()
	if !p.at(scanner.KwAnd) {
		return first
	}
	vals := []ast.Expr{first}
	for p.accept(scanner.KwAnd) {
		vals = append(vals, p.inversion())
	}
	return &ast.BoolOp{Pos: p.span(start), Op: ast.And, Values: vals}
}

func (p *parser) inversion() ast.Expr {
	if p.at(scanner.KwNot) {
		start := p.pos
		p.next()
		p.enter()
		v := p.inversion()
		p.leave()
		return &ast.UnaryOp{Pos: p.span(start), Op: ast.Not, Operand: v}
	}
	return p.comparison()
}

func (p *parser) compOp() (ast.CmpOp, bool) {
	switch p.kind() {
	case scanner.EqEqual:
		return ast.Eq, true
	case scanner.NotEqual:
		t := p.tok()
		if p.src[t.Off] == '<' {
			p.fail("invalid syntax")
		}
		return ast.NotEq, true
	case scanner.Less:
		return ast.Lt, true
	case scanner.LessEq:
		return ast.LtE, true
	case scanner.Greater:
		return ast.Gt, true
	case scanner.GreaterEq:
		return ast.GtE, true
	case scanner.KwIn:
		return ast.In, true
	case scanner.KwIs:
		if p.peekKind(1) == scanner.KwNot {
			p.next()
			return ast.IsNot, true
		}
		return ast.Is, true
	case scanner.KwNot:
		if p.peekKind(1) == scanner.KwIn {
			p.next()
			return ast.NotIn, true
		}
	}
	return 0, false
}

func (p *parser) comparison() ast.Expr {
	start := p.pos
	left := p.bitwiseOr()
	op, ok := p.compOp()
	if !ok {
		return left
	}
	c := &ast.Compare{Left: left}
	for ok {
		p.next()
		c.Ops = append(c.Ops, op)
		c.Comparators = append(c.Comparators, p.bitwiseOr())
		op, ok = p.compOp()
	}
	c.Pos = p.span(start)
	return c
}

// binOpLevel returns the precedence level (index into binLevels) and
// operator of token kind k, or -1.
func binOpLevel(k scanner.Kind) (int, ast.Operator) {
	switch k {
	case scanner.VBar:
		return 0, ast.BitOr
	case scanner.Circumflex:
		return 1, ast.BitXor
	case scanner.Amper:
		return 2, ast.BitAnd
	case scanner.LShift:
		return 3, ast.LShift
	case scanner.RShift:
		return 3, ast.RShift
	case scanner.Plus:
		return 4, ast.Add
	case scanner.Minus:
		return 4, ast.Sub
	case scanner.Star:
		return 5, ast.Mult
	case scanner.Slash:
		return 5, ast.Div
	case scanner.DoubleSlash:
		return 5, ast.FloorDiv
	case scanner.Percent:
		return 5, ast.Mod
	case scanner.At:
		return 5, ast.MatMult
	}
	return -1, 0
}

func (p *parser) bitwiseOr() ast.Expr { return p.binary(0) }

// binary parses left-associative binary operators of level lvl and above
// by precedence climbing; each node spans from its left operand's first
// token.
func (p *parser) binary(minLvl int) ast.Expr {
	start := p.pos
	left := p.factor()
	for {
		l, op := binOpLevel(p.kind())
		if l < minLvl {
			return left
		}
		p.next()
		var right ast.Expr
		if l == 5 {
			right = p.factor()
		} else {
			right = p.binary(l + 1)
		}
		left = &ast.BinOp{Pos: p.span(start), Left: left, Op: op, Right: right}
	}
}

func (p *parser) factor() ast.Expr {
	var op ast.UnaryOpKind
	switch p.kind() {
	case scanner.Plus:
		op = ast.UAdd
	case scanner.Minus:
		op = ast.USub
	case scanner.Tilde:
		op = ast.Invert
	default:
		return p.power()
	}
	start := p.pos
	p.next()
	p.enter()
	v := p.factor()
	p.leave()
	return &ast.UnaryOp{Pos: p.span(start), Op: op, Operand: v}
}

func (p *parser) power() ast.Expr {
	start := p.pos
	base := p.awaitPrimary()
	if !p.at(scanner.DoubleStar) {
		return base
	}
	p.next()
	p.enter()
	exp := p.factor()
	p.leave()
	return &ast.BinOp{Pos: p.span(start), Left: base, Op: ast.Pow, Right: exp}
}

func (p *parser) awaitPrimary() ast.Expr {
	if p.at(scanner.KwAwait) {
		start := p.pos
		p.next()
		v := p.primary()
		return &ast.Await{Pos: p.span(start), Value: v}
	}
	return p.primary()
}

func (p *parser) primary() ast.Expr {
	start := p.pos
	e := p.atom()
	for {
		switch p.kind() {
		case scanner.Dot:
			p.next()
			attr := p.name()
			e = &ast.Attribute{Pos: p.span(start), Value: e, Attr: attr, Ctx: ast.Load}
		case scanner.LPar:
			lpar := p.pos
			p.next()
			args, kws := p.callArgs(lpar)
			p.expect(scanner.RPar)
			e = &ast.Call{Pos: p.span(start), Func: e, Args: args, Keywords: kws}
		case scanner.LSqb:
			p.next()
			s := p.slices()
			p.expect(scanner.RSqb)
			e = &ast.Subscript{Pos: p.span(start), Value: e, Slice: s, Ctx: ast.Load}
		default:
			return e
		}
	}
}

func (p *parser) slices() ast.Expr {
	start := p.pos
	first := p.slice()
	if !p.at(scanner.Comma) {
		if _, ok := first.(*ast.Starred); ok {
			// "x[*a]" is a one-element tuple (PEP 646).
			return &ast.Tuple{Pos: p.span(start), Elts: []ast.Expr{first}, Ctx: ast.Load}
		}
		return first
	}
	elts := []ast.Expr{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.RSqb) {
			break
		}
		elts = append(elts, p.slice())
	}
	return &ast.Tuple{Pos: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) slice() ast.Expr {
	start := p.pos
	if p.at(scanner.Star) {
		p.next()
		v := p.expression()
		return &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Load}
	}
	var lower ast.Expr
	if !p.at(scanner.Colon) {
		lower = p.namedExpression()
		if !p.at(scanner.Colon) {
			return lower
		}
		if _, ok := lower.(*ast.NamedExpr); ok && p.toks[start].Kind != scanner.LPar {
			p.fail("invalid syntax")
		}
	}
	p.next() // ':'
	s := &ast.Slice{Lower: lower}
	if !p.at(scanner.Colon) && !p.at(scanner.Comma) && !p.at(scanner.RSqb) {
		s.Upper = p.expression()
	}
	if p.accept(scanner.Colon) {
		if !p.at(scanner.Comma) && !p.at(scanner.RSqb) {
			s.Step = p.expression()
		}
	}
	s.Pos = p.span(start)
	return s
}

func (p *parser) atom() ast.Expr {
	t := p.tok()
	switch t.Kind {
	case scanner.Name:
		p.next()
		return &ast.Name{Pos: tokPos(t), Id: p.text(t), Ctx: ast.Load}
	case scanner.Number:
		p.next()
		return p.number(t)
	case scanner.String:
		return p.strings()
	case scanner.KwNone:
		p.next()
		return &ast.Constant{Pos: tokPos(t), Type: ast.ConstNone}
	case scanner.KwTrue:
		p.next()
		return &ast.Constant{Pos: tokPos(t), Type: ast.ConstBool, Bool: true}
	case scanner.KwFalse:
		p.next()
		return &ast.Constant{Pos: tokPos(t), Type: ast.ConstBool}
	case scanner.Ellipsis:
		p.next()
		return &ast.Constant{Pos: tokPos(t), Type: ast.ConstEllipsis}
	case scanner.LPar:
		p.enter()
		defer p.leave()
		return p.parenAtom()
	case scanner.LSqb:
		p.enter()
		defer p.leave()
		return p.listAtom()
	case scanner.LBrace:
		p.enter()
		defer p.leave()
		return p.braceAtom()
	}
	p.errorExpected("expression")
	return nil
}

func (p *parser) parenAtom() ast.Expr {
	start := p.pos
	p.next()
	if p.accept(scanner.RPar) {
		return &ast.Tuple{Pos: p.span(start), Ctx: ast.Load}
	}
	if p.at(scanner.KwYield) {
		e := p.yieldExpr()
		p.expect(scanner.RPar)
		return e
	}
	first := p.starNamedExpression()
	switch p.kind() {
	case scanner.RPar:
		p.next()
		if st, ok := first.(*ast.Starred); ok {
			p.failNode(st, "cannot use starred expression here")
		}
		return first
	case scanner.KwFor, scanner.KwAsync:
		if st, ok := first.(*ast.Starred); ok {
			p.failNode(st, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(scanner.RPar)
		return &ast.GeneratorExp{Pos: p.span(start), Elt: first, Generators: gens}
	case scanner.Comma:
		elts := []ast.Expr{first}
		for p.accept(scanner.Comma) {
			if p.at(scanner.RPar) {
				break
			}
			elts = append(elts, p.starNamedExpression())
		}
		p.expect(scanner.RPar)
		return &ast.Tuple{Pos: p.span(start), Elts: elts, Ctx: ast.Load}
	}
	p.errorExpected("')'")
	return nil
}

func (p *parser) listAtom() ast.Expr {
	start := p.pos
	p.next()
	if p.accept(scanner.RSqb) {
		return &ast.List{Pos: p.span(start), Ctx: ast.Load}
	}
	first := p.starNamedExpression()
	if p.at(scanner.KwFor) || p.at(scanner.KwAsync) {
		if st, ok := first.(*ast.Starred); ok {
			p.failNode(st, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(scanner.RSqb)
		return &ast.ListComp{Pos: p.span(start), Elt: first, Generators: gens}
	}
	elts := []ast.Expr{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.RSqb) {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	p.expect(scanner.RSqb)
	return &ast.List{Pos: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) braceAtom() ast.Expr {
	start := p.pos
	p.next()
	if p.accept(scanner.RBrace) {
		return &ast.Dict{Pos: p.span(start)}
	}
	var first ast.Expr
	if p.at(scanner.DoubleStar) {
		return p.dictRest(start, nil, nil)
	}
	first = p.starNamedExpression()
	if p.at(scanner.Colon) {
		if _, ok := first.(*ast.Starred); ok {
			p.failNode(first, "cannot use a starred expression in a dictionary value")
		}
		p.next()
		val := p.expression()
		if p.at(scanner.KwFor) || p.at(scanner.KwAsync) {
			gens := p.comprehensions()
			p.expect(scanner.RBrace)
			return &ast.DictComp{Pos: p.span(start), Key: first, Value: val, Generators: gens}
		}
		return p.dictRest(start, first, val)
	}
	if p.at(scanner.KwFor) || p.at(scanner.KwAsync) {
		if st, ok := first.(*ast.Starred); ok {
			p.failNode(st, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(scanner.RBrace)
		return &ast.SetComp{Pos: p.span(start), Elt: first, Generators: gens}
	}
	elts := []ast.Expr{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.RBrace) {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	p.expect(scanner.RBrace)
	return &ast.Set{Pos: p.span(start), Elts: elts}
}

// dictRest parses the remaining items of a dict display; key/val is the
// first pair already parsed (nil key with nil val: none yet).
func (p *parser) dictRest(start int, key, val ast.Expr) ast.Expr {
	d := &ast.Dict{}
	if val != nil {
		d.Keys = append(d.Keys, key)
		d.Values = append(d.Values, val)
		if !p.accept(scanner.Comma) {
			p.expect(scanner.RBrace)
			d.Pos = p.span(start)
			return d
		}
	}
	for !p.at(scanner.RBrace) {
		if p.accept(scanner.DoubleStar) {
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, p.bitwiseOr())
		} else {
			k := p.expression()
			p.expect(scanner.Colon)
			d.Keys = append(d.Keys, k)
			d.Values = append(d.Values, p.expression())
		}
		if !p.accept(scanner.Comma) {
			break
		}
	}
	if len(d.Values) == 1 && d.Keys[0] == nil && (p.at(scanner.KwFor) || p.at(scanner.KwAsync)) {
		p.fail("dict unpacking cannot be used in dict comprehension")
	}
	p.expect(scanner.RBrace)
	d.Pos = p.span(start)
	return d
}

// comprehensions parses one or more "[async] for targets in iter [if …]".
func (p *parser) comprehensions() []*ast.Comprehension {
	var out []*ast.Comprehension
	for p.at(scanner.KwFor) || p.at(scanner.KwAsync) && p.peekKind(1) == scanner.KwFor {
		c := &ast.Comprehension{}
		if p.accept(scanner.KwAsync) {
			c.IsAsync = 1
		}
		p.expect(scanner.KwFor)
		c.Target = p.starTargets()
		p.expect(scanner.KwIn)
		c.Iter = p.disjunction()
		for p.accept(scanner.KwIf) {
			c.Ifs = append(c.Ifs, p.disjunction())
		}
		out = append(out, c)
	}
	return out
}

func (p *parser) yieldExpr() ast.Expr {
	start := p.pos
	p.next()
	if p.accept(scanner.KwFrom) {
		v := p.expression()
		return &ast.YieldFrom{Pos: p.span(start), Value: v}
	}
	y := &ast.Yield{}
	switch p.kind() {
	case scanner.RPar, scanner.Newline, scanner.Semi, scanner.EOF, scanner.RSqb, scanner.RBrace, scanner.Equal, scanner.Colon:
	default:
		y.Value = p.starExpressions()
	}
	y.Pos = p.span(start)
	return y
}
