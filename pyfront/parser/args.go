package parser

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// parameters parses a def (annotations allowed) or lambda parameter list
// up to, not including, closer.
func (p *parser) parameters(closer scanner.Kind, annotations bool) *ast.Arguments {
	a := &ast.Arguments{}
	var pos []*ast.Arg // positional parameters so far (before '/' or '*')
	var defaults []ast.Expr
	sawSlash, sawStar, sawDefault := false, false, false
	bareStar := false
	for !p.at(closer) {
		switch {
		case p.at(scanner.Slash):
			if sawSlash {
				p.fail("/ may appear only once")
			}
			if sawStar {
				p.fail("/ must be ahead of *")
			}
			if len(pos) == 0 {
				p.fail("at least one argument must precede /")
			}
			p.next()
			sawSlash = true
			a.PosOnlyArgs = pos
			pos = nil
		case p.at(scanner.Star):
			if sawStar {
				p.fail("* argument may appear only once")
			}
			p.next()
			sawStar = true
			if p.at(scanner.Comma) || p.at(closer) {
				bareStar = true
				if p.at(closer) || p.peekKind(1) == closer || p.peekKind(1) == scanner.DoubleStar {
					p.fail("named arguments must follow bare *")
				}
			} else {
				a.Vararg = p.param(annotations, true)
				if p.at(scanner.Equal) {
					p.fail("var-positional argument cannot have default value")
				}
			}
		case p.at(scanner.DoubleStar):
			p.next()
			a.Kwarg = p.param(annotations, false)
			if p.at(scanner.Equal) {
				p.fail("var-keyword argument cannot have default value")
			}
			p.accept(scanner.Comma)
			if !p.at(closer) {
				p.fail("arguments cannot follow var-keyword argument")
			}
			goto done
		default:
			arg := p.param(annotations, false)
			var def ast.Expr
			if p.accept(scanner.Equal) {
				def = p.expression()
			}
			if sawStar {
				a.KwOnlyArgs = append(a.KwOnlyArgs, arg)
				a.KwDefaults = append(a.KwDefaults, def)
				bareStar = false
			} else {
				if def != nil {
					sawDefault = true
					defaults = append(defaults, def)
				} else if sawDefault {
					p.errorNode(arg, "non-default argument follows default argument")
					panic(bailout{})
				}
				pos = append(pos, arg)
			}
		}
		if !p.accept(scanner.Comma) {
			break
		}
	}
done:
	_ = bareStar
	a.Args = pos
	a.Defaults = defaults
	return a
}

// param parses NAME [':' annotation]; a vararg annotation may be starred.
func (p *parser) param(annotations, starAnn bool) *ast.Arg {
	start := p.pos
	arg := &ast.Arg{Arg: p.name()}
	if annotations && p.accept(scanner.Colon) {
		if starAnn && p.at(scanner.Star) {
			s := p.pos
			p.next()
			v := p.expression()
			arg.Annotation = &ast.Starred{Pos: p.span(s), Value: v, Ctx: ast.Load}
		} else {
			arg.Annotation = p.expression()
		}
	}
	arg.Pos = p.span(start)
	return arg
}

// callArgs parses call (or class header) arguments after '(' (at token
// index lpar) up to, not including, ')'.
func (p *parser) callArgs(lpar int) ([]ast.Expr, []*ast.Keyword) {
	return p.arguments(lpar, true)
}

// arguments parses call or class-header arguments; only calls may take a
// bare generator expression as their sole argument.
func (p *parser) arguments(lpar int, genexp bool) ([]ast.Expr, []*ast.Keyword) {
	var args []ast.Expr
	var kws []*ast.Keyword
	sawKw, sawDouble := false, false
	for !p.at(scanner.RPar) {
		start := p.pos
		switch {
		case p.at(scanner.Star):
			p.next()
			v := p.expression()
			if sawDouble {
				p.fail("iterable argument unpacking follows keyword argument unpacking")
			}
			args = append(args, &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Load})
		case p.at(scanner.DoubleStar):
			p.next()
			v := p.expression()
			kws = append(kws, &ast.Keyword{Pos: p.span(start), Value: v})
			sawDouble = true
		case p.at(scanner.Name) && p.peekKind(1) == scanner.Equal:
			name := p.name()
			p.next()
			v := p.expression()
			kws = append(kws, &ast.Keyword{Pos: p.span(start), Arg: name, Value: v})
			sawKw = true
		default:
			e := p.namedExpression()
			if p.at(scanner.Equal) {
				p.failNode(e, "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			if p.at(scanner.KwFor) || p.at(scanner.KwAsync) {
				gens := p.comprehensions()
				if !genexp || !p.at(scanner.RPar) || len(args) > 0 || len(kws) > 0 {
					p.failNode(e, "Generator expression must be parenthesized")
				}
				l, r := &p.toks[lpar], p.tok()
				e = &ast.GeneratorExp{Pos: ast.Pos{Lineno: l.Line, ColOffset: l.Col, EndLineno: r.EndLine, EndColOffset: r.EndCol}, Elt: e, Generators: gens}
			}
			if sawDouble {
				p.failNode(e, "positional argument follows keyword argument unpacking")
			}
			if sawKw {
				p.failNode(e, "positional argument follows keyword argument")
			}
			args = append(args, e)
		}
		if !p.accept(scanner.Comma) {
			break
		}
		if p.at(scanner.RPar) && len(args) == 1 {
			if g, ok := args[0].(*ast.GeneratorExp); ok && p.toks[lpar].Col == g.ColOffset && p.toks[lpar].Line == g.Lineno {
				p.failNode(g, "Generator expression must be parenthesized")
			}
		}
	}
	return args, kws
}
