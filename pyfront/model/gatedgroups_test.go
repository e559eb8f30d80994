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

func TestSameCond(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"self.rank == 0", "dist.get_rank() == 0", true},
		{"self._rank == 0", "torch.distributed.get_rank() == 0", true},
		{"accelerator.is_main_process", "self.rank == 0", true},
		{"self.rank == 0", "self.rank == 1", false},
		{"local_rank == 0", "dist.get_rank() == 0", false},
		{"self.is_src", "self.is_src", true},
		{"", "", false},
	} {
		if got := sameCond(c.a, c.b); got != c.want {
			t.Errorf("sameCond(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
