package scanner

import (
	"fmt"
	"strings"
	"testing"
)

// dump renders tokens as "kind text line:col-endline:endcol" lines.
func dump(r *Result) string {
	var b strings.Builder
	for _, t := range r.Tokens {
		fmt.Fprintf(&b, "%s %q %d:%d-%d:%d\n", t.Kind, r.Text(t), t.Line, t.Col, t.EndLine, t.EndCol)
	}
	return b.String()
}

func TestTokenize(t *testing.T) {
	src := "if x:\n\ty = (1,\n  2)  # c\n\f\n\tz = \\\n 0x_1f\nw\n"
	want := `if "if" 1:0-1:2
NAME "x" 1:3-1:4
: ":" 1:4-1:5
NEWLINE "\n" 1:5-1:6
INDENT "\t" 2:0-2:1
NAME "y" 2:1-2:2
= "=" 2:3-2:4
( "(" 2:5-2:6
NUMBER "1" 2:6-2:7
, "," 2:7-2:8
NUMBER "2" 3:2-3:3
) ")" 3:3-3:4
NEWLINE "\n" 3:9-3:10
NAME "z" 5:1-5:2
= "=" 5:3-5:4
NUMBER "0x_1f" 6:1-6:6
NEWLINE "\n" 6:6-6:7
DEDENT "" 7:0-7:0
NAME "w" 7:0-7:1
NEWLINE "\n" 7:1-7:2
ENDMARKER "" 8:0-8:0
`
	r := Tokenize([]byte(src), Options{})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %v", r.Errors)
	}
	if got := dump(r); got != want {
		t.Errorf("tokens:\n%s\nwant:\n%s", got, want)
	}
	if len(r.Comments) != 1 || r.Text(r.Comments[0]) != "# c" || r.Comments[0].Line != 3 || r.Comments[0].Col != 6 {
		t.Errorf("comments = %+v", r.Comments)
	}
}

func TestTokenizeStrings(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // texts of the String tokens
	}{
		{`rb'a\'' BR"x" u'y' F'{x!r:>{w}}' fr'''{a}
b''' Rb'\d'`, []string{`rb'a\''`, `BR"x"`, `u'y'`, `F'{x!r:>{w}}'`, "fr'''{a}\nb'''", `Rb'\d'`}},
		// PEP 701: the same quote inside a replacement field.
		{`f"{x["a"]}" f"{'}'}"`, []string{`f"{x["a"]}"`, `f"{'}'}"`}},
		{`f"""{
  x  # comment
}"""`, []string{"f\"\"\"{\n  x  # comment\n}\"\"\""}},
	} {
		r := Tokenize([]byte(tc.src), Options{})
		if len(r.Errors) > 0 {
			t.Errorf("%q: errors %v", tc.src, r.Errors)
			continue
		}
		var got []string
		for _, tok := range r.Tokens {
			if tok.Kind == String {
				got = append(got, r.Text(tok))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: strings %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestTokenizeNumbers(t *testing.T) {
	r := Tokenize([]byte("1_000 0o17 0b1 1.5e-3 .5 5. 3j 1e5J 1if x else 2"), Options{})
	var got []string
	for _, tok := range r.Tokens {
		if tok.Kind == Number {
			got = append(got, r.Text(tok))
		}
	}
	want := []string{"1_000", "0o17", "0b1", "1.5e-3", ".5", "5.", "3j", "1e5J", "1", "2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("numbers %q, want %q", got, want)
	}
}

func TestTokenizeErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"x = 'abc\n", "unterminated string literal"},
		{"x = '''abc\n", "unterminated triple-quoted string literal"},
		{"x = (1,\n", "'(' was never closed"},
		{"x = 1)\n", "unmatched ')'"},
		{"if x:\n    a\n  b\n", "unindent does not match any outer indentation level"},
		{"x = $\n", "invalid character"},
		{"x = 1abc\n", "invalid decimal literal"},
	} {
		r := Tokenize([]byte(tc.src), Options{})
		found := false
		for _, e := range r.Errors {
			if strings.Contains(e.Msg, tc.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: errors %v, want one containing %q", tc.src, r.Errors, tc.msg)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		src, want, enc string
	}{
		{"\xef\xbb\xbfx = 1\r\ny = 2\rz", "x = 1\ny = 2\nz", "utf-8"},
		{"# -*- coding: latin-1 -*-\nx = '\xe9'\n", "# -*- coding: latin-1 -*-\nx = '\u00e9'\n", "iso-8859-1"},
		{"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n", "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '\u20ac'\n", "cp1252"},
	} {
		got, enc, err := Decode([]byte(tc.src))
		if err != nil || string(got) != tc.want || enc != tc.enc {
			t.Errorf("Decode(%q) = %q, %q, %v; want %q, %q", tc.src, got, enc, err, tc.want, tc.enc)
		}
	}
	// ISO 8859 tables keep the C1 range as Python's codecs do.
	if got, _, err := Decode([]byte("# coding: iso-8859-5\nx = '\x8e\xd0'\n")); err != nil || string(got) != "# coding: iso-8859-5\nx = '\u008e\u0430'\n" {
		t.Errorf("iso-8859-5: %q, %v", got, err)
	}
	if _, _, err := Decode([]byte("x = '\xff'\n")); err == nil {
		t.Error("invalid UTF-8 was accepted")
	}
	if _, _, err := Decode([]byte("# coding: no-such-codec\n")); err == nil {
		t.Error("unknown encoding was accepted")
	}
}
