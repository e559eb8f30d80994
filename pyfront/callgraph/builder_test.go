package callgraph_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/resolve"
)

// streamed builds the program with a Builder, adding the modules in the
// given order; modules named in skip are part of the program but never
// added (as when a file does not parse).
func streamed(t *testing.T, srcs map[string]string, order []string, skip map[string]bool) map[string][]string {
	t.Helper()
	namer := resolve.NewNamer()
	root := t.TempDir()
	var mods []*resolve.Module
	byName := map[string]*resolve.Module{}
	for _, name := range order {
		m := namer.Name(resolve.SourceFile{Path: filepath.Join(root, name+".py"), Root: root})
		mods = append(mods, m)
		byName[name] = m
	}
	b := callgraph.NewBuilder(mods, resolve.NewTable(mods), callgraph.Options{}, 0)
	for _, name := range order {
		if skip[name] {
			continue
		}
		m := byName[name]
		tree, errs := parser.ParseFile(name+".py", []byte(srcs[name]))
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		b.Add(&callgraph.ModuleInput{Mod: m, AST: tree, Scopes: resolve.BuildScopes(m.Name, tree)})
	}
	out := b.Finish().PyCG()
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

// A module's constraints may refer to modules added after it: imported
// names, attributes of imported modules, star imports (including a chain
// of them). The graph does not depend on the order the modules come in.
func TestBuilderForwardReferences(t *testing.T) {
	srcs := map[string]string{
		"a": "from z import f\nimport z\nfrom s import *\n\ndef run():\n    f()\n    z.g()\n    h()\n    k()\n",
		"s": "from t import *\n\ndef h():\n    pass\n",
		"t": "__all__ = ['k']\n\ndef k():\n    pass\n\ndef hidden():\n    pass\n",
		"z": "def f():\n    pass\n\ndef g():\n    pass\n",
	}
	forward := streamed(t, srcs, []string{"a", "s", "t", "z"}, nil)
	backward := streamed(t, srcs, []string{"z", "t", "s", "a"}, nil)
	want := []string{"s.h", "t.k", "z.f", "z.g"}
	for name, g := range map[string]map[string][]string{"forward": forward, "backward": backward} {
		got := g["a.run"]
		if len(got) != len(want) {
			t.Errorf("%s: a.run calls %v, want %v", name, got, want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: a.run calls %v, want %v", name, got, want)
				break
			}
		}
	}
}

// A module of the program that never gets added (it did not parse) has
// no names: importing it neither crashes nor invents edges, and it does
// not turn its names into external symbols.
func TestBuilderMissingModule(t *testing.T) {
	srcs := map[string]string{
		"a": "from broken import f\nimport broken\nfrom broken import *\n\ndef run():\n    f()\n    broken.g()\n",
	}
	g := streamed(t, srcs, []string{"a", "broken"}, map[string]bool{"broken": true})
	if calls := g["a.run"]; len(calls) != 0 {
		t.Errorf("a.run calls %v, want nothing", calls)
	}
}

// Options.Stop ends the solve: the graph says it is incomplete, and a
// solve that is never stopped resolves the same call.
func TestBuilderStop(t *testing.T) {
	src := "def a():\n    pass\n\nx = a\ny = x\n\ndef main():\n    y()\n"
	for _, stop := range []bool{false, true} {
		namer := resolve.NewNamer()
		root := t.TempDir()
		m := namer.Name(resolve.SourceFile{Path: filepath.Join(root, "m.py"), Root: root})
		polled := false
		b := callgraph.NewBuilder([]*resolve.Module{m}, resolve.NewTable([]*resolve.Module{m}), callgraph.Options{Stop: func() bool { polled = true; return stop }}, 0)
		tree, errs := parser.ParseFile("m.py", []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		b.Add(&callgraph.ModuleInput{Mod: m, AST: tree, Scopes: resolve.BuildScopes(m.Name, tree)})
		g := b.Finish()
		if !polled {
			t.Fatalf("stop=%v: Options.Stop was never polled", stop)
		}
		if g.Stopped() != stop {
			t.Errorf("stop=%v: Stopped() = %v", stop, g.Stopped())
		}
		calls := g.PyCG()["m.main"]
		if resolved := len(calls) == 1 && calls[0] == "m.a"; resolved == stop {
			t.Errorf("stop=%v: m.main calls %v", stop, calls)
		}
	}
}

// Calling an instance of a torch.nn.Module subclass runs its forward
// (through Module.__call__), and a ModuleList holds the modules it was
// built from.
func TestModuleCallRunsForward(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block(), Block()])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Plain:
    def forward(self, x):
        return x


def main(x):
    Model()(x)
    Plain()(x)
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	has := func(caller, callee string) bool { return slices.Contains(g[caller], callee) }
	for _, e := range [][2]string{{"m.main", "m.Model.forward"}, {"m.Model.forward", "m.Block.forward"}, {"m.main", "torch.nn.Module.__call__"}} {
		if !has(e[0], e[1]) {
			t.Errorf("%s does not call %s: %v", e[0], e[1], g[e[0]])
		}
	}
	if has("m.main", "m.Plain.forward") {
		t.Errorf("an instance of a class that is no Module runs its forward: %v", g["m.main"])
	}
}

// A module container built empty holds what is stored in it afterwards
// (torchtitan's self.layers = ModuleDict(); self.layers[str(i)] = block).
func TestEmptyModuleContainerFilled(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        return x


class Extra(nn.Module):
    def forward(self, x):
        return x


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleDict()
        for i in range(n):
            self.layers[str(i)] = Block()
        self.extra = nn.ModuleList()
        self.extra.append(Extra())

    def forward(self, x):
        for layer in self.layers.values():
            x = layer(x)
        for layer in self.extra:
            x = layer(x)
        return x
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	for _, want := range []string{"m.Block.forward", "m.Extra.forward"} {
		found := false
		for _, c := range g["m.Model.forward"] {
			found = found || c == want
		}
		if !found {
			t.Errorf("Model.forward calls %v, want %s among them", g["m.Model.forward"], want)
		}
	}
}

// A subclass of ModuleList holds the modules handed to its constructor
// (through super().__init__ or its inherited __init__) and to extend;
// super().__iter__() in its own __iter__ iterates them, and enumerate
// pairs them with their index (fairseq's LayerDropModuleList).
func TestModuleListSubclassElements(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn


class Dropping(nn.ModuleList):
    def __init__(self, p, modules=None):
        super().__init__(modules)
        self.p = p

    def __iter__(self):
        for i, m in enumerate(super().__iter__()):
            yield m


class Plain(nn.ModuleList):
    pass


class A(nn.Module):
    def forward(self, x):
        return x


class B(nn.Module):
    def forward(self, x):
        return x


class C(nn.Module):
    def forward(self, x):
        return x


def main(x):
    d = Dropping(0.1)
    d.extend([A()])
    for layer in d:
        layer(x)
    for layer in Dropping(0.1, [B()]):
        layer(x)
    for layer in Plain([C()]):
        layer(x)
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	for _, want := range []string{"m.A.forward", "m.B.forward", "m.C.forward"} {
		found := false
		for _, c := range g["m.main"] {
			found = found || c == want
		}
		if !found {
			t.Errorf("main calls %v, want %s among them", g["m.main"], want)
		}
	}
}

// The forward of a module that the program builds but never calls runs
// in a wrapper outside the program (DDP(model)(x)): it gets the instances
// as receiver, so what it calls through self resolves.
func TestWrappedModuleForwardReceiver(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(nn.Module):
    def forward(self, x):
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)


class Helper:
    def __init__(self):
        self.block = Block()

    def forward(self, x):
        return self.block(x)


def main(x):
    DDP(Model())(x)
    Helper()
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	has := func(caller, callee string) bool { return slices.Contains(g[caller], callee) }
	if !has("m.Model.forward", "m.Block.forward") {
		t.Errorf("Model.forward calls %v, want m.Block.forward", g["m.Model.forward"])
	}
	if has("m.Helper.forward", "m.Block.forward") {
		t.Errorf("a class that is no Module got a receiver for its uncalled forward: %v", g["m.Helper.forward"])
	}
}

// Iterating what list(), reversed(), sorted(), zip() and
// enumerate() return yields the elements of their arguments.
func TestSequenceBuiltinsIterate(t *testing.T) {
	srcs := map[string]string{
		"m": `class A:
    def run(self):
        pass


class B:
    def run(self):
        pass


class C:
    def run(self):
        pass


class D:
    def run(self):
        pass


class E:
    def run(self):
        pass


def main(xs):
    for a, x in zip([A()], xs):
        a.run()
    for b in list([B()]):
        b.run()
    for c in reversed([C()]):
        c.run()
    for d in sorted([D()]):
        d.run()
    for i, e in enumerate([E()]):
        e.run()
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	for _, want := range []string{"m.A.run", "m.B.run", "m.C.run", "m.D.run", "m.E.run", "<builtin>.list", "<builtin>.zip"} {
		found := false
		for _, c := range g["m.main"] {
			found = found || c == want
		}
		if !found {
			t.Errorf("main calls %v, want %s among them", g["m.main"], want)
		}
	}
}

// An nn.Sequential holds the modules it is built from, positionally or
// starred, iterates them, and calling it calls each of them.
func TestSequentialCallsItsModules(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn


class A(nn.Module):
    def forward(self, x):
        return x


class B(nn.Module):
    def forward(self, x):
        return x


class C(nn.Module):
    def forward(self, x):
        return x


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.Sequential(*[A() for _ in range(n)])
        self.head = nn.Sequential(B())
        self.tail = nn.Sequential(C())

    def forward(self, x):
        x = self.blocks(x)
        for blk in self.tail:
            blk(x)
        return self.head(x)


def main(x):
    Model(2)(x)
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	for _, want := range []string{"m.A.forward", "m.B.forward", "m.C.forward"} {
		found := false
		for _, c := range g["m.Model.forward"] {
			found = found || c == want
		}
		if !found {
			t.Errorf("Model.forward calls %v, want %s among them", g["m.Model.forward"], want)
		}
	}
}

// A Sequential that holds itself (rebuilt around itself in a loop) is
// called once per call site: the solve terminates.
func TestSequentialHoldingItself(t *testing.T) {
	srcs := map[string]string{
		"m": `import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        return x


def build(n, x):
    s = Block()
    for _ in range(n):
        s = nn.Sequential(s)
    return s(x)
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	found := false
	for _, c := range g["m.build"] {
		found = found || c == "m.Block.forward"
	}
	if !found {
		t.Errorf("build calls %v, want m.Block.forward among them", g["m.build"])
	}
}

// A classmethod of a class the program never instantiates gets the class
// as its first parameter, as the class's methods get its instance: code
// outside the tree calls it (a process entry point that builds its
// worker with cls(...)). A class the program does instantiate gets
// receivers only from the calls that are seen.
func TestOpenWorldClassmethodReceiver(t *testing.T) {
	srcs := map[string]string{
		"m": `class Worker:
    def __init__(self, rank):
        self.rank = rank

    def serve(self):
        pass

    @classmethod
    def worker_main(cls, rank):
        worker = cls(rank)
        worker.serve()


class Used:
    def run(self):
        pass

    @classmethod
    def make(cls):
        cls().run()


def main():
    Used().run()
`,
	}
	g := streamed(t, srcs, []string{"m"}, nil)
	has := func(caller, callee string) bool { return slices.Contains(g[caller], callee) }
	if !has("m.Worker.worker_main", "m.Worker.__init__") || !has("m.Worker.worker_main", "m.Worker.serve") {
		t.Errorf("worker_main calls %v, want m.Worker.__init__ and m.Worker.serve", g["m.Worker.worker_main"])
	}
	if has("m.Used.make", "m.Used.run") {
		t.Errorf("a classmethod of an instantiated class got a receiver no caller passes: %v", g["m.Used.make"])
	}
}

// TestImportsRecorded: each import statement records the program's
// modules whose bodies it runs, from the function that holds it.
func TestImportsRecorded(t *testing.T) {
	srcs := map[string]string{
		"main":       "import pkg.sub\nfrom pkg import other\nfrom lib import *\nimport os\n\ndef run():\n    import late\n",
		"pkg":        "",
		"pkg.sub":    "",
		"pkg.other":  "",
		"lib":        "",
		"late":       "",
		"standalone": "",
	}
	namer := resolve.NewNamer()
	root := t.TempDir()
	var mods []*resolve.Module
	for _, name := range []string{"main", "pkg", "pkg.sub", "pkg.other", "lib", "late", "standalone"} {
		path := filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(name, ".", "/"))+".py")
		if name == "pkg" {
			path = filepath.Join(root, "pkg", "__init__.py")
		}
		// The namer finds packages by their __init__.py on disk.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(srcs[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, namer.Name(resolve.SourceFile{Path: path, Root: root}))
	}
	b := callgraph.NewBuilder(mods, resolve.NewTable(mods), callgraph.Options{}, 0)
	names := []string{"main", "pkg", "pkg.sub", "pkg.other", "lib", "late", "standalone"}
	for i, m := range mods {
		tree, errs := parser.ParseFile(m.Path, []byte(srcs[names[i]]))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		b.Add(&callgraph.ModuleInput{Mod: m, AST: tree, Scopes: resolve.BuildScopes(m.Name, tree)})
	}
	g := b.Finish()
	var got []string
	for _, im := range g.Imports {
		got = append(got, im.From.Name+" -> "+im.Module.Name)
	}
	sort.Strings(got)
	got = slices.Compact(got)
	want := []string{"main -> lib", "main -> pkg", "main -> pkg.other", "main -> pkg.sub", "main.run -> late"}
	if !slices.Equal(got, want) {
		t.Errorf("imports:\n got %q\nwant %q", got, want)
	}
}

// A class deriving from a parametrised generic base (Base[int]) inherits
// Base's methods: self.setup() in the inherited run() reaches the
// subclass's override.
func TestGenericBaseInherits(t *testing.T) {
	srcs := map[string]string{
		"m": "from typing import Generic, TypeVar\nT = TypeVar('T')\n\nclass Base(Generic[T]):\n    def run(self):\n        self.setup()\n\n    def setup(self):\n        pass\n\nclass Impl(Base[int]):\n    def setup(self):\n        pass\n\ndef main():\n    Impl().run()\n",
	}
	cg := streamed(t, srcs, []string{"m"}, nil)
	if !slices.Contains(cg["m.main"], "m.Base.run") {
		t.Errorf("m.main calls %v, want m.Base.run", cg["m.main"])
	}
	if !slices.Contains(cg["m.Base.run"], "m.Impl.setup") {
		t.Errorf("m.Base.run calls %v, want m.Impl.setup", cg["m.Base.run"])
	}
}
