package model_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront"
	"github.com/collvet/collvet/rules"
)

// Fixtures in testdata/src are programs with inline markers:
//
//	# spawn: A [joined]     this line spawns (or registers) context A
//	# alloc: P              this line allocates a group
//	# context: k@A, k@B*, main   the collective on this line runs exactly in
//	                        these contexts (kind@spawn label; * = many);
//	                        "-" = no collective on this line
//	# group: WORLD | new_group@P   the site's group
//	# reach-group: A=new_group@P   the group each context's chain passes
//	# calls: mod.f, ext.name  calls on this line resolve to (at least) these; "-" = to no function
//	# api: name | -          the collective's API (or: not a collective)
//	# async                  the collective is asynchronous
var markerRE = regexp.MustCompile(`#\s*(spawn|alloc|context|group|reach-group|calls|api|async)\b:?\s*([^#]*)`)

type marker struct {
	kind, arg string
	line      int
}

func readMarkers(t *testing.T, path string) []marker {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []marker
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		for _, m := range markerRE.FindAllStringSubmatch(sc.Text(), -1) {
			out = append(out, marker{kind: m[1], arg: strings.TrimSpace(m[2]), line: n})
		}
	}
	return out
}

func TestMarkers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "src", "*.py"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkFile(t, path) })
	}
}

func checkFile(t *testing.T, path string) {
	res, err := pyfront.Load([]string{path}, pyfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	p := res.Program
	markers := readMarkers(t, path)
	spawnLine := map[string]int{}
	joined := map[string]bool{}
	allocLine := map[string]int{}
	for _, m := range markers {
		switch m.kind {
		case "spawn":
			f := strings.Fields(m.arg)
			spawnLine[f[0]] = m.line
			joined[f[0]] = len(f) > 1 && f[1] == "joined"
		case "alloc":
			allocLine[m.arg] = m.line
		}
	}
	label := func(line int) string {
		for l, n := range spawnLine {
			if n == line {
				return l
			}
		}
		return fmt.Sprintf("line%d", line)
	}
	groupName := func(g *rules.Group) string {
		if g == nil {
			return "<nil>"
		}
		if g.Kind != rules.GroupAlloc {
			return g.ID
		}
		op := g.ID[:strings.IndexByte(g.ID, '@')]
		for l, n := range allocLine {
			if n == g.Pos.Line {
				return op + "@" + l
			}
		}
		return g.ID
	}
	sitesAt := func(line int) []*rules.Site {
		var out []*rules.Site
		for _, s := range p.Sites {
			if s.Pos.Line == line {
				out = append(out, s)
			}
		}
		return out
	}
	// Every labelled spawn made a context with the right Joined flag.
	for l, line := range spawnLine {
		found := false
		for _, c := range p.Contexts {
			if c.Spawn.Line == line {
				found = true
				if c.Joined != joined[l] {
					t.Errorf("%s:%d: context %s joined=%v, want %v", path, line, l, c.Joined, joined[l])
				}
			}
		}
		if !found {
			t.Errorf("%s:%d: no context spawned here", path, line)
		}
	}
	for _, m := range markers {
		where := fmt.Sprintf("%s:%d", path, m.line)
		switch m.kind {
		case "context":
			sites := sitesAt(m.line)
			if m.arg == "-" {
				if len(sites) > 0 {
					t.Errorf("%s: unexpected collective %s", where, sites[0].API)
				}
				continue
			}
			if len(sites) != 1 {
				t.Errorf("%s: %d collective sites, want 1", where, len(sites))
				continue
			}
			var got []string
			for _, r := range sites[0].Reach {
				s := string(r.Ctx.Kind)
				if r.Ctx.Kind != rules.Main {
					s += "@" + label(r.Ctx.Spawn.Line)
				}
				if r.Ctx.Many {
					s += "*"
				}
				got = append(got, s)
			}
			want := strings.Split(strings.ReplaceAll(m.arg, " ", ""), ",")
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s: contexts %v, want %v", where, got, want)
			}
			for _, r := range sites[0].Reach {
				if len(r.Chain) > 0 && r.Chain[len(r.Chain)-1].Callee != sites[0].Func {
					t.Errorf("%s: chain does not end at the site's function", where)
				}
			}
		case "group":
			sites := sitesAt(m.line)
			if len(sites) != 1 {
				t.Errorf("%s: %d sites, want 1", where, len(sites))
				continue
			}
			if got := groupName(sites[0].Group); got != m.arg {
				t.Errorf("%s: group %s, want %s", where, got, m.arg)
			}
		case "reach-group":
			sites := sitesAt(m.line)
			if len(sites) != 1 {
				t.Errorf("%s: %d sites, want 1", where, len(sites))
				continue
			}
			for _, pair := range strings.Split(m.arg, ",") {
				l, want, _ := strings.Cut(strings.TrimSpace(pair), "=")
				ok := false
				for _, r := range sites[0].Reach {
					if r.Ctx.Spawn.Line == spawnLine[l] {
						ok = true
						if got := groupName(r.Group); got != want {
							t.Errorf("%s: chain from %s uses %s, want %s", where, l, got, want)
						}
					}
				}
				if !ok {
					t.Errorf("%s: no reach from %s", where, l)
				}
			}
		case "api":
			sites := sitesAt(m.line)
			if m.arg == "-" {
				if len(sites) > 0 {
					t.Errorf("%s: unexpected collective %s", where, sites[0].API)
				}
				continue
			}
			if len(sites) != 1 || sites[0].API != m.arg {
				t.Errorf("%s: sites %v, want one %s", where, apis(sites), m.arg)
			}
		case "async":
			sites := sitesAt(m.line)
			if len(sites) != 1 || !sites[0].Async || sites[0].Work == nil {
				t.Errorf("%s: want one async site with a work handle", where)
			}
		case "calls":
			got := map[string]bool{}
			for _, f := range p.Funcs {
				for _, c := range f.Calls {
					if c.Pos.Path == path && c.Pos.Line == m.line {
						if c.Callee != nil {
							got[c.Callee.Name] = true
						} else {
							got[c.External] = true
						}
					}
				}
			}
			if m.arg == "-" {
				for n := range got {
					if !strings.Contains(n, ".") || got[n] {
						for _, f := range p.Funcs {
							if f.Name == n {
								t.Errorf("%s: unexpected call of %s", where, n)
							}
						}
					}
				}
				continue
			}
			for _, want := range strings.Split(m.arg, ",") {
				want = strings.TrimSpace(want)
				if !got[want] {
					t.Errorf("%s: no call of %s (got %v)", where, want, keys(got))
				}
			}
		}
	}
}

func apis(sites []*rules.Site) []string {
	var out []string
	for _, s := range sites {
		out = append(out, s.API)
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func writeFile(t *testing.T, dir, name, src string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Program-wide facts: init_process_group statements (with where a fix
// may insert a line), the WORLD backend, the global autograd switch, the
// torch requirement and the MPI thread level.
func TestFacts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "requirements.txt", "numpy\ntorch >= 2.1, < 3  # pinned\n")
	writeFile(t, dir, "train.py", `import torch
import torch.distributed as dist
import mpi4py
mpi4py.rc.thread_level = "funneled"


def setup():
    dist.init_process_group(
        backend="gloo")
    torch.autograd.set_multithreading_enabled(False)


def step(loss):
    with torch.autograd.set_multithreading_enabled(False):
        loss.backward()
    dist.all_reduce(loss)


setup()
`)
	res, err := pyfront.Load([]string{dir}, pyfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Program.Facts
	if len(f.Inits) != 1 || f.Inits[0].AfterLine != 9 || f.Inits[0].Indent != "    " || f.Inits[0].Backend != "gloo" {
		t.Errorf("inits %+v", f.Inits)
	}
	if len(f.AutogradSingleThreaded) != 1 || f.AutogradSingleThreaded[0].Line != 10 {
		t.Errorf("autograd switch %v (the with-statement one is not global)", f.AutogradSingleThreaded)
	}
	if f.TorchRequirement != "torch>=2.1,<3" || f.TorchRequirementPos.Line != 2 {
		t.Errorf("torch requirement %q at %v", f.TorchRequirement, f.TorchRequirementPos)
	}
	if f.MPIThreadLevel != "funneled" || f.MPIThreadLevelPos.Line != 4 {
		t.Errorf("MPI thread level %q at %v", f.MPIThreadLevel, f.MPIThreadLevelPos)
	}
	var world *rules.Group
	for _, s := range res.Program.Sites {
		if s.Op == "all_reduce" {
			world = s.Group
		}
	}
	if world == nil || world.ID != "WORLD" || world.Backend != "gloo" {
		t.Errorf("all_reduce group %+v, want WORLD with the gloo backend", world)
	}
}

// A condition that reads a file system answer taken earlier points at
// where it was taken: the check itself, through the variables set in its
// arm; a condition that makes the check has no separate origin.
func TestFileSystemOrigin(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "train.py", `import os
import torch
import torch.distributed as dist


def main(loader, path):
    if os.path.exists(path):
        step = torch.load(path)["step"] + 1
        resumed = True
    else:
        step = 0
        resumed = False
    started = resumed
    buf = torch.zeros(1)
    for batch in loader:
        if step % 100 == 0:
            dist.all_reduce(buf)
        if started:
            dist.barrier()
        if os.path.isfile(path + ".done"):
            dist.barrier()
        step += 1
`)
	res, err := pyfront.Load([]string{dir}, pyfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	origins := map[int]int{} // guard line -> origin line (0: none)
	for _, br := range res.Program.Branches {
		if br.Divergence != rules.HostCheck {
			continue
		}
		origins[br.Guard.Line] = 0
		if br.Origin != nil {
			origins[br.Guard.Line] = br.Origin.Line
		}
	}
	want := map[int]int{16: 7, 18: 7, 20: 0}
	for line, o := range want {
		got, ok := origins[line]
		if !ok {
			t.Errorf("no file system branch at line %d (branches at %v)", line, origins)
			continue
		}
		if got != o {
			t.Errorf("branch at line %d: origin line %d, want %d", line, got, o)
		}
	}
}
