package scanner

// Kind is a token kind. Operators and hard keywords have kinds of their
// own so the parser compares small integers, not strings.
type Kind uint8

// Token kinds.
const (
	EOF Kind = iota // CPython's ENDMARKER
	Name
	Number
	String // a whole string literal, prefix and quotes included (f-strings too)
	Newline
	Indent
	Dedent
	Comment
	ErrorToken

	// Operators and delimiters.
	LPar     // (
	RPar     // )
	LSqb     // [
	RSqb     // ]
	LBrace   // {
	RBrace   // }
	Colon    // :
	Comma    // ,
	Semi     // ;
	Plus     // +
	Minus    // -
	Star     // *
	Slash    // /
	VBar     // |
	Amper    // &
	Less     // <
	Greater  // >
	Equal    // =
	Dot      // .
	Percent  // %
	EqEqual  // ==
	NotEqual // !=
	LessEq   // <=
	GreaterEq
	Tilde
	Circumflex
	LShift
	RShift
	DoubleStar
	PlusEq
	MinusEq
	StarEq
	SlashEq
	PercentEq
	AmperEq
	VBarEq
	CircumflexEq
	LShiftEq
	RShiftEq
	DoubleStarEq
	DoubleSlash
	DoubleSlashEq
	At
	AtEq
	RArrow
	Ellipsis
	ColonEq
	Exclamation // ! (only inside f-string replacement fields)

	// Hard keywords.
	KwFalse
	KwNone
	KwTrue
	KwAnd
	KwAs
	KwAssert
	KwAsync
	KwAwait
	KwBreak
	KwClass
	KwContinue
	KwDef
	KwDel
	KwElif
	KwElse
	KwExcept
	KwFinally
	KwFor
	KwFrom
	KwGlobal
	KwIf
	KwImport
	KwIn
	KwIs
	KwLambda
	KwNonlocal
	KwNot
	KwOr
	KwPass
	KwRaise
	KwReturn
	KwTry
	KwWhile
	KwWith
	KwYield

	numKinds
)

var kindNames = [numKinds]string{
	EOF: "ENDMARKER", Name: "NAME", Number: "NUMBER", String: "STRING", Newline: "NEWLINE",
	Indent: "INDENT", Dedent: "DEDENT", Comment: "COMMENT", ErrorToken: "ERRORTOKEN",
}

// Keywords maps each hard keyword to its kind.
var Keywords = map[string]Kind{
	"False": KwFalse, "None": KwNone, "True": KwTrue, "and": KwAnd, "as": KwAs,
	"assert": KwAssert, "async": KwAsync, "await": KwAwait, "break": KwBreak,
	"class": KwClass, "continue": KwContinue, "def": KwDef, "del": KwDel,
	"elif": KwElif, "else": KwElse, "except": KwExcept, "finally": KwFinally,
	"for": KwFor, "from": KwFrom, "global": KwGlobal, "if": KwIf, "import": KwImport,
	"in": KwIn, "is": KwIs, "lambda": KwLambda, "nonlocal": KwNonlocal, "not": KwNot,
	"or": KwOr, "pass": KwPass, "raise": KwRaise, "return": KwReturn, "try": KwTry,
	"while": KwWhile, "with": KwWith, "yield": KwYield,
}

// Operators maps each operator spelling to its kind.
var Operators = map[string]Kind{
	"(": LPar, ")": RPar, "[": LSqb, "]": RSqb, "{": LBrace, "}": RBrace, ":": Colon,
	",": Comma, ";": Semi, "+": Plus, "-": Minus, "*": Star, "/": Slash, "|": VBar,
	"&": Amper, "<": Less, ">": Greater, "=": Equal, ".": Dot, "%": Percent,
	"==": EqEqual, "!=": NotEqual, "<=": LessEq, ">=": GreaterEq, "~": Tilde,
	"^": Circumflex, "<<": LShift, ">>": RShift, "**": DoubleStar, "+=": PlusEq,
	"-=": MinusEq, "*=": StarEq, "/=": SlashEq, "%=": PercentEq, "&=": AmperEq,
	"|=": VBarEq, "^=": CircumflexEq, "<<=": LShiftEq, ">>=": RShiftEq,
	"**=": DoubleStarEq, "//": DoubleSlash, "//=": DoubleSlashEq, "@": At, "@=": AtEq,
	"->": RArrow, "...": Ellipsis, ":=": ColonEq, "!": Exclamation, "<>": NotEqual,
}

func init() {
	for s, k := range Keywords {
		kindNames[k] = s
	}
	for s, k := range Operators {
		if s != "<>" {
			kindNames[k] = s
		}
	}
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "?"
}

// IsKeyword reports whether k is a hard keyword.
func (k Kind) IsKeyword() bool { return k >= KwFalse && k <= KwYield }

// Token is one token. Off/EndOff are byte offsets into the decoded source;
// Line/EndLine are 1-based; Col/EndCol are 0-based byte columns.
type Token struct {
	Kind                       Kind
	Off, EndOff                int32
	Line, Col, EndLine, EndCol int32
}
