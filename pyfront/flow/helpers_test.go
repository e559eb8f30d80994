package flow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
)

func parseOne(t *testing.T, src string) *ast.Module {
	t.Helper()
	mod, errs := parser.ParseFile("t.py", []byte(src))
	if len(errs) > 0 {
		t.Fatalf("%q: %v", src, errs)
	}
	return mod
}

// exprOf parses src as one expression statement.
func exprOf(t *testing.T, src string) ast.Expr {
	t.Helper()
	return parseOne(t, src+"\n").Body[0].(*ast.ExprStmt).Value
}

func TestStorageFreed(t *testing.T) {
	for src, want := range map[string]string{
		"x.untyped_storage().resize_(0)":          "x",
		"self.buf.storage().resize_(0)":           "self.buf",
		"p.data.storage().resize_(0)":             "p",
		"t._typed_storage()._resize_(0)":          "t",
		"x.untyped_storage().resize_(n)":          "", // not to nothing
		"x.resize_(0)":                            "", // a tensor's shape, not its memory
		"x.untyped_storage().resize_(0, extra=1)": "",
	} {
		if got := storageFreed(exprOf(t, src).(*ast.Call)); got != want {
			t.Errorf("storageFreed(%s) = %q, want %q", src, got, want)
		}
	}
}

func TestFreshAlloc(t *testing.T) {
	for src, want := range map[string]bool{
		"torch.empty(4, device='cuda')": true,
		"torch.empty_like(x)":           true,
		"x.new_empty((2, 3))":           true,
		"torch.zeros(4)":                false, // a fill kernel runs
		"torch.ones_like(x)":            false,
		"np.empty(3)":                   false,
	} {
		if got := freshAlloc(exprOf(t, src)); got != want {
			t.Errorf("freshAlloc(%s) = %v, want %v", src, got, want)
		}
	}
}

func TestSequenceOfRefs(t *testing.T) {
	for src, want := range map[string]bool{
		"zip(grads, shards)":             true,
		"enumerate(self.params)":         true,
		"zip(enumerate(a), b)":           true,
		"d.items()":                      true,
		"reversed(xs)":                   true,
		"zip(grads, [g * 2 for g in b])": false,
		"enumerate(f(x))":                false,
		"range(n)":                       false,
		"sorted(xs)":                     false, // sorting compares the elements
	} {
		if got := sequenceOfRefs(exprOf(t, src)); got != want {
			t.Errorf("sequenceOfRefs(%s) = %v, want %v", src, got, want)
		}
	}
}

func TestScanReturns(t *testing.T) {
	noCollective := func(*ast.Call) []string { return nil }
	allReduced := func(c *ast.Call) []string {
		if dotted(c.Func) == "dist.all_reduce" && len(c.Args) > 0 {
			return []string{dotted(c.Args[0])}
		}
		return nil
	}
	for _, tc := range []struct {
		src     string
		uniform func(*ast.Call) []string
		want    string // the parameters the result is computed from, sorted
		ok      bool
	}{
		{"def f(a, b):\n    c = a * 2\n    return c\n", noCollective, "a", true},
		{"def f(rank, n):\n    if rank == 0:\n        return 1\n    return 0\n", noCollective, "rank", true},
		{"def f(rank, n):\n    x = 0\n    if rank % 2:\n        x = 1\n    return x\n", noCollective, "rank", true},
		{"def f(model, rank, loader):\n    if rank == 0:\n        print('v')\n    loss = 0\n    for b in loader:\n        loss += model(b)\n    return loss\n", noCollective, "loader,model", true},
		{"def f(model, rank, loader):\n    t = torch.zeros(2)\n    for b in loader:\n        t[0] += model(b)\n    dist.all_reduce(t)\n    v = t[0] / t[1]\n    return v\n", allReduced, "", true},
		{"def f(self, rank):\n    return self.offset + rank\n", noCollective, "rank,self", true},
		{"def f(a):\n    yield a\n", noCollective, "", false}, // a generator: no summary
	} {
		mod := parseOne(t, tc.src)
		def := mod.Body[0].(*ast.FunctionDef)
		rf := scanReturns(def.Body, def.Args, tc.uniform)
		var got []string
		for p := range rf.from {
			got = append(got, p)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != tc.want || rf.ok != tc.ok {
			t.Errorf("%s: from %v ok %v, want %s ok %v", tc.src, got, rf.ok, tc.want, tc.ok)
		}
	}
}

func TestScanWaits(t *testing.T) {
	mod := parseOne(t, "def w(batch, stream, ev, s2):\n    cur = torch.cuda.current_stream()\n    cur.wait_stream(stream)\n"+
		"    torch.cuda.current_stream().wait_event(ev)\n    s2.synchronize()\n    other.wait_stream(batch)\n")
	def := mod.Body[0].(*ast.FunctionDef)
	got := scanWaits(def.Body, def.Args)
	if len(got) != 3 || got["stream"] != "wait_stream" || got["ev"] != "wait_event" || got["s2"] != "sync" {
		t.Errorf("scanWaits = %v", got)
	}
}

func TestRegroups(t *testing.T) {
	for src, want := range map[string]string{
		// Filing only: the returned container holds the parameters' objects.
		"def f(ts):\n    '''doc'''\n    d = collections.defaultdict(list)\n    for t in ts:\n        d[t.dtype].append(t)\n    return d": "[0] ts",
		"def f(self, ts):\n    out = []\n    for t in ts:\n        out.append(t)\n    return out":                                        "[1] self",
		"def f(a, b):\n    d = {}\n    for x in b:\n        d.setdefault((x.dtype, x.device), []).append(x)\n    return d":               "[1] a",
		"def f(ts):\n    d = dict()\n    for t in ts:\n        d[t.shape] = t\n    return d":                                             "[0] ts",
		// Anything else runs code that may be a kernel, or is not a return of the container.
		"def f(ts):\n    d = {}\n    for t in ts:\n        d[t.dtype] = t.float()\n    return d":           "",
		"def f(ts):\n    d = {}\n    for t in ts:\n        d[t.type()] = t\n    return d":                  "",
		"def f(ts):\n    d = {}\n    for t in ts:\n        print(t)\n        d[t.dtype] = t\n    return d": "",
		"def f(ts):\n    d = {}\n    for t in ts:\n        d[t.dtype] = t":                                 "",
		"def f(ts):\n    d = {}\n    for t in g(ts):\n        d[t.dtype] = t\n    return d":                "",
		"def f(ts):\n    d = {1: 2}\n    for t in ts:\n        d[t.dtype] = t\n    return d":               "",
		"def f(ts):\n    d = []\n    return d":                                                             "",
	} {
		fd := parseOne(t, src+"\n").Body[0].(*ast.FunctionDef)
		rg := regroups(fd.Body, fd.Args)
		got := ""
		if rg.from != nil {
			got = fmt.Sprint(rg.from) + " " + rg.first
		}
		if got != want {
			t.Errorf("regroups(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestGetterOf(t *testing.T) {
	for src, want := range map[string]string{
		// Names an object it holds, checks it, returns it.
		"def f(self):\n    ctx = self._contexts[1]\n    assert isinstance(ctx, C)\n    if self.strict:\n        n = self.count()\n        self._check(ctx)\n    return ctx": "[self._contexts]",
		"def f(self, i):\n    return self.bufs":                                "[self.bufs]",
		"def f(x):\n    '''identity'''\n    return x":                          "[x]",
		"def f(self, k):\n    if k:\n        return self.a\n    return self.b": "[self.a self.b]",
		// A write, a computed result, or a name not rooted at a parameter.
		"def f(self):\n    buf = self.buf\n    buf.fill_(0)\n    return buf":  "",
		"def f(self):\n    buf = self.buf\n    buf = buf * 2\n    return buf": "",
		"def f(self):\n    return self.buf.float()":                           "",
		// A name the function does not bind: the enclosing function's
		// when it is a closure (getterRefs decides), marked free.
		"def f(self):\n    return GLOBAL_BUF":                                         "[GLOBAL_BUF] free",
		"def f(i):\n    off = i * 2\n    return hdl.get_buffer(i, shape, dtype, off)": "[hdl] free",
		"def f(i):\n    return hdl.get_buffer(i)":                                     "",
		"def f(self):\n    self.n += 1\n    return self.buf":                          "",
		"def f(self):\n    self.buf = make()\n    return self.buf":                    "",
		"def f(self, i):\n    return self.bufs[i]":                                    "",
		"def f(self):\n    return":                                                    "",
	} {
		fd := parseOne(t, src+"\n").Body[0].(*ast.FunctionDef)
		g := getterOf(fd.Body, fd.Args)
		got := ""
		if g.returns != nil {
			got = fmt.Sprint(g.returns)
			if slices.Contains(g.free, true) {
				got += " free"
			}
		}
		if got != want {
			t.Errorf("getterOf(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestRecordOnlyOf(t *testing.T) {
	for src, want := range map[string]string{
		// Metadata, record_stream, iteration into the function itself.
		"def rec(res, stream):\n    if isinstance(res, torch.Tensor) and res.device.type == 'cuda':\n        res.record_stream(stream)\n    elif isinstance(res, (list, tuple)):\n        for v in res:\n            C.rec(v, stream)\n    elif isinstance(res, dict):\n        for v in res.values():\n            C.rec(v, stream)": "map[0:true]",
		"def rec(self, batch, stream):\n    for k, t in batch.items():\n        t.record_stream(stream)": "map[1:true]",
		// A read of the object or of a loop element, or no use at all.
		"def rec(res, stream):\n    res.record_stream(stream)\n    return res.sum()": "map[]",
		"def rec(res, stream):\n    for v in res:\n        total = v + 1":            "map[]",
		"def rec(res, stream):\n    for k, v in res.items():\n        print(v)":      "map[]",
		"def rec(res, stream):\n    other(res)":                                      "map[]",
		"def rec(res, stream):\n    x = res.values()\n    return sum(x)":             "map[]",
		"def rec(res, stream):\n    stream.synchronize()":                            "map[]",
	} {
		fd := parseOne(t, src+"\n").Body[0].(*ast.FunctionDef)
		rec := recordOnlyOf(&rules.Function{Name: "mod.C.rec"}, fd.Body, fd.Args, nil)
		got := fmt.Sprint(rec.params)
		if got != want {
			t.Errorf("recordOnlyOf(%q) = %s, want %s", src, got, want)
		}
	}
}

// lastDotted answers what lastName(dotted(e)) answers, without building
// the string, for every expression of the rule fixtures.
func TestLastDottedIsLastNameOfDotted(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/rules/*/*.py")
	if len(files) < 100 {
		t.Fatalf("only %d fixture files found", len(files))
	}
	checked := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree, _ := parser.ParseFile(path, src)
		if tree == nil {
			continue
		}
		ast.Inspect(tree, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				if got, want := lastDotted(e), lastName(dotted(e)); got != want {
					t.Errorf("%s:%d: lastDotted = %q, lastName(dotted) = %q", path, e.Span().Lineno, got, want)
				}
				checked++
			}
			return true
		})
	}
	for _, src := range []string{"a", "a.b.c", "a.b[0]", "f().b", "a[0].b", "(a or b).c", "'s'.join"} {
		e := exprOf(t, src)
		if got, want := lastDotted(e), lastName(dotted(e)); got != want {
			t.Errorf("%s: lastDotted = %q, lastName(dotted) = %q", src, got, want)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d expressions checked", checked)
	}
}

// mentionsAny answers what bytes.Contains over the lowered text of a
// span answers, for ASCII and non-ASCII files, whole files and each
// line range, and newSource finds every line start.
func TestMentionsAny(t *testing.T) {
	words := []string{"rank", "stream", "resize_", "async_op", "irecv", "main_process", "a", "zz"}
	texts := []string{"", "r", "ran", "RANK", "xRaNkx", "ra nk", "stream", "StReAm_", "ASYNC_OP", "irec", "IRECVv", "aaa", "Z", "zZ", "_zz_", "rrank", "rankrank",
		"x = 1\nRANK = 0\n", "a\nb\nIrecv(\n", "ré = 1\nRANK = 2\n", "# Ünïcode\nmain_PROCESS\nzz\n", "x\r\nStream\r\ny\r\n"}
	files, _ := filepath.Glob("../../testdata/rules/cv2*/*.py")
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(src))
		var want []int
		want = append(want, 0)
		for i, b := range src {
			if b == '\n' {
				want = append(want, i+1)
			}
		}
		if got := newSource(&rules.File{Src: src}).starts; !slices.Equal(got, want) {
			t.Errorf("%s: line starts %v, want %v", path, got, want)
		}
	}
	sets := [][]string{nil, {""}, {"rank", ""}}
	for _, w := range words {
		sets = append(sets, []string{w})
	}
	sets = append(sets, []string{"stream", "resize_", "async_op", "irecv"}, []string{"zz", "main_process"})
	checked := 0
	for _, text := range texts {
		s := newSource(&rules.File{Src: []byte(text)})
		lines := len(s.starts)
		spans := []ast.Pos{{}}
		for from := 1; from <= lines; from += max(1, lines/5) {
			for to := from; to <= lines+1; to += max(1, lines/4) {
				spans = append(spans, ast.Pos{Lineno: int32(from), EndLineno: int32(to)})
			}
		}
		for _, span := range spans {
			part, _ := s.spanText(span)
			for _, set := range sets {
				want := false
				for _, w := range set {
					want = want || bytes.Contains(bytes.ToLower(part), []byte(w))
				}
				if got := s.mentionsAny(span, set); got != want {
					t.Errorf("mentionsAny(%.40q, lines %d-%d, %q) = %v, want %v", text, span.Lineno, span.EndLineno, set, got, want)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d questions checked", checked)
	}
}

// noneDump is what ast.Dump prints for a parsed None.
func TestNoneDump(t *testing.T) {
	if got := ast.Dump(exprOf(t, "None"), ast.DumpOptions{}); got != noneDump {
		t.Errorf("ast.Dump(None) = %q, noneDump = %q", got, noneDump)
	}
}
