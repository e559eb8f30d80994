package guard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteWritesTheEmbeddedModule(t *testing.T) {
	dir := t.TempDir()
	// An older file of the same name is replaced.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, FileName) {
		t.Errorf("Write returned %q", path)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Source()) {
		t.Error("written file differs from the embedded source")
	}
	disk, err := os.ReadFile(FileName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(disk, Source()) {
		t.Error("embedded source differs from collvet_guard.py in the package")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("want only %s in the directory, got %d entries", FileName, len(entries))
	}
	for _, api := range []string{"def install(", "def report(", "def dump_json(", "def uninstall(", `"CV101"`, `"CV102"`, `"CV103"`} {
		if !strings.Contains(string(got), api) {
			t.Errorf("module lacks %s", api)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"", filepath.Join(dir, "missing"), file} {
		if _, err := Write(d); err == nil {
			t.Errorf("Write(%q): want an error", d)
		}
	}
}

func TestSourceIsACopy(t *testing.T) {
	a := Source()
	a[0] = '!'
	if Source()[0] == '!' {
		t.Error("Source returns the embedded slice itself")
	}
}

func TestStaticKinds(t *testing.T) {
	cases := []struct {
		kind string
		bw   bool
		want string
	}{
		{"main", false, "main signal"},
		{"main", true, "main signal autograd"},
		{"thread", false, "thread pool background"},
		{"thread", true, "thread pool background autograd"},
		{"autograd", true, "autograd"},
		{"foreign", false, "autograd background"},
	}
	for _, c := range cases {
		if got := strings.Join(StaticKinds(c.kind, c.bw), " "); got != c.want {
			t.Errorf("StaticKinds(%s, %v) = %s, want %s", c.kind, c.bw, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	root := "/src"
	static := &Contexts{Sites: []StaticSite{
		{Path: "a.py", Line: 10, Group: "WORLD", Contexts: []StaticContext{{Kind: "main"}, {Kind: "thread", Spawn: "a.py:3"}}},
		{Path: "a.py", Line: 20, Group: "new_group@a.py:5", Contexts: []StaticContext{{Kind: "autograd"}}},
		{Path: "a.py", Line: 30, Group: "unknown", Contexts: []StaticContext{{Kind: "pool"}}},
		{Path: "a.py", Line: 40, Group: "WORLD", Contexts: []StaticContext{{Kind: "background"}}},
	}}
	obs := []Observation{
		{Path: "/src/a.py", Line: 10, ThreadKind: "main", Group: "WORLD"},
		{Path: "/src/a.py", Line: 10, ThreadKind: "thread", Group: "WORLD"},
		{Path: "/src/a.py", Line: 20, ThreadKind: "main", InBackward: true, Group: "new_group@/src/a.py:5"},
		{Path: "/src/a.py", Line: 20, ThreadKind: "autograd", InBackward: true, Group: "new_group@/src/a.py:5"},
		{Path: "/src/a.py", Line: 30, ThreadKind: "thread", Group: "unregistered#0"},
		{Path: "/src/a.py", Line: 40, ThreadKind: "thread", Group: "WORLD", BySpawn: true},
	}
	mm, vague := Compare(static, root, obs)
	if len(mm) != 0 {
		t.Errorf("want no mismatches, got %v", mm)
	}
	if len(vague) != 1 || !strings.Contains(vague[0], "a.py:30") {
		t.Errorf("want the unknown group at line 30 reported as imprecise, got %v", vague)
	}
	bad := []Observation{
		{Path: "/src/a.py", Line: 11, ThreadKind: "main", Group: "WORLD"},                   // no site
		{Path: "/src/a.py", Line: 20, ThreadKind: "thread", Group: "new_group@/src/a.py:5"}, // wrong kind
		{Path: "/src/a.py", Line: 20, ThreadKind: "autograd", Group: "new_group@/src/a.py:6"},
		{Path: "/src/a.py", Line: 10, ThreadKind: "main", Group: "new_group@/src/a.py:5"},
	}
	mm, _ = Compare(static, root, bad)
	if len(mm) != 4 {
		t.Fatalf("want 4 mismatches, got %d: %v", len(mm), mm)
	}
	for i, want := range []string{"no collective site", "none of", "static group", "static group"} {
		if !strings.Contains(mm[i].Reason, want) {
			t.Errorf("mismatch %d: %q lacks %q", i, mm[i].Reason, want)
		}
	}
}

func TestObservationsLocateLibraryThreadsBySpawn(t *testing.T) {
	spawn := "/src/save.py:7"
	user := "/src/save.py:9"
	r := &Record{
		Threads: []Thread{{NativeID: 2, Kind: "thread", Spawn: &spawn}},
		Calls: []Call{
			{API: "torch.distributed.gather_object", Group: "WORLD", Thread: 2, ThreadKind: "thread"},
			{API: "torch.distributed.gather_object", Group: "WORLD", Thread: 2, ThreadKind: "thread"},
			{API: "torch.distributed.barrier", Group: "WORLD", Thread: 1, ThreadKind: "main", Path: &user, Line: 9},
		},
	}
	obs := Observations(r)
	if len(obs) != 2 {
		t.Fatalf("want 2 distinct observations, got %v", obs)
	}
	if !obs[0].BySpawn || obs[0].Path != "/src/save.py" || obs[0].Line != 7 {
		t.Errorf("library call not located at its thread's spawn site: %+v", obs[0])
	}
	if obs[1].BySpawn || obs[1].Line != 9 {
		t.Errorf("user call: %+v", obs[1])
	}
}
