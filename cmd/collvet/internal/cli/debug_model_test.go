package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDebugContextsJSON(t *testing.T) {
	useReal(t)
	dir := t.TempDir()
	src := `import threading
import torch
import torch.distributed as dist

pg = dist.new_group([0, 1], backend="gloo")


def worker(t):
    dist.all_reduce(t, group=pg)


def main():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        dist.broadcast(torch.ones(1), 0, async_op=True)
    threading.Thread(target=worker, args=(1,)).start()


main()
`
	path := filepath.Join(dir, "train.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"debug", "contexts", "--format=json", path}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got ContextsJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	byOp := map[string]SiteJSON{}
	for _, s := range got.Sites {
		byOp[s.Op] = s
	}
	ar := byOp["all_reduce"]
	if ar.Path != path || ar.Line != 9 || ar.Column != 5 || ar.API != "torch.distributed.all_reduce" {
		t.Errorf("all_reduce site %+v", ar)
	}
	if ar.Group != "new_group@"+path+":5" || ar.Backend != "gloo" {
		t.Errorf("group %q backend %q", ar.Group, ar.Backend)
	}
	if len(ar.Contexts) != 1 || ar.Contexts[0].Kind != "thread" || ar.Contexts[0].Spawn != path+":16" ||
		strings.Join(ar.Contexts[0].Chain, ",") != "train.worker" {
		t.Errorf("contexts %+v", ar.Contexts)
	}
	bc := byOp["broadcast"]
	if !bc.Async || bc.Stream != "stream@"+path+":13" || bc.Group != "WORLD" {
		t.Errorf("broadcast %+v", bc)
	}
	if len(bc.Contexts) != 1 || bc.Contexts[0].Kind != "main" || strings.Join(bc.Contexts[0].Chain, ",") != "train,train.main" {
		t.Errorf("broadcast contexts %+v", bc.Contexts)
	}
	// The raw JSON uses exactly the contract's keys.
	for _, key := range []string{`"sites"`, `"path"`, `"line"`, `"column"`, `"api"`, `"op"`, `"group"`, `"backend"`, `"stream"`, `"async"`, `"contexts"`, `"kind"`, `"spawn"`, `"many"`, `"chain"`} {
		if !strings.Contains(out.String(), key) {
			t.Errorf("output lacks %s", key)
		}
	}
}

func TestDebugCallgraphPyCG(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.py"), []byte("def f():\n    len([])\n\nf()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"debug", "callgraph", "--format=pycg", dir}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got map[string][]string
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got["main"], ",") != "main.f" || strings.Join(got["main.f"], ",") != "<builtin>.len" || got["<builtin>.len"] == nil {
		t.Errorf("graph %v", got)
	}
}

// debug contexts covers Go packages too: a goroutine started in a method
// reaches the NCCL call through the wrapper's AllReduce.
func TestDebugContextsGo(t *testing.T) {
	useReal(t)
	mod := filepath.Join("..", "..", "..", "..", "analyzers", "load", "testdata", "mod")
	var out, errb bytes.Buffer
	if code := Main([]string{"debug", "contexts", "--format=json", mod}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got ContextsJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	found := false
	for _, s := range got.Sites {
		if !strings.HasSuffix(filepath.ToSlash(s.Path), "wrap/wrap.go") || s.API != "C.ncclAllReduce" {
			continue
		}
		kinds := map[string]bool{}
		for _, c := range s.Contexts {
			kinds[c.Kind] = true
		}
		if !kinds["main"] || !kinds["goroutine"] {
			t.Errorf("C.ncclAllReduce contexts = %+v, want main and goroutine", s.Contexts)
		}
		found = true
	}
	if !found {
		t.Fatalf("no C.ncclAllReduce site in wrap/wrap.go:\n%s", out.String())
	}
}

// TestDebugContextsTwoBinaries: each binary's main-thread sites name their
// own main function, not the first binary's (the merged program has one
// main context).
func TestDebugContextsTwoBinaries(t *testing.T) {
	useReal(t)
	mod := filepath.Join("..", "..", "..", "..", "analyzers", "load", "testdata", "twomains")
	var out, errb bytes.Buffer
	if code := Main([]string{"debug", "contexts", "--format=json", mod}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got ContextsJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	n := 0
	for _, s := range got.Sites {
		dir := filepath.Base(filepath.Dir(s.Path))
		for _, c := range s.Contexts {
			if c.Kind != "main" {
				continue
			}
			n++
			if want := "example.com/twomains/" + dir + ".main"; len(c.Chain) == 0 || c.Chain[0] != want {
				t.Errorf("%s:%d: main chain %v, want it to start at %s", s.Path, s.Line, c.Chain, want)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no main-thread sites:\n%s", out.String())
	}
}

// TestDebugContextsSeveralGroups: a site whose group argument may hold
// either of two groups lists both, in JSON and in text.
func TestDebugContextsSeveralGroups(t *testing.T) {
	useReal(t)
	dir := t.TempDir()
	src := `import torch
import torch.distributed as dist

_DP = None
_MP = None


def init(mp):
    global _DP, _MP
    rank, world = dist.get_rank(), dist.get_world_size()
    for i in range(mp):
        group = dist.new_group(list(range(i, world, mp)))
        if i == rank % mp:
            _DP = group
    for i in range(world // mp):
        group = dist.new_group(list(range(i * mp, (i + 1) * mp)))
        if i == rank // mp:
            _MP = group


def flags(use_mp):
    group = _MP if use_mp else _DP
    dist.broadcast(torch.ones(3), 0, group=group)


dist.init_process_group("nccl")
init(2)
flags(True)
`
	path := filepath.Join(dir, "mpu.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"debug", "contexts", "--format=json", path}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got ContextsJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var bcast *SiteJSON
	for i, s := range got.Sites {
		if s.Op == "broadcast" {
			bcast = &got.Sites[i]
		}
	}
	if bcast == nil || len(bcast.Groups) != 2 || bcast.Groups[0] != bcast.Group {
		t.Fatalf("broadcast site: %+v", bcast)
	}
	for _, g := range bcast.Groups {
		if !strings.HasPrefix(g, "new_group@") {
			t.Errorf("group %q, want a new_group allocation", g)
		}
	}
	out.Reset()
	if code := Main([]string{"debug", "contexts", path}, nil, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "group="+bcast.Groups[0]+" (or "+bcast.Groups[1]+")") {
		t.Errorf("text output names one group only:\n%s", out.String())
	}
}

// TestDebugContextsTags: debug contexts takes check's -tags (as -tags=x
// or -tags x, before or after the paths): the sites behind a build tag
// appear with it only.
func TestDebugContextsTags(t *testing.T) {
	useReal(t)
	tagged := filepath.Join("..", "..", "..", "..", "analyzers", "load", "testdata", "tagged")
	sites := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := Main(append([]string{"debug", "contexts"}, args...), nil, &out, &errb); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	if out := sites(tagged); strings.Contains(out, "share_cuda.go") {
		t.Errorf("without -tags: %s", out)
	}
	for _, args := range [][]string{{"-tags=cuda", tagged}, {tagged, "-tags", "cuda"}} {
		if out := sites(args...); !strings.Contains(out, "share_cuda.go") {
			t.Errorf("%v: no site of share_cuda.go:\n%s", args, out)
		}
	}
}
