package callgraph_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/resolve"
)

// build analyses every .py file under dir as one program.
func build(t testing.TB, dir string) *callgraph.Graph {
	t.Helper()
	files, err := resolve.Discover([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	namer := resolve.NewNamer()
	var mods []*resolve.Module
	var inputs []*callgraph.ModuleInput
	for _, f := range files {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		m := namer.Name(f)
		tree, errs := parser.ParseFile(f.Path, src)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", f.Path, errs)
		}
		mods = append(mods, m)
		inputs = append(inputs, &callgraph.ModuleInput{Mod: m, AST: tree, Scopes: resolve.BuildScopes(m.Name, tree)})
	}
	return callgraph.Build(inputs, resolve.NewTable(mods), callgraph.Options{SelfInstances: true})
}

type edge struct{ from, to string }

func edges(m map[string][]string) map[edge]bool {
	out := map[edge]bool{}
	for from, tos := range m {
		for _, to := range tos {
			out[edge{from, to}] = true
		}
	}
	return out
}

// TestPyCGMicroBenchmark runs the PyCG-style fixtures (one directory per
// case under testdata/pycg/<category>/, with the expected callgraph.json)
// and checks precision and recall over all edges, per category and in
// total. Every mismatch is logged.
func TestPyCGMicroBenchmark(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "pycg", "*", "*", "callgraph.json"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	type score struct{ tp, fp, fn int }
	perCat := map[string]*score{}
	total := &score{}
	for _, want := range cases {
		dir := filepath.Dir(want)
		cat := filepath.Base(filepath.Dir(dir))
		data, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		var expected map[string][]string
		if err := json.Unmarshal(data, &expected); err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		got := build(t, dir).PyCG()
		we, ge := edges(expected), edges(got)
		s := perCat[cat]
		if s == nil {
			s = &score{}
			perCat[cat] = s
		}
		var missing, extra []string
		for e := range we {
			if ge[e] {
				s.tp++
				total.tp++
			} else {
				s.fn++
				total.fn++
				missing = append(missing, e.from+" -> "+e.to)
			}
		}
		for e := range ge {
			if !we[e] {
				s.fp++
				total.fp++
				extra = append(extra, e.from+" -> "+e.to)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		if len(missing) > 0 || len(extra) > 0 {
			t.Errorf("%s: missing [%s] extra [%s]", dir, strings.Join(missing, ", "), strings.Join(extra, ", "))
		}
		// Every function of the program is a key, even without callees.
		for k := range expected {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: key %s missing from the output", dir, k)
			}
		}
	}
	cats := make([]string, 0, len(perCat))
	for c := range perCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		s := perCat[c]
		t.Logf("%-13s precision %.3f recall %.3f", c, ratio(s.tp, s.tp+s.fp), ratio(s.tp, s.tp+s.fn))
	}
	p, r := ratio(total.tp, total.tp+total.fp), ratio(total.tp, total.tp+total.fn)
	t.Logf("total: %d cases, precision %.3f recall %.3f", len(cases), p, r)
	if p < 0.99 || r < 0.97 {
		t.Errorf("precision %.3f / recall %.3f below the 0.99 / 0.97 goal", p, r)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestPyCGJSONDeterministic checks that two builds print identical bytes.
func TestPyCGJSONDeterministic(t *testing.T) {
	dir := filepath.Join("testdata", "pycg", "imports", "relative")
	a, b := build(t, dir).PyCGJSON(), build(t, dir).PyCGJSON()
	if string(a) != string(b) {
		t.Fatalf("output differs between runs:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(a), `"pkg.a.run": ["pkg.b.helper"]`) {
		t.Fatalf("unexpected output:\n%s", a)
	}
}

// CallSite.ID is the call's index in Graph.Calls, nested calls included
// (the model indexes per-call memos by it).
func TestCallSiteIDs(t *testing.T) {
	dir := t.TempDir()
	src := "def h(): return 1\ndef g(x): return x\ndef f(*a, **k): pass\n" +
		"f(g(h()), k=g(h()), *[g(1)])\nclass C:\n    def m(self):\n        return super().m(g(h()))\n"
	if err := os.WriteFile(filepath.Join(dir, "main.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g := build(t, dir)
	if len(g.Calls) < 8 {
		t.Fatalf("only %d calls", len(g.Calls))
	}
	for i, cs := range g.Calls {
		if cs.ID != i {
			t.Errorf("Calls[%d].ID = %d", i, cs.ID)
		}
	}
}
