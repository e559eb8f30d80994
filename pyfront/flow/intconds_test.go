package flow

import (
	"math"
	"testing"
)

func TestIntSetComplementAndDisjoint(t *testing.T) {
	inf, ninf := int64(math.MaxInt64), int64(math.MinInt64)
	notZero := intSet{{0, 0}}.complement()
	if len(notZero) != 2 || notZero[0] != (span{ninf, -1}) || notZero[1] != (span{1, inf}) {
		t.Fatalf("complement of {0} = %v", notZero)
	}
	if c := notZero.complement(); len(c) != 1 || c[0] != (span{0, 0}) {
		t.Errorf("complement of complement of {0} = %v", c)
	}
	if c := everyInt.complement(); len(c) != 0 {
		t.Errorf("complement of every int = %v", c)
	}
	if c := (intSet{}).complement(); len(c) != 1 || c[0] != everyInt[0] {
		t.Errorf("complement of nothing = %v", c)
	}
	positive := intSet{{1, inf}}
	for _, tc := range []struct {
		a, b intSet
		want bool
	}{
		{positive, intSet{{0, 0}}, true},
		{positive, intSet{{ninf, 1}}, false},
		{positive, notZero, false},
		{intSet{{0, 0}}, intSet{{1, 1}}, true},
		{intSet{{ninf, 4}}, intSet{{5, inf}}, true},
	} {
		if got := tc.a.disjoint(tc.b); got != tc.want {
			t.Errorf("%v disjoint %v = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
