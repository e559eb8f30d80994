package ast

import (
	"math"
	"math/big"
	"testing"
)

func TestFloatRepr(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {0.1, "0.1"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{1.5e-5, "1.5e-05"}, {0.0001, "0.0001"}, {123.456, "123.456"}, {1e300, "1e+300"},
		{math.Inf(1), "inf"}, {math.NaN(), "nan"}, {2.5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	} {
		if got := FloatRepr(tc.f); got != tc.want {
			t.Errorf("FloatRepr(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	for _, tc := range []struct {
		f    float64
		want string
	}{{1, "1j"}, {1.5, "1.5j"}, {1e16, "1e+16j"}, {0, "0j"}, {math.Inf(1), "infj"}} {
		if got := ComplexRepr(tc.f); got != tc.want {
			t.Errorf("ComplexRepr(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestStrRepr(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"", "''"}, {"a'b", `"a'b"`}, {`a'b"`, `'a\'b"'`}, {"\t\n\r\x00\x7f\\", `'\t\n\r\x00\x7f\\'`},
		{"é€😀", "'é€😀'"}, {"\u00a0\u200b\U000e0001", `'\xa0\u200b\U000e0001'`},
		{string(AppendWTF8(nil, 0xd800)), `'\ud800'`},
	} {
		if got := StrRepr(tc.s); got != tc.want {
			t.Errorf("StrRepr(%q) = %s, want %s", tc.s, got, tc.want)
		}
	}
	if got := BytesRepr("a'\x80\""); got != `b'a\'\x80"'` {
		t.Errorf("BytesRepr = %s", got)
	}
}

func TestConstantRepr(t *testing.T) {
	big, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, tc := range []struct {
		c    Constant
		want string
	}{
		{Constant{Type: ConstNone}, "None"}, {Constant{Type: ConstBool, Bool: true}, "True"},
		{Constant{Type: ConstInt, Int: -3}, "-3"}, {Constant{Type: ConstInt, Big: big}, "123456789012345678901234567890"},
		{Constant{Type: ConstEllipsis}, "Ellipsis"}, {Constant{Type: ConstBytes, Str: "x"}, "b'x'"},
	} {
		if got := tc.c.Repr(); got != tc.want {
			t.Errorf("Repr = %s, want %s", got, tc.want)
		}
	}
}

func sampleTree() *Module {
	x := &Name{Pos: Pos{Lineno: 1, ColOffset: 0, EndLineno: 1, EndColOffset: 1}, Id: "x", Ctx: Store}
	call := &Call{Pos: Pos{Lineno: 1, ColOffset: 4, EndLineno: 1, EndColOffset: 10}, Func: &Name{Pos: Pos{Lineno: 1, ColOffset: 4, EndLineno: 1, EndColOffset: 5}, Id: "f"},
		Args:     []Expr{&Constant{Pos: Pos{Lineno: 1, ColOffset: 6, EndLineno: 1, EndColOffset: 7}, Type: ConstInt, Int: 1}},
		Keywords: []*Keyword{{Pos: Pos{Lineno: 1, ColOffset: 9, EndLineno: 1, EndColOffset: 12}, Value: &Name{Id: "k"}}}}
	return &Module{Body: []Stmt{
		&Assign{Pos: Pos{Lineno: 1, ColOffset: 0, EndLineno: 1, EndColOffset: 10}, Targets: []Expr{x}, Value: call},
		&FunctionDef{Pos: Pos{Lineno: 2, ColOffset: 0, EndLineno: 2, EndColOffset: 13}, Name: "g", Args: &Arguments{}, Body: []Stmt{&Pass{Pos: Pos{Lineno: 2, ColOffset: 9, EndLineno: 2, EndColOffset: 13}}}},
	}}
}

func TestInspectOrder(t *testing.T) {
	var kinds []string
	Inspect(sampleTree(), func(n Node) bool {
		if n == nil {
			return false
		}
		switch n := n.(type) {
		case *Name:
			kinds = append(kinds, "Name:"+n.Id)
		case *Constant:
			kinds = append(kinds, "Constant")
		default:
			kinds = append(kinds, typeName(n))
		}
		return true
	})
	want := []string{"Module", "Assign", "Name:x", "Call", "Name:f", "Constant", "Keyword", "Name:k", "FunctionDef", "Arguments", "Pass"}
	if len(kinds) != len(want) {
		t.Fatalf("visited %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("visited %v, want %v", kinds, want)
		}
	}
	// Returning false prunes the subtree.
	n := 0
	Inspect(sampleTree(), func(node Node) bool {
		if node != nil {
			n++
		}
		_, isCall := node.(*Call)
		return !isCall
	})
	if n != 7 {
		t.Errorf("pruned walk visited %d nodes, want 7", n)
	}
}

func typeName(n Node) string {
	switch n.(type) {
	case *Module:
		return "Module"
	case *Assign:
		return "Assign"
	case *Call:
		return "Call"
	case *Keyword:
		return "Keyword"
	case *FunctionDef:
		return "FunctionDef"
	case *Arguments:
		return "Arguments"
	case *Pass:
		return "Pass"
	}
	return "?"
}

func TestDumpShapes(t *testing.T) {
	m := sampleTree()
	want311 := "Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Call(func=Name(id='f', ctx=Load()), args=[Constant(value=1)], keywords=[keyword(value=Name(id='k', ctx=Load()))])), FunctionDef(name='g', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Pass()], decorator_list=[])], type_ignores=[])"
	if got := Dump(m, DumpOptions{}); got != want311 {
		t.Errorf("3.11 dump:\n%s\nwant\n%s", got, want311)
	}
	want312 := "FunctionDef(name='g', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Pass()], decorator_list=[], type_params=[])"
	if got := Dump(m.Body[1], DumpOptions{Shape: Shape312}); got != want312 {
		t.Errorf("3.12 dump:\n%s\nwant\n%s", got, want312)
	}
	want313 := "FunctionDef(name='g', args=arguments(), body=[Pass(lineno=2, col_offset=9, end_lineno=2, end_col_offset=13)], lineno=2, col_offset=0, end_lineno=2, end_col_offset=13)"
	if got := Dump(m.Body[1], DumpOptions{Shape: Shape313, Attributes: true}); got != want313 {
		t.Errorf("3.13 dump:\n%s\nwant\n%s", got, want313)
	}
}

func TestReprUnicodeVersions(t *testing.T) {
	c := &Constant{Type: ConstStr, Str: "\u0cf3\u2ffc"}
	for _, tc := range []struct {
		shape Shape
		want  string
	}{
		{Shape311, `'\u0cf3\u2ffc'`},  // Unicode 14.0: both unassigned
		{Shape312, "'\u0cf3\\u2ffc'"}, // 15.0 assigned U+0CF3
		{Shape313, "'\u0cf3\u2ffc'"},  // 15.1 assigned U+2FFC
	} {
		if got := c.ReprShape(tc.shape); got != tc.want {
			t.Errorf("shape %d: %s, want %s", tc.shape, got, tc.want)
		}
	}
}

func TestSeqEltsAndConstStrings(t *testing.T) {
	s := func(v string) Expr { return &Constant{Type: ConstStr, Str: v} }
	n := &Name{Id: "x"}
	list := &List{Elts: []Expr{s("a"), n, s("b")}}
	tuple := &Tuple{Elts: []Expr{s("c")}}
	set := &Set{Elts: []Expr{s("d")}}
	if got := SeqElts(list); len(got) != 3 || got[1] != n {
		t.Errorf("SeqElts(list) = %v", got)
	}
	if got := SeqElts(set); got != nil {
		t.Errorf("SeqElts(set) = %v, want nil", got)
	}
	if got := ConstStrings(list); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("ConstStrings(list) = %q", got)
	}
	if got := ConstStrings(tuple); len(got) != 1 || got[0] != "c" {
		t.Errorf("ConstStrings(tuple) = %q", got)
	}
	if got := ConstStrings(n); got != nil {
		t.Errorf("ConstStrings(name) = %q", got)
	}
}
