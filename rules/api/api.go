// Package api is collvet's knowledge of communication APIs, as data.
//
// Each library has one embedded TOML file in data/ that declares which calls
// are collectives (and where their group, async and stream arguments are),
// which spawn threads or register autograd callbacks, which create process
// groups, which test the rank, and which manage streams. Front ends look
// calls up by fully qualified name (torch.distributed.all_reduce), whatever
// alias the code used. Users extend the tables from configuration
// ([tool.collvet] in pyproject.toml or collvet.toml) with the same shapes.
package api

import (
	"bytes"
	"embed"
	"encoding/gob"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Arg locates an argument: by position (0-based, -1 when it has none) and
// by keyword name. For methods, positions exclude the receiver.
type Arg struct {
	Pos  int    `toml:"pos"`
	Name string `toml:"name"`
	set  bool   // decoded from the file
}

// NoArg is an argument the signature does not have.
var NoArg = Arg{Pos: -1}

// Present reports whether the argument exists in the signature.
func (a Arg) Present() bool { return a.Pos >= 0 || a.Name != "" }

// UnmarshalTOML accepts `{ pos = 2, name = "group" }`, a bare position
// (2) or a bare keyword name ("group", keyword-only). A missing pos means
// keyword-only (-1), so that TOML's zero value never silently means "first
// argument".
func (a *Arg) UnmarshalTOML(v any) error {
	a.Pos = -1
	a.set = true
	switch v := v.(type) {
	case int64:
		a.Pos = int(v)
	case string:
		a.Name = v
	case map[string]any:
		for k, x := range v {
			switch k {
			case "pos":
				n, ok := x.(int64)
				if !ok {
					return fmt.Errorf("arg pos must be an integer, got %T", x)
				}
				a.Pos = int(n)
			case "name":
				s, ok := x.(string)
				if !ok {
					return fmt.Errorf("arg name must be a string, got %T", x)
				}
				a.Name = s
			default:
				return fmt.Errorf("unknown arg key %q (want pos, name)", k)
			}
		}
	default:
		return fmt.Errorf("arg must be a table, an integer or a string, got %T", v)
	}
	return nil
}

// Collective is an API that communicates.
type Collective struct {
	Name    string `toml:"name"`    // fully qualified (module.function, or module.Class.method)
	Op      string `toml:"op"`      // all_reduce, broadcast, send, …
	Kind    string `toml:"kind"`    // collective | p2p | object | barrier | group_create | framework | init | other
	Library string `toml:"library"` // torch, deepspeed, mpi4py, …
	// Method: the API is a method; Name's last component is matched on
	// receivers of the declared class (Name minus the method), and, when
	// AnyReceiver is set, on receivers of unknown type too.
	Method      bool `toml:"method"`
	AnyReceiver bool `toml:"any_receiver"`
	// IfImported: with AnyReceiver, only in a program whose modules
	// import the library when they load: a name too common to guess from
	// alone (mpi4py's lowercase comm.barrier()).
	IfImported bool `toml:"if_imported"`
	// ReceiverGroup: the receiver is the group/communicator (ProcessGroup.allreduce, comm.Allreduce).
	ReceiverGroup bool `toml:"receiver_group"`
	Group         Arg  `toml:"group"`
	Async         Arg  `toml:"async"`
	// Sync: the argument that keeps the call synchronous, true by default
	// (Paddle's sync_op): passing False makes it async.
	Sync   Arg `toml:"sync"`
	Stream Arg `toml:"stream"`
	// AlwaysAsync: the result is always a work handle / request (isend, Iallreduce).
	AlwaysAsync bool `toml:"always_async"`
	// NameMatched: ranks match the op by name (Horovod's coordinator
	// negotiates each tensor by its name), not by the order each rank
	// issues it, so which host thread issues it does not matter.
	NameMatched bool `toml:"name_matched"`
	// Lazy: the call records the op into a lazy graph (PyTorch/XLA's
	// xla_model collectives) that runs when the thread calling mark_step
	// executes it: the host thread that records it does not order its
	// launch, but a rank that skips it still runs a different graph.
	Lazy bool `toml:"lazy"`
	// OpaqueSequence: (framework calls) the collectives inside are
	// several, in an order the entry does not give (Megatron's
	// save_checkpoint: barriers around the rank-0 write).
	OpaqueSequence bool  `toml:"opaque_sequence"`
	Inputs         []Arg `toml:"inputs"`
	// ImplicitGroup: the call always runs on the group a getter of the
	// tables returns (vLLM's tensor_model_parallel_all_reduce on
	// get_tp_group()), not on the default group.
	ImplicitGroup string `toml:"implicit_group"`
	// ElementGroup: the group is this argument of the calls that make the
	// elements of the first input (batch_isend_irecv's P2POp(…,
	// group=g) entries); WORLD when they pass none.
	ElementGroup Arg `toml:"element_group"`
	// Peer: (point-to-point calls) the argument naming the other rank
	// (send's dst, recv's src, MPI's dest and source).
	Peer Arg `toml:"peer"`
	// Root: (rooted collectives) the argument naming the root rank
	// (broadcast's src, reduce's and gather's dst, MPI's root), which
	// every rank must give the same value.
	Root    Arg   `toml:"root"`
	Outputs []Arg `toml:"outputs"`
	// Request: (Go/C APIs) the out-parameter that receives the request
	// handle of a nonblocking call (MPI_Isend's MPI_Request*).
	Request Arg `toml:"request"`
	// ThreadLevel: (MPI init calls) the argument that requests the thread
	// level (MPI_Init_thread's required; gompi Start's threaded bool, where
	// true means multiple and false single). Level is the level an init
	// call always requests (MPI_Init: single; InitThreadSafe: multiple).
	ThreadLevel Arg    `toml:"thread_level"`
	Level       string `toml:"level"`
	// OnlyIf: the call communicates only when this argument is passed and
	// true (LightningModule.log's sync_dist=True).
	OnlyIf Arg `toml:"only_if"`
	// OnlyIfKeys: with OnlyIf, when that argument is an options object
	// built in place, the call communicates only when one of these
	// keywords is passed to it and is not a literal False
	// (get_model_state_dict(m, options=StateDictOptions(full_state_dict=True))
	// all-gathers; StateDictOptions(cpu_offload=True) alone does not).
	OnlyIfKeys []string `toml:"only_if_keys"`
	// ResumeFrom: (training loops) the argument naming a checkpoint to
	// resume from (Trainer.train's resume_from_checkpoint, Lightning
	// fit's ckpt_path). A call that passes it restores the step count and
	// runs the remaining steps only, so two calls that differ in it issue
	// different numbers of collectives.
	ResumeFrom Arg `toml:"resume_from"`
	// RankArg: the argument that tells the call the process's rank
	// (init_process_group(rank=…)): a variable passed there holds the
	// rank.
	RankArg Arg `toml:"rank_arg"`
	// Unless: the call communicates unless this argument is passed a
	// literal False or None (rpc.shutdown(graceful=False) stops the local
	// RPC agent without waiting for the other workers).
	Unless Arg `toml:"unless"`
	// Via: (methods) the method of the same receiver through which the
	// call communicates (accelerate's save_model gathers through
	// get_state_dict). A call after its function replaced that method on
	// the receiver (`accelerator.get_state_dict = local_copy`) does not
	// communicate.
	Via string `toml:"via"`
	// LocalIf: the call communicates nothing when this argument is passed
	// a literal True (accelerate's prepare_model(model,
	// evaluation_mode=True) wraps nothing in DDP).
	LocalIf Arg `toml:"local_if"`
	// Requires: the call communicates only when it is passed one of these
	// arguments, with a value other than a literal 1, None or False (a
	// dict display other than one whose "tp_size" is 1): DeepSpeed's
	// init_inference makes its tensor-parallel group only for
	// mp_size=n or tensor_parallel={"tp_size": n}.
	Requires []Arg `toml:"requires"`
	// GradSync: the call wraps a module whose backward synchronises
	// gradients over Group (DistributedDataParallel all-reduces, FSDP
	// reduce-scatters): loss.backward() on a loss computed from the
	// wrapper's forward is a collective every rank must run.
	GradSync bool `toml:"grad_sync"`
	// ForwardSync: the wrapped module's forward communicates too (FSDP
	// all-gathers the parameters it shards): model(x) is a collective.
	ForwardSync bool `toml:"forward_sync"`
	// ForwardSyncUnless: the forward communicates unless the construction
	// passes this argument false (DDP broadcasts the module's buffers in
	// each forward unless broadcast_buffers=False). With it, ForwardSync
	// holds only when no construction of the program passes anything but
	// a literal True there.
	ForwardSyncUnless Arg `toml:"forward_sync_unless"`
	// ShardsGrads: each rank ends the backward holding only its shard of
	// the reduced gradients (FSDP, fairscale's ShardedDataParallel), so a
	// check of "the gradients" on one rank sees that rank's shard only.
	ShardsGrads bool `toml:"shards_grads"`
	// PerKey: the call issues one collective per key of its first
	// argument, a dict (LightningModule.log_dict with sync_dist=True): a
	// dict whose keys differ between ranks makes their counts differ.
	PerKey bool   `toml:"per_key"`
	Doc    string `toml:"doc"`
}

// Spawner is an API that runs a callable on another host thread.
type Spawner struct {
	Name        string `toml:"name"`
	Context     string `toml:"context"` // thread | pool | autograd | background
	Method      bool   `toml:"method"`
	AnyReceiver bool   `toml:"any_receiver"`
	Target      Arg    `toml:"target"` // the callable
	Args        Arg    `toml:"args"`   // the callable's positional arguments (Thread args=)
	Kwargs      Arg    `toml:"kwargs"`
	// State: an argument the callable receives as its first parameter
	// when it runs (register_comm_hook(state, hook) calls hook(state,
	// bucket)).
	State Arg  `toml:"state"`
	Many  bool `toml:"many"` // runs the callable on several threads (pool.map)
	// Decorates: the call makes a decorator that registers the function
	// it decorates to run in this context (a web framework's route:
	// @app.put("/generate")); Target is then unused.
	Decorates bool `toml:"decorates"`
	// SyncOnly: only a plain `def` runs on the spawned threads; an `async
	// def` runs on the caller's event loop (FastAPI's routes).
	SyncOnly  bool   `toml:"sync_only"`
	Group     Arg    `toml:"group"` // the group a background thread communicates on (async_save process_group)
	Framework string `toml:"framework"`
	// Subclass: subclasses of this class run their Method (e.g. run) on the new thread.
	Subclass  bool   `toml:"subclass"`
	RunMethod string `toml:"run_method"`
	// Join: (Go) the method of the same receiver that waits for what was
	// spawned (errgroup.Group.Wait, conc.WaitGroup.Wait).
	Join string `toml:"join"`
	// MultiCommArg / MultiCommValues: for framework constructors whose
	// autograd hooks drive two or more device communicators depending on an
	// argument (FSDP sharding_strategy=HYBRID_SHARD, fully_shard(mesh=2-D)).
	// A value matches the last dotted component of the argument's source
	// text; the value "2d" matches a mesh known to have two or more
	// dimensions.
	MultiCommArg    Arg      `toml:"multi_comm_arg"`
	MultiCommValues []string `toml:"multi_comm_values"`
	// ElsewhereArg / ElsewhereValues: the work runs in another process,
	// not on a thread of this one, when the argument's last dotted
	// component (or string value) is one of the values (dcp.async_save
	// with async_checkpointer_type=AsyncCheckpointerType.PROCESS).
	ElsewhereArg    Arg      `toml:"elsewhere_arg"`
	ElsewhereValues []string `toml:"elsewhere_values"`
	Doc             string   `toml:"doc"`
}

// GroupCreator is an API that creates process groups or communicators.
type GroupCreator struct {
	Name    string `toml:"name"`
	Method  bool   `toml:"method"`
	Backend Arg    `toml:"backend"`
	// BackendIs: the backend of every group the creator makes, when it
	// takes none (the ProcessGroupNCCL constructor).
	BackendIs string `toml:"backend_is"`
	// Plumbing: a package whose own calls of the creator are its
	// plumbing, not groups of their own (torch's c10d builds every group
	// with the ProcessGroupNCCL constructor): when that package is itself
	// analysed, those calls make no group.
	Plumbing string `toml:"plumbing"`
	// Returns: group | groups (tuple/list of groups) | mesh | pair (intra, inter) | comm |
	// world (the name is a constant that denotes the world group: C.MPI_COMM_WORLD) |
	// group_or_tuple (a group, or a tuple whose first element is one: the
	// result's shape changed between versions of the library)
	Returns string `toml:"returns"`
	// Out: (Go/C APIs) the out-parameter that receives the communicator
	// (ncclCommInitRank's ncclComm_t*), when it is not the result.
	Out Arg `toml:"out"`
	// MemberTests: rank predicates (call kind, canonical names) that pick
	// out the group's members: a rank belongs to the group exactly when
	// one of them holds (Megatron's embedding group: the first and the
	// last pipeline stage). A collective on the group under the or of all
	// of them is issued by every member.
	MemberTests []string `toml:"member_tests"`
	// Collective: creating the group is itself collective, so every rank
	// of the default group must make the call, in the same order, members
	// of the new group or not ("world": new_group, init_device_mesh); ""
	// when it is not. Local: the argument that, when true, lets only the
	// members call (new_group's use_local_synchronization).
	Collective string `toml:"collective"`
	Local      Arg    `toml:"local"`
	// Type: the class of the object returned, whose methods communicate
	// on the group (vLLM's get_tp_group() returns a GroupCoordinator);
	// "" for a torch ProcessGroup (or, for a class returning "comm",
	// the class itself).
	Type string `toml:"type"`
	// Members: the argument listing the new group's ranks, which every
	// rank must pass the same (new_group's ranks).
	Members Arg `toml:"members"`
	// Color: the argument every member of the new communicator passes the
	// same value in (Comm.Split's color).
	Color Arg `toml:"color"`
	// Clique: the creator makes the ranks of one communicator in this
	// process, one per device (ncclCommInitAll's array): each is driven
	// by its own thread, so threads on them are not one rank's threads.
	Clique  bool   `toml:"clique"`
	Library string `toml:"library"`
	Doc     string `toml:"doc"`
}

// RankPredicate is an expression that depends on the rank.
type RankPredicate struct {
	Name string `toml:"name"`
	// Kind: call (get_rank()), attr (trainer.is_global_zero, matched on the
	// attribute name), decorator (@rank_zero_only), env (os.environ["RANK"]).
	Kind string `toml:"kind"`
	// Element (calls): the call returns a tuple whose element at this
	// index is the rank (`rank, world_size = get_dist_info()`); nil when
	// the call returns the rank (or a test of it) itself.
	Element *int `toml:"element"`
	// UniformIn: group getters (their canonical names) within whose
	// groups every member gets the same answer (Megatron's pipeline-stage
	// tests are the same for all ranks of a data- or tensor-parallel
	// group): a collective on such a group under this test alone is
	// issued by all of its members or by none.
	UniformIn []string `toml:"uniform_in"`
	// Exact: matched by its qualified name only, not also by its last
	// name on a receiver the analysis cannot resolve (a library whose
	// predicates share names with another's: ColossalAI's
	// is_pipeline_first_stage, whose uniform groups are not Megatron's).
	Exact bool `toml:"exact"`
	// Arg (Go calls): the argument that carries the rank instead of the
	// result: an out-parameter (MPI_Comm_rank's &rank), or the rank a
	// communicator is created for (ncclCommInitRank's rank).
	Arg Arg    `toml:"arg"`
	Doc string `toml:"doc"`
}

// StreamAPI is an API that creates, selects, waits or records streams and events.
type StreamAPI struct {
	Name string `toml:"name"`
	// Role: new_stream | stream_context | set_stream | current_stream |
	// default_stream | wait_stream | wait_event | record_event |
	// record_stream | synchronize | disable_autograd_threads | wait_work |
	// backward (a call that runs the autograd engine: loss.backward(),
	// torch.autograd.grad) | graph_capture (a context manager that
	// captures its block into the CUDA graph Arg: torch.cuda.graph)
	Role   string `toml:"role"`
	Method bool   `toml:"method"`
	// AnyReceiver: match the method on receivers of unknown type too
	// (x.record_stream(s), loss.backward()).
	AnyReceiver bool `toml:"any_receiver"`
	Arg         Arg  `toml:"arg"`
	// Event: (Go/C APIs) the CUDA event argument of record_event and
	// wait_event calls (cudaEventRecord(event, stream),
	// cudaStreamWaitEvent(stream, event, flags)); Arg is the stream.
	Event Arg `toml:"event"`
	// NonBlocking: (new_stream) the argument that, when true, makes the
	// stream non-blocking. Without it the API creates a blocking stream,
	// which CUDA orders with the legacy default stream both ways (CuPy's
	// Stream(non_blocking=False)). Absent: the API's streams are
	// non-blocking (PyTorch creates all its streams so).
	NonBlocking Arg    `toml:"non_blocking"`
	Doc         string `toml:"doc"`
}

// Library is the content of one data file.
type Library struct {
	Library        string           `toml:"library"`
	Modules        []string         `toml:"modules"` // top-level modules it covers
	Collectives    []*Collective    `toml:"collective"`
	Spawners       []*Spawner       `toml:"spawner"`
	GroupCreators  []*GroupCreator  `toml:"group_creator"`
	RankPredicates []*RankPredicate `toml:"rank_predicate"`
	Streams        []*StreamAPI     `toml:"stream"`
	// Aliases map a qualified name to its canonical one
	// (torch.distributed.distributed_c10d.all_reduce -> torch.distributed.all_reduce).
	Aliases map[string]string `toml:"aliases"`
	// Instances map a module-level object to its class
	// (mpi4py.MPI.COMM_WORLD -> mpi4py.MPI.Comm): each method entry of the
	// class is also known through the object (COMM_WORLD.barrier).
	Instances map[string]string `toml:"instances"`
	// Reexports map a package to the modules whose names it re-exports
	// (vllm.distributed re-exports vllm.distributed.parallel_state with a
	// star import): every entry of those modules, and its methods, is
	// also known under the package. A factory can be mapped to the class
	// whose instance it returns the same way (Lightning's
	// Trainer.from_argparse_args to Trainer).
	Reexports map[string][]string `toml:"reexports"`
}

// Tables is the merged knowledge of all libraries, indexed by name.
type Tables struct {
	Libraries      []*Library
	Collectives    map[string]*Collective
	Spawners       map[string]*Spawner
	GroupCreators  map[string]*GroupCreator
	RankPredicates map[string]*RankPredicate
	Streams        map[string]*StreamAPI
	Aliases        map[string]string
	// megatronTails: the last names of Megatron's APIs (megatronTail).
	megatronOnce  sync.Once
	megatronTails map[string]bool
	// MethodNames index method entries by their last name component, for
	// receivers of unknown type.
	MethodNames map[string][]string
	// declared holds every name of Collectives, Spawners, GroupCreators
	// and Streams: the model asks "is this one of ours?" for every
	// external callee, and one lookup is cheaper than four.
	declared map[string]struct{}
	// frameworks are the libraries with framework-kind entries (see
	// FrameworkMethod).
	frameworks map[string]bool
	// wildcards are the method entries named "pkg.*.method": the method
	// of every class of pkg (every torchmetrics metric's compute()).
	wildcards []wildcard
	// MemberGroups are the group creators with MemberTests, by name.
	MemberGroups []*GroupCreator
	// byLastName indexes RankPredicates by kind and last name component
	// ("attr is_global_zero"): the first by full name when several share
	// one.
	byLastName map[string]*RankPredicate
	// methodTails holds the last name component of every declared name,
	// alias and wildcard method (built on first use): a method name not
	// among them has no ClassMethod entry, whatever its class.
	methodTailsOnce sync.Once
	methodTails     map[string]struct{}
	// frameworkTails are the last names of the framework methods, and
	// frameworkClasses memoizes FrameworkClass.
	frameworkTailsOnce sync.Once
	frameworkTails     []string
	frameworkClasses   sync.Map
}

// PredicateByLastName returns the rank predicate of kind whose name ends
// in "."+name (the first by full name when several do), or nil: how a
// predicate is matched on a receiver of unknown type
// (trainer.is_global_zero, comm.Get_rank()).
func (t *Tables) PredicateByLastName(kind, name string) *RankPredicate {
	return t.byLastName[kind+" "+name]
}

// wildcard is a "pkg.*.method" entry split in its parts.
type wildcard struct{ prefix, method, name string }

//go:embed data/*.toml
var dataFS embed.FS

// tablesGob is data/*.toml decoded, normalised and gob-encoded: decoding
// it takes a fifth of the time parsing the TOML does, which every run
// of the command pays at start-up. TestEmbeddedTables fails when it is
// out of date with the TOML files and rewrites it with -update-tables.
//
//go:embed tables.gob
var tablesGob []byte

var (
	defaultOnce   sync.Once
	defaultTables *Tables
	defaultErr    error
)

// Default returns the embedded tables. They are decoded once; callers
// must not modify them (Extend returns a copy).
func Default() *Tables {
	defaultOnce.Do(func() {
		defaultTables, defaultErr = loadEmbedded()
	})
	if defaultErr != nil {
		// The embedded data is part of the binary and covered by tests.
		panic("api: embedded tables are invalid: " + defaultErr.Error())
	}
	return defaultTables
}

func loadEmbedded() (*Tables, error) {
	libs, err := decodeLibraries(tablesGob)
	if err != nil {
		return nil, err
	}
	t := newTables()
	for _, lib := range libs {
		t.add(lib)
	}
	t.reexportAll()
	return t, nil
}

// parseEmbedded parses the embedded TOML files, in file name order: the
// source tablesGob is made from.
func parseEmbedded() ([]*Library, error) {
	entries, err := fs.ReadDir(dataFS, "data")
	if err != nil {
		return nil, err
	}
	var libs []*Library
	for _, e := range entries {
		b, err := dataFS.ReadFile("data/" + e.Name())
		if err != nil {
			return nil, err
		}
		lib, err := Parse(e.Name(), b)
		if err != nil {
			return nil, err
		}
		libs = append(libs, lib)
	}
	return libs, nil
}

// encodeLibraries and decodeLibraries convert parsed libraries to and
// from tablesGob's form. gob sends no zero values, so a pointer to one
// arrives as nil: RankPredicate.Element (where nil and 0 differ) travels
// one up, as 0 for nil.
func encodeLibraries(libs []*Library) ([]byte, error) {
	wire := make([]*Library, len(libs))
	for i, lib := range libs {
		l := *lib
		l.RankPredicates = make([]*RankPredicate, len(lib.RankPredicates))
		for j, p := range lib.RankPredicates {
			q := *p
			if p.Element != nil {
				up := *p.Element + 1
				q.Element = &up
			}
			l.RankPredicates[j] = &q
		}
		wire[i] = &l
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(wire); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeLibraries(b []byte) ([]*Library, error) {
	var libs []*Library
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&libs); err != nil {
		return nil, fmt.Errorf("decoding the embedded tables: %w", err)
	}
	for _, lib := range libs {
		for _, p := range lib.RankPredicates {
			if p.Element != nil {
				*p.Element--
			}
		}
	}
	return libs, nil
}

// reexportAll applies every library's re-exports again once all are
// loaded: a module that re-exports another library's names
// (nanotron.distributed of torch.distributed) may come before it.
func (t *Tables) reexportAll() {
	for _, lib := range t.Libraries {
		for pkg, mods := range lib.Reexports {
			for _, mod := range mods {
				t.reexport(pkg, mod)
			}
		}
	}
}

// EmbeddedModules lists the modules the embedded data files declare (their
// `modules = [...]` lines), without decoding the tables. The Go front end
// runs on every package go vet visits, the standard library included, and
// uses it to skip packages that import no communication library before it
// pays for Default.
func EmbeddedModules() []string {
	modulesOnce.Do(func() {
		entries, _ := fs.ReadDir(dataFS, "data")
		for _, e := range entries {
			b, err := dataFS.ReadFile("data/" + e.Name())
			if err != nil {
				continue
			}
			for _, m := range modulesRE.FindAllSubmatch(b, -1) {
				for _, q := range quotedRE.FindAllSubmatch(m[1], -1) {
					embeddedModules = append(embeddedModules, string(q[1]))
				}
			}
		}
	})
	return embeddedModules
}

var (
	modulesOnce     sync.Once
	embeddedModules []string
	modulesRE       = regexp.MustCompile(`(?m)^modules\s*=\s*\[([^\]]*)\]`)
	quotedRE        = regexp.MustCompile(`"([^"]+)"`)
)

// Parse decodes one library file. Unknown keys are errors, reported with
// the file name and key.
func Parse(name string, data []byte) (*Library, error) {
	var lib Library
	md, err := toml.Decode(string(data), &lib)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%s: unknown keys: %s", name, strings.Join(keys, ", "))
	}
	lib.normalize()
	return &lib, nil
}

// normalize marks arguments that the file did not mention as absent: Go's
// zero Arg would otherwise mean "position 0".
func (l *Library) normalize() {
	fix := func(a *Arg) {
		if a.Pos == 0 && a.Name == "" && !a.set {
			a.Pos = -1
		}
	}
	for _, c := range l.Collectives {
		fix(&c.Group)
		fix(&c.Async)
		fix(&c.Sync)
		fix(&c.Stream)
		fix(&c.Request)
		fix(&c.ThreadLevel)
		fix(&c.OnlyIf)
		fix(&c.ResumeFrom)
		fix(&c.Unless)
		fix(&c.LocalIf)
		fix(&c.RankArg)
		fix(&c.ForwardSyncUnless)
		fix(&c.Peer)
		fix(&c.Root)
		fix(&c.ElementGroup)
	}
	for _, s := range l.Spawners {
		fix(&s.Target)
		fix(&s.Args)
		fix(&s.Kwargs)
		fix(&s.State)
		fix(&s.Group)
		fix(&s.MultiCommArg)
		fix(&s.ElsewhereArg)
	}
	for _, g := range l.GroupCreators {
		fix(&g.Backend)
		fix(&g.Out)
		fix(&g.Local)
		fix(&g.Members)
		fix(&g.Color)
	}
	for _, r := range l.RankPredicates {
		fix(&r.Arg)
	}
	for _, s := range l.Streams {
		fix(&s.Arg)
		fix(&s.Event)
		fix(&s.NonBlocking)
	}
}

func newTables() *Tables {
	return &Tables{
		Collectives:    map[string]*Collective{},
		Spawners:       map[string]*Spawner{},
		GroupCreators:  map[string]*GroupCreator{},
		RankPredicates: map[string]*RankPredicate{},
		Streams:        map[string]*StreamAPI{},
		Aliases:        map[string]string{},
		MethodNames:    map[string][]string{},
		declared:       map[string]struct{}{},
		frameworks:     map[string]bool{},
		byLastName:     map[string]*RankPredicate{},
	}
}

func (t *Tables) add(lib *Library) {
	t.Libraries = append(t.Libraries, lib)
	for _, c := range lib.Collectives {
		if c.Library == "" {
			c.Library = lib.Library
		}
		t.Collectives[c.Name] = c
		t.declared[c.Name] = struct{}{}
		if c.Kind == "framework" {
			t.frameworks[c.Library] = true
		}
		if c.Method {
			t.indexMethod(c.Name)
		}
	}
	for _, s := range lib.Spawners {
		t.Spawners[s.Name] = s
		t.declared[s.Name] = struct{}{}
		if s.Method {
			t.indexMethod(s.Name)
		}
	}
	for _, g := range lib.GroupCreators {
		if g.Library == "" {
			g.Library = lib.Library
		}
		t.GroupCreators[g.Name] = g
		t.declared[g.Name] = struct{}{}
		if g.Method {
			t.indexMethod(g.Name)
		}
		if len(g.MemberTests) > 0 {
			t.MemberGroups = slices.DeleteFunc(t.MemberGroups, func(h *GroupCreator) bool { return h.Name == g.Name })
			t.MemberGroups = append(t.MemberGroups, g)
			slices.SortFunc(t.MemberGroups, func(a, b *GroupCreator) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	for _, r := range lib.RankPredicates {
		t.RankPredicates[r.Name] = r
		if r.Exact {
			continue
		}
		k := r.Kind + " " + r.Name[strings.LastIndexByte(r.Name, '.')+1:]
		if prev := t.byLastName[k]; prev == nil || prev.Name == r.Name || r.Name < prev.Name {
			t.byLastName[k] = r
		}
	}
	for _, s := range lib.Streams {
		t.Streams[s.Name] = s
		t.declared[s.Name] = struct{}{}
		if s.Method {
			t.indexMethod(s.Name)
		}
	}
	for k, v := range lib.Aliases {
		t.Aliases[k] = v
	}
	for pkg, mods := range lib.Reexports {
		for _, mod := range mods {
			t.reexport(pkg, mod)
		}
	}
	for obj, class := range lib.Instances {
		prefix := class + "."
		for _, names := range [][]string{keys(t.Collectives), keys(t.Streams), keys(t.Spawners), keys(t.GroupCreators)} {
			for _, name := range names {
				if m, ok := strings.CutPrefix(name, prefix); ok && !strings.Contains(m, ".") {
					if _, taken := t.Aliases[obj+"."+m]; !taken {
						t.Aliases[obj+"."+m] = name
					}
				}
			}
		}
	}
}

// reexport makes every name of the tables under module mod known under
// package pkg too (pkg.get_tp_group for mod.get_tp_group), unless pkg
// already has an entry or alias of that name.
func (t *Tables) reexport(pkg, mod string) {
	prefix := mod + "."
	alias := func(name string) {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			return
		}
		a := pkg + "." + rest
		if _, taken := t.Aliases[a]; taken || t.Declares(a) || t.RankPredicates[a] != nil {
			return
		}
		t.Aliases[a] = name
	}
	for _, names := range [][]string{keys(t.Collectives), keys(t.Streams), keys(t.Spawners), keys(t.GroupCreators), keys(t.RankPredicates)} {
		for _, name := range names {
			alias(name)
		}
	}
}

// keys lists a table's names.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func (t *Tables) indexMethod(name string) {
	if i := strings.Index(name, ".*."); i > 0 {
		t.wildcards = append(t.wildcards, wildcard{prefix: name[:i+1], method: name[i+3:], name: name})
		return
	}
	i := strings.LastIndexByte(name, '.')
	m := name[i+1:]
	t.MethodNames[m] = append(t.MethodNames[m], name)
	sort.Strings(t.MethodNames[m])
}

// Covers reports whether a Python module is one of the libraries' modules
// or inside one (torch.distributed, torch.distributed.fsdp).
func (t *Tables) Covers(module string) bool {
	for _, l := range t.Libraries {
		for _, m := range l.Modules {
			if module == m || strings.HasPrefix(module, m) && module[len(m)] == '.' {
				return true
			}
		}
	}
	return false
}

// Declares reports whether name is a collective, spawner, group creator
// or stream API of the tables.
func (t *Tables) Declares(name string) bool {
	_, ok := t.declared[name]
	return ok
}

// FrameworkMethod reports whether name is a collective of a training
// framework's library (one with framework-kind entries: Lightning,
// DeepSpeed, accelerate, transformers…), as opposed to communicators,
// groups, streams and tensors.
func (t *Tables) FrameworkMethod(name string) bool {
	c := t.Collectives[name]
	return c != nil && t.frameworks[c.Library]
}

// FrameworkClass reports whether cls (qualified) is a class of a
// training framework whose methods the tables describe as framework
// collectives (a Lightning Trainer, an Accelerator, a DeepSpeed engine),
// under any of its names.
func (t *Tables) FrameworkClass(cls string) bool {
	if v, ok := t.frameworkClasses.Load(cls); ok {
		return v.(bool)
	}
	t.frameworkTailsOnce.Do(func() {
		seen := map[string]bool{}
		for name, c := range t.Collectives {
			if c.Method && t.frameworks[c.Library] {
				if m := name[strings.LastIndexByte(name, '.')+1:]; !seen[m] {
					seen[m] = true
					t.frameworkTails = append(t.frameworkTails, m)
				}
			}
		}
		sort.Strings(t.frameworkTails)
	})
	found := false
	for _, m := range t.frameworkTails {
		if t.FrameworkMethod(t.Canonical(cls + "." + m)) {
			found = true
			break
		}
	}
	t.frameworkClasses.Store(cls, found)
	return found
}

// ClassMethod returns the entry for method m of an instance of the
// external class cls (qualified): the entry cls.m (after aliases), or a
// "pkg.*.m" entry whose package holds cls; "" when there is none.
func (t *Tables) ClassMethod(cls, m string) string {
	t.methodTailsOnce.Do(t.indexMethodTails)
	if _, ok := t.methodTails[m]; !ok {
		return ""
	}
	name := t.Canonical(cls + "." + m)
	if t.Declares(name) {
		return name
	}
	for _, w := range t.wildcards {
		if w.method == m && strings.HasPrefix(cls, w.prefix) {
			return w.name
		}
	}
	return ""
}

func (t *Tables) indexMethodTails() {
	t.methodTails = map[string]struct{}{}
	tail := func(name string) {
		t.methodTails[name[strings.LastIndexByte(name, '.')+1:]] = struct{}{}
	}
	for name := range t.declared {
		tail(name)
	}
	for name := range t.Aliases {
		tail(name)
	}
	for _, w := range t.wildcards {
		t.methodTails[w.method] = struct{}{}
	}
}

// Canonical maps an alias to its canonical qualified name.
func (t *Tables) Canonical(name string) string {
	if c, ok := t.Aliases[name]; ok {
		return c
	}
	// A project's vendored copy of Megatron (CodeGeeX's
	// codegeex.megatron.mpu, imported from files the analysis does not
	// have): Megatron's names under the project's prefix. (Canonical is
	// hot: the last name is tested first against Megatron's own.)
	if j := strings.LastIndexByte(name, '.'); j > 0 && t.megatronTail(name[j+1:]) {
		for _, v := range vendoredMegatron {
			if i := strings.Index(name, v); i > 0 {
				return t.Canonical(name[i+1:])
			}
		}
	}
	return name
}

// megatronTail reports the last name of one of Megatron's APIs in the
// tables (get_tensor_model_parallel_rank).
func (t *Tables) megatronTail(tail string) bool {
	t.megatronOnce.Do(func() {
		t.megatronTails = map[string]bool{}
		add := func(name string) {
			if strings.HasPrefix(name, "megatron.") {
				t.megatronTails[name[strings.LastIndexByte(name, '.')+1:]] = true
			}
		}
		for n := range t.Collectives {
			add(n)
		}
		for n := range t.GroupCreators {
			add(n)
		}
		for n := range t.RankPredicates {
			add(n)
		}
		for n, c := range t.Aliases {
			add(n)
			add(c)
		}
	})
	return t.megatronTails[tail]
}

// vendoredMegatron are the parts of Megatron's module path a vendored
// copy keeps below its own package.
var vendoredMegatron = []string{".megatron.mpu.", ".megatron.core."}

// Extend returns a copy of t with the extra libraries added (user config).
func (t *Tables) Extend(libs ...*Library) *Tables {
	n := newTables()
	for _, l := range t.Libraries {
		n.add(l)
	}
	for _, l := range libs {
		n.add(l)
	}
	n.reexportAll()
	return n
}
