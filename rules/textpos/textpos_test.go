package textpos

import "testing"

func TestUTF16(t *testing.T) {
	src := []byte("x = 1\r\ns = 'é𝄞'; f(s)\n")
	m := New(src)
	if m.LineCount() != 3 {
		t.Fatalf("LineCount = %d", m.LineCount())
	}
	// 'f' on line 2: bytes "s = 'é𝄞'; " = 5 + 2 + 4 + 3 = 14 → byte col 15.
	if got := m.UTF16Col(2, 15); got != 11 {
		t.Errorf("UTF16Col = %d, want 11", got)
	}
	if got := m.ByteCol(2, 11); got != 15 {
		t.Errorf("ByteCol = %d, want 15", got)
	}
	if l, c := m.Position(m.Offset(2, 15)); l != 2 || c != 15 {
		t.Errorf("round trip = %d:%d", l, c)
	}
	if string(m.Line(1)) != "x = 1" {
		t.Errorf("Line(1) = %q", m.Line(1))
	}
}
