package ast

import (
	"strconv"
	"strings"
)

// Shape selects which CPython version's ast.dump output Dump reproduces.
type Shape int

// Supported dump shapes.
const (
	Shape311 Shape = 311 // no type_params fields
	Shape312 Shape = 312 // type_params on FunctionDef/ClassDef, TypeAlias
	Shape313 Shape = 313 // default_value on type params; empty lists and None omitted
)

// DumpOptions controls Dump.
type DumpOptions struct {
	Attributes bool  // include lineno, col_offset, end_lineno, end_col_offset
	Shape      Shape // 0 means Shape311
}

// Dump renders n exactly as CPython's ast.dump(n, include_attributes=…)
// prints it (single-line form).
func Dump(n Node, opt DumpOptions) string {
	if opt.Shape == 0 {
		opt.Shape = Shape311
	}
	d := &dumper{opt: opt}
	d.b.Grow(4096)
	d.node(n)
	return d.b.String()
}

type dumper struct {
	b     strings.Builder
	opt   DumpOptions
	first []bool // per open node: no field written yet
}

func (d *dumper) open(name string) {
	d.b.WriteString(name)
	d.b.WriteByte('(')
	d.first = append(d.first, true)
}

func (d *dumper) key(name string) {
	top := len(d.first) - 1
	if !d.first[top] {
		d.b.WriteString(", ")
	}
	d.first[top] = false
	d.b.WriteString(name)
	d.b.WriteByte('=')
}

// close writes the attributes (when asked and the node has them) and ")".
func (d *dumper) close(p *Pos, hasAttrs bool) {
	if hasAttrs && d.opt.Attributes {
		d.int("lineno", int(p.Lineno))
		d.int("col_offset", int(p.ColOffset))
		d.int("end_lineno", int(p.EndLineno))
		d.int("end_col_offset", int(p.EndColOffset))
	}
	d.first = d.first[:len(d.first)-1]
	d.b.WriteByte(')')
}

func (d *dumper) omitEmpty() bool { return d.opt.Shape >= Shape313 }

func (d *dumper) int(name string, v int) {
	d.key(name)
	d.b.WriteString(strconv.Itoa(v))
}

func (d *dumper) str(name, v string) {
	d.key(name)
	d.b.WriteString(strRepr(v, d.opt.Shape))
}

// optStr writes an optional identifier; "" means None and is skipped.
func (d *dumper) optStr(name, v string) {
	if v != "" {
		d.str(name, v)
	}
}

func (d *dumper) expr(name string, x Expr) {
	d.key(name)
	d.node(x)
}

func (d *dumper) optExpr(name string, x Expr) {
	if x != nil {
		d.expr(name, x)
	}
}

func (d *dumper) raw(name, v string) {
	d.key(name)
	d.b.WriteString(v)
}

func (d *dumper) list(name string, n int, item func(i int)) {
	if n == 0 && d.omitEmpty() {
		return
	}
	d.key(name)
	d.b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			d.b.WriteString(", ")
		}
		item(i)
	}
	d.b.WriteByte(']')
}

func (d *dumper) exprs(name string, xs []Expr) {
	d.list(name, len(xs), func(i int) {
		if xs[i] == nil {
			d.b.WriteString("None")
		} else {
			d.node(xs[i])
		}
	})
}

func (d *dumper) stmts(name string, xs []Stmt) {
	d.list(name, len(xs), func(i int) { d.node(xs[i]) })
}

func (d *dumper) patterns(name string, xs []Pattern) {
	d.list(name, len(xs), func(i int) { d.node(xs[i]) })
}

func (d *dumper) strs(name string, xs []string) {
	d.list(name, len(xs), func(i int) { d.b.WriteString(strRepr(xs[i], d.opt.Shape)) })
}

func (d *dumper) typeParams(xs []TypeParam) {
	if d.opt.Shape < Shape312 {
		return
	}
	d.list("type_params", len(xs), func(i int) { d.node(xs[i]) })
}

func (d *dumper) optNode(name string, n Node, isNil bool) {
	if !isNil {
		d.key(name)
		d.node(n)
	}
}

func (d *dumper) ctx(c ExprContext) {
	d.key("ctx")
	d.b.WriteString(c.String())
	d.b.WriteString("()")
}

func (d *dumper) op(s string) {
	d.key("op")
	d.b.WriteString(s)
	d.b.WriteString("()")
}

func (d *dumper) typeComment(s string) { d.optStr("type_comment", s) }

func (d *dumper) defaultValue(x Expr) {
	if d.opt.Shape >= Shape313 {
		d.optExpr("default_value", x)
	}
}

func (d *dumper) node(n Node) {
	switch n := n.(type) {
	case *Module:
		d.open("Module")
		d.stmts("body", n.Body)
		d.list("type_ignores", len(n.TypeIgnores), func(i int) { d.node(n.TypeIgnores[i]) })
		d.close(&n.Pos, false)
	case *TypeIgnore:
		d.open("TypeIgnore")
		d.int("lineno", n.Line)
		d.str("tag", n.Tag)
		d.close(&n.Pos, false)
	case *FunctionDef:
		d.open("FunctionDef")
		d.funcDef(n.Name, n.Args, n.Body, n.DecoratorList, n.Returns, n.TypeComment, n.TypeParams)
		d.close(&n.Pos, true)
	case *AsyncFunctionDef:
		d.open("AsyncFunctionDef")
		d.funcDef(n.Name, n.Args, n.Body, n.DecoratorList, n.Returns, n.TypeComment, n.TypeParams)
		d.close(&n.Pos, true)
	case *ClassDef:
		d.open("ClassDef")
		d.str("name", n.Name)
		d.exprs("bases", n.Bases)
		d.keywords(n.Keywords)
		d.stmts("body", n.Body)
		d.exprs("decorator_list", n.DecoratorList)
		d.typeParams(n.TypeParams)
		d.close(&n.Pos, true)
	case *Return:
		d.open("Return")
		d.optExpr("value", n.Value)
		d.close(&n.Pos, true)
	case *Delete:
		d.open("Delete")
		d.exprs("targets", n.Targets)
		d.close(&n.Pos, true)
	case *Assign:
		d.open("Assign")
		d.exprs("targets", n.Targets)
		d.expr("value", n.Value)
		d.typeComment(n.TypeComment)
		d.close(&n.Pos, true)
	case *TypeAlias:
		d.open("TypeAlias")
		d.expr("name", n.Name)
		d.list("type_params", len(n.TypeParams), func(i int) { d.node(n.TypeParams[i]) })
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *AugAssign:
		d.open("AugAssign")
		d.expr("target", n.Target)
		d.op(n.Op.String())
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *AnnAssign:
		d.open("AnnAssign")
		d.expr("target", n.Target)
		d.expr("annotation", n.Annotation)
		d.optExpr("value", n.Value)
		d.int("simple", n.Simple)
		d.close(&n.Pos, true)
	case *For:
		d.open("For")
		d.forBody(n.Target, n.Iter, n.Body, n.Orelse, n.TypeComment)
		d.close(&n.Pos, true)
	case *AsyncFor:
		d.open("AsyncFor")
		d.forBody(n.Target, n.Iter, n.Body, n.Orelse, n.TypeComment)
		d.close(&n.Pos, true)
	case *While:
		d.open("While")
		d.expr("test", n.Test)
		d.stmts("body", n.Body)
		d.stmts("orelse", n.Orelse)
		d.close(&n.Pos, true)
	case *If:
		d.open("If")
		d.expr("test", n.Test)
		d.stmts("body", n.Body)
		d.stmts("orelse", n.Orelse)
		d.close(&n.Pos, true)
	case *With:
		d.open("With")
		d.withBody(n.Items, n.Body, n.TypeComment)
		d.close(&n.Pos, true)
	case *AsyncWith:
		d.open("AsyncWith")
		d.withBody(n.Items, n.Body, n.TypeComment)
		d.close(&n.Pos, true)
	case *Match:
		d.open("Match")
		d.expr("subject", n.Subject)
		d.list("cases", len(n.Cases), func(i int) { d.node(n.Cases[i]) })
		d.close(&n.Pos, true)
	case *Raise:
		d.open("Raise")
		d.optExpr("exc", n.Exc)
		d.optExpr("cause", n.Cause)
		d.close(&n.Pos, true)
	case *Try:
		d.open("Try")
		d.tryBody(n.Body, n.Handlers, n.Orelse, n.Finalbody)
		d.close(&n.Pos, true)
	case *TryStar:
		d.open("TryStar")
		d.tryBody(n.Body, n.Handlers, n.Orelse, n.Finalbody)
		d.close(&n.Pos, true)
	case *Assert:
		d.open("Assert")
		d.expr("test", n.Test)
		d.optExpr("msg", n.Msg)
		d.close(&n.Pos, true)
	case *Import:
		d.open("Import")
		d.aliases(n.Names)
		d.close(&n.Pos, true)
	case *ImportFrom:
		d.open("ImportFrom")
		d.optStr("module", n.Module)
		d.aliases(n.Names)
		d.int("level", n.Level)
		d.close(&n.Pos, true)
	case *Global:
		d.open("Global")
		d.strs("names", n.Names)
		d.close(&n.Pos, true)
	case *Nonlocal:
		d.open("Nonlocal")
		d.strs("names", n.Names)
		d.close(&n.Pos, true)
	case *ExprStmt:
		d.open("Expr")
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *Pass:
		d.open("Pass")
		d.close(&n.Pos, true)
	case *Break:
		d.open("Break")
		d.close(&n.Pos, true)
	case *Continue:
		d.open("Continue")
		d.close(&n.Pos, true)

	case *BoolOp:
		d.open("BoolOp")
		d.op(n.Op.String())
		d.exprs("values", n.Values)
		d.close(&n.Pos, true)
	case *NamedExpr:
		d.open("NamedExpr")
		d.expr("target", n.Target)
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *BinOp:
		d.open("BinOp")
		d.expr("left", n.Left)
		d.op(n.Op.String())
		d.expr("right", n.Right)
		d.close(&n.Pos, true)
	case *UnaryOp:
		d.open("UnaryOp")
		d.op(n.Op.String())
		d.expr("operand", n.Operand)
		d.close(&n.Pos, true)
	case *Lambda:
		d.open("Lambda")
		d.key("args")
		d.node(n.Args)
		d.expr("body", n.Body)
		d.close(&n.Pos, true)
	case *IfExp:
		d.open("IfExp")
		d.expr("test", n.Test)
		d.expr("body", n.Body)
		d.expr("orelse", n.Orelse)
		d.close(&n.Pos, true)
	case *Dict:
		d.open("Dict")
		d.exprs("keys", n.Keys)
		d.exprs("values", n.Values)
		d.close(&n.Pos, true)
	case *Set:
		d.open("Set")
		d.exprs("elts", n.Elts)
		d.close(&n.Pos, true)
	case *ListComp:
		d.open("ListComp")
		d.expr("elt", n.Elt)
		d.generators(n.Generators)
		d.close(&n.Pos, true)
	case *SetComp:
		d.open("SetComp")
		d.expr("elt", n.Elt)
		d.generators(n.Generators)
		d.close(&n.Pos, true)
	case *DictComp:
		d.open("DictComp")
		d.expr("key", n.Key)
		d.expr("value", n.Value)
		d.generators(n.Generators)
		d.close(&n.Pos, true)
	case *GeneratorExp:
		d.open("GeneratorExp")
		d.expr("elt", n.Elt)
		d.generators(n.Generators)
		d.close(&n.Pos, true)
	case *Await:
		d.open("Await")
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *Yield:
		d.open("Yield")
		d.optExpr("value", n.Value)
		d.close(&n.Pos, true)
	case *YieldFrom:
		d.open("YieldFrom")
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *Compare:
		d.open("Compare")
		d.expr("left", n.Left)
		d.list("ops", len(n.Ops), func(i int) { d.b.WriteString(n.Ops[i].String()); d.b.WriteString("()") })
		d.exprs("comparators", n.Comparators)
		d.close(&n.Pos, true)
	case *Call:
		d.open("Call")
		d.expr("func", n.Func)
		d.exprs("args", n.Args)
		d.keywords(n.Keywords)
		d.close(&n.Pos, true)
	case *FormattedValue:
		d.open("FormattedValue")
		d.expr("value", n.Value)
		d.int("conversion", n.Conversion)
		d.optExpr("format_spec", n.FormatSpec)
		d.close(&n.Pos, true)
	case *JoinedStr:
		d.open("JoinedStr")
		d.exprs("values", n.Values)
		d.close(&n.Pos, true)
	case *Constant:
		d.open("Constant")
		d.raw("value", n.ReprShape(d.opt.Shape))
		d.optStr("kind", n.Kind)
		d.close(&n.Pos, true)
	case *Attribute:
		d.open("Attribute")
		d.expr("value", n.Value)
		d.str("attr", n.Attr)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *Subscript:
		d.open("Subscript")
		d.expr("value", n.Value)
		d.expr("slice", n.Slice)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *Starred:
		d.open("Starred")
		d.expr("value", n.Value)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *Name:
		d.open("Name")
		d.str("id", n.Id)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *List:
		d.open("List")
		d.exprs("elts", n.Elts)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *Tuple:
		d.open("Tuple")
		d.exprs("elts", n.Elts)
		d.ctx(n.Ctx)
		d.close(&n.Pos, true)
	case *Slice:
		d.open("Slice")
		d.optExpr("lower", n.Lower)
		d.optExpr("upper", n.Upper)
		d.optExpr("step", n.Step)
		d.close(&n.Pos, true)

	case *Comprehension:
		d.open("comprehension")
		d.expr("target", n.Target)
		d.expr("iter", n.Iter)
		d.exprs("ifs", n.Ifs)
		d.int("is_async", n.IsAsync)
		d.close(&n.Pos, false)
	case *ExceptHandler:
		d.open("ExceptHandler")
		d.optExpr("type", n.Type)
		d.optStr("name", n.Name)
		d.stmts("body", n.Body)
		d.close(&n.Pos, true)
	case *Arguments:
		d.open("arguments")
		d.args("posonlyargs", n.PosOnlyArgs)
		d.args("args", n.Args)
		d.optNode("vararg", n.Vararg, n.Vararg == nil)
		d.args("kwonlyargs", n.KwOnlyArgs)
		d.exprs("kw_defaults", n.KwDefaults)
		d.optNode("kwarg", n.Kwarg, n.Kwarg == nil)
		d.exprs("defaults", n.Defaults)
		d.close(&n.Pos, false)
	case *Arg:
		d.open("arg")
		d.str("arg", n.Arg)
		d.optExpr("annotation", n.Annotation)
		d.typeComment(n.TypeComment)
		d.close(&n.Pos, true)
	case *Keyword:
		d.open("keyword")
		d.optStr("arg", n.Arg)
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *Alias:
		d.open("alias")
		d.str("name", n.Name)
		d.optStr("asname", n.Asname)
		d.close(&n.Pos, true)
	case *WithItem:
		d.open("withitem")
		d.expr("context_expr", n.ContextExpr)
		d.optExpr("optional_vars", n.OptionalVars)
		d.close(&n.Pos, false)
	case *MatchCase:
		d.open("match_case")
		d.key("pattern")
		d.node(n.Pattern)
		d.optExpr("guard", n.Guard)
		d.stmts("body", n.Body)
		d.close(&n.Pos, false)

	case *MatchValue:
		d.open("MatchValue")
		d.expr("value", n.Value)
		d.close(&n.Pos, true)
	case *MatchSingleton:
		d.open("MatchSingleton")
		d.raw("value", n.Value.ReprShape(d.opt.Shape))
		d.close(&n.Pos, true)
	case *MatchSequence:
		d.open("MatchSequence")
		d.patterns("patterns", n.Patterns)
		d.close(&n.Pos, true)
	case *MatchMapping:
		d.open("MatchMapping")
		d.exprs("keys", n.Keys)
		d.patterns("patterns", n.Patterns)
		d.optStr("rest", n.Rest)
		d.close(&n.Pos, true)
	case *MatchClass:
		d.open("MatchClass")
		d.expr("cls", n.Cls)
		d.patterns("patterns", n.Patterns)
		d.strs("kwd_attrs", n.KwdAttrs)
		d.patterns("kwd_patterns", n.KwdPatterns)
		d.close(&n.Pos, true)
	case *MatchStar:
		d.open("MatchStar")
		d.optStr("name", n.Name)
		d.close(&n.Pos, true)
	case *MatchAs:
		d.open("MatchAs")
		if n.Pattern != nil {
			d.key("pattern")
			d.node(n.Pattern)
		}
		d.optStr("name", n.Name)
		d.close(&n.Pos, true)
	case *MatchOr:
		d.open("MatchOr")
		d.patterns("patterns", n.Patterns)
		d.close(&n.Pos, true)

	case *TypeVar:
		d.open("TypeVar")
		d.str("name", n.Name)
		d.optExpr("bound", n.Bound)
		d.defaultValue(n.DefaultValue)
		d.close(&n.Pos, true)
	case *ParamSpec:
		d.open("ParamSpec")
		d.str("name", n.Name)
		d.defaultValue(n.DefaultValue)
		d.close(&n.Pos, true)
	case *TypeVarTuple:
		d.open("TypeVarTuple")
		d.str("name", n.Name)
		d.defaultValue(n.DefaultValue)
		d.close(&n.Pos, true)
	default:
		d.b.WriteString("None")
	}
}

func (d *dumper) funcDef(name string, a *Arguments, body []Stmt, decos []Expr, returns Expr, tc string, tps []TypeParam) {
	d.str("name", name)
	d.key("args")
	d.node(a)
	d.stmts("body", body)
	d.exprs("decorator_list", decos)
	d.optExpr("returns", returns)
	d.typeComment(tc)
	d.typeParams(tps)
}

func (d *dumper) forBody(target, iter Expr, body, orelse []Stmt, tc string) {
	d.expr("target", target)
	d.expr("iter", iter)
	d.stmts("body", body)
	d.stmts("orelse", orelse)
	d.typeComment(tc)
}

func (d *dumper) withBody(items []*WithItem, body []Stmt, tc string) {
	d.list("items", len(items), func(i int) { d.node(items[i]) })
	d.stmts("body", body)
	d.typeComment(tc)
}

func (d *dumper) tryBody(body []Stmt, hs []*ExceptHandler, orelse, final []Stmt) {
	d.stmts("body", body)
	d.list("handlers", len(hs), func(i int) { d.node(hs[i]) })
	d.stmts("orelse", orelse)
	d.stmts("finalbody", final)
}

func (d *dumper) keywords(ks []*Keyword) {
	d.list("keywords", len(ks), func(i int) { d.node(ks[i]) })
}

func (d *dumper) aliases(as []*Alias) {
	d.list("names", len(as), func(i int) { d.node(as[i]) })
}

func (d *dumper) generators(gs []*Comprehension) {
	d.list("generators", len(gs), func(i int) { d.node(gs[i]) })
}

func (d *dumper) args(name string, as []*Arg) {
	d.list(name, len(as), func(i int) { d.node(as[i]) })
}
