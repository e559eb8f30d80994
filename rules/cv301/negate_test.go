package cv301

import "testing"

func TestNegateCond(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"path is None", "path is not None"},
		{"path is not None", "path is None"},
		{"rank == 0", "rank != 0"},
		{"self.rank != 0", "self.rank == 0"},
		{"not math.isfinite(value)", "math.isfinite(value)"},
		{"not is_main", "is_main"},
		{"rank == 0 and ready", "rank != 0 or not ready"},
		{"restart is None or not isfile(restart)", "restart is not None and isfile(restart)"},
		{"a == 1 and b or c", "not (a == 1 and b or c)"},
		{"f(a or b)", "not f(a or b)"},
		{"f(a == b)", "not f(a == b)"},
		{"x == \"a or b\"", "x != \"a or b\""},
		{"not a == b", "not (not a == b)"},
		{"dist.get_rank() in ranks", "dist.get_rank() not in ranks"},
		{"rank not in ranks", "rank in ranks"},
		{"os.path.exists(res_file)", "not os.path.exists(res_file)"},
		{"", ""},
	} {
		if got := negateCond(c.in); got != c.want {
			t.Errorf("negateCond(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
