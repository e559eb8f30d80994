package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Language is the source language of a file or function.
type Language string

const (
	Python Language = "python"
	Go     Language = "go"
)

// Pos is a source range. Lines and columns are 1-based; columns are UTF-8
// byte offsets plus one. EndLine/EndCol may be zero when unknown.
type Pos struct {
	Path    string
	Line    int
	Col     int
	EndLine int
	EndCol  int
}

// IsValid reports whether p names a location.
func (p Pos) IsValid() bool { return p.Path != "" && p.Line > 0 }

// String formats p as path:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Col) }

// Short formats p as path:line, the form used in value IDs
// ("new_group@train.py:12").
func (p Pos) Short() string { return fmt.Sprintf("%s:%d", p.Path, p.Line) }

// Program is everything one analysis run knows.
type Program struct {
	Files    []*File
	Funcs    []*Function
	Contexts []*Context
	Sites    []*Site
	Groups   []*Group
	Streams  []*Stream
	Works    []*Work
	Branches []*RankBranch
	// Exchanges are blocking sends followed by blocking receives that
	// every rank runs alike (CV302).
	Exchanges []*Exchange
	// GraphDestroys are process groups destroyed while a CUDA graph that
	// captured collectives is still alive (CV402).
	GraphDestroys []*GraphDestroy
	// DeviceBindings are process groups created on a device backend
	// before the rank's device is bound (CV403).
	DeviceBindings []*DeviceBinding
	// RankRoots are rooted collectives on the default group whose root
	// argument differs between ranks (CV303).
	RankRoots []*RankRoot
	// Bypasses are backward passes on a loss computed by the module a
	// DistributedDataParallel wraps, not by the wrapper (CV304).
	Bypasses []*Bypass
	// GradReads are reads of the gradients that Horovod's
	// DistributedOptimizer is still all-reducing (CV401).
	GradReads []*GradRead
	Facts     Facts
}

// Bypass is a backward (Backward) on a loss that comes from a call of the
// module inside a DistributedDataParallel wrapper (Forward, whose callee
// is Callee: `ddp.module(x)`, `ddp.module.encode(x)`) in a function where
// no forward of the wrapper feeds a backward and nothing all-reduces
// gradients by hand: DDP arms its gradient all-reduce in its own forward
// only, so this backward's gradients stay the rank's own.
type Bypass struct {
	Func     *Function
	Backward Pos
	Forward  Pos
	Callee   string // the bypassing callee's source text
	Wrapper  string // the wrapper's source text (`ddp`, `self.model`; "" when the module was reached another way)
	// Direct: Callee is the wrapped module itself (`ddp.module`), so
	// calling the wrapper (`ddp(...)`) runs the same forward through DDP.
	Direct bool
	// Discarded: where the function rebinds the wrapper's name to its
	// module (`model = model.module`), throwing the wrapper away; nil
	// when it does not.
	Discarded *Pos
	// WrappedAt: where the function wrapped the module under the name
	// Wrapper, while the forward calls it by its own (`ddp = DDP(model)`,
	// then `model(x)`); nil otherwise.
	WrappedAt *Pos
	// Engine: the forward is the DeepSpeed engine's own (`engine(x)`,
	// Wrapper the engine's name), and the backward is the loss's
	// (`loss.backward()`), not the engine's (`engine.backward(loss)`),
	// which alone reduces the gradients; Loss is the loss's source text.
	Engine bool
	Loss   string
	// TrainerHook: the forward is in an override of a trainer's method
	// that is handed the wrapped model (transformers.Trainer.compute_loss
	// gets `model`, the DistributedDataParallel wrapper under a
	// multi-process launch) and calls the trainer's unwrapped self.model
	// instead; the framework runs the backward (Backward is the forward's
	// position).
	TrainerHook string
}

// GradRead is a call that reads or rescales the gradients (clip_grad_norm_,
// a GradScaler's unscale_) after a backward and before the step of a
// Horovod DistributedOptimizer, with no synchronize() of that optimizer
// in between. Its backward hooks start an asynchronous all-reduce of
// each gradient as it is produced, and only synchronize() (which step()
// calls) waits for them: the read races the all-reduce writing the same
// tensors.
type GradRead struct {
	Func      *Function
	Read      Pos
	ReadText  string // the read's callee as written (torch.nn.utils.clip_grad_norm_)
	Backward  Pos
	Step      Pos
	Optimizer string // the optimizer's source text (self.optimizer)
	// LateSync is the optimizer's synchronize() that comes after the read
	// and before the step (run under skip_synchronize()): it waits, but
	// too late for the read. Zero when the step itself waits.
	LateSync Pos
	// LateSyncAlone: that synchronize() is a statement on a line of its
	// own, which the fix can move above the read.
	LateSyncAlone bool
	// StmtLine and Indent place the fix (`opt.synchronize()` before the
	// read's statement).
	StmtLine int
	Indent   string
}

// DeviceBinding is init_process_group on a device backend, without
// device_id, followed in the same function by a set_device (Bind), with
// a collective (Between) between the two, or on oneCCL ("xccl"), which
// binds the device at creation (O6).
type DeviceBinding struct {
	Func     *Function
	Init     *Site
	Backend  string
	Bind     Pos
	BindText string // the set_device call's source text
	Between  *Site  // the first collective between the two (nil: none)
	// Movable: the set_device call's argument is computed before the
	// init, so the call can move up; StmtLine and Indent locate the
	// init's statement.
	Movable  bool
	StmtLine int
	Indent   string
}

// RankRoot is a rooted collective (broadcast, reduce, gather, scatter and
// their object forms) on the default group whose root argument depends on
// the rank: each rank names a different root.
type RankRoot struct {
	Func  *Function
	Site  *Site
	Arg   Pos    // the root argument
	Text  string // its source text
	Param string // the parameter it is passed as (src, dst, root)
	// Arm, when set, is the rank test in one of whose arms the root is
	// the calling rank's own (`else:` of `if rank == 0:`): that arm runs
	// on every rank but a few, each naming itself.
	Arm string
	// LocalZero: Arm is a test of the local rank, and Arg (Param) is the
	// root-only list of a gather or scatter with a constant root: local
	// rank 0 of every node but the first passes it and raises.
	LocalZero bool
	// EveryRank: Arg (Param) is the root-only list of a gather or
	// scatter, given on every rank; all but the root raise.
	EveryRank bool
}

// GraphDestroy is a destroy_process_group call reached while the CUDA
// graph Graph, which captured collectives at Capture, has been neither
// reset nor deleted (O1).
type GraphDestroy struct {
	Func    *Function
	Destroy *Site
	Graph   string // the graph's variable or attribute path
	Capture Pos    // the `with torch.cuda.graph(g):` call
	// StmtLine and Indent locate the destroy's statement, for the fix.
	StmtLine int
	Indent   string
}

// Exchange is a blocking send followed, in the same block, by a blocking
// receive, with peers computed from the rank and no rank-dependent branch
// splitting them: every rank runs the send first, so each waits in it for
// a peer that is itself waiting in its own send (O5).
type Exchange struct {
	Func       *Function
	Send, Recv *Site
	// SendPeer, RecvPeer: the source text of the peer arguments.
	SendPeer, RecvPeer string
	// RecvFirst: instead, one batch_isend_irecv (Send and Recv are that
	// call) whose list holds a receive before a send, on a backend that
	// runs a batch in list order (oneCCL, "xccl"); SendAt and RecvAt are
	// the two list entries (O3).
	RecvFirst      bool
	SendAt, RecvAt Pos
}

// File is one analysed source file. Src is the decoded text (UTF-8) that
// positions refer to; rules use it to build fixes, drivers to apply them and
// to read suppression comments.
type File struct {
	Path string
	Lang Language
	Src  []byte
}

// Function is a call-graph node.
type Function struct {
	ID     int
	Name   string // qualified: pkg.mod.Class.method, pkg.mod.<lambda>@12, pkg.mod (module body)
	Lang   Language
	Pos    Pos
	Calls  []*Call
	Sites  []*Site  // collective sites directly in this function
	Events []*Event // program-ordered events for the flow rules (CV202, CV203, CV401)
	// ModuleBody: the function is a module's own statements, which run
	// once, when the module is first imported.
	ModuleBody bool
	// Script: a module body that runs as a program of its own (it tests
	// __name__ == "__main__", or is a package's __main__.py). Two scripts
	// run in two processes unless one imports the other (Facts.Imports).
	Script bool
	// MainBlock: for a module body, the first and last lines of its
	// `if __name__ == "__main__":` block (0, 0 for none): code there
	// runs only when the module is the program, not when another module
	// imports it.
	MainBlock [2]int
	// Process: the function is the entry of a process that a launcher of
	// the program starts (multiprocessing.Process(target=f), mp.spawn(f)):
	// its code runs in that new process, not in the launcher's.
	Process bool
	// Forwarder: a __call__ that hands the call on to whatever it wraps
	// (it takes *args or **kwargs, defines a wrapper, or dispatches by a
	// computed getattr name): its summary is every wrapped function's.
	Forwarder bool
}

// Call is a resolved call edge. Exactly one of Callee and External is set.
type Call struct {
	Caller   *Function
	Callee   *Function
	External string // fully qualified external symbol, e.g. torch.distributed.all_reduce
	Pos      Pos
	// Ref is the front end's own handle on the call, for its model
	// builder (the Python front end: its call site's index, plus one);
	// 0 when it has none. The rules do not read it.
	Ref int32
}

// ContextKind classifies where code runs.
type ContextKind string

const (
	Main       ContextKind = "main"
	Thread     ContextKind = "thread"     // threading.Thread target / subclass run, Timer
	Pool       ContextKind = "pool"       // executor submit/map, ThreadPool, asyncio.to_thread, run_in_executor
	Autograd   ContextKind = "autograd"   // tensor/module backward hooks, Function.backward, comm hooks
	Background ContextKind = "background" // library threads (dcp.async_save)
	// Signal: a signal.signal handler. Python runs it on the main thread,
	// between two bytecodes of whatever the main thread is doing when the
	// signal arrives, which is a different point on each rank.
	Signal    ContextKind = "signal"
	Goroutine ContextKind = "goroutine" // Go
)

// Context is a host thread (or set of threads) that runs code.
type Context struct {
	ID       int
	Kind     ContextKind
	Entry    *Function // function the context starts in (nil for main)
	Spawn    Pos       // spawn or hook-registration site (zero for main)
	SpawnAPI string    // e.g. threading.Thread, torch.Tensor.register_hook
	Parent   *Context  // the context that spawned this one (nil for main)
	Many     bool      // multiplicity many: spawned in a loop, a pool with several workers
	// Joined: the spawner waits for the context right after starting it
	// (t.start(); t.join() with nothing between, executor.submit(f).result()),
	// so it never runs at the same time as the spawner's later code.
	Joined bool
	// SingleThreadedAutograd: for Autograd contexts, autograd
	// multithreading is disabled for the backward that runs it
	// (torch.autograd.set_multithreading_enabled(False) as a call or a
	// context manager around the backward call): the callback runs on the
	// thread that called backward.
	SingleThreadedAutograd bool
	// Framework: the hook belongs to a framework that orders its own
	// communication (DDP's reducer, FSDP); rules treat it as
	// configuration, not user code.
	Framework string
	// SpawnFunc is the function whose call starts a library background
	// thread (dcp.async_save), and Drained, when set, the call in it that
	// first waits for the previous such work: collectives SpawnFunc issues
	// between Drained and Spawn run while no such work is in flight.
	SpawnFunc *Function
	Drained   *Pos
	// Serial: background work started only after the previous one of the
	// same key has been waited for (a checkpointer that waits for its
	// last async_save's future before starting the next), or tasks of one
	// pool with a single worker, which runs them one after another:
	// contexts with the same non-empty Serial never run at the same time.
	Serial string
	// After: a done-callback (fut.add_done_callback(cb), fut.then(cb))
	// of the future that this other context's work completes: it starts
	// only once that work has finished, so the two never overlap.
	After *Context
	// Group is the process group a library background thread uses
	// (dcp.async_save's process_group), when known.
	Group *Group
	// Groups: for Framework contexts, the communicators the framework's
	// hooks drive (the intra-/inter-node pair of FSDP HYBRID_SHARD).
	Groups []*Group
	// GroupChoice: Groups are the alternatives of one group argument
	// (`process_group=intra if cfg.local else WORLD`, made once, not in a
	// loop): the hooks drive one of them, chosen by the configuration.
	GroupChoice bool
	// LockedOSThread: (Go) the goroutine calls runtime.LockOSThread before
	// any collective.
	LockedOSThread bool
	// UnlockedAt: (Go) the goroutine's function locked its OS thread and
	// then undid the lock with a plain runtime.UnlockOSThread call here,
	// before communicating again (LockedOSThread is false).
	UnlockedAt Pos
	// JoinedAt: where the spawner waits for the thread to end, later in
	// the block that starts it (`t = Thread(…); t.start(); … ; t.join()`),
	// with work between (else Joined); zero when it does not. The
	// spawner's code after it runs when the thread is done.
	JoinedAt Pos
	// SpawnIn is the function whose code holds the spawn site, when the
	// front end knows it: the context runs in whatever process runs that
	// function.
	SpawnIn *Function
	// Instead, when the spawn sits in one arm of an if whose test reads
	// only the instance's settings (`if self.use_thread: pool.submit(f)
	// else: f()`), lists the other arm's extent in SpawnIn, and the arms
	// of the class's other ifs that contradict the test (`if
	// self.send_type == "PUT":` where the spawn is under `== "PUT_ASYNC"`):
	// what runs there runs instead of the spawn, never beside it.
	Instead []Extent
	// DefaultBackend: the default group's backend wherever the context
	// exists, when its spawn runs only under a test of it (`if
	// dist.get_backend() == "gloo": pool.apply_async(work)`): the default
	// group and the groups that inherit its backend are that backend's
	// in every run that starts the context. "" when not known.
	DefaultBackend string
}

// Extent is a range of lines of one file.
type Extent struct {
	Path       string
	Start, End int
}

// Contains reports whether p lies within e.
func (e *Extent) Contains(p Pos) bool {
	return e != nil && p.Path == e.Path && e.Start <= p.Line && p.Line <= e.End
}

// Label describes c for messages: "the main thread", "thread started at x.py:12".
func (c *Context) Label() string {
	switch c.Kind {
	case Main:
		return "the main thread"
	case Thread:
		return "a thread started at " + c.Spawn.Short()
	case Pool:
		return "a pool worker submitted at " + c.Spawn.Short()
	case Autograd:
		return "an autograd engine thread (hook registered at " + c.Spawn.Short() + ")"
	case Background:
		return "a library background thread started at " + c.Spawn.Short()
	case Signal:
		return "a signal handler installed at " + c.Spawn.Short()
	case Goroutine:
		return "a goroutine started at " + c.Spawn.Short()
	}
	return string(c.Kind)
}

// OpKind classifies what a Site does.
type OpKind string

const (
	OpCollective  OpKind = "collective"   // all_reduce, broadcast, all_gather, …
	OpP2P         OpKind = "p2p"          // send/recv/isend/irecv/batch_isend_irecv
	OpObject      OpKind = "object"       // *_object collectives (pickle + collective)
	OpBarrier     OpKind = "barrier"      // barrier, monitored_barrier
	OpGroupCreate OpKind = "group_create" // new_group, init_device_mesh, DDP ctor …: collective creation
	OpFramework   OpKind = "framework"    // a framework call that is collective inside (save_checkpoint, gather_for_metrics)
	OpInit        OpKind = "init"         // init_process_group, MPI_Init, ncclCommInitRank
	OpOther       OpKind = "other"        // other device/communicator calls (Go: cudaSetDevice, ncclGroupStart)
)

// Site is a call that communicates.
type Site struct {
	ID      int
	Func    *Function
	Pos     Pos    // the call expression
	API     string // fully qualified API symbol, or the user wrapper's name
	Op      string // all_reduce, barrier, send, …
	Kind    OpKind
	Library string // torch, deepspeed, lightning, accelerate, mpi4py, cupy, jax, nccl, mpi, …
	Group   *Group // never nil: Unknown group when not known
	// Groups lists every group the site may use when the analysis found
	// more than one (Group is then the first); nil otherwise. Reach.Group
	// tells which one each call chain passes.
	Groups []*Group
	// GroupText is the source text of the group argument ("" when
	// omitted or unknown).
	GroupText string
	Stream    *Stream // explicit stream argument or enclosing stream context; nil = current stream
	Async     bool
	// AsyncWhen: the site's async flag is a parameter of its function
	// (async_op=async_op), and this call of the function passes True or
	// a value read from the configuration; or the flag is such a value at
	// the site itself, whose handle is discarded (AsyncWhen is then the
	// site's own position).
	AsyncWhen *Pos
	// AsyncFlag is the source text of that configuration value
	// (config.async_communication); "" when the flag passed is True.
	AsyncFlag string
	Work      *Work // the handle it returns, when Async
	// WithEnd: the call is the context manager of a with statement
	// (_coalescing_manager(…) as cm) that ends at this line; its work
	// exists after the block. 0 otherwise.
	WithEnd int
	// OpaqueSequence: a framework call whose collectives inside the
	// tables do not spell out (Megatron's save_checkpoint): a sequence
	// holding it cannot be compared op by op with another that
	// communicates.
	OpaqueSequence bool
	// NameMatched: ranks match the op by name, not by issue order
	// (Horovod), so the thread that issues it does not matter.
	NameMatched bool
	// Lazy: the call records the op into a lazy graph that the thread
	// running the graph launches (PyTorch/XLA): the thread that records
	// it does not matter; the order and presence of ops on each rank do.
	Lazy bool
	// Offloaded: the call hands its collectives to a thread or process
	// that the library runs (dcp.async_save); the calling thread issues
	// none of them itself.
	Offloaded bool
	// SubsetWorld: an init_process_group sized to the members of a list
	// that its function tests the rank's membership in (`if rank not in
	// ranks: return` … world_size=len(ranks)): the default group it makes
	// holds those ranks only, so a membership test is that group's.
	SubsetWorld bool
	// InitIfNeeded: an init_process_group in a function that asks whether
	// the default group exists yet (`if not dist.is_initialized():`, a
	// lazy accessor): the ranks that reach it may all be in the job
	// already, so it says nothing about who joined.
	InitIfNeeded bool
	// Inputs and Outputs name the abstract tensors the call reads and
	// writes (variable or attribute paths, e.g. "shard", "self.buf"), as
	// far as the front end knows them.
	Inputs  []string
	Outputs []string
	// Wrapper is set when the site is a call of a user function inferred
	// (or declared in config) to be a collective; Via is the inner site.
	Wrapper bool
	Via     *Site
	// Reach lists the contexts that can run this site, each with one call
	// chain from the context's entry to the site (outermost call first).
	Reach []*Reach
}

// Reach is one context reaching a site, with one witnessing call chain.
type Reach struct {
	Ctx   *Context
	Chain []*Call
	// Group is the group the site uses along this chain, when the front
	// end can tell (a group passed down through parameters from the
	// spawn: Thread(target=worker, args=(pg_a,))); nil means Site.Group.
	Group *Group
}

// GroupKind classifies a Group.
type GroupKind string

const (
	GroupWorld   GroupKind = "world"   // default group: omitted, None, group.WORLD
	GroupAlloc   GroupKind = "alloc"   // an allocation site
	GroupUnknown GroupKind = "unknown" // not known statically
)

// Group is an abstract process group or communicator.
type Group struct {
	ID      string // "WORLD", "new_group@train.py:12", "mesh@train.py:9[dp]", "unknown"
	Kind    GroupKind
	API     string // creating API (torch.distributed.new_group, ncclCommInitRank …)
	Backend string // "nccl", "gloo", "mpi", "rpc" (the RPC agent's), or "" when unknown
	Pos     Pos    // allocation site (zero for WORLD/unknown)
	// PerIteration: the allocation runs in a loop or comprehension, or on
	// a thread started several times, so the one abstract group stands
	// for several runtime groups (one per thread, often: `comms =
	// [world.Dup() for _ in threads]`, or `comm = world.Dup()` in the
	// thread's own function).
	PerIteration bool
	// Clique: the runtime groups PerIteration stands for are the ranks of
	// one communicator, one per thread (each goroutine calls
	// ncclCommInitRank with the unique id they share: NCCL's one device
	// per thread), not several communicators.
	Clique bool
	// Color: for a communicator split by a color (mpi4py's
	// Comm.Split(color, key)), the color argument, as ast.Dump prints it
	// (positions aside). Every member passes the same value there, so a
	// test that depends on the rank only through it is true on all
	// members or on none (RankBranch.RankViaKeys).
	Color string
	// Sole: the allocation's member list is a literal naming one rank
	// (new_group([0])): that rank as written. Its one member is the only
	// rank that can use the group, so a test `rank == 0` guarding its
	// collectives is the group's membership (RankBranch.RankIs).
	Sole string
	// FromRank: the allocation's member list is every rank from K on
	// (new_group(ranks=range(1, world_size))): K as written. A test that
	// picks out exactly those ranks (`rank != 0`, `rank >= K`,
	// RankBranch.RankFrom) guarding its collectives is the membership.
	FromRank string
	// BelowRank: the allocation's member list is every rank below K
	// (new_group(ranks=list(range(num_gpus)))): K as ast.Dump prints it.
	// A test that picks out exactly those ranks (`rank < K`,
	// RankBranch.RankBelow) guarding its collectives is the membership.
	BelowRank string
	// Stride: the allocation's member list is every L-th rank from 0
	// (new_group([i for i in range(0, world_size, L)]), one head rank per
	// node): L as ast.Dump prints it. A test that picks out exactly those
	// ranks (`rank % L == 0`, RankBranch.RankStride) is the membership.
	Stride string
}

// IsDevice reports whether the group may drive a device communicator (its
// backend is NCCL/RCCL/unknown, not gloo-only, not an MPI communicator,
// which is a host-side object: a communicator per thread is MPI's own
// recommendation, and not the RPC agent's workers).
func (g *Group) IsDevice() bool {
	return g != nil && g.Backend != "gloo" && g.Backend != "mpi" && g.Backend != "rpc"
}

// ParallelDim returns the parallel dimension of a training job (tp, pp,
// dp, cp, ep, sp) that a word of a name names (tensor, pipeline, pipe,
// data, context, expert, sequence, or the short forms), or "": group
// and rank names say which dimension they belong to.
func ParallelDim(word string) string { return parallelDims[word] }

// RankNameDim returns the parallel dimension of a name of a rank in one
// dimension's group, `<dim>_rank` or `<dim>_parallel_rank` (ep_rank,
// tp_rank, expert_parallel_rank, data_parallel_rank), or "".
func RankNameDim(name string) string {
	prefix, ok := strings.CutSuffix(name, "_rank")
	if !ok {
		return ""
	}
	return ParallelDim(strings.TrimSuffix(prefix, "_parallel"))
}

var parallelDims = map[string]string{
	"tp": "tp", "tensor": "tp", "pp": "pp", "pipeline": "pp", "pipe": "pp", "dp": "dp", "data": "dp",
	"cp": "cp", "context": "cp", "ep": "ep", "expert": "ep", "sp": "sp", "sequence": "sp",
}

// InheritsDefault reports a group whose backend is the default group's:
// the default group itself, and torch.distributed.new_group called
// without a backend (it takes the default group's).
func (g *Group) InheritsDefault() bool {
	return g != nil && (g.Kind == GroupWorld ||
		g.Kind == GroupAlloc && g.Backend == "" && strings.HasPrefix(g.API, "torch.distributed.") && strings.HasSuffix(g.API, ".new_group"))
}

// IsDeviceIn is IsDevice for a group used by context c: a group that
// inherits the default backend is on c's DefaultBackend when c has one.
func (g *Group) IsDeviceIn(c *Context) bool {
	if c != nil && c.DefaultBackend != "" && g.InheritsDefault() {
		b := c.DefaultBackend
		return b != "gloo" && b != "mpi"
	}
	return g.IsDevice()
}

// InMainBlock reports whether line lies in the __main__ block of module
// body f (MainBlock).
func (f *Function) InMainBlock(line int) bool {
	return f != nil && f.ModuleBody && f.MainBlock[0] > 0 && line >= f.MainBlock[0] && line <= f.MainBlock[1]
}

// Stream is an abstract CUDA stream.
type Stream struct {
	ID      string // "default", "current", "stream@train.py:7"
	Pos     Pos
	Default bool
	// Blocking: a stream created blocking (CuPy's default): CUDA orders
	// its work with the legacy default stream's, both ways, with no
	// explicit wait. PyTorch's streams are all non-blocking.
	Blocking bool
	// Alts: the stream is one of these, chosen at run time (a local
	// bound to different streams on the two arms of an if); nil entries
	// are the current stream.
	Alts []*Stream
}

// Work is an async work handle (or MPI request) and what happens to it.
type Work struct {
	Site      *Site
	Var       string // the variable or attribute holding it, "" if discarded
	Discarded bool   // the result was never bound (expression statement, `_`)
	Waited    []Pos  // wait()/Wait()/is_completed loops that consume it
	// Escapes: the handle leaves the function (returned, stored in a
	// container or attribute, passed to a call) — waiting is someone else's
	// job, so CV401 stays silent.
	Escapes bool
	// Overwritten is where the variable is rebound before any wait.
	Overwritten *Pos
	// UnwaitedExit is a function exit reachable without a wait, when known.
	UnwaitedExit *Pos
	// Via is the call of a program function that handed the handle back
	// to its caller (`out, h = all_gather_async(x, async_op=True)`), and
	// ViaFunc that function's name; nil for the collective's own call.
	// Var, Waited and the rest then describe the caller's side.
	Via     *Pos
	ViaFunc string
	// ViaFiled: the function did not return the handle but filed it in a
	// list the caller passed (`launch(ops, reqs)` doing
	// `reqs.extend(dist.batch_isend_irecv(ops))`).
	ViaFiled bool
	// Container is the variable of the list or dict the handle was filed
	// in (works[i] = collective(async_op=True)), "" otherwise.
	Container string
	// ListStmt: the handle is one of a list that this statement builds
	// (reqs = [dist.broadcast(p, async_op=True) for p in ps]); Var holds
	// the list, and waiting each element waits it. nil otherwise.
	ListStmt *Pos
}

// RankBranch is a branch on a rank-dependent condition.
type RankBranch struct {
	Func  *Function
	Guard Pos    // the condition (the if / while / decorator / early return)
	Cond  string // source text of the condition, for messages
	// Under, for an exit inside a rank test's arm: that rank test (the
	// reason only some ranks can leave; Guard is the exit's own test).
	Under *Pos
	// Divergence says why the condition can differ between ranks.
	Divergence Divergence
	// Origin, for a condition that reads a file system answer taken
	// earlier (a step read from a checkpoint this host found), rather
	// than making the check: where the answer was taken. nil otherwise.
	Origin *Pos
	// UniformIn: group getters (canonical API names) within whose groups
	// the condition has one answer (api.RankPredicate.UniformIn): an op on
	// such a group is issued by all of the group's members or by none.
	UniformIn []string
	// RankViaKeys: when the condition depends on the rank only through
	// one variable, the forms a split's color takes for it (Group.Color):
	// the variable itself and the expression it was assigned. An op on a
	// communicator split by that color is issued by all of the
	// communicator's members or by none.
	RankViaKeys []string
	// RankDef: the source text of the value assigned to the one rank
	// local the condition reads, when it reads the rank through nothing
	// else (`dist.get_rank(group=pp_group)` for `if pp_rank == last:`).
	RankDef string
	// RankIs: the condition is `rank == K` for a constant K: K as
	// written. An op on a group whose one member is K (Group.Sole) is
	// issued by all of its members.
	RankIs string
	// RankFrom: the condition holds for every rank from K on (`rank !=
	// 0` for K = 1, `rank >= K`, `rank > K-1`): K. An op on a group of
	// those ranks (Group.FromRank) in the arm is issued by all of its
	// members, as is one in the else arm of `rank == 0` on a group from 1.
	RankFrom string
	// RankBelow: the condition is `rank < K`: K as ast.Dump prints it. An
	// op on a group of those ranks (Group.BelowRank) in the arm is issued
	// by all of its members.
	RankBelow string
	// RankStride: the condition is `rank % L == 0`: L as ast.Dump prints
	// it. An op on a group of those ranks (Group.Stride) in the arm is
	// issued by all of its members.
	RankStride string
	// Then and Else are the collective sequences each path issues,
	// including those reached through calls.
	Then []*OpRef
	Else []*OpRef
	// Uncalled: no condition on the rank at all, but a test of a
	// predicate function itself, not of its result (`if not
	// tpc.is_first_stage:`, its call's parentheses missing): always true,
	// so every rank takes the same arm around the collectives in Then
	// (the arm the test skips) or Else. Cond is the operand.
	Uncalled bool
	// EarlyExit: the rank-dependent path leaves the function (return,
	// raise, continue, break) so the collectives after the branch run on
	// the other ranks only; After lists them.
	EarlyExit bool
	// MPIRaise: the early exit is an uncaught exception before an
	// mpi4py collective. mpi4py does not abort the job on one: the
	// raising process waits in MPI_Finalize as it exits, and mpiexec keeps
	// the others running (unless the script runs under `python -m
	// mpi4py`).
	MPIRaise bool
	// Unbound: the exit is the UnboundLocalError of this local, which only
	// the ranks taking the rank test's arm (Guard, Cond) bind, raised on
	// the others as they evaluate the collective's arguments (After).
	Unbound string
	After   []*OpRef
	// Paired: the branch and another of the same block, on the opposite
	// condition and with no collective between them, issue the same
	// collectives, so every rank issues them once (`if rank != 0:
	// barrier()` … `if rank == 0: barrier()`, the main-process-first
	// idiom).
	Paired bool
	// SetOrder: no condition but a for loop over a set (Guard, Cond: the
	// iterable). Sets iterate in hash order, which differs between
	// processes (string hash seeds, object addresses), so each rank issues
	// Then, the collectives on the loop variable, in its own order.
	SetOrder bool
	// Members: no condition but a group creation that every rank calls
	// with a member list that depends on the rank (Guard, Cond: the
	// list), so each subset creates a different group (R18). Then holds
	// the creation.
	Members bool
	// StopsEarly: no condition but a loop each rank ends on its own
	// (generate() stopping at this rank's end-of-sequence token on a
	// ZeRO-3 model), whose every round issues Then (R16). Cond names the
	// call.
	StopsEarly bool
	// SkipsStep: no condition but a GradScaler.step on gradients that a
	// sharding wrapper left sharded (Guard, Cond: the call). The scaler
	// skips the optimizer step when it finds an inf or NaN in the
	// gradients this rank holds, its own shard, so ranks decide apart
	// (R14). Then holds the step; Sharder is the wrapper's construction.
	SkipsStep bool
	Sharder   *Site
	// DataCount: no condition but collectives issued once per element of
	// a value taken from this rank's batch (Guard, Cond: the loop's
	// iterable, or a dict keyed by such elements handed to a per-key
	// collective), so their number follows the batch's contents (R4).
	DataCount bool
	// RankCount: no condition but collectives issued once per element of
	// an iterable whose length depends on the rank (Guard, Cond: the
	// loop's iterable): `for _ in range(rank)`, `for p in shards[rank]`,
	// `for f in files[rank::world]` (one more element on some ranks unless
	// the length divides evenly).
	RankCount bool
	// Reordered: a condition not known to be a rank test whose two arms
	// issue the same collectives on two or more groups in different
	// orders (R17). Ranks that take different arms then wait on each
	// other across groups, so the order must not depend on the arm.
	Reordered bool
	// InTurns: no condition but a with block that its context manager
	// runs on some ranks before a collective and on the others after it
	// (main_process_first; Guard, Cond: the context manager's call).
	// Then holds the block's collectives, which the ranks issue on
	// either side of that collective.
	InTurns bool
	// Memoized: no condition but a call of a program function that
	// functools.lru_cache memoizes (its name), handed a rank-dependent
	// argument (Cond); Then holds what the function issues, which only a
	// cache miss runs, and which keys a rank has seen is its own history.
	Memoized string
	// JoinedLoop: no condition but a loop over this rank's data inside
	// DDP's join() context (Guard, Cond: the loop's iterable; Under: the
	// join call). A rank that runs out of data leaves the loop, and join()
	// shadows only DDP's own collectives for it: Then holds the loop's
	// other collectives, which the remaining ranks issue alone.
	JoinedLoop bool
	// JoinedModel: for a JoinedLoop, the model whose join() it is (`gen`
	// of `with gen.join():`), when the call names it: Then may hold
	// another wrapped model's forward, whose collectives that join()
	// does not shadow.
	JoinedModel string
	// Unwrapped: no condition on the collectives themselves but a rank
	// test's arm inside a loop that rebinds the model's variable to the
	// module its wrapper holds (`if rank == 0: model = model.module`;
	// Guard, Cond: the test; Under: the rebinding). Then holds the
	// wrapper's collectives of the loop (the model's forward), which
	// the arm's ranks no longer issue from the next pass on.
	Unwrapped bool
}

// Divergence says why a branch condition can differ between ranks.
type Divergence uint8

// Kinds of divergence.
const (
	// RankTest: the condition tests the rank (if rank == 0).
	RankTest Divergence = iota
	// HostCheck: no rank test but a question each host answers for itself
	// (a file system probe: os.path.exists, Path.exists()).
	HostCheck
	// LocalValue: a NaN/Inf test of a value computed from this rank's own
	// batch (its loss), which some ranks may see and others not.
	LocalValue
	// LocalFailure: an exception handler for an error raised on some
	// ranks only (out of memory); Cond names the exception.
	LocalFailure
	// LocalData: a test of whether the batch this rank loaded is missing
	// or empty (`if batch is None: continue`).
	LocalData
	// LocalEnd: the end of this rank's data (`try: batch = next(it)`
	// `except StopIteration: break`): ranks holding fewer batches leave
	// the loop first.
	LocalEnd
	// LocalTiming: a reading of the clock (time.time() against a
	// deadline) or a question about concurrent work (Future.done(),
	// Thread.is_alive(), Event.is_set(), an MPI request's Test()), which
	// each rank asks at its own moment and can answer differently.
	LocalTiming
	// LocalTeardown: destroy_process_group in a finally clause or an
	// exception handler around collectives, which also runs on a rank
	// whose work failed while the others still wait in its collectives.
	LocalTeardown
	// LocalRandom: a draw from a process-wide random generator
	// (random.random(), np.random.rand(), torch.rand()): each rank draws
	// its own numbers, and they differ (other seeds, or one seed consumed
	// differently), as LayerDrop's under FSDP did (fairscale#796).
	LocalRandom
	// LocalRetry: a decorator that runs the function again on the rank
	// that ran out of memory (accelerate's find_executable_batch_size);
	// Then holds what the function issues, which that rank issues again
	// alone.
	LocalRetry
	// LocalWriteFailure: an exception handler that swallows the error of
	// a try body that writes files (a checkpoint save) around collectives:
	// a write fails on one host only (a full disk, a quota), and that rank
	// skips the body's remaining collectives. Cond names the exception.
	LocalWriteFailure
	// LocalSwallowedError: a handler for any error that swallows the
	// error of a try body that communicates, with collectives after the
	// try: a rank whose body raised skips the body's remaining collectives
	// and issues the next ones. Cond names the exception.
	LocalSwallowedError
	// LocalCleanup: a collective other than destroy_process_group (a
	// barrier) in a finally clause of a try whose body issues collectives:
	// on a rank whose work raised, it runs while the others still wait in
	// the body's collectives.
	LocalCleanup
	// LocalSwallowedTeardown: destroy_process_group after a try whose
	// body issues collectives and whose handler swallows the error (no
	// raise, no exit): the rank whose work raised goes on to the teardown
	// while the others still wait in its collectives. Guard is the
	// handler, Cond its exception.
	LocalSwallowedTeardown
	// LocalCleanExit: an exception handler around per-rank work that
	// ends the process with status 0 (exit(0), sys.exit()): the launcher
	// takes it for success and does not stop the job, while the other
	// ranks wait in the collectives that rank skipped. Guard is the
	// handler, Cond its exception.
	LocalCleanExit
	// LocalThreshold: a comparison of a value computed from this rank's
	// own batch with a bound (`if loss.item() < 0.06: break`): each rank's
	// loss is its own, so ranks cross the bound at different steps.
	LocalThreshold
	// LocalDevices: a test of how many GPUs this process sees
	// (torch.cuda.device_count() > 1), a fact of its host and its
	// CUDA_VISIBLE_DEVICES, not of the job: ranks on nodes with other GPU
	// counts answer otherwise, and with one GPU bound per process every
	// rank answers 1.
	LocalDevices
	// LocalWriteRetry: LocalWriteFailure inside a loop that tries the
	// write again (`while trial < 10: try: engine.save_checkpoint(…);
	// break` / `except Exception: trial += 1`): the rank whose write
	// failed issues the body's collectives again, alone.
	LocalWriteRetry
	// LocalExitHandler: a barrier in a function registered to run at
	// exit (atexit), which Python runs after an uncaught exception too:
	// Then holds what it issues, Cond the registration.
	LocalExitHandler
)

// OpRef is one collective issued on a path, possibly through a call.
type OpRef struct {
	Op    string
	Group *Group
	Pos   Pos   // the call in the branch (the collective, or the call reaching it)
	Site  *Site // the collective itself (nil for a creation)
	// Resumed: a training loop's call that resumes from a checkpoint
	// (api.Collective.ResumeFrom passed, not None or False): it runs the
	// remaining steps only, so it is not the same sequence as the same
	// call started from the beginning.
	Resumed bool
	// Creates: the op creates a group, a call that every rank of Group
	// must make (new_group on WORLD), not a collective site.
	Creates bool
	// Gate, in a function's summary, is the parameter of that function
	// whose truth the op needs (`if synchronize: barrier()`): a call
	// that passes a false constant for it does not issue the op.
	// ("!p" when the op needs p false: `if not p: barrier()`, and a call
	// passing a true constant does not issue it).
	Gate string
	// GateArg, in the summary of one call (what a branch's call issues),
	// is the caller's variable the call passes for Gate: the op is issued
	// only where it is true.
	GateArg string
	// BuffersOnly: a module's forward whose one collective is DDP's
	// buffer broadcast. Under no_grad only the first forward after a
	// grad-enabled one issues it (DDP clears require_forward_param_sync
	// after a no-grad forward), so an evaluation loop's forwards issue
	// it once however many batches a rank skips.
	BuffersOnly bool
	// NoGrad: such a forward runs with autograd off where it stands, in
	// the function that calls it (a helper's `with torch.no_grad():`
	// around it), so what a caller skips by skipping the helper is that
	// once-per-rank broadcast only.
	NoGrad bool
	// ModuleParam, for a module's forward in a function's summary: the
	// parameter of that function that holds the module (`def
	// evaluate(model, …): model(batch)`). A call that passes a module no
	// wrapper made (a fresh from_pretrained model) runs no such forward.
	ModuleParam string
}

// EventKind classifies an Event.
type EventKind string

const (
	EvCollective   EventKind = "collective"    // Site
	EvWait         EventKind = "wait"          // Var (a work handle) waited
	EvStreamEnter  EventKind = "stream_enter"  // Stream becomes current (with torch.cuda.stream(s), set_stream)
	EvStreamExit   EventKind = "stream_exit"   // back to the previous stream
	EvWaitStream   EventKind = "wait_stream"   // Stream.wait_stream(Other): Stream is the waiting stream (nil = current)
	EvWaitEvent    EventKind = "wait_event"    // Stream waits an event recorded on Other (Other nil when unknown)
	EvRecordStream EventKind = "record_stream" // tensor Var.record_stream(Stream)
	EvUse          EventKind = "use"           // tensor Var read (Read) or written (Write) by a non-collective op
	EvFree         EventKind = "free"          // tensor Var freed (del, resize_(0), rebinding)
	EvSync         EventKind = "sync"          // device/stream synchronize(); a stream's own: Other, OtherText name it
	EvRecordEvent  EventKind = "record_event"  // an event is recorded on Stream (nil = current): a consumer can wait for the work so far
	// EvCall: a call of Callee, a method of the same instance whose
	// events a flow rule may follow at this point (Stream: the current
	// stream at the call); Var, when set, is bound to what it returns.
	EvCall EventKind = "call"
	// EvReturn: the function returns Var.
	EvReturn EventKind = "return"
	// EvBlock: (Go) a point where the goroutine may resume on another OS
	// thread (channel operation, select, go statement, Sleep, Lock, Wait);
	// Var names it.
	EvBlock EventKind = "block"
)

// Event is one step of a function, in program order.
type Event struct {
	Kind EventKind
	Pos  Pos
	Site *Site
	// Callee is the function an EvCall calls.
	Callee *Function
	Var    string
	Write  bool
	// Escape (a read): the value is only handed on, together with an
	// event recorded on a stream (returned or stored as a display that
	// holds the event), not read by device work here.
	Escape bool
	// Handed (a read): the value is a whole argument (or an element of a
	// display that is one) of a call that is not a torch operation — a
	// function of the program, a container's or queue's method, an
	// unresolved callable — which may only keep it.
	Handed bool
	// Returned (a read): a return statement inside a stream context
	// hands the value to the caller, who takes it on the stream the
	// function was entered on, not on the context's stream.
	Returned bool
	// Return (a read): the value of a return statement, wherever it is
	// (Returned is the narrower case inside a stream context).
	Return bool
	// Fresh (a write): uninitialised memory was allocated (torch.empty,
	// empty_like, new_empty): the allocation has a stream, but no write
	// is pending on it.
	Fresh bool
	// Storage (a free): the tensor's memory itself is released
	// (x.untyped_storage().resize_(0)), not one reference to it.
	Storage bool
	// Stored (a read): the value is assigned to an item (x[k] = v):
	// filed in a container, or copied when x is a tensor.
	Stored bool
	// Kept (a read): the value is stored on an object, `self.x = v` (see
	// Escape for what an event recorded before changes).
	Kept bool
	// From (a write): Var is bound to objects that From's variables
	// hold (`for Var in xs`, `Var = xs[0]`, `Var = [a, b]`, `Var = [p
	// for p in ps if …]`): no device work runs, and Var holds what the
	// latest of their producers made (nothing pending when none of them
	// was produced in the function, as for a parameter). On an EvCall:
	// the caller's variables that the call passes, one per Params entry
	// ("" where the argument is no variable).
	From []string
	// Params (an EvCall): the callee's parameters that the call binds,
	// in From's order: the callee's events see the caller's values
	// under these names.
	Params []string
	// Host (a write): the value is made on the host — pinned or CPU
	// memory, a synchronous copy to it (.cpu(), .tolist()) — so no device
	// work on any stream is pending on it. On an EvSync: a blocking copy
	// of device tensor Var to the host (t.item(), t.tolist(), t.cpu()),
	// which waits for the current stream (Stream) only; with Var empty, a
	// call of a program function that makes one (x.get() in a helper).
	Host bool
	// Device (a write): the value is known to be device memory — what
	// CuPy's array functions return, a tensor made or moved on a CUDA
	// device, arithmetic on those — so kernels may still be writing it
	// when the host moves on.
	Device bool
	// Unordered (a read): the value is read outside CUDA's stream order,
	// by a library that takes device memory and the host's word that it
	// is ready (a CUDA-aware MPI call of mpi4py: GPUDirect RDMA or the
	// library's own copy streams). No wait_stream orders it; only a host
	// synchronize after the last device write does. Site is the call.
	Unordered bool
	Stream    *Stream // the current stream when the event happens (nil = default/current)
	Other     *Stream
	// StreamText and OtherText are source expressions that denote Stream
	// and Other at the event ("s", "self.comm_stream"; "" for the
	// current/default stream), so that fixes can name them.
	StreamText string
	OtherText  string
	// InsertLine/Indent locate the statement holding the event, for fixes
	// that insert a line before it.
	StmtLine int
	Indent   string
	// Arm is the innermost arm of a conditional enclosing the event (nil
	// outside any, and where the front end does not record arms).
	Arm *Arm
	// IterArm, inside a loop: the innermost arm of a conditional within
	// the innermost loop's body. Events under different arms of one such
	// conditional never both run in one iteration.
	IterArm *Arm
	// IterBound (a collective inside a loop): the site's buffers that the
	// iteration has bound anew before it (the loop's target, `t =
	// torch.empty(…)` earlier in the body): a different tensor under the
	// same name in each iteration.
	IterBound []string
}

// Arm is one arm of a conditional statement (if/elif/else) of a function.
// Events under different arms of the same conditional never both run in
// one call of the function. Front ends record arms only for conditionals
// that are not inside a loop of the function, where different iterations
// could take different arms.
type Arm struct {
	Parent *Arm // the arm enclosing this conditional, if any
	Cond   int  // the conditional, numbered within its function
	Index  int  // which arm: 0 the body, 1 the else part
	// Exits: every path through the arm leaves the function (or the
	// loop body): what happens in it is not seen after the conditional.
	// An except handler that returns is such an arm, of a conditional of
	// its own.
	Exits bool
}

// Within reports whether a is b or an arm nested in b.
func (a *Arm) Within(b *Arm) bool {
	for x := a; x != nil; x = x.Parent {
		if x == b {
			return true
		}
	}
	return false
}

// Exclusive reports whether events under arms a and b cannot both run in
// one call: some conditional encloses both, in different arms.
func Exclusive(a, b *Arm) bool {
	for x := a; x != nil; x = x.Parent {
		for y := b; y != nil; y = y.Parent {
			if x.Cond == y.Cond {
				return x.Index != y.Index
			}
		}
	}
	return false
}

// Facts are program-wide facts.
type Facts struct {
	// AutogradSingleThreaded lists global
	// torch.autograd.set_multithreading_enabled(False) calls.
	AutogradSingleThreaded []Pos
	// Inits lists init_process_group (and equivalents) call statements,
	// with where a fix may insert a line after them.
	Inits []*InitSite
	// TorchRequirement is the torch version requirement read from
	// pyproject.toml, requirements*.txt or setup.cfg ("torch==1.13.1"),
	// and where it was found.
	TorchRequirement    string
	TorchRequirementPos Pos
	// MPIThreadLevel is the requested MPI thread level (single, funneled,
	// serialized, multiple) and where it was set; "" when not set.
	MPIThreadLevel    string
	MPIThreadLevelPos Pos
	// MPIThreadLevels lists every request of a thread level (the first is
	// MPIThreadLevel): the scripts or binaries of one repository may each
	// ask for their own.
	MPIThreadLevels []*ThreadLevelRequest
	// MultiComm lists framework constructions whose autograd hooks drive
	// two or more device communicators (FSDP ShardingStrategy.HYBRID_SHARD,
	// fully_shard with a 2-D mesh), filled by the flow pass from the API
	// tables' multi_comm spawner entries.
	MultiComm []*MultiCommUse
	// CommandLoops are loops that run until told to stop and start each
	// iteration by receiving a broadcast: followers waiting for the
	// commands their leader broadcasts (TensorRT-LLM's worker_main).
	CommandLoops []*CommandLoop
	// Imports are the program's imports of its own modules: Module's body
	// runs in every process that runs Importer's import statement. With
	// Function.Script they tell which code can share a process.
	Imports []*Import
	// Accelerated: some file of the program mentions an accelerator
	// (cuda, gpu, xpu, mps, npu, hpu, accelerator), in code, strings or
	// comments (see HostOnly).
	Accelerated bool
	// ForwardOnly: no module of the program names a backward pass or a
	// training loop in its code (backward, autograd, fit, train, a
	// training step), and the program runs its forwards with autograd
	// off (no_grad, inference_mode): the hooks FSDP and DDP install for
	// backward never run (a forward-only export check).
	ForwardOnly bool
	// Trainers counts the Lightning Trainer constructions of the
	// program; MultiNodeTrainer is set when one of them may span several
	// nodes (it names num_nodes other than 1, or takes arguments the
	// analysis cannot read: **kwargs, from_argparse_args). See
	// OneNodeTrainers.
	Trainers         int
	MultiNodeTrainer bool
	// LocalRankAsserts: the functions that assert that the process's
	// local rank is its global rank (`assert args.local_rank ==
	// dist.get_rank()`): past one, every rank of the job runs on one
	// host, since local ranks restart at 0 on the next (see
	// AssertsOneHost).
	LocalRankAsserts []*Function
	// WorldComms: communicators a library's default group stands for,
	// where the program hands one to the library's init
	// (hvd.init(comm=world.Split(color, key))): that library's ops on
	// WORLD run on this communicator's members.
	WorldComms []*WorldComm
}

// WorldComm is one library init given its communicator
// (Facts.WorldComms).
type WorldComm struct {
	Library string
	Group   *Group
	Pos     Pos
	Func    *Function // the function that makes the call
}

// Import is one function's import of a module of the program
// (Facts.Imports).
type Import struct {
	Importer *Function
	Module   *Function // the module's body
}

// ThreadLevelRequest is one request of an MPI thread level
// (Facts.MPIThreadLevels).
type ThreadLevelRequest struct {
	Level string
	Pos   Pos
	Func  *Function // the function that asks, when the front end knows it
}

// RequestMPIThreadLevel records a request of an MPI thread level.
func (f *Facts) RequestMPIThreadLevel(level string, pos Pos, fn *Function) {
	if f.MPIThreadLevel == "" {
		f.MPIThreadLevel, f.MPIThreadLevelPos = level, pos
	}
	f.MPIThreadLevels = append(f.MPIThreadLevels, &ThreadLevelRequest{Level: level, Pos: pos, Func: fn})
}

// CommandLoop is a follower's receive loop (Facts.CommandLoops): every
// iteration begins with Op on Group, after Barriers barriers on it (a
// handshake before the command).
type CommandLoop struct {
	Pos      Pos
	Func     *Function
	Op       string
	Group    *Group
	Barriers int
	// Sites: the collective sites the loop's body reaches. A leader that
	// issues its commands through the same helper (one function with
	// the leader's and the followers' halves) reaches the same sites,
	// whatever group the analysis could name for them.
	Sites []*Site
}

// MultiCommUse is one framework construction whose backward hooks drive
// several communicators (the HYBRID_SHARD intra- and inter-node groups).
type MultiCommUse struct {
	Pos    Pos
	Func   *Function
	API    string // torch.distributed.fsdp.FullyShardedDataParallel
	Detail string // sharding_strategy=HYBRID_SHARD
	// Comms names the two communicators ("" for HSDP's intra- and
	// inter-node pair).
	Comms string
}

// InitSite is an init_process_group call statement.
type InitSite struct {
	Pos       Pos
	Func      *Function // the function making the call (nil when unknown)
	Backend   string
	AfterLine int    // 1-based line after which a statement may be inserted
	Indent    string // indentation of the statement
	// LocalRendezvous: the job meets on this host only (init_method
	// "tcp://localhost:…", or its module sets os.environ["MASTER_ADDR"]
	// to "localhost" or "127.0.0.1"): every rank runs on one machine.
	LocalRendezvous bool
	// DeviceGated: the call is in the then arm of an if that tests
	// torch.cuda.device_count() (distributed only on a host with several
	// GPUs): a process that answers otherwise never joins the group.
	DeviceGated bool
	// Library: no module body, thread or hook of the program reaches
	// the call, only a function nothing in the program calls (a vendored
	// module's init wrapper).
	Library bool
}

// HostOnly reports a program that starts only gloo process groups and
// never mentions an accelerator (Accelerated): its tensors live in
// host memory, and the autograd engine runs backward, hooks included, on
// the thread that called it, as it does for CPU tensors.
func (f *Facts) HostOnly() bool {
	if f.Accelerated || len(f.Inits) == 0 {
		return false
	}
	for _, is := range f.Inits {
		if is == nil || !strings.EqualFold(is.Backend, "gloo") {
			return false
		}
	}
	return true
}

// DeviceGated reports a program whose every init_process_group runs
// only when the process sees several GPUs (InitSite.DeviceGated): every
// member of the group passed that test, so a collective behind the same
// test runs on every member.
func (f *Facts) DeviceGated() bool {
	for _, is := range f.Inits {
		if !is.DeviceGated {
			return false
		}
	}
	return len(f.Inits) > 0
}

// SingleHost reports a program whose every init_process_group meets on
// this host (InitSite.LocalRendezvous): all its ranks share one file
// system, so a file check is answered alike on every rank.
func (f *Facts) SingleHost() bool {
	// The calls that something in the program runs decide; where none
	// does (entry points called by a command-line framework), all.
	run := slices.ContainsFunc(f.Inits, func(is *InitSite) bool { return !is.Library })
	for _, is := range f.Inits {
		if run && is.Library {
			continue
		}
		if !is.LocalRendezvous {
			return false
		}
	}
	return len(f.Inits) > 0
}

// AssertsOneHost reports a process that asserts its local rank is its
// global rank (LocalRankAsserts): a job that runs past the assertion has
// all its ranks on one host, which answers a file check alike for all.
func (f *Facts) AssertsOneHost() bool { return len(f.LocalRankAsserts) > 0 }

// OneNodeTrainers reports a program that calls no init_process_group and
// builds Lightning Trainers that name no nodes: Lightning starts the
// group itself, on one node unless the Trainer is told of more (its SLURM
// and torchrun environments refuse a world size other than devices ×
// num_nodes), so the ranks a Trainer runs share one file system.
func (f *Facts) OneNodeTrainers() bool {
	return len(f.Inits) == 0 && f.Trainers > 0 && !f.MultiNodeTrainer
}

// Merge appends other's contents to p (one program from several front
// ends: Python and Go in one run).
func (p *Program) Merge(other *Program) {
	if other == nil {
		return
	}
	p.Files = append(p.Files, other.Files...)
	p.Funcs = append(p.Funcs, other.Funcs...)
	p.Contexts = append(p.Contexts, other.Contexts...)
	p.Sites = append(p.Sites, other.Sites...)
	p.Groups = append(p.Groups, other.Groups...)
	p.Streams = append(p.Streams, other.Streams...)
	p.Works = append(p.Works, other.Works...)
	p.Branches = append(p.Branches, other.Branches...)
	p.Exchanges = append(p.Exchanges, other.Exchanges...)
	p.GraphDestroys = append(p.GraphDestroys, other.GraphDestroys...)
	p.DeviceBindings = append(p.DeviceBindings, other.DeviceBindings...)
	p.RankRoots = append(p.RankRoots, other.RankRoots...)
	p.Bypasses = append(p.Bypasses, other.Bypasses...)
	p.GradReads = append(p.GradReads, other.GradReads...)
	f, o := &p.Facts, &other.Facts
	f.AutogradSingleThreaded = append(f.AutogradSingleThreaded, o.AutogradSingleThreaded...)
	f.Inits = append(f.Inits, o.Inits...)
	f.MultiComm = append(f.MultiComm, o.MultiComm...)
	f.CommandLoops = append(f.CommandLoops, o.CommandLoops...)
	f.Imports = append(f.Imports, o.Imports...)
	f.MPIThreadLevels = append(f.MPIThreadLevels, o.MPIThreadLevels...)
	f.WorldComms = append(f.WorldComms, o.WorldComms...)
	f.Accelerated = f.Accelerated || o.Accelerated
	f.ForwardOnly = f.ForwardOnly || o.ForwardOnly
	f.Trainers += o.Trainers
	f.MultiNodeTrainer = f.MultiNodeTrainer || o.MultiNodeTrainer
	f.LocalRankAsserts = append(f.LocalRankAsserts, o.LocalRankAsserts...)
	if f.TorchRequirement == "" {
		f.TorchRequirement, f.TorchRequirementPos = o.TorchRequirement, o.TorchRequirementPos
	}
	if f.MPIThreadLevel == "" {
		f.MPIThreadLevel, f.MPIThreadLevelPos = o.MPIThreadLevel, o.MPIThreadLevelPos
	}
}

// File returns the file with the given path, or nil.
func (p *Program) File(path string) *File {
	for _, f := range p.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}
