package parser

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/scanner"
)

func (p *parser) parseModule() *ast.Module {
	m := &ast.Module{}
	m.Body = make([]ast.Stmt, 0, 16)
	for !p.at(scanner.EOF) {
		before := p.pos
		m.Body = p.statementRecover(m.Body)
		if p.pos == before {
			// Guarantee progress on tokens no statement can start with.
			p.errorAt(p.tok(), "invalid syntax")
			p.next()
		}
	}
	return m
}

// statementRecover parses one statement (a compound one or a line of
// simple ones) and appends it to body. After a syntax error it skips to
// the end of the logical line, and over an indented block that follows
// it, so parsing resumes at the next statement.
func (p *parser) statementRecover(body []ast.Stmt) (out []ast.Stmt) {
	start := p.pos
	nerr := len(p.errs)
	depth := p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth
			if len(p.errs) == nerr {
				p.errorAt(p.tok(), "invalid syntax")
			}
			p.resync(start)
			out = body
		}
	}()
	return p.statement(body)
}

func (p *parser) resync(start int) {
	if p.pos < start {
		p.pos = start
	}
	// An unexpected indent opens a block the tokenizer closes with a
	// dedent of its own: skip the whole block, that dedent included, or
	// the dedent would be reported as a second, spurious error where the
	// code returns to the enclosing indentation.
	if p.pos == start && p.at(scanner.Indent) {
		p.skipBlock()
		return
	}
	// Skip the rest of the logical line.
	for !p.at(scanner.EOF) && !p.at(scanner.Newline) {
		if p.at(scanner.Dedent) && p.pos > start {
			return
		}
		p.next()
	}
	p.accept(scanner.Newline)
	// Skip a block that belongs to the broken statement.
	if p.at(scanner.Indent) {
		p.skipBlock()
	}
}

// skipBlock skips from an Indent token to just after its matching Dedent.
func (p *parser) skipBlock() {
	depth := 0
	for !p.at(scanner.EOF) {
		switch p.kind() {
		case scanner.Indent:
			depth++
		case scanner.Dedent:
			depth--
		}
		p.next()
		if depth == 0 {
			return
		}
	}
}

// statement parses one statement into body.
func (p *parser) statement(body []ast.Stmt) []ast.Stmt {
	switch p.kind() {
	case scanner.KwDef:
		return append(body, p.funcDef(p.pos, nil, false))
	case scanner.KwIf:
		return append(body, p.ifStmt())
	case scanner.KwClass:
		return append(body, p.classDef(nil))
	case scanner.KwWith:
		return append(body, p.withStmt(p.pos, false))
	case scanner.KwFor:
		return append(body, p.forStmt(p.pos, false))
	case scanner.KwTry:
		return append(body, p.tryStmt())
	case scanner.KwWhile:
		return append(body, p.whileStmt())
	case scanner.At:
		return append(body, p.decorated())
	case scanner.KwAsync:
		start := p.pos
		p.next()
		switch p.kind() {
		case scanner.KwDef:
			return append(body, p.funcDef(start, nil, true))
		case scanner.KwWith:
			return append(body, p.withStmt(start, true))
		case scanner.KwFor:
			return append(body, p.forStmt(start, true))
		}
		p.fail("invalid syntax")
	case scanner.Indent:
		p.fail("unexpected indent")
	case scanner.Dedent:
		p.fail("unindent does not match any outer indentation level")
	case scanner.Name:
		if p.isSoft("match") {
			if s := p.matchStmt(); s != nil {
				return append(body, s)
			}
		}
	}
	return p.simpleStmts(body)
}

// simpleStmts parses "s1; s2; ... NEWLINE".
func (p *parser) simpleStmts(body []ast.Stmt) []ast.Stmt {
	for {
		body = append(body, p.simpleStmt())
		if !p.accept(scanner.Semi) {
			break
		}
		if p.at(scanner.Newline) || p.at(scanner.EOF) {
			break
		}
	}
	if !p.accept(scanner.Newline) && !p.at(scanner.EOF) {
		p.fail("invalid syntax")
	}
	return body
}

func (p *parser) simpleStmt() ast.Stmt {
	start := p.pos
	switch p.kind() {
	case scanner.KwPass:
		p.next()
		return &ast.Pass{Pos: p.span(start)}
	case scanner.KwBreak:
		p.next()
		return &ast.Break{Pos: p.span(start)}
	case scanner.KwContinue:
		p.next()
		return &ast.Continue{Pos: p.span(start)}
	case scanner.KwReturn:
		p.next()
		s := &ast.Return{}
		if !p.atStmtEnd() {
			s.Value = p.starExpressions()
		}
		s.Pos = p.span(start)
		return s
	case scanner.KwImport:
		return p.importName()
	case scanner.KwFrom:
		return p.importFrom()
	case scanner.KwRaise:
		p.next()
		s := &ast.Raise{}
		if !p.atStmtEnd() {
			s.Exc = p.expression()
			if p.accept(scanner.KwFrom) {
				s.Cause = p.expression()
			}
		}
		s.Pos = p.span(start)
		return s
	case scanner.KwGlobal, scanner.KwNonlocal:
		k := p.kind()
		p.next()
		var names []string
		for {
			names = append(names, p.name())
			if !p.accept(scanner.Comma) {
				break
			}
		}
		if k == scanner.KwGlobal {
			return &ast.Global{Pos: p.span(start), Names: names}
		}
		return &ast.Nonlocal{Pos: p.span(start), Names: names}
	case scanner.KwDel:
		p.next()
		targets := p.delTargets()
		if !p.atStmtEnd() {
			p.fail("invalid syntax")
		}
		return &ast.Delete{Pos: p.span(start), Targets: targets}
	case scanner.KwAssert:
		p.next()
		s := &ast.Assert{Test: p.expression()}
		if p.accept(scanner.Comma) {
			s.Msg = p.expression()
		}
		s.Pos = p.span(start)
		return s
	case scanner.Name:
		if p.isSoft("type") && p.peekKind(1) == scanner.Name && (p.peekKind(2) == scanner.Equal || p.peekKind(2) == scanner.LSqb) {
			if p.minor >= 12 {
				return p.typeAlias()
			}
		}
	}
	return p.exprOrAssign()
}

func (p *parser) atStmtEnd() bool {
	k := p.kind()
	return k == scanner.Newline || k == scanner.Semi || k == scanner.EOF
}

func (p *parser) name() string {
	t := p.tok()
	if t.Kind != scanner.Name {
		p.errorExpected("name")
	}
	p.next()
	return p.text(t)
}

// exprOrAssign parses expression statements and all assignment forms.
func (p *parser) exprOrAssign() ast.Stmt {
	start := p.pos
	var first ast.Expr
	if p.at(scanner.KwYield) {
		first = p.yieldExpr()
	} else {
		first = p.starExpressions()
	}
	switch k := p.kind(); k {
	case scanner.Equal:
		targets := []ast.Expr{first}
		var value ast.Expr
		for p.accept(scanner.Equal) {
			var e ast.Expr
			if p.at(scanner.KwYield) {
				e = p.yieldExpr()
			} else {
				e = p.starExpressions()
			}
			targets = append(targets, e)
		}
		value = targets[len(targets)-1]
		targets = targets[:len(targets)-1]
		for i, t := range targets {
			targets[i] = p.setStore(t, ast.Store)
		}
		return &ast.Assign{Pos: p.span(start), Targets: targets, Value: value}
	case scanner.Colon:
		p.next()
		simple := 0
		switch t := first.(type) {
		case *ast.Name:
			if p.toks[start].Kind != scanner.LPar {
				simple = 1
			}
		case *ast.Attribute, *ast.Subscript:
		case *ast.Tuple:
			p.failNode(t, "only single target (not tuple) can be annotated")
		case *ast.List:
			p.failNode(t, "only single target (not list) can be annotated")
		default:
			p.failNode(t, "illegal target for annotation")
		}
		target := p.setStore(first, ast.Store)
		ann := p.expression()
		s := &ast.AnnAssign{Target: target, Annotation: ann, Simple: simple}
		if p.accept(scanner.Equal) {
			if p.at(scanner.KwYield) {
				s.Value = p.yieldExpr()
			} else {
				s.Value = p.starExpressions()
			}
		}
		s.Pos = p.span(start)
		return s
	default:
		if op, ok := augOps[k]; ok {
			switch first.(type) {
			case *ast.Name, *ast.Attribute, *ast.Subscript:
			default:
				p.failNode(first, "'%s' is an illegal expression for augmented assignment", exprKindName(first))
			}
			target := p.setStore(first, ast.Store)
			p.next()
			var value ast.Expr
			if p.at(scanner.KwYield) {
				value = p.yieldExpr()
			} else {
				value = p.starExpressions()
			}
			return &ast.AugAssign{Pos: p.span(start), Target: target, Op: op, Value: value}
		}
	}
	if !p.atStmtEnd() {
		p.fail("invalid syntax")
	}
	if st, ok := first.(*ast.Starred); ok {
		p.failNode(st, "can't use starred expression here")
	}
	return &ast.ExprStmt{Pos: p.span(start), Value: first}
}

var augOps = map[scanner.Kind]ast.Operator{
	scanner.PlusEq: ast.Add, scanner.MinusEq: ast.Sub, scanner.StarEq: ast.Mult,
	scanner.AtEq: ast.MatMult, scanner.SlashEq: ast.Div, scanner.PercentEq: ast.Mod,
	scanner.AmperEq: ast.BitAnd, scanner.VBarEq: ast.BitOr, scanner.CircumflexEq: ast.BitXor,
	scanner.LShiftEq: ast.LShift, scanner.RShiftEq: ast.RShift, scanner.DoubleStarEq: ast.Pow,
	scanner.DoubleSlashEq: ast.FloorDiv,
}

func (p *parser) importName() ast.Stmt {
	start := p.pos
	p.next()
	var names []*ast.Alias
	for {
		as := p.pos
		a := &ast.Alias{Name: p.dottedName()}
		if p.accept(scanner.KwAs) {
			a.Asname = p.name()
		}
		a.Pos = p.span(as)
		names = append(names, a)
		if !p.accept(scanner.Comma) {
			break
		}
	}
	return &ast.Import{Pos: p.span(start), Names: names}
}

func (p *parser) dottedName() string {
	n := p.name()
	if !p.at(scanner.Dot) {
		return n
	}
	var b strings.Builder
	b.WriteString(n)
	for p.accept(scanner.Dot) {
		b.WriteByte('.')
		b.WriteString(p.name())
	}
	return p.internBytes([]byte(b.String()))
}

func (p *parser) importFrom() ast.Stmt {
	start := p.pos
	p.next()
	s := &ast.ImportFrom{}
	for {
		if p.accept(scanner.Dot) {
			s.Level++
		} else if p.accept(scanner.Ellipsis) {
			s.Level += 3
		} else {
			break
		}
	}
	if !p.at(scanner.KwImport) {
		s.Module = p.dottedName()
	} else if s.Level == 0 {
		p.fail("invalid syntax") // `from import x`: a module or a dot is required
	}
	p.expect(scanner.KwImport)
	if p.at(scanner.Star) {
		as := p.pos
		p.next()
		s.Names = []*ast.Alias{{Pos: p.span(as), Name: "*"}}
		s.Pos = p.span(start)
		return s
	}
	paren := p.accept(scanner.LPar)
	for {
		as := p.pos
		a := &ast.Alias{Name: p.name()}
		if p.accept(scanner.KwAs) {
			a.Asname = p.name()
		}
		a.Pos = p.span(as)
		s.Names = append(s.Names, a)
		if !p.accept(scanner.Comma) {
			break
		}
		if paren && p.at(scanner.RPar) {
			break
		}
		if !paren && p.atStmtEnd() {
			p.fail("trailing comma not allowed without surrounding parentheses")
		}
	}
	if paren {
		p.expect(scanner.RPar)
	}
	s.Pos = p.span(start)
	return s
}

// block parses ":" followed by an indented block or simple statements on
// the same line. The colon has been consumed by the caller.
func (p *parser) block() []ast.Stmt {
	if p.accept(scanner.Newline) {
		if !p.accept(scanner.Indent) {
			p.fail("expected an indented block")
		}
		body := make([]ast.Stmt, 0, 4)
		for !p.at(scanner.Dedent) && !p.at(scanner.EOF) {
			before := p.pos
			body = p.statementRecover(body)
			if p.pos == before {
				p.errorAt(p.tok(), "invalid syntax")
				p.next()
			}
		}
		p.accept(scanner.Dedent)
		return body
	}
	return p.simpleStmts(make([]ast.Stmt, 0, 1))
}

func (p *parser) colonBlock() []ast.Stmt {
	p.expect(scanner.Colon)
	return p.block()
}

func (p *parser) decorated() ast.Stmt {
	var decos []ast.Expr
	for p.accept(scanner.At) {
		decos = append(decos, p.namedExpression())
		p.expect(scanner.Newline)
	}
	switch p.kind() {
	case scanner.KwDef:
		return p.funcDef(p.pos, decos, false)
	case scanner.KwClass:
		return p.classDef(decos)
	case scanner.KwAsync:
		start := p.pos
		p.next()
		if p.at(scanner.KwDef) {
			return p.funcDef(start, decos, true)
		}
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) funcDef(start int, decos []ast.Expr, async bool) ast.Stmt {
	p.expect(scanner.KwDef)
	name := p.name()
	tps := p.typeParams()
	p.expect(scanner.LPar)
	args := p.parameters(scanner.RPar, true)
	p.expect(scanner.RPar)
	var returns ast.Expr
	if p.accept(scanner.RArrow) {
		returns = p.expression()
	}
	body := p.colonBlock()
	if async {
		return &ast.AsyncFunctionDef{Pos: p.span(start), Name: name, Args: args, Body: body, DecoratorList: decos, Returns: returns, TypeParams: tps}
	}
	return &ast.FunctionDef{Pos: p.span(start), Name: name, Args: args, Body: body, DecoratorList: decos, Returns: returns, TypeParams: tps}
}

func (p *parser) classDef(decos []ast.Expr) ast.Stmt {
	start := p.pos
	p.expect(scanner.KwClass)
	s := &ast.ClassDef{Name: p.name(), DecoratorList: decos}
	s.TypeParams = p.typeParams()
	if p.accept(scanner.LPar) {
		s.Bases, s.Keywords = p.arguments(start, false)
		p.expect(scanner.RPar)
	}
	s.Body = p.colonBlock()
	s.Pos = p.span(start)
	return s
}

// typeParams parses an optional PEP 695 "[T, *Ts, **P]" list.
func (p *parser) typeParams() []ast.TypeParam {
	if !p.at(scanner.LSqb) {
		return nil
	}
	if p.minor < 12 {
		p.fail("invalid syntax")
	}
	p.next()
	var out []ast.TypeParam
	for !p.at(scanner.RSqb) {
		start := p.pos
		switch {
		case p.accept(scanner.Star):
			tp := &ast.TypeVarTuple{Name: p.name()}
			if p.accept(scanner.Equal) {
				tp.DefaultValue = p.typeParamDefault(true)
			}
			tp.Pos = p.span(start)
			out = append(out, tp)
		case p.accept(scanner.DoubleStar):
			tp := &ast.ParamSpec{Name: p.name()}
			if p.accept(scanner.Equal) {
				tp.DefaultValue = p.typeParamDefault(false)
			}
			tp.Pos = p.span(start)
			out = append(out, tp)
		default:
			tp := &ast.TypeVar{Name: p.name()}
			if p.accept(scanner.Colon) {
				tp.Bound = p.expression()
			}
			if p.accept(scanner.Equal) {
				tp.DefaultValue = p.typeParamDefault(false)
			}
			tp.Pos = p.span(start)
			out = append(out, tp)
		}
		if !p.accept(scanner.Comma) {
			break
		}
	}
	p.expect(scanner.RSqb)
	if len(out) == 0 {
		p.fail("Type parameter list cannot be empty")
	}
	return out
}

func (p *parser) typeParamDefault(star bool) ast.Expr {
	if p.minor < 13 {
		p.fail("invalid syntax")
	}
	if star && p.at(scanner.Star) {
		start := p.pos
		p.next()
		v := p.bitwiseOr()
		return &ast.Starred{Pos: p.span(start), Value: v, Ctx: ast.Load}
	}
	return p.expression()
}

func (p *parser) typeAlias() ast.Stmt {
	start := p.pos
	p.next() // "type"
	nt := p.pos
	name := &ast.Name{Id: p.name(), Ctx: ast.Store}
	name.Pos = p.span(nt)
	tps := p.typeParams()
	p.expect(scanner.Equal)
	v := p.expression()
	return &ast.TypeAlias{Pos: p.span(start), Name: name, TypeParams: tps, Value: v}
}

func (p *parser) ifStmt() ast.Stmt {
	start := p.pos
	p.next() // if / elif
	s := &ast.If{Test: p.namedExpression()}
	s.Body = p.colonBlock()
	switch p.kind() {
	case scanner.KwElif:
		s.Orelse = []ast.Stmt{p.ifStmt()}
	case scanner.KwElse:
		p.next()
		s.Orelse = p.colonBlock()
	}
	s.Pos = p.span(start)
	return s
}

func (p *parser) whileStmt() ast.Stmt {
	start := p.pos
	p.next()
	s := &ast.While{Test: p.namedExpression()}
	s.Body = p.colonBlock()
	if p.accept(scanner.KwElse) {
		s.Orelse = p.colonBlock()
	}
	s.Pos = p.span(start)
	return s
}

func (p *parser) forStmt(start int, async bool) ast.Stmt {
	p.expect(scanner.KwFor)
	target := p.starTargets()
	p.expect(scanner.KwIn)
	iter := p.starExpressions()
	body := p.colonBlock()
	var orelse []ast.Stmt
	if p.accept(scanner.KwElse) {
		orelse = p.colonBlock()
	}
	if async {
		return &ast.AsyncFor{Pos: p.span(start), Target: target, Iter: iter, Body: body, Orelse: orelse}
	}
	return &ast.For{Pos: p.span(start), Target: target, Iter: iter, Body: body, Orelse: orelse}
}

func (p *parser) withStmt(start int, async bool) ast.Stmt {
	p.expect(scanner.KwWith)
	var items []*ast.WithItem
	parenthesized := false
	if p.at(scanner.LPar) {
		parenthesized = p.try(func() {
			p.next()
			for {
				items = append(items, p.withItem(true))
				if !p.accept(scanner.Comma) || p.at(scanner.RPar) {
					break
				}
			}
			p.expect(scanner.RPar)
			if !p.at(scanner.Colon) {
				p.fail("invalid syntax")
			}
		})
		if !parenthesized {
			items = nil
		}
	}
	if !parenthesized {
		for {
			items = append(items, p.withItem(false))
			if !p.accept(scanner.Comma) {
				break
			}
		}
	}
	body := p.colonBlock()
	if async {
		return &ast.AsyncWith{Pos: p.span(start), Items: items, Body: body}
	}
	return &ast.With{Pos: p.span(start), Items: items, Body: body}
}

func (p *parser) withItem(inParens bool) *ast.WithItem {
	it := &ast.WithItem{ContextExpr: p.expression()}
	if p.accept(scanner.KwAs) {
		it.OptionalVars = p.starTarget()
		k := p.kind()
		if k != scanner.Comma && k != scanner.Colon && !(inParens && k == scanner.RPar) {
			p.fail("invalid syntax")
		}
	}
	return it
}

func (p *parser) tryStmt() ast.Stmt {
	start := p.pos
	p.next()
	body := p.colonBlock()
	var handlers []*ast.ExceptHandler
	star := -1
	for p.at(scanner.KwExcept) {
		hs := p.pos
		p.next()
		isStar := p.accept(scanner.Star)
		if star == -1 {
			star = 0
			if isStar {
				star = 1
			}
		} else if (star == 1) != isStar {
			p.fail("cannot have both 'except' and 'except*' on the same 'try'")
		}
		h := &ast.ExceptHandler{}
		if !p.at(scanner.Colon) {
			h.Type = p.expression()
			if p.at(scanner.Comma) {
				// "except A, B:" is rejected as in CPython.
				p.fail("multiple exception types must be parenthesized")
			}
			if p.accept(scanner.KwAs) {
				h.Name = p.name()
			}
		} else if isStar {
			p.fail("expected one or more exception types")
		}
		h.Body = p.colonBlock()
		h.Pos = p.span(hs)
		handlers = append(handlers, h)
	}
	var orelse, final []ast.Stmt
	if len(handlers) > 0 && p.accept(scanner.KwElse) {
		orelse = p.colonBlock()
	}
	if p.accept(scanner.KwFinally) {
		final = p.colonBlock()
	}
	if len(handlers) == 0 && final == nil {
		p.fail("expected 'except' or 'finally' block")
	}
	if star == 1 {
		return &ast.TryStar{Pos: p.span(start), Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final}
	}
	return &ast.Try{Pos: p.span(start), Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final}
}

// matchStmt parses a match statement, or returns nil (position restored)
// when "match" is an ordinary name here.
func (p *parser) matchStmt() ast.Stmt {
	start := p.pos
	var subject ast.Expr
	ok := p.try(func() {
		p.next()
		subject = p.matchSubject()
		p.expect(scanner.Colon)
		p.expect(scanner.Newline)
		p.expect(scanner.Indent)
		if !p.isSoft("case") {
			p.fail("invalid syntax")
		}
	})
	if !ok {
		p.pos = start
		return nil
	}
	s := &ast.Match{Subject: subject}
	for p.isSoft("case") {
		s.Cases = append(s.Cases, p.caseBlock())
	}
	if !p.accept(scanner.Dedent) && !p.at(scanner.EOF) {
		p.fail("invalid syntax")
	}
	s.Pos = p.span(start)
	return s
}

func (p *parser) matchSubject() ast.Expr {
	start := p.pos
	first := p.starNamedExpression()
	if !p.at(scanner.Comma) {
		if st, ok := first.(*ast.Starred); ok {
			p.failNode(st, "can't use starred expression here")
		}
		return first
	}
	elts := []ast.Expr{first}
	for p.accept(scanner.Comma) {
		if p.at(scanner.Colon) {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return &ast.Tuple{Pos: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) caseBlock() *ast.MatchCase {
	p.next() // case
	c := &ast.MatchCase{Pattern: p.patterns()}
	if p.accept(scanner.KwIf) {
		c.Guard = p.namedExpression()
	}
	c.Body = p.colonBlock()
	return c
}
