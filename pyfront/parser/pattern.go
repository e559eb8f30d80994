package parser

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// patterns: open_sequence_pattern (a MatchSequence without brackets) or a
// single pattern.
func (p *parser) patterns() ast.Pattern {
	start := p.pos
	first := p.maybeStarPattern()
	if !p.at(scanner.Comma) {
		if _, ok := first.(*ast.MatchStar); ok {
			p.failNode(first, "can't use starred expression here")
		}
		return first
	}
	pats := []ast.Pattern{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.Colon) || p.at(scanner.KwIf) {
			break
		}
		pats = append(pats, p.maybeStarPattern())
	}
	return &ast.MatchSequence{Pos: p.span(start), Patterns: pats}
}

func (p *parser) maybeStarPattern() ast.Pattern {
	if p.at(scanner.Star) {
		start := p.pos
		p.next()
		name := p.name()
		if name == "_" {
			name = ""
		}
		return &ast.MatchStar{Pos: p.span(start), Name: name}
	}
	return p.pattern()
}

func (p *parser) pattern() ast.Pattern {
	start := p.pos
	or := p.orPattern()
	if !p.accept(scanner.KwAs) {
		return or
	}
	t := p.tok()
	name := p.name()
	if name == "_" {
		p.errorAt(t, "cannot use '_' as a target")
		panic(bailout{})
	}
	return &ast.MatchAs{Pos: p.span(start), Pattern: or, Name: name}
}

func (p *parser) orPattern() ast.Pattern {
	start := p.pos
	first := p.closedPattern()
	if !p.at(scanner.VBar) {
		return first
	}
	pats := []ast.Pattern{first}
	for p.accept(scanner.VBar) {
		pats = append(pats, p.closedPattern())
	}
	return &ast.MatchOr{Pos: p.span(start), Patterns: pats}
}

func (p *parser) closedPattern() ast.Pattern {
	p.enter()
	defer p.leave()
	start := p.pos
	switch p.kind() {
	case scanner.Number, scanner.Minus, scanner.String, scanner.KwNone, scanner.KwTrue, scanner.KwFalse:
		v := p.literalExpr()
		if c, ok := v.(*ast.Constant); ok && (c.Type == ast.ConstNone || c.Type == ast.ConstBool) {
			return &ast.MatchSingleton{Pos: p.span(start), Value: c}
		}
		return &ast.MatchValue{Pos: p.span(start), Value: v}
	case scanner.Name:
		nk := p.peekKind(1)
		if nk != scanner.Dot && nk != scanner.LPar {
			t := p.tok()
			name := p.text(t)
			p.next()
			if name == "_" {
				return &ast.MatchAs{Pos: p.span(start)}
			}
			return &ast.MatchAs{Pos: p.span(start), Name: name}
		}
		cls := p.nameOrAttr()
		if p.at(scanner.LPar) {
			return p.classPattern(start, cls)
		}
		return &ast.MatchValue{Pos: p.span(start), Value: cls}
	case scanner.LPar:
		p.next()
		if p.accept(scanner.RPar) {
			return &ast.MatchSequence{Pos: p.span(start)}
		}
		first := p.maybeStarPattern()
		if p.accept(scanner.RPar) {
			if _, ok := first.(*ast.MatchStar); !ok {
				return first // group
			}
			return &ast.MatchSequence{Pos: p.span(start), Patterns: []ast.Pattern{first}}
		}
		pats := []ast.Pattern{first}
		for p.accept(scanner.Comma) {
			if p.at(scanner.RPar) {
				break
			}
			pats = append(pats, p.maybeStarPattern())
		}
		p.expect(scanner.RPar)
		return &ast.MatchSequence{Pos: p.span(start), Patterns: pats}
	case scanner.LSqb:
		p.next()
		var pats []ast.Pattern
		for !p.at(scanner.RSqb) {
			pats = append(pats, p.maybeStarPattern())
			if !p.accept(scanner.Comma) {
				break
			}
		}
		p.expect(scanner.RSqb)
		return &ast.MatchSequence{Pos: p.span(start), Patterns: pats}
	case scanner.LBrace:
		return p.mappingPattern()
	}
	p.errorExpected("pattern")
	return nil
}

// nameOrAttr parses NAME ('.' NAME)* as a Name or Attribute chain.
func (p *parser) nameOrAttr() ast.Expr {
	start := p.pos
	t := p.tok()
	var e ast.Expr = &ast.Name{Pos: tokPos(t), Id: p.name(), Ctx: ast.Load}
	for p.accept(scanner.Dot) {
		attr := p.name()
		e = &ast.Attribute{Pos: p.span(start), Value: e, Attr: attr, Ctx: ast.Load}
	}
	return e
}

// literalExpr parses a literal usable in patterns: signed numbers,
// complex literals (a+bj), strings, None, True, False.
func (p *parser) literalExpr() ast.Expr {
	start := p.pos
	switch p.kind() {
	case scanner.KwNone, scanner.KwTrue, scanner.KwFalse:
		return p.atom()
	case scanner.String:
		// f-strings parse here; the compiler, not the parser, rejects them.
		return p.strings()
	}
	left := p.signedNumber()
	if p.at(scanner.Plus) || p.at(scanner.Minus) {
		op := ast.Add
		if p.at(scanner.Minus) {
			op = ast.Sub
		}
		p.next()
		t := p.tok()
		if t.Kind != scanner.Number {
			p.errorExpected("number")
		}
		p.next()
		right := p.number(t)
		if c, ok := right.(*ast.Constant); !ok || c.Type != ast.ConstComplex {
			p.failNode(right, "imaginary number required in complex literal")
		}
		return &ast.BinOp{Pos: p.span(start), Left: left, Op: op, Right: right}
	}
	return left
}

func (p *parser) signedNumber() ast.Expr {
	start := p.pos
	neg := p.accept(scanner.Minus)
	t := p.tok()
	if t.Kind != scanner.Number {
		p.errorExpected("number")
	}
	p.next()
	n := p.number(t)
	if neg {
		return &ast.UnaryOp{Pos: p.span(start), Op: ast.USub, Operand: n}
	}
	return n
}

func (p *parser) classPattern(start int, cls ast.Expr) ast.Pattern {
	p.next() // (
	m := &ast.MatchClass{Cls: cls}
	for !p.at(scanner.RPar) {
		if p.at(scanner.Name) && p.peekKind(1) == scanner.Equal {
			m.KwdAttrs = append(m.KwdAttrs, p.name())
			p.next()
			m.KwdPatterns = append(m.KwdPatterns, p.pattern())
		} else {
			pat := p.pattern()
			if len(m.KwdAttrs) > 0 {
				p.failNode(pat, "positional patterns follow keyword patterns")
			}
			m.Patterns = append(m.Patterns, pat)
		}
		if !p.accept(scanner.Comma) {
			break
		}
	}
	p.expect(scanner.RPar)
	m.Pos = p.span(start)
	return m
}

func (p *parser) mappingPattern() ast.Pattern {
	start := p.pos
	p.next() // {
	m := &ast.MatchMapping{}
	for !p.at(scanner.RBrace) {
		if p.accept(scanner.DoubleStar) {
			t := p.tok()
			m.Rest = p.name()
			if m.Rest == "_" {
				p.errorAt(t, "invalid syntax")
				panic(bailout{})
			}
			p.accept(scanner.Comma)
			break
		}
		var key ast.Expr
		if p.at(scanner.Name) {
			key = p.nameOrAttr()
			if _, ok := key.(*ast.Name); ok {
				p.failNode(key, "invalid syntax")
			}
		} else {
			key = p.literalExpr()
		}
		p.expect(scanner.Colon)
		m.Keys = append(m.Keys, key)
		m.Patterns = append(m.Patterns, p.pattern())
		if !p.accept(scanner.Comma) {
			break
		}
	}
	p.expect(scanner.RBrace)
	m.Pos = p.span(start)
	return m
}
