package model

import "testing"

func TestNegated(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"self.head", "not self.head"},
		{"not self.head", "self.head"},
		{"not self.is_head()", "self.is_head()"},
		{"not (a and b)", "a and b"},
		{"not a and b", ""},
		{"a == 0", "not (a == 0)"},
	} {
		if got := negated(c.in); got != c.want {
			t.Errorf("negated(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
