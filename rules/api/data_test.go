package api

import (
	"io/fs"
	"strings"
	"testing"
)

// The allowed vocabularies of the data files. Rules and front ends switch
// on these strings, so a typo in a data file would silently disable a
// check; this test turns it into a failure.
var (
	allowedKinds = set("collective", "p2p", "object", "barrier", "group_create", "framework", "init", "other")
	allowedOps   = set(
		"all_reduce", "broadcast", "reduce", "all_gather", "gather", "scatter", "reduce_scatter",
		"all_to_all", "barrier", "scan", "send", "recv", "sendrecv", "batch_p2p", "p2p_permute",
		"broadcast_object", "all_gather_object", "gather_object", "scatter_object", "send_object",
		"recv_object", "all_to_all_object", "reduce_object", "all_reduce_object",
		"init", "destroy", "new_group", "ddp_init", "fsdp_init", "group_start", "group_end", "coalesced",
		"save_checkpoint", "load_checkpoint", "checkpoint_save", "checkpoint_load",
		// Go front end (C MPI / NCCL bindings).
		"comm_init", "comm_split", "comm_dup", "comm_create", "comm_destroy", "comm_abort",
		"set_device", "set_context", "probe", "isend", "irecv", "finalize",
		// MPI-IO's collective file operations (C MPI_File_*, mpi4py's File).
		"file_open", "file_close", "file_set_view", "file_set_size", "file_preallocate", "file_sync",
		"file_read_all", "file_write_all", "file_read_at_all", "file_write_at_all", "file_read_ordered", "file_write_ordered",
		"other")
	allowedContexts   = set("thread", "pool", "autograd", "background", "signal", "goroutine")
	allowedRoles      = set("new_stream", "stream_context", "set_stream", "current_stream", "default_stream", "wait_stream", "wait_event", "record_event", "record_stream", "synchronize", "disable_autograd_threads", "wait_work", "backward", "lock_os_thread", "graph_capture")
	allowedReturns    = set("group", "groups", "mesh", "pair", "comm", "world", "none", "group_or_tuple")
	allowedPredicates = set("call", "attr", "decorator", "env")
)

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// TestDataFilesValid checks every embedded data file: it parses with no
// unknown keys, every name is qualified, every enumerated field uses the
// allowed vocabulary, and no entry is declared twice.
func TestDataFilesValid(t *testing.T) {
	entries, err := fs.ReadDir(dataFS, "data")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 10 {
		t.Errorf("only %d data files", len(entries))
	}
	seen := map[string]string{}
	tb := Default()
	for _, e := range entries {
		b, err := dataFS.ReadFile("data/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		lib, err := Parse(e.Name(), b)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		where := e.Name()
		if lib.Library == "" {
			t.Errorf("%s: no library", where)
		}
		qual := func(kind, name string) {
			if !strings.Contains(name, ".") || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, " ") {
				t.Errorf("%s: %s name %q is not qualified", where, kind, name)
			}
		}
		dup := func(kind, name string) {
			k := kind + " " + name
			if prev, ok := seen[k]; ok {
				t.Errorf("%s: %s %q already declared in %s", where, kind, name, prev)
			}
			seen[k] = where
		}
		for _, c := range lib.Collectives {
			qual("collective", c.Name)
			dup("collective", c.Name)
			if !allowedKinds[c.Kind] {
				t.Errorf("%s: %s: kind %q not allowed", where, c.Name, c.Kind)
			}
			if !allowedOps[c.Op] {
				t.Errorf("%s: %s: op %q not allowed", where, c.Name, c.Op)
			}
			if c.AnyReceiver && !c.Method {
				t.Errorf("%s: %s: any_receiver without method", where, c.Name)
			}
			if c.ImplicitGroup != "" && (c.Group.Present() || !hasCreator(lib, c.ImplicitGroup)) {
				t.Errorf("%s: %s: implicit_group %q must name a group_creator of the same file, on a call without a group argument", where, c.Name, c.ImplicitGroup)
			}
			if c.AlwaysAsync && c.Async.Present() {
				t.Errorf("%s: %s: always_async and an async argument", where, c.Name)
			}
			if c.Async.Pos >= 0 && c.Group.Pos >= 0 && c.Async.Pos != c.Group.Pos+1 {
				// §3.3.1: async_op is always right after group.
				t.Errorf("%s: %s: async_op at %d, group at %d", where, c.Name, c.Async.Pos, c.Group.Pos)
			}
		}
		for _, s := range lib.Spawners {
			qual("spawner", s.Name)
			dup("spawner", s.Name)
			if !allowedContexts[s.Context] {
				t.Errorf("%s: %s: context %q not allowed", where, s.Name, s.Context)
			}
			if !s.Target.Present() && !s.Subclass && !s.Decorates && s.Framework == "" && s.Context != "background" {
				t.Errorf("%s: %s: no target, subclass, decorator or framework", where, s.Name)
			}
			if s.Decorates && s.Target.Present() {
				t.Errorf("%s: %s: a decorator factory takes no target", where, s.Name)
			}
			if s.Subclass && s.RunMethod == "" {
				t.Errorf("%s: %s: subclass without run_method", where, s.Name)
			}
			if len(s.MultiCommValues) > 0 && !s.MultiCommArg.Present() {
				t.Errorf("%s: %s: multi_comm_values without multi_comm_arg", where, s.Name)
			}
			if len(s.ElsewhereValues) > 0 != s.ElsewhereArg.Present() {
				t.Errorf("%s: %s: elsewhere_arg and elsewhere_values go together", where, s.Name)
			}
		}
		for _, g := range lib.GroupCreators {
			qual("group_creator", g.Name)
			dup("group_creator", g.Name)
			if !allowedReturns[g.Returns] {
				t.Errorf("%s: %s: returns %q not allowed", where, g.Name, g.Returns)
			}
			for _, m := range g.MemberTests {
				if p := tb.RankPredicates[m]; p == nil || p.Kind != "call" {
					t.Errorf("%s: %s: member test %q is no call rank predicate", where, g.Name, m)
				}
			}
		}
		for _, r := range lib.RankPredicates {
			qual("rank_predicate", r.Name)
			dup("rank_predicate", r.Name)
			if !allowedPredicates[r.Kind] {
				t.Errorf("%s: %s: kind %q not allowed", where, r.Name, r.Kind)
			}
			if r.Element != nil && (r.Kind != "call" || *r.Element < 0) {
				t.Errorf("%s: %s: element %d on a %s predicate (calls returning a tuple only)", where, r.Name, *r.Element, r.Kind)
			}
		}
		for _, s := range lib.Streams {
			qual("stream", s.Name)
			dup("stream", s.Name)
			if !allowedRoles[s.Role] {
				t.Errorf("%s: %s: role %q not allowed", where, s.Name, s.Role)
			}
			if s.AnyReceiver && !s.Method {
				t.Errorf("%s: %s: any_receiver without method", where, s.Name)
			}
		}
		for k, v := range lib.Aliases {
			qual("alias", k)
			qual("alias target", v)
		}
	}
}

// TestParseRejectsBadVocabularyShape makes sure the validation above can
// fail: a file with a bad arg key is rejected by Parse.
func TestParseRejectsBadArgKey(t *testing.T) {
	_, err := Parse("bad.toml", []byte("library = \"x\"\n[[collective]]\nname = \"a.b\"\ngroup = { position = 2 }\n"))
	if err == nil {
		t.Fatal("want error for unknown arg key")
	}
}

// TestReferenceFacts pins the argument positions the reference lists
// (§3.3.1) so that an edit of the data cannot silently move them.
func TestReferenceFacts(t *testing.T) {
	tb := Default()
	cases := []struct {
		name         string
		group, async int
	}{
		{"torch.distributed.broadcast", 2, 3},
		{"torch.distributed.all_reduce", 2, 3},
		{"torch.distributed.all_gather_into_tensor", 2, 3},
		{"torch.distributed.reduce", 3, 4},
		{"torch.distributed.gather", 3, 4},
		{"torch.distributed.reduce_scatter_tensor", 3, 4},
		{"torch.distributed.all_to_all_single", 4, 5},
		{"torch.distributed.barrier", 0, 1},
		{"torch.distributed.monitored_barrier", 0, -1},
		{"torch.distributed.gather_object", 3, -1},
		{"torch.distributed.isend", 2, -1},
		{"deepspeed.comm.all_reduce", 2, 3},
	}
	for _, c := range cases {
		e := tb.Collectives[c.name]
		if e == nil {
			t.Errorf("%s missing", c.name)
			continue
		}
		if e.Group.Pos != c.group || e.Async.Pos != c.async {
			t.Errorf("%s: group %d async %d, want %d %d", c.name, e.Group.Pos, e.Async.Pos, c.group, c.async)
		}
	}
	for _, n := range []string{"torch.distributed.isend", "torch.distributed.irecv", "torch.distributed.batch_isend_irecv", "torch.distributed.ProcessGroup.allreduce", "mpi4py.MPI.Comm.Iallreduce"} {
		if e := tb.Collectives[n]; e == nil || !e.AlwaysAsync {
			t.Errorf("%s: not always async", n)
		}
	}
	if e := tb.Collectives["cupy.cuda.nccl.NcclCommunicator.allReduce"]; e == nil || e.Stream.Pos != 5 {
		t.Errorf("cupy allReduce stream argument: %+v", e)
	}
	if s := tb.Streams["torch.autograd.set_multithreading_enabled"]; s == nil || s.Role != "disable_autograd_threads" {
		t.Errorf("set_multithreading_enabled: %+v", s)
	}
	if got := tb.Canonical("torch.autograd.grad_mode.set_multithreading_enabled"); got != "torch.autograd.set_multithreading_enabled" {
		t.Errorf("alias: %q", got)
	}
	for _, n := range []string{"threading.Thread", "concurrent.futures.ThreadPoolExecutor.submit", "torch.Tensor.register_hook", "torch.autograd.graph.register_multi_grad_hook", "torch.distributed.checkpoint.async_save"} {
		if tb.Spawners[n] == nil {
			t.Errorf("spawner %s missing", n)
		}
	}
	if r := tb.RankPredicates["lightning.pytorch.utilities.rank_zero_only"]; r == nil || r.Kind != "decorator" {
		t.Errorf("rank_zero_only: %+v", r)
	}
	if c := tb.Collectives["lightning.pytorch.LightningModule.log"]; c == nil || c.OnlyIf.Name != "sync_dist" {
		t.Errorf("log only_if: %+v", c)
	}
	if s := tb.Spawners["torch.distributed.fsdp.FullyShardedDataParallel"]; s == nil || s.MultiCommArg.Name != "sharding_strategy" {
		t.Errorf("FSDP multi-comm argument: %+v", s)
	}
}

func hasCreator(lib *Library, name string) bool {
	for _, g := range lib.GroupCreators {
		if g.Name == name {
			return true
		}
	}
	return false
}
