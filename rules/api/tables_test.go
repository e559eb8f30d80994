package api

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"
)

var updateTables = flag.Bool("update-tables", false, "rewrite tables.gob from data/*.toml")

// TestEmbeddedTables checks that tables.gob decodes to what data/*.toml
// parse to: every exported field, pointers told from nil (nil and empty
// slices and maps are alike; the decoder's bookkeeping is not compared).
func TestEmbeddedTables(t *testing.T) {
	want, err := parseEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeLibraries(tablesGob)
	if err == nil {
		err = sameValue(reflect.ValueOf(got), reflect.ValueOf(want), "libraries")
	}
	if err == nil {
		return
	}
	if *updateTables {
		fresh, err := encodeLibraries(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("tables.gob", fresh, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("rewrote tables.gob")
		return
	}
	t.Fatalf("tables.gob is out of date with data/*.toml (%v): run go test ./rules/api -run EmbeddedTables -update-tables", err)
}

// TestEncodeKeepsZeroElement checks the one field gob alone would lose:
// an element index of 0 is not "no element".
func TestEncodeKeepsZeroElement(t *testing.T) {
	zero := 0
	in := []*Library{{Library: "x", RankPredicates: []*RankPredicate{{Name: "a", Element: &zero}, {Name: "b"}}}}
	b, err := encodeLibraries(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeLibraries(b)
	if err != nil {
		t.Fatal(err)
	}
	if p := out[0].RankPredicates[0]; p.Element == nil || *p.Element != 0 {
		t.Errorf("element 0 came back as %v", p.Element)
	}
	if p := out[0].RankPredicates[1]; p.Element != nil {
		t.Errorf("no element came back as %d", *p.Element)
	}
	if *in[0].RankPredicates[0].Element != 0 {
		t.Errorf("encoding changed its input")
	}
}

// sameValue compares a decoded value with the parsed one.
func sameValue(got, want reflect.Value, path string) error {
	if got.Kind() != want.Kind() {
		return fmt.Errorf("%s: kind %s, want %s", path, got.Kind(), want.Kind())
	}
	switch got.Kind() {
	case reflect.Pointer, reflect.Interface:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				return fmt.Errorf("%s: nil %v, want nil %v", path, got.IsNil(), want.IsNil())
			}
			return nil
		}
		return sameValue(got.Elem(), want.Elem(), path)
	case reflect.Slice, reflect.Array:
		if got.Len() != want.Len() {
			return fmt.Errorf("%s: %d elements, want %d", path, got.Len(), want.Len())
		}
		for i := range got.Len() {
			if err := sameValue(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if got.Len() != want.Len() {
			return fmt.Errorf("%s: %d keys, want %d", path, got.Len(), want.Len())
		}
		for _, k := range want.MapKeys() {
			g := got.MapIndex(k)
			if !g.IsValid() {
				return fmt.Errorf("%s: key %v missing", path, k)
			}
			if err := sameValue(g, want.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := range got.NumField() {
			f := got.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if err := sameValue(got.Field(i), want.Field(i), path+"."+f.Name); err != nil {
				return err
			}
		}
	default:
		if got.Interface() != want.Interface() {
			return fmt.Errorf("%s: %v, want %v", path, got.Interface(), want.Interface())
		}
	}
	return nil
}

func BenchmarkDefaultTables(b *testing.B) {
	for b.Loop() {
		if _, err := loadEmbedded(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTOMLTables(b *testing.B) {
	for b.Loop() {
		libs, err := parseEmbedded()
		if err != nil {
			b.Fatal(err)
		}
		t := newTables()
		for _, lib := range libs {
			t.add(lib)
		}
		t.reexportAll()
	}
}
