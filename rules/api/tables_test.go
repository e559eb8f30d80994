package api

import (
	"flag"
	"os"
	"reflect"
	"testing"
)

var updateTables = flag.Bool("update-tables", false, "rewrite tables.gob from data/*.toml")

// TestEmbeddedTables checks that tables.gob holds what data/*.toml say
// (after the same gob round trip, which drops the decoder's bookkeeping).
func TestEmbeddedTables(t *testing.T) {
	libs, err := parseEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := encodeLibraries(libs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := decodeLibraries(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeLibraries(tablesGob)
	if err == nil && reflect.DeepEqual(got, want) {
		return
	}
	if *updateTables {
		if err := os.WriteFile("tables.gob", fresh, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("rewrote tables.gob")
		return
	}
	t.Fatalf("tables.gob is out of date with data/*.toml (%v): run go test ./rules/api -run EmbeddedTables -update-tables", err)
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
