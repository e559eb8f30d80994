// Package cv203 implements CV203 cross-stream-without-wait: a tensor
// produced on one CUDA stream and consumed (by a collective or any op), or
// freed, on another with no wait_stream / wait_event / record_stream in
// between.
package cv203

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV203.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV203",
	Name:     "cross-stream-without-wait",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "a tensor crosses CUDA streams without wait_stream or record_stream",
		What: "Within a function, reports a tensor written on one stream (inside `with torch.cuda.stream(s):`, " +
			"after torch.cuda.set_stream, or outside any stream context) and then read — by a collective or " +
			"any other op — on a different stream with no wait_stream / wait_event / synchronize between the " +
			"write and the read on every path (a torch.cuda.synchronize() in one arm of an if, `if timing:`, orders only that arm; a " +
			"wait_event counts for the work its stream had when the event was recorded there, so an " +
			"event recorded before the write orders nothing); and a tensor allocated on one stream, used on another and then freed (del, " +
			"rebinding, x.untyped_storage().resize_(0)) without record_stream for the stream that used it — an in-place " +
			"collective's output keeps the stream it was allocated on. Calls of the instance's own methods " +
			"(self.flush(), full = self.unshard()) are followed into the method, two levels deep: a buffer it leaves " +
			"on its stream, or returns, is checked where the caller reuses or frees it, and a tensor the caller wrote (passed to the " +
			"method) that the method reads on another stream is reported there (insightface's partial FC " +
			"all-gathers the labels the caller has just copied asynchronously, on its own side stream); a function that makes the " +
			"current stream wait for a stream passed to it (torchrec's _wait_for_batch) orders the caller (the stream of the with block the call sits in waits). A value written on a stream the " +
			"instance holds and then kept on it (`self._batch_ip1 = batch`) is handed on, not read, when another method of the class " +
			"waits for that stream (torchrec's pipeline); a stash that nothing waits for stays a hazard. Across the methods of a " +
			"class: an attribute one method allocates on a side stream, another uses on a different stream and a third frees " +
			"(storage resize_(0)) is reported at the free unless some method records a stream on it or makes the allocating " +
			"stream wait for the using one (FSDP1's _mp_shard); an attribute one method stores into on the current stream " +
			"(`self.weight[idx] = w`, `self.buf.copy_(x)`) and another reads on its own stream, which never waits for the current one, " +
			"also through a method it calls there (insightface's partial FC: update() writes the weight bank, prepare() samples it on its " +
			"side stream). A value made in host memory " +
			"(pin_memory=True, device=\"cpu\", .cpu(), .tolist()) is not a device write: nothing is pending on it; nor is a blocking copy " +
			"of host data to the device (`torch.tensor([0.485, 0.456, 0.406]).cuda()`, `torch.tensor(xs, device=\"cuda\")`, " +
			"`torch.from_numpy(a).to(device)` without non_blocking=True), which PyTorch finishes before it returns; nor is what the function " +
			"stores in a variable it later copies to the device (`xs[i] = rowptr[a:b].clone()`, then `xs[0].to(device, non_blocking=True)`): " +
			"a value staged for the device is made in host memory, unless it is an asynchronous copy or was moved to the device first; nor is " +
			"what json or msgpack decode, what an object collective returns (all_gather_object, detectron2's comm.gather, also " +
			"when the analysed program is the library that defines it), an item of a defaultdict(int) or Counter() attribute, or a value after a " +
			"condition compared it (`if n != -1:` reads it there and leaves a Python value), nor arithmetic on ranks, sizes, counts and indices " +
			"(`dst = (self.my_rank + i) % self.world_size`, `j = self.num_layers - 1`). Unpacking (`(g,) = grads`) names the elements of what it " +
			"unpacks and reads nothing. A view (x.chunk(n), x.view(-1), torch.narrow(x, …)) runs no kernel: it, and an " +
			"attribute bound to it, holds what x's producer wrote; so do a symmetric-memory handle's buffers (get_buffer, " +
			"get_remote_tensor), whose peers' writes its device-side barriers order, and `[None] * n` is a host list. " +
			"A local bound to different streams on the two arms of an if (a pipelined loop alternating the current " +
			"stream and a backend stream) is ordered after a write only when every stream it may be is. Waits chain: a stream that waits another, which had waited the producer's stream " +
			"before, is ordered after the producer's work too (xformers' copy stream waits a wait stream that waited the " +
			"current stream). Some calls touch no device " +
			"memory of their arguments: typing.cast, isinstance and len, a method that only hands back an object it holds " +
			"(`ctx = self._context()`), and a helper that only calls record_stream on it. An operator's out= tensor is " +
			"written by the call. A blocking copy of a device tensor to the host (t.item(), t.tolist(), t.cpu() without " +
			"non_blocking=True) makes the host wait for the stream it runs on, so what that stream wrote before it is " +
			"finished for every stream afterwards, while x.to(\"cpu\", non_blocking=True) returns with the copy into host memory still running on its stream; ev.record(stream) on an event the analysis cannot type (kept in a dict) is " +
			"an event record, not a tensor read. Tensors handed to a thread or a pool (Thread(args=…), pool.submit(fn, x)) are " +
			"read by that thread's function, not at the spawn. " +
			"An async collective's outputs (irecv, all_reduce(async_op=True)) belong to its work handle until wait(), " +
			"and work.wait() makes only the stream current at the wait wait for the communication: a read of the output " +
			"on another stream needs that stream to wait the waiting one afterwards. " +
			"A collective given a stream argument (CuPy's NCCL calls: stream.ptr, cupy.cuda.Stream.ptds.ptr) runs on that " +
			"stream, and `with stream:` makes a CuPy stream current; a blocking CuPy stream (Stream() without " +
			"non_blocking=True) is ordered with the legacy default stream by CUDA itself. " +
			"A device buffer handed to CUDA-aware MPI (an upper-case mpi4py method given a CuPy array or a CUDA tensor: " +
			"comm.Allreduce(sendbuf, recvbuf), comm.Send([buf, MPI.FLOAT], …), comm.Recv(buf, …)) is read or written by the " +
			"MPI library outside any stream's order, so only a host synchronize (stream.synchronize(), " +
			"cupy.cuda.get_current_stream().synchronize(), Device().synchronize(), torch.cuda.synchronize(), a copy to the " +
			"host such as x.get()) orders it after the kernel that wrote the buffer in the same function (cupy.arange, x * 2, " +
			"buf.fill(0), the memset of cupy.zeros, t.cuda()); cupy.empty runs no kernel, and a NumPy array, a pickled " +
			"lower-case call or a buffer made in another function is not checked.",
		Why: "Streams run concurrently: a read on stream B of a tensor written on stream A can happen before " +
			"the write finishes, and a freed block is handed back to A's allocator pool while B still reads it. " +
			"Both corrupt results silently and intermittently — DeepSpeed ZeRO overlap_comm, Megatron " +
			"overlap-grad-reduce, FSDP1 _mp_shard and FSDP2 HSDP all shipped this bug. Collectives are no " +
			"exception: the process group's stream waits only for the stream that is current when the " +
			"collective is issued. CUDA-aware MPI follows no stream at all: the host's call is its only word that the " +
			"buffer is ready.",
		Example: `side = torch.cuda.Stream()
grad = compute()                       # default stream
with torch.cuda.stream(side):
    dist.all_reduce(grad)              # issued on side: does not wait for compute()
out = grad * 2                         # default stream reads what side wrote`,
		UseInstead: `side = torch.cuda.Stream()
grad = compute()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    dist.all_reduce(grad)
torch.cuda.current_stream().wait_stream(side)
out = grad * 2
# before freeing a tensor used on side: grad.record_stream(side)`,
		FixSafety: "The fix inserts the missing `consumer.wait_stream(producer)` before the consuming statement " +
			"(or before the `with torch.cuda.stream(...)` that starts the consumer), or `tensor.record_stream(s)` " +
			"before a free. Waits only order GPU work; they do not block the host, so they are safe, at the cost of " +
			"some overlap. Stream identity is tracked inside one function and the instance methods it calls; if ordering happens elsewhere, " +
			"`collvet guard` can confirm it at run time.",
		References: []string{
			"https://github.com/deepspeedai/DeepSpeed/issues/5545 — ZeRO-2 overlap_comm: bucket overwritten while the reduction stream reads it; fixed with two-way wait_stream (S4)",
			"https://github.com/NVIDIA/Megatron-LM/issues/3670 — grad hook on a side stream, reduce-scatter starts without waiting (S7)",
			"https://github.com/NVIDIA/Megatron-LM/issues/5788 — bucket freed without record_stream: use-after-free (S8)",
			"https://github.com/pytorch/pytorch/pull/91096 — FSDP1 restores record_stream(current_stream) before freeing _mp_shard (S9)",
			"https://github.com/pytorch/pytorch/issues/188655 — all_reduce(async_op=True) inside torch.cuda.stream(s): freed buffer reused by the default stream (S1)",
			"https://github.com/pytorch/pytorch/issues/136187 — a stream context does not decide where a c10d collective runs (S14)",
			"https://github.com/mpi4py/mpi4py/blob/master/demo/cuda-aware-mpi/use_cupy.py — mpi4py's CUDA-aware demo synchronizes the stream before every MPI call",
			"https://github.com/PyLops/pylops-mpi/pull/182 — wrong values until CuPy was synchronized before MPI calls",
			"https://github.com/dealii/dealii/pull/8880 — synchronize the device before CUDA-aware MPI sends ghost data",
		},
		Since: "0.1.0",
	},
})

func sid(s *rules.Stream) string {
	if s == nil {
		return ""
	}
	return s.ID
}

func stext(text string, s *rules.Stream) string {
	if s == nil {
		return "the current stream"
	}
	if text != "" {
		return text
	}
	return s.ID
}

type prod struct {
	stream *rules.Stream
	text   string
	idx    int
	pos    rules.Pos
	arm    *rules.Arm // the if/else arm of the write (see rules.Exclusive)
	name   string     // the variable the write bound (another name's, for an alias)
	// exit is the innermost arm of the write that leaves the function:
	// reads outside it see before, the producer before the write (nil:
	// none).
	exit   *rules.Arm
	before *prod
	// via is the call, in the checked function, of the method whose
	// code this write or use is (nil: the function's own).
	via *rules.Event
	// alloc is the write that made the tensor's memory: this one, or for
	// an in-place write (a collective's output) the allocation before it.
	// The caching allocator reuses the memory on alloc's stream once the
	// tensor is freed, whatever wrote it last.
	alloc *prod
	// fresh: the write only allocated (torch.empty…): nothing is pending.
	fresh bool
	// device: the write is known to be device work (Event.Device).
	device bool
	// waited is the wait() of the async collective that wrote it: the
	// write counts as done on the stream current at the wait, the only
	// one that wait orders (nil: a write of its own).
	waited   *rules.Pos
	waitedOp string
}

type state struct {
	produced map[string]prod
	usedOn   map[string]map[string]prod // var -> stream id -> a use there
	recorded map[string]map[string]bool // var -> streams recorded
	waits    map[[2]string]int          // (waiter, waited) -> last index
	anyWait  map[string]int             // waiter -> last index of a wait on an unknown stream
	sync     int                        // last device synchronize
	// syncArm is the arm of a conditional the last device synchronize
	// sits in (nil: none): it orders only what runs within that arm
	// after it (`if timing: torch.cuda.synchronize()` does not order a
	// read after the if). curArm is the arm of the event being walked.
	syncArm, curArm *rules.Arm
	// streamSync: stream id -> index after the last blocking host read
	// of a device tensor on it (t.item()): the host has waited for the
	// stream's work so far, so later work on any stream sees it.
	streamSync map[string]int
	enters     []*rules.Event // active stream contexts
	// evRecorded: stream id -> index of the last event recorded on it.
	evRecorded map[string]int
	// quiet: the events are a called method's (EvCall); its own hazards
	// are reported where it is checked itself. via is the call, in the
	// checked function, that the events came through.
	quiet bool
	via   *rules.Event
	// bound: a called method's parameters (renamed) that hold what the
	// checked function passed: a write of the caller's read through one
	// of them is the caller's hazard, reported in the method.
	bound map[string]bool
	// entry is the stream the frame's function was entered on (the
	// caller's current stream; nil at depth 0).
	entry *rules.Stream
	// callers are the functions that call the checked one.
	callers []*rules.Function
	// classmates are the functions defined beside the checked one fn
	// (the methods of its class).
	classmates []*rules.Function
	fn         *rules.Function
	// pending: work handle variable -> the async collective whose outputs
	// it holds until its wait().
	pending map[string]*rules.Event
}

// callerIndex maps each function to the functions that call it, each
// once, in program order.
func callerIndex(prog *rules.Program) map[*rules.Function][]*rules.Function {
	out := map[*rules.Function][]*rules.Function{}
	for _, f := range prog.Funcs {
		for _, c := range f.Calls {
			if c.Callee == nil || c.Callee == f {
				continue
			}
			if cs := out[c.Callee]; len(cs) == 0 || cs[len(cs)-1] != f {
				out[c.Callee] = append(cs, f)
			}
		}
	}
	return out
}

// callersWait reports whether every caller of the checked function waits
// for the stream pr was written on, or synchronizes the device, somewhere
// in its own body: a value returned after the stream's work is then the
// callers' to order (NVIDIA's prefetcher: _prefetch() copies the next
// batch on the side stream and returns it; the loop that calls it waits
// the stream before it yields the batch). Without callers nothing is
// known, and the return stays a read.
func callersWait(st *state, pr prod) bool {
	if len(st.callers) == 0 || pr.stream == nil && pr.text == "" {
		return false
	}
	for _, c := range st.callers {
		if !waitsFor(c, pr) {
			return false
		}
	}
	return true
}

func waitsFor(f *rules.Function, pr prod) bool {
	for _, e := range f.Events {
		switch e.Kind {
		case rules.EvWaitStream, rules.EvWaitEvent:
			if e.Other != nil && pr.stream != nil && e.Other.ID == pr.stream.ID ||
				e.Other == nil && e.OtherText != "" && e.OtherText == pr.text {
				return true
			}
		case rules.EvSync:
			if !e.Host && e.Other == nil && e.OtherText == "" {
				return true // the whole device
			}
		}
	}
	return false
}

// syncArmAfter is the arm a device synchronize in arm a leaves ordered,
// after an earlier one in arm prev (seen): both arms of one conditional
// synchronizing order what follows the conditional.
func syncArmAfter(prev, a *rules.Arm, seen bool) *rules.Arm {
	if a == nil || !seen || prev == nil {
		return a
	}
	for x := a; x != nil; x = x.Parent {
		for y := prev; y != nil; y = y.Parent {
			if x.Cond == y.Cond && x.Index != y.Index {
				return x.Parent
			}
		}
	}
	return a
}

// legacyOrdered reports two streams that CUDA orders by itself: the
// legacy default stream (the current stream outside any stream context)
// and a blocking stream (CuPy's Stream() without non_blocking=True).
func legacyOrdered(a, b *rules.Stream) bool {
	return a == nil && b != nil && b.Blocking || b == nil && a != nil && a.Blocking
}

// wait records that stream waiter waits the work enqueued on waited so
// far (at index at). Waits chain: what waited had itself waited for
// before is now ordered before waiter too (xformers' copy stream waits a
// "wait" stream that waited the current stream).
func (st *state) wait(waiter, waited string, at int) {
	if waiter == waited {
		return
	}
	st.waits[[2]string{waiter, waited}] = at
	for k, j := range st.waits {
		if k[0] == waited && k[1] != waiter && j > st.waits[[2]string{waiter, k[1]}] {
			st.waits[[2]string{waiter, k[1]}] = j // keys of waiter, never visited by this loop's test
		}
	}
	if j := st.anyWait[waited]; j > st.anyWait[waiter] {
		st.anyWait[waiter] = j
	}
}

func (st *state) ordered(consumer, producer string, after int) bool {
	if st.sync > after && (st.syncArm == nil || st.curArm.Within(st.syncArm)) || st.anyWait[consumer] > after || st.streamSync[producer] > after {
		return true
	}
	return st.waits[[2]string{consumer, producer}] > after
}

// orderedOn reports whether work on stream c sees pr's write: the same
// stream, a wait since, or streams CUDA orders by itself. A stream chosen
// at run time among alternatives (rules.Stream.Alts) is ordered when
// every alternative is.
func (st *state) orderedOn(pr prod, c *rules.Stream) bool {
	if sid(pr.stream) == sid(c) || st.ordered(sid(c), sid(pr.stream), pr.idx) || legacyOrdered(pr.stream, c) {
		return true
	}
	if (pr.stream == nil || len(pr.stream.Alts) == 0) && (c == nil || len(c.Alts) == 0) {
		return false
	}
	for _, p := range alternatives(pr.stream) {
		for _, q := range alternatives(c) {
			if sid(p) != sid(q) && !st.ordered(sid(q), sid(p), pr.idx) && !legacyOrdered(p, q) {
				return false
			}
		}
	}
	return true
}

// alternatives lists the streams s may be at run time.
func alternatives(s *rules.Stream) []*rules.Stream {
	if s != nil && len(s.Alts) > 0 {
		return s.Alts
	}
	return []*rules.Stream{s}
}

func run(p *rules.Pass) {
	callers := callerIndex(p.Prog)
	classes := map[string][]*rules.Function{}
	for _, fn := range p.Prog.Funcs {
		classes[owner(fn)] = append(classes[owner(fn)], fn)
	}
	for _, fn := range p.Prog.Funcs {
		check(p, fn, callers, classes[owner(fn)])
	}
	lifetimes(p)
}

// owner is the qualified name of what defines fn (its class, for a
// method).
func owner(fn *rules.Function) string {
	if i := strings.LastIndexByte(fn.Name, '.'); i >= 0 {
		return fn.Name[:i]
	}
	return ""
}

// classmateWrite reports a read, on a side stream, of an attribute of
// the instance that the checked method does not write, where another
// method of its class (not the constructor) writes it on the current
// stream, and neither the checked method nor any caller makes a stream
// wait for the current one first: the class's methods run in turn (an
// update after the step, the next batch's prepare), and the side
// stream can read the attribute before the other method's kernels have
// written it (insightface's partial FC: update() writes the weight
// bank, prepare() samples it on its own stream).
func classmateWrite(p *rules.Pass, st *state, v string, e *rules.Event, reported map[string]bool) {
	if st.quiet && (st.via == nil || st.via.Stream == nil) || e.Stream == nil || e.Stream.Blocking || !strings.HasPrefix(v, "self.") || strings.Contains(v[len("self."):], ".") {
		return
	}
	if st.sync >= 0 || hasKey(st.anyWait, sid(e.Stream)) || hasKey(st.streamSync, "") || hasKey(st.waits, [2]string{sid(e.Stream), ""}) {
		return // the side stream (or the device) waited for the current stream's work
	}
	at := e.Pos
	if st.quiet {
		at = st.via.Pos
	}
	key := "classmate@" + at.String()
	if reported[key] {
		return // one finding where the side stream reads, however many attributes
	}
	var write *rules.Event
	var writer *rules.Function
	for _, f := range st.classmates {
		if f == st.fn || strings.HasPrefix(f.Name[strings.LastIndexByte(f.Name, '.')+1:], "__") {
			continue
		}
		for _, w := range f.Events {
			if w.Kind == rules.EvUse && w.Write && w.Var == v && w.Stream == nil && w.StreamText == "" && !w.Host && !w.Fresh && len(w.From) == 0 &&
				writesInto(p.Prog.File(w.Pos.Path), w.Pos, v) {
				write, writer = w, f
				break
			}
		}
		if write != nil {
			break
		}
	}
	if write == nil {
		return
	}
	for _, c := range st.callers {
		if ordersCurrent(c) {
			return
		}
	}
	reported[key] = true
	how := "read here"
	if st.quiet {
		// Read by a method the checked one calls inside its own stream
		// context: the hazard is the caller's, at the call.
		how = "read through this call of " + shortName(st.via.Callee)
	}
	d := rules.Diagnostic{Pos: at, Message: fmt.Sprintf(
		"%q is written on the current stream by %s (%s) and %s on %s, which never waits for the current stream: "+
			"the class's methods run one after another, so the side stream can read it before %s's kernels finish "+
			"(silently wrong values); make the side stream wait first (`%s.wait_stream(torch.cuda.current_stream())`)",
		v, shortName(writer), write.Pos.Short(), how, stext(e.StreamText, e.Stream), shortName(writer), cmp.Or(e.StreamText, "stream"))}
	d.Related = append(d.Related, rulekit.Related(write.Pos, fmt.Sprintf("%q written on the current stream", v)))
	if st.quiet {
		d.Related = append(d.Related, rulekit.Related(e.Pos, fmt.Sprintf("%q read on %s", v, stext(e.StreamText, e.Stream))))
	}
	p.Report(d)
}

// writesInto reports whether the write at pos stores into the memory v
// already holds (`v[idx] = x`, `v.copy_(x)`, `v.add_(x)`): a kernel on
// the current stream writing the tensor a side stream reads. Rebinding
// v (`v = make()`) may bind a host object (a list of modules).
func writesInto(f *rules.File, pos rules.Pos, v string) bool {
	line := rulekit.Line(f, pos.Line)
	if pos.Col < 1 || pos.Col-1+len(v) > len(line) || line[pos.Col-1:pos.Col-1+len(v)] != v {
		return false
	}
	rest := line[pos.Col-1+len(v):]
	if strings.HasPrefix(rest, "[") {
		return true
	}
	if !strings.HasPrefix(rest, ".") {
		return false
	}
	i := strings.IndexByte(rest, '(')
	return i > 1 && strings.HasSuffix(rest[:i], "_") && isIdent(rest[1:i])
}

// ordersCurrent reports whether f makes a stream wait for the current
// one (s.wait_stream(torch.cuda.current_stream())) or synchronizes the
// device.
func ordersCurrent(f *rules.Function) bool {
	for _, e := range f.Events {
		switch e.Kind {
		case rules.EvWaitStream, rules.EvWaitEvent:
			if e.Other == nil && (e.OtherText == "" || strings.Contains(e.OtherText, "current_stream")) {
				return true
			}
		case rules.EvSync:
			if !e.Host && e.Other == nil && e.OtherText == "" {
				return true
			}
		}
	}
	return false
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// classmateWaits reports whether another function defined beside the
// checked one waits for the stream pr was written on.
func classmateWaits(st *state, pr prod) bool {
	for _, f := range st.classmates {
		if f != st.fn && waitsFor(f, pr) {
			return true
		}
	}
	return false
}

func check(p *rules.Pass, fn *rules.Function, callers map[*rules.Function][]*rules.Function, classmates []*rules.Function) {
	st := &state{produced: map[string]prod{}, usedOn: map[string]map[string]prod{}, recorded: map[string]map[string]bool{},
		waits: map[[2]string]int{}, anyWait: map[string]int{}, sync: -1, evRecorded: map[string]int{}, streamSync: map[string]int{},
		callers: callers[fn], classmates: classmates, fn: fn}
	w := &walker{p: p, st: st, reported: map[string]bool{}}
	w.events(fn.Events, &frame{fn: fn})
}

// maxInline bounds how deep the walk follows calls of the instance's own
// methods (EvCall): self.step() → self.reduce() is followed, a third
// level is not.
const maxInline = 2

// walker checks one function's events in order, following the calls of
// the instance's own methods into their events (EvCall).
type walker struct {
	p        *rules.Pass
	st       *state
	reported map[string]bool
	n        int // events seen so far, across frames: the order of state indexes
}

// frame is one function being walked: the checked function itself
// (depth 0) or a method it calls.
type frame struct {
	fn     *rules.Function
	depth  int
	parent *frame
	// prefix renames the callee's locals apart from the caller's; the
	// instance's attributes (self.x) are shared.
	prefix string
	// cur is the caller's current stream at the call: what the callee's
	// "current stream" is.
	cur     *rules.Stream
	curText string
	call    *rules.Event // the EvCall (nil at depth 0)
	// via is the call, in the checked function, that led here (nil at
	// depth 0): writes and uses seen in this frame are attributed to it.
	via     *rules.Event
	returns []string // what the callee returns, renamed
	handles map[string]bool
}

func (f *frame) rename(v string) string {
	if f.prefix == "" || v == "" || v == "self" || strings.HasPrefix(v, "self.") {
		return v
	}
	return f.prefix + v
}

func (f *frame) onStack(fn *rules.Function) bool {
	for x := f; x != nil; x = x.parent {
		if x.fn == fn {
			return true
		}
	}
	return false
}

// translate returns e as the checked function sees it: the callee's
// locals renamed, its current stream the caller's at the call.
func (f *frame) translate(e *rules.Event) *rules.Event {
	if f.depth == 0 {
		return e
	}
	c := *e
	c.Var = f.rename(e.Var)
	if len(e.From) > 0 {
		c.From = make([]string, len(e.From))
		for i, v := range e.From {
			c.From[i] = f.rename(v)
		}
	}
	if c.Stream == nil && c.StreamText == "" && e.Kind != rules.EvStreamEnter && e.Kind != rules.EvStreamExit {
		// The callee's current stream is the caller's at the call.
		c.Stream, c.StreamText = f.cur, f.curText
	}
	// Arms of the callee's conditionals are not the caller's: the walk
	// does not tell its paths apart.
	c.Arm = f.call.Arm
	c.Pos = e.Pos
	return &c
}

func (w *walker) events(evs []*rules.Event, f *frame) {
	st := w.st
	f.handles = streamHandles(f)
	f.enter(st)
	for k, e := range evs {
		// The receiver of an in-place method (x.fill_(0)) is read and
		// then written at the same place: a finding there is a second
		// write racing the first, and says so.
		inPlace := e.Kind == rules.EvUse && !e.Write && k+1 < len(evs) &&
			evs[k+1].Kind == rules.EvUse && evs[k+1].Write && !evs[k+1].Host && evs[k+1].Var == e.Var && evs[k+1].Pos == e.Pos
		e = f.translate(e)
		st.curArm = e.Arm
		if st.curArm == nil {
			// Inside a loop, the arm within one iteration (a synchronize
			// under `if step % k == 0:` skips the others).
			st.curArm = e.IterArm
		}
		if e.Kind == rules.EvUse && f.handles[e.Var] {
			// A stream or event object is a handle, not device memory:
			// naming it (yield stream, f(x, stream)) reads no tensor.
			continue
		}
		w.n++
		i := w.n
		switch e.Kind {
		case rules.EvStreamEnter:
			st.enters = append(st.enters, e)
		case rules.EvStreamExit:
			if n := len(st.enters); n > 0 {
				st.enters = st.enters[:n-1]
			}
		case rules.EvWaitStream, rules.EvWaitEvent:
			if e.Other == nil {
				st.anyWait[sid(e.Stream)] = i + 1
			} else if r, ok := st.evRecorded[sid(e.Other)]; ok && e.Kind == rules.EvWaitEvent {
				// An event orders only the work enqueued before it was
				// recorded (DistServe recorded its swap event before
				// the swap itself).
				st.wait(sid(e.Stream), sid(e.Other), r+1)
			} else {
				st.wait(sid(e.Stream), sid(e.Other), i+1)
			}
		case rules.EvSync:
			if !e.Host && e.Other != nil {
				// s.synchronize(): the host waits for that stream
				// alone; work pending on another stream (a clone on
				// the current one) is not ordered by it.
				st.streamSync[sid(e.Other)] = i + 1
			} else if !e.Host {
				// The whole device, or a stream the analysis cannot
				// tell (taken as any).
				st.syncArm = syncArmAfter(st.syncArm, st.curArm, st.sync > 0)
				st.sync = i + 1
			} else if _, ok := st.produced[e.Var]; ok || e.Var == "" {
				// A read of device memory (or a call of a helper that
				// makes one): the copy runs on the current stream, and
				// the host waits for it.
				st.streamSync[sid(e.Stream)] = i + 1
			}
		case rules.EvRecordEvent:
			st.evRecorded[sid(e.Stream)] = i
		case rules.EvRecordStream:
			if st.recorded[e.Var] == nil {
				st.recorded[e.Var] = map[string]bool{}
			}
			st.recorded[e.Var][sid(e.Other)] = true
		case rules.EvUse:
			if e.Write && e.Host {
				// A fresh host value: nothing pending on any stream.
				delete(st.produced, e.Var)
				delete(st.usedOn, e.Var)
				delete(st.recorded, e.Var)
			} else if e.Write && len(e.From) > 0 {
				alias(st, e.Var, e.From)
				// In a called method, a local that names what a
				// parameter holds (`send = computed.view(-1)`, light-moe's
				// combine) carries the caller's write as the parameter
				// does.
				if st.quiet && slices.ContainsFunc(e.From, func(f string) bool { return st.bound[f] }) {
					st.bound[e.Var] = true
				} else if st.bound[e.Var] {
					delete(st.bound, e.Var)
				}
			} else if e.Write {
				produce(st, e.Var, e, i, false)
			} else {
				consume(w.p, st, e.Var, e, i, inPlace, w.reported)
			}
		case rules.EvCollective:
			if e.Site == nil {
				continue
			}
			for _, v := range e.Site.Inputs {
				consume(w.p, st, f.rename(v), e, i, false, w.reported)
			}
			for _, v := range e.Site.Outputs {
				if !e.Site.Async { // async outputs belong to the work (CV202/CV401)
					produce(st, f.rename(v), e, i, true)
				}
			}
			if w := e.Site.Work; e.Site.Async && w != nil && w.Via == nil && w.Var != "" && len(w.Waited) > 0 {
				// Until its wait() the outputs are the work's (CV202,
				// CV401); the wait orders them on its own stream only.
				if st.pending == nil {
					st.pending = map[string]*rules.Event{}
				}
				st.pending[f.rename(w.Var)] = e
			}
		case rules.EvWait:
			if c := st.pending[e.Var]; c != nil {
				delete(st.pending, e.Var)
				for _, v := range c.Site.Outputs {
					produce(st, f.rename(v), e, i, true)
					pr := st.produced[f.rename(v)]
					pr.pos, pr.arm, pr.waited, pr.waitedOp = c.Pos, c.Arm, &e.Pos, rulekit.OpName(c.Site)
					st.produced[f.rename(v)] = pr
				}
			}
		case rules.EvFree:
			free(w.p, st, e.Var, e, w.reported)
			delete(st.produced, e.Var)
			delete(st.usedOn, e.Var)
			delete(st.recorded, e.Var)
		case rules.EvReturn:
			f.returns = append(f.returns, e.Var)
		case rules.EvCall:
			w.call(e, f, i)
		}
	}
}

// call follows an EvCall into the callee's events, then binds the call's
// result to what the callee returned.
func (w *walker) call(e *rules.Event, f *frame, i int) {
	if e.Callee == nil || f.depth >= maxInline || f.onStack(e.Callee) {
		if e.Var != "" {
			produce(w.st, e.Var, e, i, false)
		}
		return
	}
	sub := &frame{fn: e.Callee, depth: f.depth + 1, parent: f, prefix: fmt.Sprintf("%s%d:", e.Callee.Name, i),
		cur: e.Stream, curText: e.StreamText, call: e, via: cmp.Or(f.via, e)}
	for k, param := range e.Params {
		// The callee's parameter holds what the caller passed.
		if k < len(e.From) && e.From[k] != "" {
			alias(w.st, sub.rename(param), []string{e.From[k]})
			if w.st.bound == nil {
				w.st.bound = map[string]bool{}
			}
			w.st.bound[sub.rename(param)] = true
		}
	}
	enters := len(w.st.enters)
	w.events(e.Callee.Events, sub)
	w.st.enters = w.st.enters[:min(enters, len(w.st.enters))]
	f.enter(w.st)
	if e.Var == "" {
		return
	}
	if len(sub.returns) > 0 {
		alias(w.st, e.Var, sub.returns)
	} else {
		produce(w.st, e.Var, e, i, false)
	}
}

// enter makes f the frame whose events st sees: a called method's own
// hazards stay quiet (it is checked itself), and what it writes or uses
// is attributed to the call that led to it.
func (f *frame) enter(st *state) {
	st.quiet, st.via, st.entry = f.depth > 0, f.via, f.cur
}

// streamHandles returns the variables a function uses as streams, events
// or work handles: the stream of a `with torch.cuda.stream(v)`, either
// side of a wait_stream/wait_event, the stream of a record_stream, what
// it waits.
func streamHandles(f *frame) map[string]bool {
	var out map[string]bool
	add := func(text string) {
		if text == "" {
			return
		}
		text = f.rename(text)
		if out == nil {
			out = map[string]bool{}
		}
		out[text] = true
	}
	for _, e := range f.fn.Events {
		switch e.Kind {
		case rules.EvStreamEnter, rules.EvWaitStream, rules.EvWaitEvent:
			add(e.StreamText)
			add(e.OtherText)
		case rules.EvRecordStream:
			add(e.OtherText)
		case rules.EvWait:
			// What is waited is a work handle or a future, whose wait()
			// is the synchronisation itself.
			add(e.Var)
		}
	}
	return out
}

// alias binds v to objects that the variables from hold (`for v in
// from`, `v = from[0]`, `v = [a, b]`): v holds what the latest of their
// producers made, and was used where that one was. When none was produced
// in the function, v holds values from outside it, like a parameter.
func alias(st *state, v string, from []string) {
	src, best := "", -1
	for _, f := range from {
		if p, ok := st.produced[f]; ok && p.idx > best {
			src, best = f, p.idx
		}
	}
	if best < 0 {
		delete(st.produced, v)
		delete(st.usedOn, v)
		delete(st.recorded, v)
		return
	}
	// Copied before v's entries go: v may be one of from (x = x[0]).
	used := make(map[string]prod, len(st.usedOn[src]))
	for k, u := range st.usedOn[src] {
		used[k] = u
	}
	rec := make(map[string]bool, len(st.recorded[src]))
	for k := range st.recorded[src] {
		rec[k] = true
	}
	st.produced[v] = st.produced[src]
	delete(st.usedOn, v)
	if len(used) > 0 {
		st.usedOn[v] = used
	}
	delete(st.recorded, v)
	if len(rec) > 0 {
		st.recorded[v] = rec
	}
}

// exitArm returns the innermost arm of a that leaves the function, or nil.
func exitArm(a *rules.Arm) *rules.Arm {
	for x := a; x != nil; x = x.Parent {
		if x.Exits {
			return x
		}
	}
	return nil
}

// produce records a write of v; inPlace: into v's existing memory (a
// collective's output), which keeps its allocation and the streams that
// used it since.
func produce(st *state, v string, e *rules.Event, i int, inPlace bool) {
	if v == "" {
		return
	}
	p := prod{stream: e.Stream, text: e.StreamText, idx: i, pos: e.Pos, arm: e.Arm, name: v, via: st.via, fresh: e.Fresh, device: e.Device}
	old, had := st.produced[v]
	if p.exit = exitArm(e.Arm); p.exit != nil && had {
		p.before = &old
	}
	if inPlace && had {
		p.alloc = old.allocation()
	} else {
		delete(st.usedOn, v)
	}
	st.produced[v] = p
	st.use(v, e, i)
}

// local is a variable's name as its own function's code spells it: a
// called method's locals are renamed apart (frame.rename).
func local(v string) string {
	if i := strings.LastIndexByte(v, ':'); i >= 0 {
		return v[i+1:]
	}
	return v
}

// recordArg names stream s as a record_stream argument: the current
// stream by the call that returns it.
func recordArg(s *rules.Stream, f *rules.File) string {
	if s == nil {
		return currentStream(f)
	}
	return s.ID
}

// viaText names the call through which p's write or use came, for
// messages ("" for the checked function's own).
func (p prod) viaText() string {
	if p.via == nil {
		return ""
	}
	return fmt.Sprintf(", in %s called at line %d", shortName(p.via.Callee), p.via.Pos.Line)
}

// nameable: p's stream text means the same in the checked function (its
// own code, or an attribute of the shared instance), so a fix can name it.
func (p prod) nameable() bool {
	return p.via == nil || p.text == "" || strings.HasPrefix(p.text, "self.")
}

// shortName is a method's name without its module: Class.method.
func shortName(fn *rules.Function) string {
	if fn == nil {
		return "a method"
	}
	parts := strings.Split(fn.Name, ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ".")
}

// allocation is the write that made p's memory.
func (p prod) allocation() *prod {
	if p.alloc != nil {
		return p.alloc
	}
	return &p
}

func (st *state) use(v string, e *rules.Event, i int) {
	if st.usedOn[v] == nil {
		st.usedOn[v] = map[string]prod{}
	}
	st.usedOn[v][sid(e.Stream)] = prod{stream: e.Stream, text: e.StreamText, idx: i, pos: e.Pos, via: st.via}
}

func consume(p *rules.Pass, st *state, v string, e *rules.Event, i int, inPlace bool, reported map[string]bool) {
	if v == "" {
		return
	}
	pr, ok := st.produced[v]
	for ok && pr.exit != nil && !e.Arm.Within(pr.exit) {
		// Written on a path that left: this read sees the write before.
		if pr.before == nil {
			return
		}
		pr = *pr.before
	}
	if !ok {
		classmateWrite(p, st, v, e, reported)
		return
	}
	if e.Unordered {
		unordered(p, st, v, pr, e, reported)
		return
	}
	st.use(v, e, i)
	if pr.fresh {
		return // allocated, never written: nothing to wait for
	}
	if st.orderedOn(pr, e.Stream) {
		return
	}
	if rules.Exclusive(pr.arm, e.Arm) {
		return // the write is in the other arm of an if/else: not on this path
	}
	if e.Returned && sid(pr.stream) == sid(st.entry) {
		// Returned from inside a stream context: the caller takes it
		// on the stream it was written on.
		return
	}
	if e.Return && !st.quiet && callersWait(st, pr) {
		return
	}
	if r, ok := st.evRecorded[sid(pr.stream)]; ok && e.Escape && r > pr.idx {
		// Handed on after an event was recorded on the producer's
		// stream: whoever takes it can wait that event (the stash of
		// (buffer, event) pairs that offloading and prefetching keep).
		return
	}
	if e.Kept && sharedStreamText(pr.text) && classmateWaits(st, pr) {
		// Handed on (stored on the object) after a write on a stream the
		// object holds, which a method of its class waits for before it
		// reads: torchrec's pipeline keeps the next batch in
		// self._batch_ip1 and waits self._memcpy_stream before it reads
		// it. (A stash nobody waits for stays a hazard.)
		return
	}
	if e.Stored && pr.via != nil {
		// Filed in a container (x[k] = v) after a called method made it:
		// most likely its result is being kept, not copied.
		return
	}
	key := fmt.Sprintf("%s@%d", v, pr.idx)
	// A called method's own hazards are reported where it is checked
	// itself; a write of the checked function that the method reads on
	// another stream through a parameter it passed is this function's
	// (insightface's partial FC: the labels copied here, all-gathered on
	// the method's side stream). What the caller left on the instance is
	// left alone: most of it is no device memory (lists of modules).
	if reported[key] || st.quiet && (pr.via != nil || !st.bound[v]) {
		return
	}
	reported[key] = true
	through := st.via
	if !st.quiet {
		through = nil
	}
	v = local(v)
	what := "read"
	if inPlace {
		what = "written again in place"
	}
	if e.Escape {
		what = "handed on with an event that was not recorded on its stream after the write"
	}
	if e.Kind == rules.EvCollective {
		what = "used by " + rulekit.OpName(e.Site)
	}
	where := pr.pos.Short()
	if pr.name != "" && pr.name != v && local(pr.name) != v {
		where += fmt.Sprintf(", as %q", local(pr.name))
	}
	where += pr.viaText()
	if pr.waited != nil {
		where = fmt.Sprintf("by %s at %s, whose wait() at line %d orders only that stream", pr.waitedOp, pr.pos.Short(), pr.waited.Line)
	}
	effect := "this can see the tensor before the write finishes (silently wrong values)"
	if inPlace {
		effect = "the two writes can land in either order (silently wrong values)"
	}
	d := rules.Diagnostic{Pos: e.Pos, Message: fmt.Sprintf(
		"%q is written on %s (%s) and %s here on %s with no wait_stream/wait_event in between: "+
			"the streams run concurrently, so %s",
		v, stext(pr.text, pr.stream), where, what, stext(e.StreamText, e.Stream), effect)}
	if pr.waited != nil {
		d.Related = append(d.Related, rulekit.Related(*pr.waited, fmt.Sprintf("the wait() of that %s orders %s only", pr.waitedOp, stext(pr.text, pr.stream))))
	} else {
		d.Related = append(d.Related, rulekit.Related(pr.pos, fmt.Sprintf("%q written on %s", cmp.Or(local(pr.name), v), stext(pr.text, pr.stream))))
	}
	if pr.via != nil {
		d.Related = append(d.Related, rulekit.Related(pr.via.Pos, fmt.Sprintf("the call of %s that writes it", shortName(pr.via.Callee))))
	}
	if through != nil {
		d.Related = append(d.Related, rulekit.Related(through.Pos, fmt.Sprintf("the call of %s that reads it", shortName(through.Callee))))
	}
	f := p.Prog.File(e.Pos.Path)
	var edit *rules.Edit
	switch {
	case e.Stream != nil && pr.stream == nil && len(st.enters) > 0 && st.enters[len(st.enters)-1].Stream != nil && sid(st.enters[len(st.enters)-1].Stream) == sid(e.Stream):
		// Consumer inside `with torch.cuda.stream(s)`, producer outside:
		// make s wait for the outer stream before entering.
		enter := st.enters[len(st.enters)-1]
		s := enter.StreamText
		if s == "" {
			s = e.StreamText
		}
		if s != "" {
			ed := rulekit.InsertBefore(e.Pos.Path, enter.StmtLine, indent(f, enter)+s+".wait_stream("+currentStream(f)+")\n")
			edit = &ed
		}
	case e.Stream == nil && pr.stream != nil && pr.text != "" && pr.nameable():
		ed := rulekit.InsertBefore(e.Pos.Path, stmtLine(e), indent(f, e)+currentStream(f)+".wait_stream("+pr.text+")\n")
		edit = &ed
	case e.Stream != nil && pr.stream != nil && pr.text != "" && e.StreamText != "" && pr.nameable():
		ed := rulekit.InsertBefore(e.Pos.Path, stmtLine(e), indent(f, e)+e.StreamText+".wait_stream("+pr.text+")\n")
		edit = &ed
	}
	if edit != nil {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Insert the missing wait_stream", Edits: []rules.Edit{*edit}})
	}
	p.Report(d)
}

func free(p *rules.Pass, st *state, v string, e *rules.Event, reported map[string]bool) {
	last, ok := st.produced[v]
	if !ok {
		return
	}
	pr := *last.allocation()
	ids := make([]string, 0, len(st.usedOn[v]))
	for id := range st.usedOn[v] {
		ids = append(ids, id)
	}
	slices.Sort(ids) // report the same stream whatever the map's order
	for _, id := range ids {
		u := st.usedOn[v][id]
		if id == sid(pr.stream) || st.recorded[v][id] || st.ordered(sid(pr.stream), id, u.idx) {
			continue
		}
		key := fmt.Sprintf("free %s@%d", v, pr.idx)
		if reported[key] || st.quiet {
			return
		}
		reported[key] = true
		d := rules.Diagnostic{Pos: e.Pos, Message: fmt.Sprintf(
			"%q is allocated on %s (%s), used on %s (%s) and freed here without %s.record_stream(%s): "+
				"the allocator can hand its memory to new work on %s while %s still uses it (use-after-free, silent corruption)",
			v, stext(pr.text, pr.stream), pr.pos.Short()+pr.viaText(), stext(u.text, u.stream), u.pos.Short()+u.viaText(), v, cmp.Or(u.text, recordArg(u.stream, p.Prog.File(e.Pos.Path))),
			stext(pr.text, pr.stream), stext(u.text, u.stream))}
		d.Related = append(d.Related, rulekit.Related(u.pos, fmt.Sprintf("%q used on %s", v, stext(u.text, u.stream))))
		if pr.via != nil {
			d.Related = append(d.Related, rulekit.Related(pr.via.Pos, fmt.Sprintf("the call of %s that allocates it", shortName(pr.via.Callee))))
		}
		f := p.Prog.File(e.Pos.Path)
		switch {
		case !isIdent(v) || !u.nameable():
		case u.stream != nil && u.text != "":
			d.Fixes = append(d.Fixes, rules.Fix{Title: "Record the stream that uses the tensor before freeing it",
				Edits: []rules.Edit{rulekit.InsertBefore(e.Pos.Path, stmtLine(e), indent(f, e)+v+".record_stream("+u.text+")\n")}})
		case u.stream == nil && e.Stream == nil && pr.stream != nil:
			// Used on the current stream, freed on it: record it.
			d.Fixes = append(d.Fixes, rules.Fix{Title: "Record the current stream before freeing the tensor",
				Edits: []rules.Edit{rulekit.InsertBefore(e.Pos.Path, stmtLine(e), indent(f, e)+v+".record_stream("+currentStream(f)+")\n")}})
		}
		p.Report(d)
		return
	}
}

// currentStream is how the fix names the current stream: through the
// accelerator abstraction in code written against it (DeepSpeed's and
// ColossalAI's get_accelerator(), which may stand for xpu or npu), else
// torch.cuda.
func currentStream(f *rules.File) string {
	if f != nil && bytes.Contains(f.Src, []byte("get_accelerator()")) {
		return "get_accelerator().current_stream()"
	}
	return "torch.cuda.current_stream()"
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func stmtLine(e *rules.Event) int {
	if e.StmtLine > 0 {
		return e.StmtLine
	}
	return e.Pos.Line
}

func indent(f *rules.File, e *rules.Event) string {
	if e.Indent != "" {
		return e.Indent
	}
	return rulekit.Indent(f, stmtLine(e))
}

// sharedStreamText reports a stream named by an attribute path
// (self._memcpy_stream): one the instance keeps, which other code can
// reach and wait for.
func sharedStreamText(t string) bool {
	return strings.Contains(t, ".") && !strings.ContainsAny(t, "()[] ")
}
