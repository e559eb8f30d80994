package api

import (
	"strings"
	"testing"
)

func TestDefaultTablesLoad(t *testing.T) {
	tb := Default()
	c := tb.Collectives["torch.distributed.all_reduce"]
	if c == nil {
		t.Fatal("all_reduce missing")
	}
	if c.Group.Pos != 2 || c.Group.Name != "group" || c.Async.Name != "async_op" {
		t.Errorf("all_reduce arguments = %+v %+v", c.Group, c.Async)
	}
	if got := tb.Canonical("torch.distributed.distributed_c10d.all_reduce"); got != "torch.distributed.all_reduce" {
		t.Errorf("Canonical = %q", got)
	}
}

// A project's vendored copy of Megatron's mpu names Megatron's getters;
// a name that only contains "megatron" elsewhere is left alone.
func TestCanonicalVendoredMegatron(t *testing.T) {
	tb := Default()
	for in, want := range map[string]string{
		"codegeex.megatron.mpu.get_tensor_model_parallel_rank":              "megatron.core.parallel_state.get_tensor_model_parallel_rank",
		"proj.megatron.core.parallel_state.get_tensor_model_parallel_rank":  "megatron.core.parallel_state.get_tensor_model_parallel_rank",
		"nemo.collections.nlp.modules.common.megatron.utils.average_losses": "nemo.collections.nlp.modules.common.megatron.utils.average_losses",
	} {
		if got := tb.Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseRejectsUnknownKeys(t *testing.T) {
	_, err := Parse("bad.toml", []byte("library = \"x\"\n[[collective]]\nname = \"a.b\"\nopp = \"typo\"\n"))
	if err == nil {
		t.Fatal("want error for unknown key")
	}
}

func TestArgShapes(t *testing.T) {
	lib, err := Parse("x.toml", []byte(`library = "x"
[[collective]]
name = "x.a"
group = 2
async = "async_op"
[[collective]]
name = "x.b"
`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := lib.Collectives[0], lib.Collectives[1]
	if a.Group.Pos != 2 || a.Async.Pos != -1 || a.Async.Name != "async_op" {
		t.Errorf("a: group %+v async %+v", a.Group, a.Async)
	}
	if b.Group.Present() || b.Stream.Present() {
		t.Errorf("b: absent args reported present: %+v %+v", b.Group, b.Stream)
	}
}

func TestCovers(t *testing.T) {
	tb := Default()
	for mod, want := range map[string]bool{
		"torch.distributed": true, "torch.distributed.fsdp": true, "horovod.torch": true,
		"torch": false, "torch._C": false, "torch.distributedx": false, "numpy": false,
	} {
		if got := tb.Covers(mod); got != want {
			t.Errorf("Covers(%q) = %v, want %v", mod, got, want)
		}
	}
}

// Declares answers for the four kinds of entries (and nothing else), in
// the embedded tables and in tables a config extends.
func TestDeclares(t *testing.T) {
	lib, err := Parse("x.toml", []byte(`library = "x"
[[collective]]
name = "x.reduce"
[[spawner]]
name = "x.run_later"
target = 0
`))
	if err != nil {
		t.Fatal(err)
	}
	tb := Default().Extend(lib)
	for _, tables := range []*Tables{Default(), tb} {
		names := map[string]bool{}
		for n := range tables.Collectives {
			names[n] = true
		}
		for n := range tables.Spawners {
			names[n] = true
		}
		for n := range tables.GroupCreators {
			names[n] = true
		}
		for n := range tables.Streams {
			names[n] = true
		}
		for n := range names {
			if !tables.Declares(n) {
				t.Errorf("Declares(%q) = false", n)
			}
		}
		for n := range tables.RankPredicates {
			if !names[n] && tables.Declares(n) {
				t.Errorf("Declares(rank predicate %q) = true", n)
			}
		}
	}
	for _, n := range []string{"x.reduce", "x.run_later", "torch.distributed.new_group", "torch.cuda.stream"} {
		if !tb.Declares(n) {
			t.Errorf("extended: Declares(%q) = false", n)
		}
	}
	if tb.Declares("x.other") || Default().Declares("x.reduce") {
		t.Error("Declares answers for a name no table has")
	}
}

// ClassMethod finds a class's own method entry and, failing that, a
// "pkg.*.method" entry of the class's package.
func TestClassMethod(t *testing.T) {
	tb := Default()
	for _, tc := range []struct{ cls, m, want string }{
		{"torchmetrics.Accuracy", "compute", "torchmetrics.*.compute"},
		{"torchmetrics.classification.MulticlassF1Score", "compute", "torchmetrics.*.compute"},
		{"torchmetrics.Metric", "compute", "torchmetrics.Metric.compute"},
		{"torchmetrics.Accuracy", "update", ""},
		{"sklearn.metrics.Accuracy", "compute", ""},
		{"accelerate.Accelerator", "gather", "accelerate.Accelerator.gather"},
		{"accelerate.accelerator.Accelerator", "gather_for_metrics", "accelerate.Accelerator.gather_for_metrics"},
	} {
		if got := tb.ClassMethod(tc.cls, tc.m); got != tc.want {
			t.Errorf("ClassMethod(%q, %q) = %q, want %q", tc.cls, tc.m, got, tc.want)
		}
	}
}

func TestFrameworkMethod(t *testing.T) {
	tb := Default()
	for name, want := range map[string]bool{
		"lightning.pytorch.Trainer.save_checkpoint": true,
		"deepspeed.DeepSpeedEngine.save_checkpoint": true,
		"accelerate.Accelerator.wait_for_everyone":  true, // a barrier of a framework library
		"torch.distributed.ProcessGroup.allreduce":  true, // torch has framework entries (checkpoint.save)
		"mpi4py.MPI.Comm.Allreduce":                 false,
		"cupy.cuda.nccl.NcclCommunicator.allReduce": false,
		"torch.Tensor.register_hook":                false, // not a collective
	} {
		if got := tb.FrameworkMethod(name); got != want {
			t.Errorf("FrameworkMethod(%q) = %v, want %v", name, got, want)
		}
	}
}

// A package's re-exports name its modules' entries and their methods,
// but never shadow an entry or alias the package has of its own.
func TestReexports(t *testing.T) {
	lib, err := Parse("x.toml", []byte(`library = "x"
[reexports]
"x" = ["x.core"]
[[collective]]
name = "x.core.reduce"
[[collective]]
name = "x.core.Comm.barrier"
method = true
[[collective]]
name = "x.core.gather"
[[collective]]
name = "x.gather"
`))
	if err != nil {
		t.Fatal(err)
	}
	tb := Default().Extend(lib)
	for alias, want := range map[string]string{
		"x.reduce":                      "x.core.reduce",
		"x.Comm.barrier":                "x.core.Comm.barrier",
		"x.gather":                      "x.gather",
		"x.core.reduce":                 "x.core.reduce",
		"vllm.distributed.get_tp_group": "vllm.distributed.parallel_state.get_tp_group",
		"vllm.distributed.tensor_model_parallel_all_reduce": "vllm.distributed.communication_op.tensor_model_parallel_all_reduce",
	} {
		if got := tb.Canonical(alias); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", alias, got, want)
		}
	}
}

// ClassMethod skips method names no entry ends in; it must answer what
// the full lookup answers for every name the tables know and for names
// they do not.
func TestClassMethodTailFilter(t *testing.T) {
	tb := Default()
	slow := func(cls, m string) string {
		name := tb.Canonical(cls + "." + m)
		if tb.Declares(name) {
			return name
		}
		for _, w := range tb.wildcards {
			if w.method == m && strings.HasPrefix(cls, w.prefix) {
				return w.name
			}
		}
		return ""
	}
	var names []string
	for n := range tb.declared {
		names = append(names, n)
	}
	for n := range tb.Aliases {
		names = append(names, n)
	}
	for _, w := range tb.wildcards {
		names = append(names, w.prefix+"Anything."+w.method)
	}
	names = append(names, "torch.Tensor.append", "x.y.not_a_method", "a.b")
	found := 0
	for _, n := range names {
		i := strings.LastIndexByte(n, '.')
		if i <= 0 {
			continue
		}
		cls, m := n[:i], n[i+1:]
		got, want := tb.ClassMethod(cls, m), slow(cls, m)
		if got != want {
			t.Errorf("ClassMethod(%q, %q) = %q, want %q", cls, m, got, want)
		}
		if got != "" {
			found++
		}
	}
	if found < 100 {
		t.Errorf("only %d of %d names found an entry", found, len(names))
	}
}
