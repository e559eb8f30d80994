package parser

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

// setStore turns an expression parsed as a value into an assignment (or
// deletion) target: it sets ctx on Name, Attribute, Subscript, Starred,
// List and Tuple nodes recursively and rejects everything else the way
// CPython does.
func (p *parser) setStore(e ast.Expr, ctx ast.ExprContext) ast.Expr {
	switch t := e.(type) {
	case *ast.Name:
		t.Ctx = ctx
	case *ast.Attribute:
		t.Ctx = ctx
	case *ast.Subscript:
		t.Ctx = ctx
	case *ast.Starred:
		if ctx == ast.Del {
			p.failNode(t, "cannot delete starred")
		}
		t.Ctx = ctx
		p.setStore(t.Value, ctx)
	case *ast.Tuple:
		t.Ctx = ctx
		for _, x := range t.Elts {
			p.setStore(x, ctx)
		}
	case *ast.List:
		t.Ctx = ctx
		for _, x := range t.Elts {
			p.setStore(x, ctx)
		}
	default:
		if ctx == ast.Del {
			p.failNode(e, "cannot delete %s", exprKindName(e))
		}
		p.failNode(e, "cannot assign to %s", exprKindName(e))
	}
	return e
}

// exprKindName names an expression kind in error messages as CPython does.
func exprKindName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Attribute:
		return "attribute"
	case *ast.Subscript:
		return "subscript"
	case *ast.Starred:
		return "starred"
	case *ast.Name:
		return "name"
	case *ast.List:
		return "list"
	case *ast.Tuple:
		return "tuple"
	case *ast.Lambda:
		return "lambda"
	case *ast.Call:
		return "function call"
	case *ast.BoolOp, *ast.BinOp, *ast.UnaryOp:
		return "expression"
	case *ast.GeneratorExp:
		return "generator expression"
	case *ast.Yield, *ast.YieldFrom:
		return "yield expression"
	case *ast.Await:
		return "await expression"
	case *ast.ListComp:
		return "list comprehension"
	case *ast.SetComp:
		return "set comprehension"
	case *ast.DictComp:
		return "dict comprehension"
	case *ast.Dict:
		return "dict literal"
	case *ast.Set:
		return "set display"
	case *ast.JoinedStr, *ast.FormattedValue:
		return "f-string expression"
	case *ast.Constant:
		switch e.Type {
		case ast.ConstNone:
			return "None"
		case ast.ConstBool:
			if e.Bool {
				return "True"
			}
			return "False"
		case ast.ConstEllipsis:
			return "ellipsis"
		}
		return "literal"
	case *ast.Compare:
		return "comparison"
	case *ast.IfExp:
		return "conditional expression"
	case *ast.NamedExpr:
		return "named expression"
	}
	return "expression"
}

// starTargets parses the targets of a for loop or comprehension: items at
// bitwise-or precedence (so "in" ends them), a Tuple when comma-separated.
func (p *parser) starTargets() ast.Expr {
	start := p.pos
	first := p.targetItem()
	if !p.at(scanner.Comma) {
		return p.setStore(first, ast.Store)
	}
	elts := []ast.Expr{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.KwIn) || p.at(scanner.Equal) {
			break
		}
		elts = append(elts, p.targetItem())
	}
	return p.setStore(&ast.Tuple{Pos: p.span(start), Elts: elts, Ctx: ast.Store}, ast.Store)
}

func (p *parser) targetItem() ast.Expr {
	if p.at(scanner.Star) {
		start := p.pos
		p.next()
		v := p.targetItem()
		return &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Store}
	}
	return p.bitwiseOr()
}

// starTarget parses one "with … as" target.
func (p *parser) starTarget() ast.Expr {
	return p.setStore(p.targetItem(), ast.Store)
}

// delTargets parses the comma-separated targets of a del statement.
func (p *parser) delTargets() []ast.Expr {
	var out []ast.Expr
	for {
		out = append(out, p.setStore(p.bitwiseOr(), ast.Del))
		if !p.accept(scanner.Comma) || p.atStmtEnd() {
			break
		}
	}
	return out
}
