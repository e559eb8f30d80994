package rules

import (
	"reflect"
	"testing"
)

// TestMergeCarriesEverything fills every slice of a Program and of its
// Facts with one element and merges it into an empty Program: each must
// arrive, so that a field added later cannot be left out of Merge
// unnoticed (the Python and Go front ends' programs are merged before the
// rules run).
func TestMergeCarriesEverything(t *testing.T) {
	var other Program
	fill(t, reflect.ValueOf(&other).Elem())
	fill(t, reflect.ValueOf(&other.Facts).Elem())
	other.Facts.TorchRequirement = "torch==2.4"
	other.Facts.MPIThreadLevel = "multiple"

	var p Program
	p.Merge(&other)
	check(t, "Program", reflect.ValueOf(p))
	check(t, "Facts", reflect.ValueOf(p.Facts))
	if p.Facts.TorchRequirement != "torch==2.4" || p.Facts.MPIThreadLevel != "multiple" {
		t.Errorf("Merge lost the torch requirement or the MPI thread level: %+v", p.Facts)
	}
}

// fill gives every slice field of the struct v one zero element.
func fill(t *testing.T, v reflect.Value) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice {
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		}
	}
}

// check reports every slice field of the struct v that is not one element
// long.
func check(t *testing.T, what string, v reflect.Value) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.Len() != 1 {
			t.Errorf("Merge left out %s.%s", what, v.Type().Field(i).Name)
		}
	}
}
