// Package ast declares the typed syntax tree of Python programs, mirroring
// CPython's ast module node for node (Python 3.8–3.13 grammar), with the
// same field names (in Go case), the same optional fields and the same
// positions: 1-based lines and 0-based UTF-8 byte columns.
//
// Absent optional children are nil; absent optional strings are "" (with a
// Has… flag where "" is a legal value). Lists are nil or empty when empty.
// Inspect and Walk visit a tree in field order; Dump prints it exactly as
// CPython's ast.dump does.
package ast

// Pos is a node's source span as CPython reports it: Lineno and EndLineno
// are 1-based, ColOffset and EndColOffset are 0-based byte offsets into the
// UTF-8 encoded line. Nodes CPython gives no positions (Module, arguments,
// comprehension, withitem, match_case) keep a zero Pos.
type Pos struct {
	Lineno, ColOffset, EndLineno, EndColOffset int32
	// num is the expression's number (NumberExprs), 0 for none. Span
	// leaves it out, so that positions compare as spans.
	num uint32
}

// Span returns the node's position.
func (p *Pos) Span() Pos {
	q := *p
	q.num = 0
	return q
}

// SetSpan overwrites the node's position (used by the parser), keeping
// its number.
func (p *Pos) SetSpan(q Pos) {
	q.num = p.num
	*p = q
}

// Num returns the number NumberExprs gave the expression, 0 for none.
// A copy of a node (or of its Pos) carries the same number: tables keyed
// by numbers check the node's address too.
func (p *Pos) Num() uint32 { return p.num }

// Addr returns the address of the node's position: every node has its
// own, so it identifies the node. As a map key it hashes as a plain
// pointer, several times faster than the Node interface (the analyses
// key hundreds of thousands of expressions).
func (p *Pos) Addr() *Pos { return p }

// Node is any syntax tree node.
type Node interface {
	Span() Pos
	SetSpan(Pos)
	Addr() *Pos
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Pattern is a match-statement pattern node.
type Pattern interface {
	Node
	patternNode()
}

// TypeParam is a PEP 695 type parameter node (TypeVar, ParamSpec, TypeVarTuple).
type TypeParam interface {
	Node
	typeParamNode()
}

// ExprContext is the ctx field of Name, Attribute, Subscript, Starred, List
// and Tuple.
type ExprContext uint8

// Expression contexts.
const (
	Load ExprContext = iota
	Store
	Del
)

func (c ExprContext) String() string {
	switch c {
	case Store:
		return "Store"
	case Del:
		return "Del"
	}
	return "Load"
}

// BoolOpKind is the op of a BoolOp.
type BoolOpKind uint8

// Boolean operators.
const (
	And BoolOpKind = iota
	Or
)

func (o BoolOpKind) String() string {
	if o == Or {
		return "Or"
	}
	return "And"
}

// Operator is the op of BinOp and AugAssign.
type Operator uint8

// Binary operators.
const (
	Add Operator = iota
	Sub
	Mult
	MatMult
	Div
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
	FloorDiv
)

var operatorNames = [...]string{"Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift", "RShift", "BitOr", "BitXor", "BitAnd", "FloorDiv"}

func (o Operator) String() string { return operatorNames[o] }

// UnaryOpKind is the op of a UnaryOp.
type UnaryOpKind uint8

// Unary operators.
const (
	Invert UnaryOpKind = iota
	Not
	UAdd
	USub
)

var unaryNames = [...]string{"Invert", "Not", "UAdd", "USub"}

func (o UnaryOpKind) String() string { return unaryNames[o] }

// CmpOp is one operator of a Compare.
type CmpOp uint8

// Comparison operators.
const (
	Eq CmpOp = iota
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

var cmpNames = [...]string{"Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"}

func (o CmpOp) String() string { return cmpNames[o] }

// ---- mod ----

// Module is a parsed file.
type Module struct {
	Pos
	Body        []Stmt
	TypeIgnores []*TypeIgnore
}

// TypeIgnore is a "# type: ignore" comment (only with type comments on).
type TypeIgnore struct {
	Pos
	Line int
	Tag  string
}

// ---- statements ----

// FunctionDef is "def name(args) -> returns: body".
type FunctionDef struct {
	Pos
	Name          string
	Args          *Arguments
	Body          []Stmt
	DecoratorList []Expr
	Returns       Expr // may be nil
	TypeComment   string
	TypeParams    []TypeParam // 3.12+
}

// AsyncFunctionDef is "async def ...".
type AsyncFunctionDef struct {
	Pos
	Name          string
	Args          *Arguments
	Body          []Stmt
	DecoratorList []Expr
	Returns       Expr
	TypeComment   string
	TypeParams    []TypeParam
}

// ClassDef is "class name(bases, keywords): body".
type ClassDef struct {
	Pos
	Name          string
	Bases         []Expr
	Keywords      []*Keyword
	Body          []Stmt
	DecoratorList []Expr
	TypeParams    []TypeParam
}

// Return is "return [value]".
type Return struct {
	Pos
	Value Expr
}

// Delete is "del targets".
type Delete struct {
	Pos
	Targets []Expr
}

// Assign is "t1 = t2 = value".
type Assign struct {
	Pos
	Targets     []Expr
	Value       Expr
	TypeComment string
}

// TypeAlias is "type name[params] = value" (3.12+).
type TypeAlias struct {
	Pos
	Name       Expr
	TypeParams []TypeParam
	Value      Expr
}

// AugAssign is "target op= value".
type AugAssign struct {
	Pos
	Target Expr
	Op     Operator
	Value  Expr
}

// AnnAssign is "target: annotation [= value]".
type AnnAssign struct {
	Pos
	Target     Expr
	Annotation Expr
	Value      Expr
	Simple     int
}

// For is "for target in iter: body else: orelse".
type For struct {
	Pos
	Target      Expr
	Iter        Expr
	Body        []Stmt
	Orelse      []Stmt
	TypeComment string
}

// AsyncFor is "async for ...".
type AsyncFor struct {
	Pos
	Target      Expr
	Iter        Expr
	Body        []Stmt
	Orelse      []Stmt
	TypeComment string
}

// While is "while test: body else: orelse".
type While struct {
	Pos
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
}

// If is "if test: body else: orelse" (elif nests an If in Orelse).
type If struct {
	Pos
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
}

// With is "with items: body".
type With struct {
	Pos
	Items       []*WithItem
	Body        []Stmt
	TypeComment string
}

// AsyncWith is "async with ...".
type AsyncWith struct {
	Pos
	Items       []*WithItem
	Body        []Stmt
	TypeComment string
}

// Match is "match subject: cases".
type Match struct {
	Pos
	Subject Expr
	Cases   []*MatchCase
}

// Raise is "raise [exc [from cause]]".
type Raise struct {
	Pos
	Exc   Expr
	Cause Expr
}

// Try is try/except/else/finally.
type Try struct {
	Pos
	Body      []Stmt
	Handlers  []*ExceptHandler
	Orelse    []Stmt
	Finalbody []Stmt
}

// TryStar is try/except*.
type TryStar struct {
	Pos
	Body      []Stmt
	Handlers  []*ExceptHandler
	Orelse    []Stmt
	Finalbody []Stmt
}

// Assert is "assert test [, msg]".
type Assert struct {
	Pos
	Test Expr
	Msg  Expr
}

// Import is "import names".
type Import struct {
	Pos
	Names []*Alias
}

// ImportFrom is "from [.]*module import names". Module is "" when absent.
type ImportFrom struct {
	Pos
	Module string
	Names  []*Alias
	Level  int
}

// Global is "global names".
type Global struct {
	Pos
	Names []string
}

// Nonlocal is "nonlocal names".
type Nonlocal struct {
	Pos
	Names []string
}

// ExprStmt is an expression statement (CPython's Expr).
type ExprStmt struct {
	Pos
	Value Expr
}

// Pass is "pass".
type Pass struct{ Pos }

// Break is "break".
type Break struct{ Pos }

// Continue is "continue".
type Continue struct{ Pos }

// ---- expressions ----

// BoolOp is "a and b and c" (one node per run of the same operator).
type BoolOp struct {
	Pos
	Op     BoolOpKind
	Values []Expr
}

// NamedExpr is "target := value".
type NamedExpr struct {
	Pos
	Target Expr
	Value  Expr
}

// BinOp is "left op right".
type BinOp struct {
	Pos
	Left  Expr
	Op    Operator
	Right Expr
}

// UnaryOp is "op operand".
type UnaryOp struct {
	Pos
	Op      UnaryOpKind
	Operand Expr
}

// Lambda is "lambda args: body".
type Lambda struct {
	Pos
	Args *Arguments
	Body Expr
}

// IfExp is "body if test else orelse".
type IfExp struct {
	Pos
	Test   Expr
	Body   Expr
	Orelse Expr
}

// Dict is "{k: v, **d}"; a nil key stands for a "**d" entry.
type Dict struct {
	Pos
	Keys   []Expr
	Values []Expr
}

// Set is "{a, b}".
type Set struct {
	Pos
	Elts []Expr
}

// ListComp is "[elt for ...]".
type ListComp struct {
	Pos
	Elt        Expr
	Generators []*Comprehension
}

// SetComp is "{elt for ...}".
type SetComp struct {
	Pos
	Elt        Expr
	Generators []*Comprehension
}

// DictComp is "{key: value for ...}".
type DictComp struct {
	Pos
	Key        Expr
	Value      Expr
	Generators []*Comprehension
}

// GeneratorExp is "(elt for ...)".
type GeneratorExp struct {
	Pos
	Elt        Expr
	Generators []*Comprehension
}

// Await is "await value".
type Await struct {
	Pos
	Value Expr
}

// Yield is "yield [value]".
type Yield struct {
	Pos
	Value Expr
}

// YieldFrom is "yield from value".
type YieldFrom struct {
	Pos
	Value Expr
}

// Compare is "left op1 c1 op2 c2 ...".
type Compare struct {
	Pos
	Left        Expr
	Ops         []CmpOp
	Comparators []Expr
}

// Call is "func(args, keywords)".
type Call struct {
	Pos
	Func     Expr
	Args     []Expr
	Keywords []*Keyword
}

// FormattedValue is one replacement field of an f-string. Conversion is -1
// or the code point of 's', 'r' or 'a'.
type FormattedValue struct {
	Pos
	Value      Expr
	Conversion int
	FormatSpec Expr // a *JoinedStr or nil
}

// JoinedStr is an f-string.
type JoinedStr struct {
	Pos
	Values []Expr
}

// Attribute is "value.attr".
type Attribute struct {
	Pos
	Value Expr
	Attr  string
	Ctx   ExprContext
}

// Subscript is "value[slice]".
type Subscript struct {
	Pos
	Value Expr
	Slice Expr
	Ctx   ExprContext
}

// Starred is "*value".
type Starred struct {
	Pos
	Value Expr
	Ctx   ExprContext
}

// Name is an identifier.
type Name struct {
	Pos
	Id  string
	Ctx ExprContext
}

// List is "[elts]".
type List struct {
	Pos
	Elts []Expr
	Ctx  ExprContext
}

// Tuple is "a, b" or "(a, b)".
type Tuple struct {
	Pos
	Elts []Expr
	Ctx  ExprContext
}

// Slice is "lower:upper:step" inside a subscript.
type Slice struct {
	Pos
	Lower Expr
	Upper Expr
	Step  Expr
}

// ---- auxiliary nodes ----

// Comprehension is one "for target in iter if ifs" clause.
type Comprehension struct {
	Pos
	Target  Expr
	Iter    Expr
	Ifs     []Expr
	IsAsync int
}

// ExceptHandler is "except [type [as name]]: body".
type ExceptHandler struct {
	Pos
	Type Expr
	Name string // "" when absent
	Body []Stmt
}

// Arguments is a parameter list. KwDefaults has one entry per KwOnlyArgs
// entry, nil where there is no default; Defaults covers the last
// len(Defaults) of PosOnlyArgs+Args.
type Arguments struct {
	Pos
	PosOnlyArgs []*Arg
	Args        []*Arg
	Vararg      *Arg
	KwOnlyArgs  []*Arg
	KwDefaults  []Expr
	Kwarg       *Arg
	Defaults    []Expr
}

// Positional returns the parameters that positional arguments fill, in
// order: the positional-only ones, then the positional-or-keyword ones.
// Defaults belong to its last len(Defaults) entries.
func (a *Arguments) Positional() []*Arg {
	return append(append(make([]*Arg, 0, len(a.PosOnlyArgs)+len(a.Args)), a.PosOnlyArgs...), a.Args...)
}

// PositionalNames is the names of Positional.
func (a *Arguments) PositionalNames() []string {
	out := make([]string, 0, len(a.PosOnlyArgs)+len(a.Args))
	for _, p := range a.PosOnlyArgs {
		out = append(out, p.Arg)
	}
	for _, p := range a.Args {
		out = append(out, p.Arg)
	}
	return out
}

// Arg is one parameter.
type Arg struct {
	Pos
	Arg         string
	Annotation  Expr
	TypeComment string
}

// Keyword is "arg=value" in a call or class header; Arg is "" for "**value".
type Keyword struct {
	Pos
	Arg   string
	Value Expr
}

// Alias is "name [as asname]" in an import.
type Alias struct {
	Pos
	Name   string
	Asname string
}

// WithItem is "context_expr [as optional_vars]".
type WithItem struct {
	Pos
	ContextExpr  Expr
	OptionalVars Expr
}

// MatchCase is "case pattern [if guard]: body".
type MatchCase struct {
	Pos
	Pattern Pattern
	Guard   Expr
	Body    []Stmt
}

// ---- patterns ----

// MatchValue is a value pattern (literal or dotted name).
type MatchValue struct {
	Pos
	Value Expr
}

// MatchSingleton is None, True or False; Value is a *Constant.
type MatchSingleton struct {
	Pos
	Value *Constant
}

// MatchSequence is "[p, q, *r]".
type MatchSequence struct {
	Pos
	Patterns []Pattern
}

// MatchMapping is "{k: p, **rest}". Rest is "" when absent.
type MatchMapping struct {
	Pos
	Keys     []Expr
	Patterns []Pattern
	Rest     string
}

// MatchClass is "cls(p, k=q)".
type MatchClass struct {
	Pos
	Cls         Expr
	Patterns    []Pattern
	KwdAttrs    []string
	KwdPatterns []Pattern
}

// MatchStar is "*name" inside a sequence pattern; Name is "" for "*_".
type MatchStar struct {
	Pos
	Name string
}

// MatchAs is "pattern as name", a capture "name" or the wildcard "_"
// (Pattern nil and Name "").
type MatchAs struct {
	Pos
	Pattern Pattern
	Name    string
}

// MatchOr is "p | q".
type MatchOr struct {
	Pos
	Patterns []Pattern
}

// ---- type parameters (3.12+) ----

// TypeVar is "T", "T: bound" or "T = default" (3.13).
type TypeVar struct {
	Pos
	Name         string
	Bound        Expr
	DefaultValue Expr
}

// ParamSpec is "**P".
type ParamSpec struct {
	Pos
	Name         string
	DefaultValue Expr
}

// TypeVarTuple is "*Ts".
type TypeVarTuple struct {
	Pos
	Name         string
	DefaultValue Expr
}

func (*FunctionDef) stmtNode()      {}
func (*AsyncFunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()         {}
func (*Return) stmtNode()           {}
func (*Delete) stmtNode()           {}
func (*Assign) stmtNode()           {}
func (*TypeAlias) stmtNode()        {}
func (*AugAssign) stmtNode()        {}
func (*AnnAssign) stmtNode()        {}
func (*For) stmtNode()              {}
func (*AsyncFor) stmtNode()         {}
func (*While) stmtNode()            {}
func (*If) stmtNode()               {}
func (*With) stmtNode()             {}
func (*AsyncWith) stmtNode()        {}
func (*Match) stmtNode()            {}
func (*Raise) stmtNode()            {}
func (*Try) stmtNode()              {}
func (*TryStar) stmtNode()          {}
func (*Assert) stmtNode()           {}
func (*Import) stmtNode()           {}
func (*ImportFrom) stmtNode()       {}
func (*Global) stmtNode()           {}
func (*Nonlocal) stmtNode()         {}
func (*ExprStmt) stmtNode()         {}
func (*Pass) stmtNode()             {}
func (*Break) stmtNode()            {}
func (*Continue) stmtNode()         {}

func (*BoolOp) exprNode()         {}
func (*NamedExpr) exprNode()      {}
func (*BinOp) exprNode()          {}
func (*UnaryOp) exprNode()        {}
func (*Lambda) exprNode()         {}
func (*IfExp) exprNode()          {}
func (*Dict) exprNode()           {}
func (*Set) exprNode()            {}
func (*ListComp) exprNode()       {}
func (*SetComp) exprNode()        {}
func (*DictComp) exprNode()       {}
func (*GeneratorExp) exprNode()   {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}
func (*YieldFrom) exprNode()      {}
func (*Compare) exprNode()        {}
func (*Call) exprNode()           {}
func (*FormattedValue) exprNode() {}
func (*JoinedStr) exprNode()      {}
func (*Constant) exprNode()       {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Starred) exprNode()        {}
func (*Name) exprNode()           {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Slice) exprNode()          {}

func (*MatchValue) patternNode()     {}
func (*MatchSingleton) patternNode() {}
func (*MatchSequence) patternNode()  {}
func (*MatchMapping) patternNode()   {}
func (*MatchClass) patternNode()     {}
func (*MatchStar) patternNode()      {}
func (*MatchAs) patternNode()        {}
func (*MatchOr) patternNode()        {}

func (*TypeVar) typeParamNode()      {}
func (*ParamSpec) typeParamNode()    {}
func (*TypeVarTuple) typeParamNode() {}
