package flow

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// panics counts the lowerings a bug stopped (see Lower).
var panics atomic.Int64

// Panics returns how many lowerings a bug has stopped in this process:
// each loses that function's flow facts, so a test run expects none.
func Panics() int64 { return panics.Load() }

// Lower runs the flow pass over one function. node is the function's
// syntax: *ast.Module (module body), *ast.FunctionDef,
// *ast.AsyncFunctionDef or *ast.Lambda. Nested function and class bodies
// are not entered (they are functions of their own). Lower is safe to call
// with a nil Resolver or node (it does nothing).
//
// Lower is safe to call for different functions from several goroutines
// only if the Resolver is; it appends to the Program (RankBranch, Work,
// Facts) under a package lock.
func Lower(fn *rules.Function, node ast.Node, r Resolver) {
	if fn == nil || node == nil || r == nil {
		return
	}
	defer func() {
		// The pass must never take the analysis down; a bug here loses
		// only this function's flow facts. It is counted (Panics) so
		// that tests fail on it, and shown with COLLVET_DEBUG set.
		if p := recover(); p != nil {
			panics.Add(1)
			if os.Getenv("COLLVET_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "collvet: lowering %s: %v\n%s", fn.Name, p, debug.Stack())
			}
		}
	}()
	l := newLowerer(fn, r)
	if l == nil {
		return
	}
	l.node = node
	// (CV401 reads the uses of an async collective's outputs too.)
	l.uses = l.src.mentionsAny(node.Span(), []string{"stream", "resize_", "async_op", "irecv"}) ||
		l.src.callsMPIBuffers(node.Span()) || l.streamClass(fn)
	if l.inline = l.inlineCalls(node); len(l.inline) > 0 {
		l.uses = true
		l.callTarget = map[*ast.Call]string{}
	}
	if rp, ok := r.(RankParamer); ok {
		params := rp.RankParams(fn)
		for _, name := range ShiftParams(params) {
			markVar(&l.shiftVars, name, true)
		}
		for _, p := range params {
			if shiftMark(p) {
				continue // read by ShiftParams above
			}
			if name, held := IsHeldParam(p); held {
				l.setRankObject(name, nil, false)
			} else if name, fs := IsFsParam(p); fs {
				l.markFs(name, true, nil)
			} else if name, count := IsFsCountParam(p); count {
				markVar(&l.fsCounts, name, true)
			} else {
				l.rankVars[p] = true
			}
		}
	}
	l.seedRankAttrs(fn, node)
	l.seedFsAttrs(fn, node)
	if l.uses {
		l.seedHostAttrs(fn, node)
	}
	l.seedHeldGroups(fn, node)
	// A module body starts with the rank names it imports; a function
	// with its module's, less those it binds itself.
	var local map[string]bool
	seed := func(globals, into map[string]bool) {
		if len(globals) == 0 {
			return
		}
		if _, isModule := node.(*ast.Module); !isModule && local == nil {
			local = boundLocally(node)
		}
		for name := range globals {
			if !local[name] {
				into[name] = true
			}
		}
	}
	if ed, ok := r.(EnclosingDefer); ok {
		if pfn, pnode := ed.EnclosingDef(fn); pfn != nil && pnode != nil {
			seed(l.enclosingRanks(pfn, pnode), l.rankVars)
		}
	}
	og, _ := r.(OwnRankGlobaler)
	if og != nil {
		seed(og.OwnRankGlobals(l.path), l.ownVars)
	}
	rg, _ := r.(RankGlobaler)
	if rg != nil {
		seed(rg.RankGlobals(l.path), l.rankVars)
	}
	rd, _ := r.(RankGlobalDefser)
	if _, isModule := node.(*ast.Module); rd != nil && !isModule {
		for name, d := range rd.RankGlobalDefs(l.path) {
			if l.rankVars[name] && l.rankDefs[name] == nil {
				l.setRankDef(name, d)
			}
		}
	}
	var body []ast.Stmt
	switch n := node.(type) {
	case *ast.Module:
		body = n.Body
	case *ast.FunctionDef:
		body = n.Body
		l.decorators(n.DecoratorList, n.Pos, body)
		l.stepBatch(n)
	case *ast.AsyncFunctionDef:
		body = n.Body
		l.decorators(n.DecoratorList, n.Pos, body)
	case *ast.Lambda:
		l.expr(n.Body, newState(), false)
		return
	default:
		return
	}
	l.body = body
	l.gradInputConds(node)
	l.zero3 = l.zero3Models(body)
	if gs, ok := r.(GradSyncer); ok {
		l.syncs = gs.Syncs(fn) || l.callsSync(gs)
	}
	st, exited := l.block(body, newState())
	l.rankBoundReads(body)
	if _, isModule := node.(*ast.Module); isModule && rg != nil && len(l.rankVars) > 0 {
		names := make(map[string]bool, len(l.rankVars))
		for v := range l.rankVars {
			names[v] = true
		}
		rg.SetRankGlobals(l.path, names)
		if rd != nil {
			defs := map[string]ast.Expr{}
			for v := range names {
				if d := l.rankDefs[v]; d != nil {
					defs[v] = d
				}
			}
			rd.SetRankGlobalDefs(l.path, defs)
		}
		if og != nil && len(l.ownVars) > 0 {
			own := make(map[string]bool, len(l.ownVars))
			for v := range l.ownVars {
				own[v] = true
			}
			og.SetOwnRankGlobals(l.path, own)
		}
	}
	l.exchanges(body)
	l.deviceBinding(body, node)
	if _, isModule := node.(*ast.Module); isModule {
		for _, s := range body {
			if i, ok := s.(*ast.If); ok && isMainGuard(i.Test) {
				l.deviceBinding(i.Body, node) // the script's own statements
			}
		}
	}
	if !exited {
		end := l.pos(node.Span())
		end.Line, end.Col = end.EndLine, end.EndCol
		l.leave(st, end)
	}
}

// lowerer holds the state of one Lower call.
type lowerer struct {
	fn   *rules.Function
	node ast.Node // the function (or module) being lowered
	// closures: the nested defs that wait the function's handles
	// (waitingClosures), by name; nil until asked.
	closures map[string][]string
	r        Resolver
	tb       *api.Tables
	file     *rules.File
	src      *source
	path     string

	streams []streamCtx              // active stream contexts, innermost last
	synth   map[string]*rules.Stream // streams known only by their text in this function
	eventOn map[string]streamCtx     // event variable -> stream it was recorded on
	// curAlias: locals bound to current_stream()/default_stream(), with the
	// stream that call denoted where it ran (compute = current_stream()
	// before entering a side stream's context still names the outer one).
	curAlias map[string]streamCtx
	// streamVars: locals bound to a stream by assignment (s2 = s1,
	// stream = side); after an if/else whose arms bind one to different
	// streams, to a stream whose Alts are both (see mergeStreamVars).
	streamVars map[string]streamCtx
	rankVars   map[string]bool // locals holding a rank-dependent value
	// rankCounterAttrs: attribute paths of the instance (self._step)
	// stepped in a rank arm of a loop that reads them (loopRankFlags).
	rankCounterAttrs map[string]bool
	// rankLoaded: rank locals holding what a loader read from a path
	// named for the rank (a checkpoint's shard): its values stored under
	// a key (ckpt["epoch"]) are the same in every rank's shard.
	rankLoaded map[string]bool
	// ifTests: the tests of the enclosing ifs whose then arm is being
	// lowered, innermost last; workConds: for a work handle bound under
	// them, their conjuncts (a later `if` on them waits it or not).
	ifTests []ast.Expr
	// armIfs: the if statements whose arms the walk is in, outermost
	// first, with the arm and the loop depth (nextIterations).
	armIfs []armIf
	// elseTests: the tests of the enclosing ifs whose else arm is being
	// lowered (a handle bound there exists only where they are false).
	elseTests []ast.Expr
	workConds map[*rules.Work][]string
	// workInts: the same conditions where they compare one subject with
	// an integer, for tests that exclude them (`cp_rank == 0` after a
	// handle made under `cp_rank > 0`).
	workInts map[*rules.Work][]intCond
	// rankDefs: for rank locals, the expression last assigned (a split's
	// color may be spelled either way: rules.Group.Color); nil until used.
	rankDefs map[string]ast.Expr
	// fsCuts: locals rebound, under a file system check, to a value
	// computed from their own (`items = items[len(done):]`): a loop over
	// one runs as many passes as this host's check left it.
	fsCuts map[string]bool
	// oomNones: locals holding what a helper returns None in place of
	// when it runs out of memory (markOOMNone).
	oomNones map[string]*oomNone
	// asyncBufs: the tensors async collectives of this function use (a
	// fresh tensor bound to one of these names is an event even in a
	// function that never mentions a stream).
	asyncBufs map[string]bool
	// rankObjects: locals that hold an object on some ranks only (None on
	// the others): `x is None` tests of them are rank tests, outside the
	// rank test's arm that made them (the if, nil for `X if rank == 0
	// else None`).
	rankObjects map[string]rankObject
	// armLists: the list each local was last bound to in a rank test's
	// arm, by its length; rankLens: locals the two arms of a rank test
	// bound to lists of different lengths (trackArmList).
	armLists map[string]armList
	rankLens map[string]bool
	// armTexts: the attributes a rank test's arm set to a text (a
	// checkpoint's name), by the arm.
	armTexts map[string]armList
	// plainLists: the locals last bound outside any rank test's arm,
	// by the length of what they hold (-1 for a computed list,
	// unknownLength for another value).
	plainLists map[string]int
	// uniformAttrs: for rank attributes of self (seedRankAttrs), the
	// groups within which they are uniform (flow.RankAttr.UniformIn).
	uniformAttrs map[string][]string
	fsVars       map[string]bool // locals (and self attributes) holding a file system probe's answer (fsProbe)
	notNone      map[string]bool // locals whose latest binding is never None (notNoneValue); nil until used
	fsLists      map[string]bool // locals holding a listing of a directory, or a list made from one (listing)
	// checkedNames: locals bound, in a host's file check, from the path
	// it checks (`name = os.path.basename(resume_path)`), see pathPosition.
	checkedNames map[string]bool
	fsOrigin     map[string]ast.Node // where each of fsVars took its answer (markFs), when known
	// hostTests are the file system checks whose arms the walk is in
	// (ifs that call a probe in their test): a flag or path they set
	// (flagValue) is that host's answer too.
	hostTests []ast.Expr
	// clockArms counts the enclosing if arms whose test reads the clock
	// or asks whether concurrent work has finished (LocalTiming): a True
	// or False set there is that rank's moment's answer.
	clockArms   int
	timeVars    map[string]bool // locals holding a clock reading or a completion probe's answer (timingProbe)
	timeRecords map[string]bool // those of timeVars that hold a record with a reading among its fields (timingTest)
	randVars    map[string]bool // locals holding a random draw (randomDraw); nil until used
	deviceVars  map[string]bool // locals holding this host's GPU count (deviceCount); nil until used
	fsCounts    map[string]bool // positions read from stored data under a host's file check (markFsCount); nil until used
	reseeded    map[string]bool // process-wide generators reseeded in this function with a value every rank holds (reseed)
	// rankArms counts the enclosing if arms whose test is a rank test:
	// there a rank-dependent root may be every rank's same value (`if
	// rank == owner: broadcast(t, src=rank)`), so rankRoot stays quiet.
	rankArms int
	rankIfs  []*rankIf
	// ownVars: rank locals that hold the process's own global rank itself
	// (rank = dist.get_rank()), not a value computed from it.
	ownVars map[string]bool
	// shiftVars: locals bound to the own rank shifted round the ring by
	// an offset every rank shares ((rank + step) % world), rankShift.
	shiftVars map[string]bool
	// notOwn: names markShifts saw bound to something else too.
	notOwn map[string]bool
	// heldLocals: locals that hold an object only some ranks hold, as
	// RankArguments reads them (heldLocals).
	heldLocals map[string]bool
	// sentinels: locals bound to next(it, None) (noteSentinel), by the
	// assignment that bound them.
	sentinels map[string]*ast.Assign
	// heldGroups: the instance's group attributes (self.pred_group) that
	// its __init__ binds only where a rank test holds (initHeldGroups),
	// keyed as the method reads them; nil when none.
	heldGroups map[string]bool
	heldOps    map[*rules.OpRef]bool // ops whose group argument is one of heldGroups
	// uniformOff, while set, makes rank predicates that are uniform within
	// some groups count as no rank (uniformIn).
	uniformOff int
	// syncs: the function issues a synchronised backward or forward
	// (GradSyncer.Syncs), so its locals computed from a forward matter.
	syncs bool
	// zero3: locals holding a model whose parameters DeepSpeed ZeRO-3
	// partitions (zero3Models).
	zero3 map[string]bool
	// hostAnswerTests: the tests of the enclosing ifs whose answer
	// depends on this host's file system, directly or through a value
	// found there (`if resume_file:`), innermost last; a helper called
	// in such an arm stores that host's resume position (helperFsCounts).
	hostAnswerTests []ast.Expr
	// keptTruths memoizes keptTruthTest per name or path: the answer
	// depends on the whole function's assignments, not on where the test
	// stands.
	keptTruths map[string]bool
	// replicated: the locals holding an engine deepspeed.initialize made
	// with a literal config whose ZeRO stage is below 3 (parameters
	// whole on every rank); zero3Models fills it.
	replicated map[string]bool
	// localVars (nil until used): locals computed from this rank's forward of a
	// synchronising module (its loss), whose NaN/Inf tests differ
	// between ranks (localNumerics).
	localVars map[string]bool
	// batchVars (nil until used): locals holding the batch this rank loaded (the target
	// of `for batch in loader`) or a part of it (batchTest).
	batchVars map[string]bool
	// amountVars (nil until used): locals holding a count or total of
	// this rank's batch contents (batchAmount), until a uniform
	// collective makes them every rank's.
	amountVars map[string]bool
	// jaxArrays (nil until used): locals bound to the result of a
	// jitted program function (jaxhost.go).
	jaxArrays map[string]bool
	setVars   map[string]bool      // locals holding a set (setValued)
	dataVars  map[string]bool      // locals filled per element of this rank's data (dataValued)
	graphs    map[string]rules.Pos // CUDA graphs holding captured collectives, by path (graphs.go)
	body      []ast.Stmt           // the function's statements
	// augCounted: the augmented assignment being lowered steps a rank
	// counter (see the AugAssign case); armCounters: counters stepped in
	// a rank test's arm, rank values once the outermost such arm ends.
	augCounted  bool
	armCounters map[string]bool
	// nanArms counts the enclosing arms of a NaN/Inf test of this rank's
	// own value (localNumerics); nanFlags are the locals set to a
	// constant inside one (`valid = True; if torch.isnan(loss): valid =
	// False`): a test of the flag is that NaN test (nanFlagTest).
	nanArms  int
	nanFlags map[string]bool
	// commandArms counts the enclosing arms of a rank test that splits a
	// command loop's roles (commandProtocol).
	commandArms int
	// notDist counts enclosing arms on which torch.distributed is not
	// initialised (distributedTest): one process, no divergence.
	notDist int
	// onceIssued: calls that their `while True:` loop issues exactly once
	// before it ends, whatever arms its passes take (issuedOnce).
	onceIssued map[*ast.Call]bool
	// singleElifs: elif statements whose arm runs only in a one-process
	// job (elifAfterDistributed); oneProcess counts the enclosing such
	// arms, where no test can split ranks.
	singleElifs map[*ast.If]bool
	oneProcess  int
	// noRendezvous counts enclosing else arms of a test of env://'s
	// variables in which no process group can form (RendezvousEnvTest):
	// the process runs alone there.
	noRendezvous int
	// shadowed counts, per name, the comprehensions being lowered that
	// bind it: their variables are not the function's locals.
	shadowed map[string]int
	// compAlias maps a comprehension's target names to the variable
	// they range over (compSources), while the comprehension is lowered.
	compAlias map[string]string
	// hostVars are the locals whose last assignment made a host value
	// (hostValue); augHost marks the assignment of an "x op= y" that
	// keeps x on the host (keepsHost).
	hostVars map[string]bool
	// agreedAttrs: attribute paths a method called on their object set
	// from a collective's result (agreedSetAttrs): the same on every rank
	// until rebound, whatever the object was built with.
	agreedAttrs map[string]bool
	// nodeSplitVars: locals holding a WebDataset split between nodes,
	// or a loader over one, with no fixed epoch length (nodeSplitData).
	nodeSplitVars map[string]bool
	// withIters: names a with statement bound to a progress bar over a
	// range (`with tqdm.trange(a, b) as bar`).
	withIters map[string]*ast.Call
	// gpuVars are the locals and attributes whose last assignment made
	// device memory (gpuValue).
	gpuVars map[string]bool
	// handlers counts the except clauses being lowered around the
	// current statement.
	handlers int
	// paired are the ifs on a rank test whose arms another if on the
	// same test completes (pairSplitArms).
	paired map[*ast.If]bool
	// staged: the variables the function copies to the device (see
	// stagedForDevice); nil until first asked.
	staged map[string]bool
	// loopDone: the names a finished for loop bound as its target (and
	// nothing rebound since): after the loop, `batch is None` asks only
	// whether the loop ran (batchTest).
	loopDone map[string]bool
	augHost  bool
	// builtLocals: the locals last bound to a constructor call
	// (`env = Env(leader=…)`), whose fields the walk follows itself
	// rather than asking which fields the class's instances keep a rank
	// in (InstanceRankAttrer).
	builtLocals map[string]bool
	// dictNames: the names the function calls a dict's own methods on
	// (dictItem; nil until first asked).
	dictNames map[string]bool
	// handleCarriers: locals given a job or handle attribute
	// (`submat.job_handle = job`), which their consumers wait on.
	handleCarriers map[string]bool
	// fsLoaders: loaders whose state was loaded from a file under this
	// host's check (fsCounted: iterating one runs that host's passes).
	fsLoaders map[string]bool
	// unpackKept, unpackFrom: while an element of a kept helper result is
	// assigned (keptRefs), the objects it may be.
	unpackKept bool
	unpackFrom []string
	// handleLists are the locals bound to a new empty list ([] or
	// list()): async work filed in one (reqs.append(dist.isend(…))) stays
	// this function's to wait until the list leaves it.
	handleLists map[string]bool
	// pyLists are the locals bound to a new Python list or dict ([],
	// [None] * n, [a, b], {}, a comprehension): a store into one of its
	// elements (xs[i] = v, metrics[k] = v) binds the element, it writes
	// no device memory.
	pyLists map[string]bool
	// everyRankLists are the locals bound, outside any rank test, to a
	// list with elements ([torch.empty_like(t) for _ in range(n)], [None]
	// * n): every rank holds one (listOnEveryRank).
	everyRankLists map[string]bool
	// rpcFutures are the locals bound to an RPC's future or remote
	// reference (rpc_async, remote): what they give was sent by another
	// process (handedOver).
	rpcFutures map[string]bool
	// outerNames are the names the function declares global or nonlocal
	// (nil until asked: outerName).
	outerNames map[string]bool
	// gradInputs: in an autograd Function's backward, the ctx attributes
	// its forward set to an input's requires_grad, by the input's index
	// (ctx.compute_weight_gradient = weight.requires_grad is
	// ctx.needs_input_grad[1]); ctxName is backward's ctx parameter.
	gradInputs map[int]string
	ctxName    string
	meshDims   map[string]int // locals holding a DeviceMesh, with its number of dimensions
	stmt       ast.Stmt       // the statement being lowered
	callAsync  map[*ast.Call]*rules.Site
	// workGroup: the group argument's text of each async call's work
	// ("" for the default group), to tell works on one group (chained).
	workGroup map[*rules.Work]string
	// workGroupArg: the group argument itself, for the names it reads.
	workGroupArg map[*rules.Work]ast.Expr
	// handing counts the call arguments being lowered that a call may
	// only keep (Event.Handed).
	handing int
	// uses: emit tensor use/free events. Only CV203 reads them, and only
	// across streams, so functions whose text never mentions a stream skip
	// them (most of a large code base; they would dominate the events).
	uses bool
	// inline: calls of methods of the instance (self.m(...)) whose
	// definition, in this file, handles streams. Each gets an EvCall
	// event, so CV203 follows the callee's events at the call: a buffer
	// the callee leaves on its stream, or returns, is seen where this
	// function reuses or frees it. callTarget: the name such a call's
	// result is bound to (x = self.m(...)); the EvCall binds it.
	inline     map[*ast.Call]*rules.Function
	callTarget map[*ast.Call]string
	// ownMemo holds the function summaries when the resolver keeps no
	// Sources (see memo).
	ownMemo *Sources
	// raising counts enclosing `with self.assertRaises…(…)` / pytest.raises
	// blocks: operations there are expected to fail, not to complete.
	raising int
	// lastRank is the last rank branch of an if statement with no else
	// (its condition and the statements after it), to pair it with a
	// later one on the opposite condition (see RankBranch.Paired).
	lastRank *openRankBranch
	// coalescing counts enclosing `with _coalescing_manager(…)` blocks:
	// the operations there are batched, and the manager's own handle (or
	// its exit, when not async) is what completes them.
	coalescing int
	// escaping > 0 while lowering a value that is only handed on (see
	// Event.Escape).
	escaping int
	keeping  int // > 0 while lowering a value stored on an object (self.x = v): Event.Kept
	// returning > 0 while lowering the plain references a return
	// statement inside a stream context hands to the caller (see
	// Event.Returned).
	returning int
	// inReturn > 0 while lowering a return statement's value (see
	// Event.Return).
	inReturn int
	// joining > 0 inside DDP's join() context (or the generic Join),
	// which shadows the collectives of ranks that ran out of data.
	joining int
	// joinedModels: for each enclosing join() block, the names of the
	// models it joins (`net` of `with net.join():`, the elements of
	// `with Join([gen, disc]):`); nil where a block names none.
	joinedModels [][]string
	// arm is the innermost if/else arm being lowered (outside loops only),
	// conds numbers the conditionals, loops counts the enclosing loops.
	arm *rules.Arm
	// iterArm is arm for the conditionals inside the innermost loop
	// (Event.IterArm); bound holds the names the current iteration has
	// bound so far on the path being lowered (a stack that conditionals
	// cut back to its length before them).
	iterArm *rules.Arm
	bound   []string
	conds   int
	loops   int
	// rests: for each block being lowered, outermost first, the
	// statements after the one being lowered; loopRests: for each
	// enclosing loop, the depth of rests at which its body starts.
	rests [][]ast.Stmt
	// finals: the finally blocks of the try statements being lowered,
	// with the index in rests of their body's block (following).
	finals []finalAt
	// catches: the handlers of the try statements being lowered, with
	// the index in rests of their body's block (caughtRaise).
	catches   []catchAt
	loopRests []int
	// loopBodies: the bodies of the loops being lowered, innermost last;
	// loopTargets their targets (nil for a while loop); forIters what the
	// for loops among them iterate.
	loopBodies  [][]ast.Stmt
	loopTargets []ast.Expr
	forIters    []forIter
	// loopStmts: the loop statements being lowered, innermost last.
	loopStmts []ast.Stmt
	// breakStates: for each loop being lowered, innermost last, the
	// merged states its break statements leave it with (nil: none yet).
	breakStates []*state
	// lastSkipped: work made under a test that is false on the last pass
	// of the loop at this depth (`if i != n - 1:` in `for i in range(n)`):
	// none of it is left pending when the loop ends.
	lastSkipped map[*rules.Work]int
	// discards: the discarded work handles so far (drain).
	discards []discard
	// turnMemo: whether each loop (by its first statement) is a balanced
	// turn-taking loop (turnBalanced).
	turnMemo map[ast.Stmt]bool
}

type streamCtx struct {
	s    *rules.Stream
	text string
}

// markVar records that local v holds (on) or no longer holds the kind of
// value the set *m tracks; the set is made on first use.
func markVar(m *map[string]bool, v string, on bool) {
	if !on {
		delete(*m, v)
		return
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[v] = true
}

func newLowerer(fn *rules.Function, r Resolver) *lowerer {
	tb := r.Tables()
	if tb == nil {
		tb = api.Default()
	}
	f := r.File()
	if f == nil {
		return nil
	}
	return &lowerer{fn: fn, r: r, tb: tb, file: f, src: sourceFor(r, f), path: f.Path,
		synth: map[string]*rules.Stream{}, eventOn: map[string]streamCtx{}, curAlias: map[string]streamCtx{},
		rankVars: map[string]bool{}, fsVars: map[string]bool{}, timeVars: map[string]bool{}, ownVars: map[string]bool{}, setVars: map[string]bool{}, hostVars: map[string]bool{}, meshDims: map[string]int{}, callAsync: map[*ast.Call]*rules.Site{}}
}

// state is what flows along one path: the async work handles bound to
// local variables and not yet waited.
type state struct {
	// pending maps a variable to the handles it may hold (several after
	// branches that each bind it: `if g is None: work = pg.op() else: work = g.op()`).
	pending map[string][]*rules.Work
}

func newState() *state { return &state{pending: map[string][]*rules.Work{}} }

func (s *state) has(v string) bool { return len(s.pending[v]) > 0 }

// add records w as possibly held by v (no duplicates).
func (s *state) add(v string, ws ...*rules.Work) {
	for _, w := range ws {
		dup := false
		for _, x := range s.pending[v] {
			dup = dup || x == w
		}
		if !dup {
			s.pending[v] = append(s.pending[v], w)
		}
	}
}

// dropWork forgets w under every variable.
func (s *state) dropWork(w *rules.Work) {
	for k, ws := range s.pending {
		var keep []*rules.Work
		for _, x := range ws {
			if x != w {
				keep = append(keep, x)
			}
		}
		if len(keep) == 0 {
			delete(s.pending, k)
		} else {
			s.pending[k] = keep
		}
	}
}

func (s *state) clone() *state {
	n := newState()
	for k, v := range s.pending {
		n.pending[k] = append([]*rules.Work(nil), v...)
	}
	return n
}

// merge joins the states of paths that meet: a handle pending on any path
// is pending after the join.
func merge(states ...*state) *state {
	n := newState()
	for _, s := range states {
		if s == nil {
			continue
		}
		for k, v := range s.pending {
			n.add(k, v...)
		}
	}
	return n
}

// ---- positions and text ----

func (l *lowerer) pos(p ast.Pos) rules.Pos {
	return rules.Pos{Path: l.path, Line: int(p.Lineno), Col: int(p.ColOffset) + 1, EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset) + 1}
}

func (l *lowerer) stmtInfo() (line int, indent string) {
	if l.stmt == nil {
		return 0, ""
	}
	p := l.stmt.Span()
	line = int(p.Lineno)
	text := l.src.line(line)
	if c := int(p.ColOffset); c <= len(text) {
		indent = text[:c]
		if strings.TrimLeft(indent, " \t") != "" {
			indent = text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		}
	}
	return line, indent
}

func (l *lowerer) event(e *rules.Event) {
	if !l.uses && (e.Kind == rules.EvUse || e.Kind == rules.EvFree || e.Kind == rules.EvReturn) &&
		!(e.Kind == rules.EvUse && e.Fresh && l.asyncBufs[e.Var]) {
		// (A fresh tensor bound to a name an async collective of this
		// function uses is kept: CV202 must know the name moved on.)
		return
	}
	e.StmtLine, e.Indent = l.stmtInfo()
	e.Arm = l.arm
	if l.loops > 0 {
		e.IterArm = l.iterArm
		if e.Kind == rules.EvCollective && e.Site != nil {
			for _, vs := range [2][]string{e.Site.Inputs, e.Site.Outputs} {
				for _, v := range vs {
					if slices.Contains(l.bound, v) {
						e.IterBound = append(e.IterBound, v)
					}
				}
			}
		}
	}
	if e.Stream == nil && e.StreamText == "" && len(l.streams) > 0 && e.Kind != rules.EvWaitStream && e.Kind != rules.EvWaitEvent && e.Kind != rules.EvStreamEnter && e.Kind != rules.EvStreamExit {
		cur := l.streams[len(l.streams)-1]
		e.Stream, e.StreamText = cur.s, cur.text
	}
	l.fn.Events = append(l.fn.Events, e)
}

// text returns the source text of e on one line (the first line, with an
// ellipsis, for multi-line expressions).
func (l *lowerer) text(e ast.Node) string { return nodeText(l.src, e) }

// nodeText is text for a node of the file src holds.
func nodeText(src *source, e ast.Node) string {
	if e == nil {
		return ""
	}
	p := e.Span()
	line := src.line(int(p.Lineno))
	start := int(p.ColOffset)
	if start > len(line) {
		return ""
	}
	if p.EndLineno != p.Lineno {
		return strings.TrimSpace(line[start:]) + " …"
	}
	end := int(p.EndColOffset)
	if end > len(line) || end < start {
		end = len(line)
	}
	return line[start:end]
}

// dotted returns "a.b.c" for a name or attribute chain, the chain of a
// subscript's value, and "" otherwise.
func dotted(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		if v := dotted(e.Value); v != "" {
			return v + "." + e.Attr
		}
	case *ast.Subscript:
		return dotted(e.Value)
	case *ast.Starred:
		return dotted(e.Value)
	}
	return ""
}

// tensors returns the variable paths an argument expression names: the
// expression itself, or the elements of a list/tuple.
func tensors(e ast.Expr) []string {
	switch e := e.(type) {
	case *ast.List:
		var out []string
		for _, x := range e.Elts {
			out = append(out, tensors(x)...)
		}
		return out
	case *ast.Tuple:
		var out []string
		for _, x := range e.Elts {
			out = append(out, tensors(x)...)
		}
		return out
	}
	if d := dotted(e); d != "" {
		return []string{d}
	}
	return nil
}

// arg finds the expression passed for a table argument.
func arg(c *ast.Call, a api.Arg) ast.Expr {
	if a.Name != "" {
		for _, k := range c.Keywords {
			if k.Arg == a.Name {
				return k.Value
			}
		}
	}
	if a.Pos >= 0 && a.Pos < len(c.Args) {
		if _, star := c.Args[a.Pos].(*ast.Starred); !star {
			return c.Args[a.Pos]
		}
	}
	return nil
}

// deviceValue reports a value that names a device: f"cuda:{local_rank}",
// torch.device("cuda", local_rank). It says where this rank's tensors
// live, not what they hold, so it is no rank-dependent value for the
// branches that test it or the data placed with it.
func deviceValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.JoinedStr:
		if len(e.Values) > 0 {
			if k, ok := e.Values[0].(*ast.Constant); ok && k.Type == ast.ConstStr {
				for _, p := range []string{"cuda", "npu", "xpu", "hpu", "mps"} {
					if strings.HasPrefix(k.Str, p) {
						return true
					}
				}
			}
		}
	case *ast.Call:
		return dotted(e.Func) == "torch.device"
	}
	return false
}

// hostValue reports whether an assigned value is made in host memory: a
// call asking for pinned or CPU memory (pin_memory=True, device="cpu"),
// a synchronous copy to the host (.cpu(), .numpy(), .tolist(), .item(),
// .to("cpu")), or a plain Python value: a literal, an f-string, a size or
// count (len(x), t.numel(), t.size(), t.shape, t.dtype). No device work is
// pending on such a value.
func hostValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant:
		return e.Type != ast.ConstNone
	case *ast.JoinedStr:
		return true
	case *ast.BinOp:
		// [None] * n: a Python list of constants, however long.
		if e.Op == ast.Mult && (constDisplay(e.Left) || constDisplay(e.Right)) {
			return true
		}
		// 1 << 20, 4 * 1024: arithmetic on host values stays one.
		return hostValue(e.Left) && hostValue(e.Right)
	case *ast.UnaryOp:
		return hostValue(e.Operand)
	case *ast.Attribute:
		switch e.Attr {
		case "shape", "ndim", "dtype", "device", "is_cuda":
			return true
		}
		return false
	case *ast.Subscript:
		// x.shape[1]: an element of a host value.
		return hostValue(e.Value)
	case *ast.ListComp:
		// [torch.empty(n, pin_memory=True) for _ in range(2)]: a list
		// of host buffers.
		return hostValue(e.Elt) || keysOnly(e.Generators, e.Elt)
	case *ast.DictComp:
		// {k: v.item() for k, v in losses.items()}: Python numbers.
		return hostValue(e.Value) || keysOnly(e.Generators, e.Key, e.Value)
	case *ast.List:
		for _, x := range e.Elts {
			if !hostValue(x) {
				return false
			}
		}
		return len(e.Elts) > 0
	}
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "to" && nonBlocking(c) {
		// x.to("cpu", non_blocking=True): the copy into (pinned) host
		// memory is still running on the stream when the call returns.
		return false
	}
	for _, k := range c.Keywords {
		switch k.Arg {
		case "pin_memory":
			if b, ok := k.Value.(*ast.Constant); ok && b.Type == ast.ConstBool && b.Bool {
				return true
			}
		case "device":
			if cpuDevice(k.Value) {
				return true
			}
		}
	}
	if hostDecoders[dotted(c.Func)] || hostClocks[dotted(c.Func)] || dotted(c.Func) == "torch.device" {
		return true // torch.device("cuda"): a name for a device, no memory
	}
	if streamHandles[dotted(c.Func)] {
		return true // cupy.cuda.ExternalStream(s.cuda_stream): a stream object
	}
	if a, ok := c.Func.(*ast.Attribute); ok && viewMethods[a.Attr] && hostValue(a.Value) {
		return true // torch.tensor(…, pin_memory=True).view(-1, 2): a view of host memory
	}
	if a, ok := c.Func.(*ast.Attribute); ok && strValue(a.Value) {
		return true // "GPU_{}.parquet".format(rank), "/".join(parts): a string's method
	}

	switch f := c.Func.(type) {
	case *ast.Name:
		switch f.Id {
		case "len", "int", "float", "str", "bool", "bytes", "range", "repr", "isinstance", "hasattr":
			return true
		}
	case *ast.Attribute:
		switch f.Attr {
		case "cpu", "numpy", "tolist", "item",
			"decode", "encode", // a str or bytes of Python's (`bytes(t.tolist()).decode()`)
			"pin_memory", // a copy into page-locked host memory, made on the host
			"numel", "nelement", "size", "dim", "element_size", "stride", "data_ptr", "get_device",
			"rank", "get_rank", "get_world_size", "get_local_rank", "get_global_rank", "get_group_rank",
			"get_future": // a work handle's Future
			return true
		case "to":
			return len(c.Args) > 0 && cpuDevice(c.Args[0])
		}
	}
	return false
}

// strValue reports a string literal or f-string.
func strValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant:
		return e.Type == ast.ConstStr
	case *ast.JoinedStr:
		return true
	}
	return false
}

// hostArith reports index bookkeeping in Python ints: arithmetic on
// ranks, sizes and loop indices, as in xformers' ring schedule
// (`dst_rank = (self.my_rank + iter_) % self.world_size`). Each operand
// is a host value (hostValue), a local holding one, or a rank or size by
// its name.
func (l *lowerer) hostArith(e ast.Expr) bool {
	b, ok := e.(*ast.BinOp)
	if !ok {
		return false
	}
	switch b.Op {
	case ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod:
	default:
		return false
	}
	return l.hostInt(b.Left) && l.hostInt(b.Right)
}

func (l *lowerer) hostInt(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinOp:
		return l.hostArith(x)
	case *ast.Name:
		return l.hostVars[x.Id] || l.rankVars[x.Id] || intName(x.Id)
	case *ast.Attribute:
		return intName(x.Attr)
	}
	return hostValue(e)
}

var intSuffixes = []string{"_rank", "_size", "_idx", "_index", "_count", "_len"}

// intName: names that hold a rank, a size, a count or an index (rank,
// my_rank, world_size, tp_size, num_layers, n_heads, chunk_idx), which
// programs keep as Python ints.
func intName(s string) bool {
	switch s {
	case "rank", "world_size", "world", "nranks", "step", "epoch", "iteration", "idx", "index":
		return true
	}
	if strings.HasPrefix(s, "num_") || strings.HasPrefix(s, "n_") {
		return true
	}
	for _, suf := range intSuffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// hostDecoders make plain Python objects out of bytes or text: a decoded
// message holds no device memory (vLLM's `data = msgpack.loads(msg)`,
// then `torch.empty(data["shape"])` under a stream). Unpickling is left
// out: it can make CUDA tensors.
// streamHandles make stream and event objects that wrap CUDA handles on
// the host (CuPy's view of a torch stream, passed on as `stream=`): no
// device memory is written making one, nor read passing one.
var streamHandles = map[string]bool{
	"cupy.cuda.ExternalStream": true, "cupy.cuda.Stream": true, "cupy.cuda.Event": true,
	"cupy.cuda.stream.ExternalStream": true, "cupy.cuda.stream.Stream": true,
}

var hostDecoders = map[string]bool{
	"json.loads": true, "json.load": true, "msgpack.loads": true, "msgpack.unpackb": true,
	"yaml.safe_load": true, "yaml.load": true, "orjson.loads": true, "ujson.loads": true,
}

// keysOnly reports a comprehension over keys or indices only (`for k in
// d.keys()`, `for i in range(n)`) whose elements are computed from those
// names alone (`[k.upper() for k in losses.keys()]`): strings and
// numbers, no tensor.
func keysOnly(gens []*ast.Comprehension, elts ...ast.Expr) bool {
	names := map[string]bool{}
	for _, g := range gens {
		c, ok := g.Iter.(*ast.Call)
		if !ok {
			return false
		}
		a, isAttr := c.Func.(*ast.Attribute)
		if !(isAttr && a.Attr == "keys" && len(c.Args) == 0 || dotted(c.Func) == "range") {
			return false
		}
		n, ok := g.Target.(*ast.Name)
		if !ok {
			return false
		}
		names[n.Id] = true
	}
	only := true
	for _, e := range elts {
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(*ast.Name); ok && !names[x.Id] && !hostBuiltins[x.Id] {
				only = false
			}
			return only
		})
	}
	return only
}

// hostBuiltins are builtins that make Python values from Python values.
var hostBuiltins = map[string]bool{"len": true, "str": true, "int": true, "float": true, "repr": true, "bool": true, "abs": true, "min": true, "max": true}

// hostClocks are clock readings: Python numbers (detectron2's and
// fast-reid's `data_time = time.perf_counter() - start`).
var hostClocks = map[string]bool{
	"time.time": true, "time.perf_counter": true, "time.monotonic": true, "time.process_time": true,
	"time.time_ns": true, "time.perf_counter_ns": true, "time.monotonic_ns": true, "timeit.default_timer": true,
}

// seqValues returns the items of a tuple or list display without
// starred items (nil otherwise), for element-wise assignment.
func seqValues(e ast.Expr) []ast.Expr {
	if _, dict := e.(*ast.Dict); dict {
		return nil
	}
	elts, _ := displayItems(e)
	for _, x := range elts {
		if _, star := x.(*ast.Starred); star {
			return nil
		}
	}
	return elts
}

// handleValue reports whether value makes a stream or an event object: a
// handle on the host, not device memory (wait_event(ev) reads no tensor).
func (l *lowerer) handleValue(value ast.Expr) bool {
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	ext, _ := l.callee(c)
	switch ext {
	case "torch.cuda.Event", "torch.cuda.CUDAGraph", "torch.cuda.graphs.CUDAGraph", "cupy.cuda.Event":
		// An event or a captured graph: g.replay() under a stream
		// launches the graph there, it reads no tensor named g.
		return true
	case "torch.distributed._symmetric_memory.rendezvous", "torch._C._distributed_c10d._SymmetricMemory.rendezvous":
		// A symmetric-memory handle: its buffers are views
		// (symmetricView), its barriers device-side work it enqueues.
		return true
	}
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "record_event" {
		// stream.record_event() returns the Event it recorded.
		return true
	}
	if a, ok := c.Func.(*ast.Attribute); ok && (l.r.Stream(a.Value) != nil || l.synth[dotted(a.Value)] != nil) {
		// What a stream's own methods return is a handle (CuPy's
		// stream.end_capture() returns the graph, stream.record() an
		// event), not device memory.
		return true
	}
	sa := l.tb.Streams[ext]
	return sa != nil && sa.Role == "new_stream"
}

// objectResult reports whether value is the result of an object
// collective (unpickled Python objects on the host).
func (l *lowerer) objectResult(value ast.Expr) bool {
	c, ok := unwrapAwait(value).(*ast.Call)
	if !ok {
		return false
	}
	if s := l.r.Site(c); s != nil {
		return s.Kind == rules.OpObject
	}
	// The program's own copy of a helper the tables describe as an
	// object collective (detectron2's comm.gather, analysed in
	// detectron2 itself) returns what it unpickles, as the entry says.
	if _, fn := l.callee(c); fn != nil {
		names := []string{fn.Name}
		if qn, ok := l.r.(QualifiedNamer); ok {
			names = qn.QualifiedNames(fn)
		}
		for _, name := range names {
			if e := l.tb.Collectives[l.tb.Canonical(name)]; e != nil && e.Kind == "object" {
				return true
			}
		}
		return fn != l.fn && l.returnsObjects(fn)
	}
	// A gather helper of a library outside the program (a vendored
	// detectron2 comm.gather) handed only Python values: it can only
	// return what it unpickled.
	if ext, _ := l.callee(c); ext != "" && handleClass(lastName(ext)) {
		// extlib.CudaEvent(gpu): an event, pool or handle object of an
		// extension, no tensor (SMORE's embedding writer hands its event
		// to the extension, which waits on it).
		return true
	}
	if ext, _ := l.callee(c); ext != "" && objectGatherNames[lastName(ext)] && len(c.Args) > 0 {
		for _, a := range c.Args {
			if !hostValue(a) && !l.notTensorElement(a) {
				return false
			}
		}
		return true
	}
	return false
}

// handleClass reports a class name that says its instances are events,
// handles, pools, locks or queues (CudaEvent, ThreadPool, JobHandle),
// objects that hold no tensor memory of their own.
func handleClass(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for _, s := range []string{"Event", "Handle", "Pool", "Lock", "Queue", "Future", "Semaphore", "Barrier"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// extensionHandle reports `job = extlib.async_write(pool, idx, …)`: a
// call of a library outside torch whose result the program names a job,
// handle or future, an object to wait on (SMORE's embedding writer later
// calls job.sync()), not device memory.
func (l *lowerer) extensionHandle(v string, value ast.Expr) bool {
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	if fn != nil || ext == "" {
		return false
	}
	top, _, _ := strings.Cut(ext, ".")
	switch top {
	case "torch", "numpy", "cupy", "jax", "tensorflow", "mpi4py", "deepspeed", "apex", "transformers":
		return false
	}
	return handleName(v)
}

// handedOver reports a call whose result another thread or process
// produced and handed to this one: an item taken from a queue
// (queue.Queue.get, a multiprocessing queue's), or an RPC's result
// (rpc_sync, a future of rpc_async waited, an RRef fetched to_here). No
// kernel this thread queued writes it: the sender's work is finished or
// ordered by the hand-over itself (TensorPipe's CUDA RPC records the
// result on the receiving stream).
func (l *lowerer) handedOver(value ast.Expr) bool {
	c, ok := unwrapAwait(value).(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	if fn != nil || ext == "" {
		return false
	}
	owner, method := ext, ""
	if i := strings.LastIndexByte(ext, '.'); i >= 0 {
		owner, method = ext[:i], ext[i+1:]
	}
	switch method {
	case "get", "get_nowait":
		return strings.HasPrefix(owner, "queue.") || strings.HasPrefix(owner, "multiprocessing.") || strings.HasPrefix(owner, "torch.multiprocessing.")
	case "rpc_sync":
		return owner == "torch.distributed.rpc"
	}
	// fut.wait(), rref.to_here(), rpc_async(…).wait(): the receiver is an
	// RPC's future or remote reference.
	a, ok := c.Func.(*ast.Attribute)
	if !ok || !rpcFetch[a.Attr] {
		return false
	}
	switch recv := a.Value.(type) {
	case *ast.Name:
		return l.rpcFutures[recv.Id]
	case *ast.Call:
		return l.rpcCall(recv)
	}
	return false
}

// rpcFetch are the methods that give an RPC future's or RRef's value.
var rpcFetch = map[string]bool{"wait": true, "value": true, "to_here": true}

// rpcCall reports a call of torch.distributed.rpc's rpc_async or remote,
// whose result is a future or a remote reference (rpcFutures).
func (l *lowerer) rpcCall(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	return fn == nil && (ext == "torch.distributed.rpc.rpc_async" || ext == "torch.distributed.rpc.remote")
}

// handleName reports a name whose parts say it holds a job, handle or
// future (job_handle, write_jobs, fut).
func handleName(v string) bool {
	for _, part := range strings.Split(strings.ToLower(v), "_") {
		switch part {
		case "job", "jobs", "handle", "handles", "future", "futures", "fut":
			return true
		}
	}
	return false
}

// objectGatherNames are the last names of helpers that gather or
// broadcast Python objects.
var objectGatherNames = map[string]bool{
	"gather": true, "all_gather": true, "gather_object": true, "all_gather_object": true, "broadcast_object": true,
}

// returnsObjects reports a program function that returns what an object
// collective of its own unpickled: the output list it handed to
// all_gather_object or broadcast_object_list, or the collective's result
// (`out = [None] * n; dist.all_gather_object(out, obj); return out`).
func (l *lowerer) returnsObjects(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().objects, fn, func() bool { return l.objectsBody(fn) })
}

func (l *lowerer) objectsBody(fn *rules.Function) bool {
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	outs := map[string]bool{}
	var returns []ast.Expr
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			s := l.r.Site(n)
			if s == nil || s.Kind != rules.OpObject {
				return true
			}
			if e := l.tb.Collectives[s.API]; e != nil {
				for _, a := range e.Outputs {
					if x, isName := arg(n, a).(*ast.Name); isName {
						outs[x.Id] = true
					}
				}
			}
		case *ast.Return:
			returns = append(returns, n.Value)
		}
		return true
	})
	found := len(returns) > 0
	for _, r := range returns {
		switch r := r.(type) {
		case *ast.Name:
			found = found && outs[r.Id]
		case *ast.Call:
			s := l.r.Site(r)
			found = found && s != nil && s.Kind == rules.OpObject
		default:
			found = false
		}
	}
	return found
}

// hostCounter reports whether t is an item of a counter attribute of the
// method's instance (self.X[k] with self.X = defaultdict(int)).
func (l *lowerer) hostCounter(t ast.Expr) bool {
	sub, ok := t.(*ast.Subscript)
	if !ok {
		return false
	}
	a, ok := sub.Value.(*ast.Attribute)
	if !ok {
		return false
	}
	if n, ok := a.Value.(*ast.Name); !ok || n.Id != "self" {
		return false
	}
	hc, ok := l.r.(HostCounters)
	return ok && hc.HostCounter(l.fn, a.Attr)
}

// keepsHost reports whether "x op= value" leaves a host value x on the
// host: value is one too, or a plain field read (offset += p.ds_numel, the
// bookkeeping of bucketed communication). A name or a call on the right
// (total += loss) may be a tensor, which makes x one.
// listDisplay: a list display or comprehension.
func listDisplay(e ast.Expr) bool {
	switch e.(type) {
	case *ast.List, *ast.ListComp:
		return true
	}
	return false
}

func keepsHost(value ast.Expr) bool {
	if _, ok := value.(*ast.Attribute); ok {
		return true
	}
	return hostValue(value)
}

// containerMethods are methods of Python containers that tensors do not
// have: calling one reads the container, not device memory
// (batch.items(), grads.append(g)).
// handleMethods are methods of work handles, futures and events, which
// tensors do not have: their receiver (works[i].wait()) is no tensor read.
var handleMethods = map[string]bool{"wait": true, "is_completed": true, "result": true, "done": true, "query": true, "get_future": true,
	"record": true, // Event.record: tensors have no record method
	// Attaching an autograd hook to a tensor launches nothing and reads
	// none of its memory.
	"register_hook": true, "register_post_accumulate_grad_hook": true, "retain_grad": true}

var containerMethods = map[string]bool{"items": true, "keys": true, "get": true, "append": true, "extend": true, "setdefault": true}

// toDevice reports whether c copies its receiver from the host to the
// device: x.cuda(…), or x.to(…) with non_blocking=True or a CUDA device
// ("cuda", "cuda:0", torch.device("cuda", i), device=…). The receiver of
// such a copy is host memory (a batch from a DataLoader, a pinned
// buffer), which no stream writes, or already on the device, where the
// call copies nothing: the prefetching idiom `with torch.cuda.stream(s):
// x = x.cuda(non_blocking=True)` reads no device memory on s.
func toDevice(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	switch a.Attr {
	case "cuda":
		return true
	case "to":
		for _, k := range c.Keywords {
			switch k.Arg {
			case "non_blocking":
				if isTrue(k.Value) {
					return true
				}
			case "device":
				return cudaDevice(k.Value)
			}
		}
		return len(c.Args) > 0 && cudaDevice(c.Args[0])
	}
	return false
}

// deviceCopyHelper reports a helper that copies its first argument to a
// device asynchronously: a function named for it (to_device,
// _to_device, move_to_device, send_to_device) called with
// non_blocking=True. Like x.to(device, non_blocking=True), it reads host
// memory (torchrec's pipelines copy each DataLoader batch this way on
// their memcpy stream).
func deviceCopyHelper(c *ast.Call) bool {
	name := lastDotted(c.Func)
	if !strings.Contains(strings.ToLower(name), "device") || len(c.Args) == 0 {
		return false
	}
	return nonBlocking(c)
}

// freshAlloc: torch.empty(…), torch.empty_like(…), x.new_empty(…),
// torch.empty_strided(…): memory allocated on the current stream with
// nothing written to it (no kernel runs).
func freshAlloc(value ast.Expr) bool {
	if lc, ok := value.(*ast.ListComp); ok {
		return freshAlloc(lc.Elt) // [torch.empty_like(w) for _ in range(n)]
	}
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	switch lastDotted(c.Func) {
	case "empty", "empty_like", "empty_strided":
		d := dotted(c.Func)
		return d == "torch.empty" || d == "torch.empty_like" || d == "torch.empty_strided" || d == "empty" || d == "empty_like"
	case "new_empty", "new_empty_strided":
		return true
	}
	return false
}

// filesArgs: a method of Python's containers that stores its arguments
// (xs.append(t), xs.extend(ts), xs.insert(i, t), dq.appendleft(t)): a
// tensor passed by name is handed on, not read (whoever takes it out
// reads it); one computed in the argument (xs.append(t * 2)) is read.
func filesArgs(c *ast.Call) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	switch a.Attr {
	case "append", "extend", "insert", "appendleft":
		return true
	}
	return false
}

// unflattens: torch's _unflatten_dense_tensors(flat, tensors) (apex's
// and DeepSpeed's unflatten alias it) returns views of flat, to be
// handed to other tensors (grad.data = view): it reads nothing.
func unflattens(c *ast.Call) bool {
	switch lastDotted(c.Func) {
	case "_unflatten_dense_tensors", "unflatten_dense_tensors", "unflatten":
		return len(c.Args) == 2
	}
	return false
}

// cudaDevice: "cuda", "cuda:N" or torch.device("cuda…", …).
func cudaDevice(e ast.Expr) bool {
	if c, ok := e.(*ast.Call); ok && lastDotted(c.Func) == "device" && len(c.Args) > 0 {
		e = c.Args[0]
	}
	s, ok := constStr(e)
	return ok && (s == "cuda" || strings.HasPrefix(s, "cuda:"))
}

// cpuDevice: "cpu" or torch.device("cpu").
func cpuDevice(e ast.Expr) bool {
	if s, ok := constStr(e); ok {
		return s == "cpu"
	}
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 1 && dotted(c.Func) == "torch.device" {
		s, ok := constStr(c.Args[0])
		return ok && s == "cpu"
	}
	return false
}

// notTensorElement reports a value no tensor can hold, so that storing it
// at a subscript writes a host container (cfg["peers"] = {"n": 2}), not
// device memory: dicts, sets, strings, an instance of one of the
// program's classes (gossipers[dtype] = Gossiper(…)), a local holding an
// empty container when it was made.
func (l *lowerer) notTensorElement(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Dict, *ast.DictComp, *ast.Set, *ast.SetComp, *ast.JoinedStr:
		return true
	case *ast.Constant:
		return e.Type == ast.ConstStr || e.Type == ast.ConstBytes
	case *ast.BinOp:
		// "layer%d" % i: string formatting.
		k, ok := e.Left.(*ast.Constant)
		return ok && e.Op == ast.Mod && k.Type == ast.ConstStr
	case *ast.Lambda:
		return true
	case *ast.Name:
		return l.hostVars[e.Id]
	case *ast.Call:
		_, fn := l.callee(e)
		return fn != nil && (strings.HasSuffix(fn.Name, ".__init__") || l.returnsClosure(fn))
	}
	return false
}

// returnsClosure reports a program function whose every return hands
// back a function it defines (a lambda, or a def of its body): a Python
// callable, not a tensor (Transformer Engine's post_all2all).
func (l *lowerer) returnsClosure(fn *rules.Function) bool {
	return summarize(&l.memo().closureRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		defs := map[string]bool{}
		for _, st := range body {
			if d, ok := st.(*ast.FunctionDef); ok {
				defs[d.Name] = true
			}
		}
		returns := 0
		closures := true
		ast.InspectBody(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.Return); ok {
				returns++
				switch v := r.Value.(type) {
				case *ast.Lambda:
				case *ast.Name:
					closures = closures && defs[v.Id]
				default:
					closures = false
				}
				return false
			}
			return closures
		})
		return closures && returns > 0
	})
}

// dictItem reports a store target d[k] where the function calls a
// dictionary's own methods on d (d.get(k), d.setdefault, d.items()): a
// memo handed in as a parameter, which no tensor could be.
func (l *lowerer) dictItem(t ast.Expr) bool {
	s, ok := t.(*ast.Subscript)
	if !ok {
		return false
	}
	n, ok := s.Value.(*ast.Name)
	if !ok {
		return false
	}
	if l.dictNames == nil {
		// Once per function: the names it calls a dict's methods on.
		l.dictNames = map[string]bool{}
		ast.InspectBody(l.body, func(x ast.Node) bool {
			if c, ok := x.(*ast.Call); ok {
				if a, ok := c.Func.(*ast.Attribute); ok && dictMethods[a.Attr] {
					if r, ok := a.Value.(*ast.Name); ok {
						l.dictNames[r.Id] = true
					}
				}
			}
			return true
		})
	}
	if l.dictNames[n.Id] {
		return true
	}
	// STORE[key] = buf into a module's `STORE = {}` (LiteGen's offload
	// registry): a global the function does not bind itself.
	if mv, ok := l.r.(ModuleValuer); ok && !boundLocally(l.node)[n.Id] {
		return emptyDict(mv.ModuleValue(l.fn, n.Id))
	}
	return false
}

// dictMethods are methods of dict that tensors do not have.
var dictMethods = map[string]bool{"get": true, "setdefault": true, "items": true, "keys": true, "values": true, "popitem": true}

// emptyDict: {} or dict(), a new container with nothing pending in it.
// listStmt is where a list filled by the current statement is complete:
// that statement, or the outermost loop it is in (a wait of the list's
// elements goes after it).
func (l *lowerer) listStmt() rules.Pos {
	if len(l.loopStmts) > 0 && l.loopStmts[0] != nil {
		return l.pos(l.loopStmts[0].Span())
	}
	return l.pos(l.stmt.Span())
}

// streamID names the stream that creation call c makes, as the model
// does: "stream@path:line", with the column after it when another call on
// that line of the statement comes first (`s1, s2 = Stream(), Stream()`).
func (l *lowerer) streamID(c *ast.Call) string {
	p := l.pos(c.Pos)
	id := "stream@" + p.Short()
	if l.stmt == nil {
		return id
	}
	first := true
	ast.Inspect(l.stmt, func(n ast.Node) bool {
		if o, ok := n.(*ast.Call); ok && o != c && o.Pos.Lineno == c.Pos.Lineno && o.Pos.ColOffset < c.Pos.ColOffset {
			if ext, _ := l.callee(o); l.tb.Streams[ext] != nil && l.tb.Streams[ext].Role == "new_stream" {
				first = false
			}
		}
		return first
	})
	if first {
		return id
	}
	return id + ":" + strconv.Itoa(p.Col)
}

// outerName reports a name the function declares global or nonlocal:
// what it binds there outlives the call.
func (l *lowerer) outerName(v string) bool {
	if l.outerNames == nil {
		l.outerNames = map[string]bool{}
		ast.InspectBody(l.body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.Global:
				for _, n := range s.Names {
					l.outerNames[n] = true
				}
			case *ast.Nonlocal:
				for _, n := range s.Names {
					l.outerNames[n] = true
				}
			}
			return true
		})
	}
	return l.outerNames[v]
}

// refsDisplay reports a tuple or list display of names and attributes
// (and constants): `q.append((event, tensor))` files references, reading
// nothing.
func refsDisplay(e ast.Expr) bool {
	var elts []ast.Expr
	switch x := e.(type) {
	case *ast.Tuple:
		elts = x.Elts
	case *ast.List:
		elts = x.Elts
	default:
		return false
	}
	for _, x := range elts {
		if _, isConst := x.(*ast.Constant); !isConst && dotted(x) == "" {
			return false
		}
	}
	return len(elts) > 0
}

// emptyList reports a new empty list: [] or list().
func emptyList(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.List:
		return len(e.Elts) == 0
	case *ast.Call:
		return dotted(e.Func) == "list" && len(e.Args) == 0 && len(e.Keywords) == 0
	}
	return false
}

// newList: an expression that makes a new Python list or dict ([], [a,
// b], [None] * n, a comprehension, list(…), {}, dict(…)).
func newList(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.List, *ast.ListComp, *ast.Dict, *ast.DictComp:
		return true
	case *ast.BinOp:
		// [None] * n, [a] + [b]
		_, l := e.Left.(*ast.List)
		_, r := e.Right.(*ast.List)
		return e.Op == ast.Mult && (l || r) || e.Op == ast.Add && l && r
	case *ast.Call:
		switch dotted(e.Func) {
		case "list", "dict", "collections.OrderedDict", "OrderedDict":
			return true
		}
	}
	return false
}

// listElement reports an assignment target that is an element of a local
// bound to a new Python list (outs[i]), or an entry of a dict under a
// string key.
func (l *lowerer) listElement(t ast.Expr) bool {
	s, ok := t.(*ast.Subscript)
	if !ok {
		return false
	}
	// d["async_op"] = True: no tensor takes a string index, so this is
	// a dict (a wrapper's **kwargs) taking an entry.
	if k, ok := s.Slice.(*ast.Constant); ok && k.Type == ast.ConstStr {
		return true
	}
	n, ok := s.Value.(*ast.Name)
	return ok && l.pyLists[n.Id]
}

func emptyDict(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Dict:
		return len(e.Keys) == 0
	case *ast.Call:
		return dotted(e.Func) == "dict" && len(e.Args) == 0 && len(e.Keywords) == 0
	}
	return false
}

// noneOrEmpty reports None or a new empty dict, list or tuple.
func noneOrEmpty(e ast.Expr) bool {
	return isNone(e) || emptyDict(e) || emptyDisplay(e)
}

// isSubscript reports whether an assignment target is a subscript (a write into
// part of a tensor, which keeps the rest's pending work).
func isSubscript(t ast.Expr) bool {
	_, ok := t.(*ast.Subscript)
	return ok
}

func constStr(e ast.Expr) (string, bool) {
	if c, ok := e.(*ast.Constant); ok && c.Type == ast.ConstStr {
		return c.Str, true
	}
	return "", false
}

func isFalse(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	return ok && ((c.Type == ast.ConstBool && !c.Bool) || (c.Type == ast.ConstInt && c.Int == 0))
}

func isTrue(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	return ok && c.Type == ast.ConstBool && c.Bool
}

func (l *lowerer) callee(c *ast.Call) (string, *rules.Function) {
	ext, fn := l.r.Callee(c)
	if ext != "" {
		ext = l.tb.Canonical(ext)
	}
	return ext, fn
}

// inlineCalls finds the calls of a method that CV203 follows into their
// callee: self.m(...) on the method's own first parameter, where m is a
// program function defined in this file whose text mentions a stream.
// Files that never mention a stream have none (most of a code base).
func (l *lowerer) inlineCalls(node ast.Node) map[*ast.Call]*rules.Function {
	fd, ok := l.r.(FuncDefiner)
	if !ok || !l.src.mentionsStream() {
		return nil
	}
	body, args, _, ok := defParts(node)
	if !ok || args == nil || len(args.Args) == 0 {
		return nil
	}
	self := args.Args[0].Arg
	var out map[*ast.Call]*rules.Function
	// A method of a stream class that does not itself mention a stream
	// is followed only where its call is a statement of its own
	// (`self.sample(labels)`): what it returns is left to the summaries
	// that read results (keptRefs, getterRefs).
	var stmtCalls map[*ast.Call]bool
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if c, ok := n.Value.(*ast.Call); ok {
				if stmtCalls == nil {
					stmtCalls = map[*ast.Call]bool{}
				}
				stmtCalls[c] = true
			}
		case *ast.Call:
			a, ok := n.Func.(*ast.Attribute)
			if !ok {
				return true
			}
			if x, ok := a.Value.(*ast.Name); !ok || x.Id != self {
				return true
			}
			_, callee := l.callee(n)
			if callee == nil || callee == l.fn || callee.Pos.Path != l.path {
				return true
			}
			if !l.defMentionsStream(fd, callee) && !(stmtCalls[n] && l.streamClass(callee)) {
				return true
			}
			if out == nil {
				out = map[*ast.Call]*rules.Function{}
			}
			out[n] = callee
		}
		return true
	})
	return out
}

// helperWaits records the waits of a program function that makes the
// current stream wait for a stream (or an event) passed to it, or
// synchronises it: torchrec's _wait_for_batch(batch, stream) runs
// current_stream().wait_stream(stream) and then batch.record_stream(...),
// so the tensors passed with it are ordered when it returns. The wait is
// recorded before the arguments are read.
func (l *lowerer) helperWaits(c *ast.Call, fn *rules.Function) {
	if fn == nil || fn == l.fn || len(c.Args)+len(c.Keywords) == 0 {
		return
	}
	waited := l.waitedParams(fn)
	if len(waited) == 0 {
		return
	}
	_, args, _ := l.defOf(fn) // found: waitedParams read it
	params := args.PositionalNames()
	if len(params) > 0 {
		params = params[receiverShift(c, params[0]):]
	}
	emit := func(param string, x ast.Expr) {
		kind, ok := waited[param]
		if !ok {
			return
		}
		at := l.pos(x.Span())
		switch kind {
		case rules.EvWaitStream:
			// The helper's current_stream() is the caller's: the stream
			// of the with block the call sits in.
			sc, cur := l.streamOf(x), l.current()
			l.event(&rules.Event{Kind: rules.EvWaitStream, Pos: at, Stream: cur.s, StreamText: cur.text, Other: sc.s, OtherText: sc.text})
		case rules.EvWaitEvent:
			l.event(&rules.Event{Kind: rules.EvWaitEvent, Pos: at}) // on a stream the event names; unknown here
		case rules.EvSync:
			sc := l.streamOf(x)
			l.event(&rules.Event{Kind: rules.EvSync, Pos: at, Other: sc.s, OtherText: sc.text})
		}
	}
	for i, x := range c.Args {
		if i < len(params) {
			emit(params[i], x)
		}
	}
	for _, k := range c.Keywords {
		emit(k.Arg, k.Value)
	}
}

// memo is the per-analysis store of function summaries: the resolver's,
// or this lowerer's own when the resolver keeps none.
func (l *lowerer) memo() *Sources {
	if si, ok := l.r.(SourceIndex); ok {
		if s := si.Sources(); s != nil {
			return s
		}
	}
	if l.ownMemo == nil {
		l.ownMemo = &Sources{}
	}
	return l.ownMemo
}

// keptFsCheck reports a test of a local that holds a file system check's
// answer (`resuming = os.path.isfile(path)`, then `if resuming:`), or of
// an attribute this host's check or listing set (`args.resume`).
func (l *lowerer) keptFsCheck(test ast.Expr) bool {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		test = u.Operand
	}
	switch t := test.(type) {
	case *ast.Name:
		if c, ok := l.fsOrigin[t.Id].(*ast.Call); ok && l.fsVars[t.Id] {
			return l.directFsProbe(c)
		}
	case *ast.Attribute:
		// `if args.resume:` after `args.resume = ckpt_dirs[-1]` from this
		// host's listing (OneLLM's load_model).
		return l.fsVars[dotted(t)] && dotted(t) != ""
	}
	return false
}

// memoizedCall records a call that hands a rank-dependent argument to a
// program function that functools.lru_cache or functools.cache memoizes
// and that communicates (cache-dit's `gather_size(local_len, group)`):
// the function runs, and issues its collectives, only on a cache miss,
// and which arguments a rank has seen before is its own history.
func (l *lowerer) memoizedCall(c *ast.Call) {
	if l.notDist > 0 || len(l.rankVars) == 0 && len(l.rankObjects) == 0 {
		return
	}
	_, fn := l.callee(c)
	fd, isDefiner := l.r.(FuncDefiner)
	if fn == nil || fn == l.fn || !isDefiner {
		return
	}
	_, _, decos, ok := defParts(fd.FuncDef(fn))
	if !ok || !slices.ContainsFunc(decos, l.memoizer) {
		return
	}
	var arg ast.Expr
	for _, a := range c.Args {
		if l.isRank(a) {
			arg = a
			break
		}
	}
	for _, k := range c.Keywords {
		if arg == nil && l.isRank(k.Value) {
			arg = k.Value
		}
	}
	if arg == nil {
		return
	}
	if ops := l.r.Summary(fn); len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Pos), Cond: l.text(arg), Then: ops,
			Memoized: fn.Name[strings.LastIndexByte(fn.Name, '.')+1:], Divergence: rules.RankTest})
	}
}

// memoizer reports a decorator that memoizes a function's results:
// functools.lru_cache (called or not) and functools.cache.
func (l *lowerer) memoizer(d ast.Expr) bool {
	if c, ok := d.(*ast.Call); ok {
		d = c.Func
	}
	switch l.r.Ref(d) {
	case "functools.lru_cache", "functools.cache":
		return true
	}
	return false
}

// funcNamed returns the program's function of that qualified name, or nil.
func (l *lowerer) funcNamed(name string) *rules.Function {
	l.indexFuncs()
	return l.memo().funcsByName[name]
}

// methodsNamed returns the program's methods of that name (the last
// part of their qualified names).
func (l *lowerer) methodsNamed(short string) []*rules.Function {
	l.indexFuncs()
	return l.memo().methodsByShort[short]
}

func (l *lowerer) indexFuncs() {
	m := l.memo()
	m.funcsOnce.Do(func() {
		m.funcsByName = make(map[string]*rules.Function, len(l.r.Prog().Funcs))
		m.methodsByShort = map[string][]*rules.Function{}
		fd, _ := l.r.(FuncDefiner)
		for _, f := range l.r.Prog().Funcs {
			m.funcsByName[f.Name] = f
			if fd == nil {
				continue
			}
			d, ok := fd.FuncDef(f).(*ast.FunctionDef)
			if !ok || d.Args == nil || len(d.Args.Positional()) == 0 || d.Args.Positional()[0].Arg != "self" {
				continue
			}
			short := lastName(f.Name)
			m.methodsByShort[short] = append(m.methodsByShort[short], f)
		}
	})
}

// entersSelf reports a call of a program class whose __enter__ returns
// the instance (`def __enter__(self): return self`).
func (l *lowerer) entersSelf(c *ast.Call) bool {
	_, fn := l.callee(c)
	if fn == nil {
		return false
	}
	cls, ok := strings.CutSuffix(fn.Name, ".__init__")
	if !ok {
		return false
	}
	enter := l.funcNamed(cls + ".__enter__")
	if enter == nil {
		return false
	}
	body, args, ok := l.defOf(enter)
	if !ok || len(args.PositionalNames()) == 0 || len(body) == 0 {
		return false
	}
	r, ok := body[len(body)-1].(*ast.Return)
	if !ok {
		return false
	}
	n, isName := r.Value.(*ast.Name)
	return isName && n.Id == args.PositionalNames()[0]
}

// waitedParams summarises a program function's waits on its parameters:
// current_stream().wait_stream(p) (EvWaitStream), current_stream().
// wait_event(p) (EvWaitEvent), p.synchronize() (EvSync). Memoised per
// analysis when the resolver keeps a Sources.
func (l *lowerer) waitedParams(fn *rules.Function) map[string]rules.EventKind {
	return summarize(&l.memo().waits, fn, func() map[string]rules.EventKind {
		if body, args, ok := l.defOf(fn); ok {
			return scanWaits(body, args)
		}
		return nil
	})
}

func scanWaits(body []ast.Stmt, args *ast.Arguments) map[string]rules.EventKind {
	params := argSet(args)
	current := map[string]bool{} // locals bound to current_stream()/default_stream()
	isCurrent := func(e ast.Expr) bool {
		if n, ok := e.(*ast.Name); ok {
			return current[n.Id]
		}
		c, ok := e.(*ast.Call)
		if !ok {
			return false
		}
		name := lastDotted(c.Func)
		if a, ok := c.Func.(*ast.Attribute); ok {
			name = a.Attr // torch.get_device_module(d).current_stream()
		}
		return name == "current_stream" || name == "default_stream"
	}
	var out map[string]rules.EventKind
	add := func(p string, k rules.EventKind) {
		if out == nil {
			out = map[string]rules.EventKind{}
		}
		out[p] = k
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if len(n.Targets) == 1 {
				if t, ok := n.Targets[0].(*ast.Name); ok && isCurrent(n.Value) {
					current[t.Id] = true
				}
			}
		case *ast.Call:
			a, ok := n.Func.(*ast.Attribute)
			if !ok {
				return true
			}
			if a.Attr == "synchronize" && len(n.Args) == 0 {
				if p, ok := a.Value.(*ast.Name); ok && params[p.Id] {
					add(p.Id, rules.EvSync)
				}
				return true
			}
			if len(n.Args) != 1 || !isCurrent(a.Value) {
				return true
			}
			p, ok := n.Args[0].(*ast.Name)
			if !ok || !params[p.Id] {
				return true
			}
			switch a.Attr {
			case "wait_stream":
				add(p.Id, rules.EvWaitStream)
			case "wait_event":
				add(p.Id, rules.EvWaitEvent)
			}
		}
		return true
	})
	return out
}

// boundLocally returns the names a def binds in its own scope (assigned,
// loop or with targets, parameters), which hide module globals of the
// same name, minus those it declares global.
// enclosingRanks returns the locals of the function a closure is defined
// in (pfn, its def pnode) that hold a rank value there: bound to one
// (`rank = dist.get_rank()`, `rank, world_size = setup()`), or its
// parameters that hold one on entry. Judged in a lowerer of the enclosing
// function's own, which records nothing.
func (l *lowerer) enclosingRanks(pfn *rules.Function, pnode ast.Node) map[string]bool {
	// Once per enclosing function: its closures share the answer.
	return summarize(&l.memo().enclosing, pfn, func() map[string]bool { return l.enclosingRanksNow(pfn, pnode) })
}

func (l *lowerer) enclosingRanksNow(pfn *rules.Function, pnode ast.Node) map[string]bool {
	sub := *l
	sub.fn, sub.rankVars, sub.rankDefs = pfn, map[string]bool{}, map[string]ast.Expr{}
	if rp, ok := l.r.(RankParamer); ok {
		for _, p := range rp.RankParams(pfn) {
			if rankParam(p) {
				sub.rankVars[p] = true
			}
		}
	}
	walkBindings(ast.DefBody(pnode), func(t, v ast.Expr, from *ast.Call, i int) {
		n, ok := t.(*ast.Name)
		if !ok {
			return
		}
		delete(sub.rankVars, n.Id)
		if v != nil && sub.isRank(v) || from != nil && sub.unpackedRankElements(from)[i] {
			sub.rankVars[n.Id] = true
		}
	}, nil)
	return sub.rankVars
}

// unpackedRankElements returns the indexes of the elements of c's result
// that hold the rank when it is unpacked: `rank, world_size =
// get_dist_info()` (a rank predicate of the tables), `rank, world =
// setup()` (a program function returning such a tuple, NVFlare's
// examples).
func (l *lowerer) unpackedRankElements(c *ast.Call) map[int]bool {
	var out map[int]bool
	ext, fn := l.callee(c)
	if p := l.tb.RankPredicates[ext]; p != nil && p.Element != nil {
		out = map[int]bool{*p.Element: true}
	}
	if fn != nil && fn != l.fn {
		for i := range l.returnedRankElements(fn) {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}

// walkBindings calls bind, in source order, for every name a simple
// assignment of body binds (nested functions and classes left out):
// with its value (`a = v`, and `a, b = x, y` element by element), or
// with the call whose result it unpacks and the element's index (`a, b
// = f()`); and ret, when not nil, for every return.
func walkBindings(body []ast.Stmt, bind func(target, value ast.Expr, from *ast.Call, i int), ret func(*ast.Return)) {
	ast.InspectBody(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Return:
			if ret != nil {
				ret(x)
			}
		case *ast.Assign:
			if len(x.Targets) != 1 {
				return true
			}
			tt, isTuple := x.Targets[0].(*ast.Tuple)
			vt, valTuple := x.Value.(*ast.Tuple)
			switch {
			case isTuple && valTuple && len(tt.Elts) == len(vt.Elts):
				for i := range tt.Elts {
					bind(tt.Elts[i], vt.Elts[i], nil, i)
				}
			case isTuple:
				c, _ := x.Value.(*ast.Call)
				for i, e := range tt.Elts {
					bind(e, nil, c, i)
				}
			default:
				bind(x.Targets[0], x.Value, nil, -1)
			}
		}
		return true
	})
}

func boundLocally(node ast.Node) map[string]bool {
	out := paramNames(node)
	if out == nil {
		out = map[string]bool{}
	}
	body, _, _, ok := defParts(node)
	if !ok {
		return out
	}
	globals := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Global:
			for _, g := range n.Names {
				globals[g] = true
			}
		case *ast.Name:
			if n.Ctx == ast.Store || n.Ctx == ast.Del {
				out[n.Id] = true
			}
		}
		return true
	})
	for g := range globals {
		delete(out, g)
	}
	return out
}

// paramNames returns the parameter names of a def (nil for a module).
func paramNames(node ast.Node) map[string]bool {
	_, args, _, ok := defParts(node)
	if !ok || args == nil {
		return nil
	}
	return argSet(args)
}

// argSet is every named parameter (keyword-only included).
// paramValue reports a parameter of the function being lowered. Storing
// one in a Python container (`metrics["data_time"] = data_time`) files a
// reference and launches nothing: whatever wrote the value did so in the
// caller, before this function ran.
func (l *lowerer) paramValue(e ast.Expr) bool {
	n, ok := e.(*ast.Name)
	if !ok {
		return false
	}
	_, args, ok := l.defOf(l.fn)
	return ok && argSet(args)[n.Id]
}

func argSet(args *ast.Arguments) map[string]bool {
	out := map[string]bool{}
	for _, p := range args.PositionalNames() {
		out[p] = true
	}
	for _, a := range args.KwOnlyArgs {
		out[a.Arg] = true
	}
	return out
}

// FreesStorage reports whether c releases a tensor's memory by resizing
// its storage to nothing (see storageFreed): the model lowers functions
// that do, for CV203's lifetime checks.
func FreesStorage(c *ast.Call) bool { return c != nil && storageFreed(c) != "" }

// defMentionsStream reports whether the definition of fn (in this file)
// mentions a stream, memoised per analysis.
// streamClass reports a method of a class one of whose methods enters a
// stream context (StreamClasser).
func (l *lowerer) streamClass(fn *rules.Function) bool {
	sc, ok := l.r.(StreamClasser)
	return ok && sc.StreamClass(fn)
}

func (l *lowerer) defMentionsStream(fd FuncDefiner, fn *rules.Function) bool {
	return summarize(&l.memo().streamy, fn, func() bool {
		def := fd.FuncDef(fn)
		return def != nil && l.src.mentions(def.Span(), "stream")
	})
}

// storageFreed returns the tensor whose memory c frees by resizing its
// storage to nothing (x.untyped_storage().resize_(0), FSDP's
// x._typed_storage()._resize_(0), x.data.storage().resize_(0)), or "".
func storageFreed(c *ast.Call) string {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "resize_" && a.Attr != "_resize_" || len(c.Args) != 1 || len(c.Keywords) != 0 {
		return ""
	}
	if k, ok := c.Args[0].(*ast.Constant); !ok || k.Type != ast.ConstInt || k.Int != 0 {
		return ""
	}
	sc, ok := a.Value.(*ast.Call)
	if !ok || len(sc.Args) != 0 {
		return ""
	}
	sa, ok := sc.Func.(*ast.Attribute)
	if !ok || sa.Attr != "untyped_storage" && sa.Attr != "storage" && sa.Attr != "_typed_storage" {
		return ""
	}
	t := sa.Value
	if d, ok := t.(*ast.Attribute); ok && d.Attr == "data" {
		t = d.Value
	}
	return dotted(t)
}

func lastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// ---- statements ----

// block lowers a statement list; exited reports that every path through
// it leaves the enclosing function or loop body.
func (l *lowerer) block(stmts []ast.Stmt, st *state) (*state, bool) {
	top := len(l.rests)
	l.rests = append(l.rests, nil)
	facts := len(l.ifTests)
	guards, arms := len(l.rankIfs), l.rankArms
	defer func() {
		l.rests = l.rests[:top]
		l.ifTests = l.ifTests[:facts]
		l.rankIfs, l.rankArms = l.rankIfs[:guards], arms
		l.promoteCounters()
	}()
	for i, s := range stmts {
		l.rests[top] = stmts[i+1:]
		var exited bool
		st, exited = l.statement(s, st, stmts[i+1:])
		if exited {
			return st, true
		}
		if a, ok := s.(*ast.Assert); ok && singleProcess(a.Test) {
			// `assert accelerator.num_processes == 1`: what follows runs
			// in a single-process job (DMD2's evaluation script).
			l.notDist++
			defer func() { l.notDist-- }()
		}
		if g := l.rankGuard(s); g != nil {
			// `if not is_main_process(): continue`: the rest of the block
			// runs on the other ranks only, as in the else arm of that
			// test (GLNet's rank-0 early stop below such a guard).
			l.rankIfs = append(l.rankIfs, &rankIf{s: g, inElse: true, loops: l.loops})
			l.rankArms++
		}
		if x := guardedTruthy(s, stmts[i+1:]); x != nil {
			// `if not path: return 0`: path holds a true value in what
			// follows (knownTrue).
			l.ifTests = append(l.ifTests, x)
		}
	}
	return st, false
}

// pairSplitArms reports whether a later if of rest, on the same rank
// test with nothing communicating before it, completes first: the two
// ifs' arms together issue the same sequence on both sides (`if rank ==
// 0: work() else: barrier(g)` … `if rank == 0: combine(); barrier(g)`:
// rank 0 and the others each pass one barrier, signSGD's leader
// exchange). The later if is then marked paired: each alone looks
// one-sided, the two together are not.
func (l *lowerer) pairSplitArms(first *ast.If, rest []ast.Stmt) bool {
	for j, st := range rest {
		second, ok := st.(*ast.If)
		if !ok || l.text(first.Test) != l.text(second.Test) {
			if len(l.ops(rest[j:j+1])) > 0 {
				return false
			}
			continue
		}
		then := append(l.ops(first.Body), l.ops(second.Body)...)
		els := append(l.ops(first.Orelse), l.ops(second.Orelse)...)
		if len(then) == 0 || !sameOps(then, els) {
			return false
		}
		if l.paired == nil {
			l.paired = map[*ast.If]bool{}
		}
		l.paired[second] = true
		return true
	}
	return false
}

// pairElifMembers marks the elif of a rank equality test whose arm
// issues, on groups the program allocates, exactly what the if's arm
// issues (`if src == me: broadcast(t, src, group=g)` / `elif dst == me:
// broadcast(t, src, group=g)`, with g = new_group([src, dst])): the two
// tests together pick out members of the group, as `if me in (src,
// dst):` does, which is how collectives on a subgroup are guarded
// (bamboo's pair groups).
func (l *lowerer) pairElifMembers(s *ast.If) {
	if len(s.Orelse) != 1 {
		return
	}
	e, ok := s.Orelse[0].(*ast.If)
	if !ok || len(e.Orelse) > 0 || !l.rankEquality(s.Test) || !l.rankEquality(e.Test) {
		return
	}
	ops := l.ops(s.Body)
	if len(ops) == 0 || !sameOps(ops, l.ops(e.Body)) {
		return
	}
	for _, o := range ops {
		if o.Group == nil || o.Group.Kind != rules.GroupAlloc {
			return
		}
	}
	if l.paired == nil {
		l.paired = map[*ast.If]bool{}
	}
	l.paired[e] = true
}

// rankEquality reports a test `x == rank` (either way round) that
// depends on the rank.
func (l *lowerer) rankEquality(test ast.Expr) bool {
	c, ok := test.(*ast.Compare)
	return ok && len(c.Ops) == 1 && c.Ops[0] == ast.Eq && l.isRank(test)
}

// pairComplement marks a later if of rest, with nothing communicating
// before it, that issues what first issues exactly where first does not
// (`if cfg.resume: load(); validate()` … `if cfg.pretrained and not
// cfg.resume: load(); validate()`, Swin-style trainers): where its other
// operands hold, every rank issues the sequence once, through one if or
// the other, and where they do not, first alone diverges and is reported.
func (l *lowerer) pairComplement(first *ast.If, rest []ast.Stmt) {
	if len(first.Orelse) > 0 {
		return
	}
	// The next if, found by its shape before any op is computed: most
	// ifs have no such neighbour.
	j := slices.IndexFunc(rest, func(st ast.Stmt) bool { _, ok := st.(*ast.If); return ok })
	if j < 0 {
		return
	}
	second := rest[j].(*ast.If)
	want := l.text(first.Test)
	b, isAnd := second.Test.(*ast.BoolOp)
	negates := isAnd && b.Op == ast.And && slices.ContainsFunc(b.Values, func(v ast.Expr) bool {
		u, ok := v.(*ast.UnaryOp)
		return ok && u.Op == ast.Not && l.text(u.Operand) == want
	})
	if !negates || len(second.Orelse) > 0 || len(l.ops(rest[:j])) > 0 {
		return
	}
	if ops := l.ops(first.Body); len(ops) > 0 && sameOps(ops, l.ops(second.Body)) {
		if l.paired == nil {
			l.paired = map[*ast.If]bool{}
		}
		l.paired[second] = true
	}
}

// guardedTruthy returns X for `if not X: <exit>` with no else arm, when
// the statements after it do not assign X: X is true in them.
func guardedTruthy(s ast.Stmt, rest []ast.Stmt) ast.Expr {
	i, ok := s.(*ast.If)
	if !ok || len(i.Orelse) > 0 || !exits(i.Body) {
		return nil
	}
	u, ok := i.Test.(*ast.UnaryOp)
	if !ok || u.Op != ast.Not {
		return nil
	}
	x := dotted(u.Operand)
	if x == "" {
		return nil
	}
	assigned := false
	ast.InspectBody(rest, func(n ast.Node) bool {
		switch a := n.(type) {
		case *ast.Assign:
			for _, t := range a.Targets {
				if dotted(t) == x {
					assigned = true
				}
			}
		case *ast.AugAssign:
			if dotted(a.Target) == x {
				assigned = true
			}
		}
		return !assigned
	})
	if assigned {
		return nil
	}
	return u.Operand
}

// finalAt is a finally block and the index in rests of its try body's
// block.
type finalAt struct {
	depth int
	body  []ast.Stmt
}

// catchAt is a try statement being lowered: its handlers, and the depth
// of rests at which its body's block starts.
type catchAt struct {
	depth    int
	handlers []*ast.ExceptHandler
}

// caughtRaise returns the try statement of this function whose handler
// catches what path raises (`raise StopTraining()` in its body, under
// `except StopTraining:` that does not raise again): the raise leaves
// the rest of the try's body, and the function goes on after the
// handler. Only a handler that names the class counts; an enclosing
// `except Exception:` or bare except first makes it unknown (nil), as
// does a raise of anything but a named class.
func (l *lowerer) caughtRaise(path []ast.Stmt) *catchAt {
	r, ok := lastStmt(path).(*ast.Raise)
	if !ok || r.Exc == nil {
		return nil
	}
	x := r.Exc
	if c, ok := x.(*ast.Call); ok {
		x = c.Func
	}
	name := lastDotted(x)
	if name == "" || name == "SystemExit" || name == "KeyboardInterrupt" {
		return nil
	}
	for i := len(l.catches) - 1; i >= 0; i-- {
		for _, h := range l.catches[i].handlers {
			switch {
			case h.Type != nil && catches(h.Type, name):
				if raises(h.Body) {
					return nil
				}
				return &l.catches[i]
			case h.Type == nil || catches(h.Type, "Exception", "BaseException"):
				return nil
			}
		}
	}
	return nil
}

// following returns the statements that run after the current one when
// it completes normally, in order: the rest of each enclosing block,
// with the finally block of an enclosing try after its body's rest
// (`try: if rank > 0: barrier(); yield / finally: if rank == 0:
// barrier()`, a main-process-first context manager).
func (l *lowerer) following() []ast.Stmt {
	var out []ast.Stmt
	f := len(l.finals) - 1
	for i := len(l.rests) - 1; i >= 0; i-- {
		out = append(out, l.rests[i]...)
		for ; f >= 0 && l.finals[f].depth == i; f-- {
			out = append(out, l.finals[f].body...)
		}
	}
	return out
}

// skipped returns the statements a path that ends in an exit skips: after
// `continue` or `break`, the rest of every enclosing block up to the
// innermost loop's body; after `return` (or anything else), the rest of
// every enclosing block of the function. The innermost block, the one
// holding the statement being lowered, comes first.
func (l *lowerer) skipped(path []ast.Stmt) []ast.Stmt {
	stop := 0
	if len(path) > 0 {
		switch last := path[len(path)-1].(type) {
		case *ast.Continue, *ast.Break:
			if n := len(l.loopRests); n > 0 {
				stop = l.loopRests[n-1]
			}
		case *ast.If:
			// `if failures >= 3: break` / `else: continue`.
			if n := len(l.loopRests); n > 0 && loopExit(last.Body) && loopExit(last.Orelse) {
				stop = l.loopRests[n-1]
			}
		case *ast.Raise:
			// A handler of this function catches it: the rest of the
			// try's body is what it skips.
			if c := l.caughtRaise(path); c != nil {
				stop = c.depth
			}
		}
	}
	kind := ""
	if len(path) > 0 {
		kind = exitKind(path[len(path)-1])
	}
	var out []ast.Stmt
	for i := len(l.rests) - 1; i >= stop; i-- {
		out = append(out, l.rests[i]...)
		// The ranks that stay leave the same way at the end of this
		// block (`if rank != 0: return` … `log(); return`): what lies
		// beyond it runs on no rank from here (rl_games' PBT restart).
		if l.restLeaves(i, kind) {
			return out
		}
	}
	return out
}

// passPrefix returns the statements of the innermost loop's body before
// the one that holds s: what the next pass runs before it reaches s.
func (l *lowerer) passPrefix(s ast.Stmt) []ast.Stmt {
	n := len(l.loopBodies)
	if n == 0 {
		return nil
	}
	at := s.Span().Lineno
	var out []ast.Stmt
	for _, st := range l.loopBodies[n-1] {
		if sp := st.Span(); sp.Lineno <= at && at <= sp.EndLineno {
			break
		}
		out = append(out, st)
	}
	return out
}

// passRestOps returns the collectives that the statements left in the
// innermost loop's pass, after the statement being lowered, issue.
func (l *lowerer) passRestOps() []*rules.OpRef {
	if len(l.loopRests) == 0 {
		return nil
	}
	var rest []ast.Stmt
	for i := len(l.rests) - 1; i >= l.loopRests[len(l.loopRests)-1]; i-- {
		rest = append(rest, l.rests[i]...)
	}
	return l.perPassOps(l.ops(rest))
}

// restLeaves reports whether the statements left in enclosing block i
// end by leaving the way kind (exitKind) does.
func (l *lowerer) restLeaves(i int, kind string) bool {
	r := l.rests[i]
	return kind != "" && len(r) > 0 && exitKind(r[len(r)-1]) == kind
}

// nextIterations returns the body of the loop that path (an arm that
// leaves) leaves with return or break: the others go round again, from
// the top of the body (open_lm's master-only return on a NaN loss,
// before the next step's all-reduce). Nil outside a loop, or for
// continue.
func (l *lowerer) nextIterations(path []ast.Stmt) []ast.Stmt {
	n := len(l.loopBodies)
	if n == 0 || len(path) == 0 {
		return nil
	}
	kind := exitKind(path[len(path)-1])
	if kind != "leave" && kind != "break" {
		return nil
	}
	if c := l.caughtRaise(path); c != nil && c.depth > l.loopRests[len(l.loopRests)-1] {
		return nil // caught inside the loop's body: the raiser goes round again too
	}
	// The ranks that stay leave the same way at the end of an enclosing
	// block inside the loop: no one goes round again from here.
	for i := len(l.rests) - 1; i >= l.loopRests[len(l.loopRests)-1]; i-- {
		if l.restLeaves(i, kind) {
			return nil
		}
	}
	return l.settledArms(l.loopBodies[n-1])
}

// armIf is an if statement whose arm the walk is in.
type armIf struct {
	s      *ast.If
	inElse bool
	loops  int
}

// settledArms returns the loop body the ranks that stay run again,
// with each if around the exit (a statement of the body, then of the
// arm kept, and so on) whose test every rank answers alike on every pass
// replaced by the arm the exit is in: those ranks take that arm again,
// not the other (`if zero3: all_reduce(flag) … elif early_stop: break`,
// trl's PPO early stop: a job that can leave there never reduces).
func (l *lowerer) settledArms(body []ast.Stmt) []ast.Stmt {
	cur := body
	for _, ai := range l.armIfs {
		if ai.loops != l.loops {
			continue // outside the innermost loop
		}
		j := slices.IndexFunc(cur, func(st ast.Stmt) bool { return st == ast.Stmt(ai.s) })
		if j < 0 || !l.settingOfLoop(ai.s.Test, body) {
			break
		}
		arm := ai.s.Body
		if ai.inElse {
			arm = ai.s.Orelse
		}
		next := make([]ast.Stmt, 0, len(cur)+len(arm))
		next = append(append(append(next, cur[:j]...), arm...), cur[j+1:]...)
		cur = next
	}
	return cur
}

// settingOfLoop reports a test every rank answers alike that the loop
// body never changes: names and attribute paths it does not assign (a
// method call is not taken to change a setting), or a call of a program
// function that only returns such a test of its receiver or parameters
// (trl's `self.is_deepspeed_zero3_enabled()` reading the DeepSpeed
// config).
func (l *lowerer) settingOfLoop(test ast.Expr, body []ast.Stmt) bool {
	if _, differs := l.divergence(test); differs {
		return false
	}
	paths, ok := l.settingPaths(test, 0)
	if !ok || len(paths) == 0 {
		return false
	}
	return !rebindsAny(body, paths)
}

// rebindsAny reports whether body (not its nested definitions) assigns
// one of paths or a path above one (`cfg = …` changes cfg.x), or
// declares a name global or nonlocal: the binding statements and
// targets, not method calls, which a setting is not taken to change.
func rebindsAny(body []ast.Stmt, paths []string) bool {
	changed := false
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Global, *ast.Nonlocal:
			changed = true
		}
		for _, t := range everyBindingTarget(n) {
			changed = changed || bindsAny(t, func(e ast.Expr) bool {
				d := dotted(e)
				return d != "" && slices.ContainsFunc(paths, func(p string) bool {
					return p == d || strings.HasPrefix(p, d+".")
				})
			})
		}
		return !changed
	})
	return changed
}

// settingPaths returns the names and attribute paths a setting test
// reads; ok is false for a test that reads anything else. A call of a
// program function whose body only returns such a test of its
// parameters reads the caller's arguments (depth-bounded).
func (l *lowerer) settingPaths(test ast.Expr, depth int) ([]string, bool) {
	return readPaths(test, func(n ast.Node) ([]string, bool, bool) {
		switch x := n.(type) {
		case *ast.Subscript:
			return nil, true, true // cfg["zero_optimization"]["stage"]
		case *ast.Call:
			ps, good := l.predicatePaths(x, depth)
			return ps, false, good
		case *ast.Constant, *ast.Compare, *ast.BoolOp, *ast.UnaryOp:
			return nil, true, true
		}
		return nil, false, false
	})
}

// readPaths collects the names and attribute paths an expression reads.
// Every other node goes to other, which returns the paths it reads
// itself, whether to look inside it, and ok false where the expression
// is not one of the kind the caller accepts (readPaths then returns ok
// false).
func readPaths(e ast.Expr, other func(ast.Node) (paths []string, descend, ok bool)) (paths []string, ok bool) {
	ok = true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		switch x := n.(type) {
		case *ast.Name:
			paths = append(paths, x.Id)
			return false
		case *ast.Attribute:
			d := dotted(x)
			if d == "" {
				ok = false
			}
			paths = append(paths, d)
			return false
		}
		ps, descend, good := other(n)
		ok = ok && good
		paths = append(paths, ps...)
		return ok && descend
	})
	return paths, ok
}

// predicatePaths is settingPaths for a call of a program function whose
// body is one return of a setting test: the caller's paths it reads.
func (l *lowerer) predicatePaths(c *ast.Call, depth int) ([]string, bool) {
	_, fn := l.callee(c)
	if fn == nil || depth > 2 || len(c.Keywords) > 0 {
		return nil, false
	}
	body, args, ok := l.defOf(fn)
	if !ok || len(body) != 1 {
		return nil, false
	}
	ret, isRet := body[0].(*ast.Return)
	if !isRet || ret.Value == nil {
		return nil, false
	}
	inner, good := l.settingPaths(ret.Value, depth+1)
	if !good {
		return nil, false
	}
	// The callee's parameters, in the caller's terms: the receiver of a
	// method call, then the arguments.
	bound := map[string]string{}
	params := args.Positional()
	var passed []ast.Expr
	if a, isAttr := c.Func.(*ast.Attribute); isAttr && len(params) > 0 && dotted(a.Value) != "" && receiverShift(c, params[0].Arg) == 1 {
		passed = append(passed, a.Value)
	}
	passed = append(passed, c.Args...)
	for i, p := range params {
		if i < len(passed) {
			if d := dotted(passed[i]); d != "" {
				bound[p.Arg] = d
			} else if _, isConst := passed[i].(*ast.Constant); !isConst {
				return nil, false
			}
		}
	}
	var out []string
	for _, p := range inner {
		root, rest, _ := strings.Cut(p, ".")
		d, isParam := bound[root]
		if !isParam {
			return nil, false // a global, or a parameter left at its default
		}
		if rest != "" {
			d += "." + rest
		}
		out = append(out, d)
	}
	return out, true
}

// nextPassDivergence: the kinds of test that, leaving a loop after its
// collectives, leave the ranks that answer otherwise in the next pass's:
// the rank, and the questions each rank answers for itself at its own
// moment (a file's presence, the clock, a random draw, this rank's loss or
// batch).
func nextPassDivergence(d rules.Divergence) bool {
	switch d {
	case rules.RankTest, rules.HostCheck, rules.LocalTiming, rules.LocalRandom, rules.LocalValue, rules.LocalData, rules.LocalThreshold:
		return true
	}
	return false
}

// exitKind classifies a statement that always leaves: "leave" (return,
// raise, sys.exit(), os._exit()), "break", "continue", or "".
func exitKind(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.Return, *ast.Raise:
		return "leave"
	case *ast.Break:
		return "break"
	case *ast.Continue:
		return "continue"
	case *ast.If:
		if k := exitKind(lastStmt(s.Body)); k != "" && k == exitKind(lastStmt(s.Orelse)) {
			return k
		}
	case *ast.ExprStmt:
		if processExit(s) != nil {
			return "leave"
		}
	}
	return ""
}

// dictAttr returns `x.k` for a store through the instance dictionary,
// `x.__dict__["k"]` (instructlab's resume writes the epoch into its
// arguments that way); any other target as it is.
func dictAttr(target ast.Expr) ast.Expr {
	sub, ok := target.(*ast.Subscript)
	if !ok {
		return target
	}
	d, ok := sub.Value.(*ast.Attribute)
	if !ok || d.Attr != "__dict__" {
		return target
	}
	key, ok := constStr(sub.Slice)
	if !ok || key == "" {
		return target
	}
	return &ast.Attribute{Pos: sub.Pos, Value: d.Value, Attr: key, Ctx: ast.Store}
}

// processExit returns the call of a statement that ends the process
// (sys.exit(…), exit(), quit(), os._exit(…)), or nil.
func processExit(s *ast.ExprStmt) *ast.Call {
	c, ok := s.Value.(*ast.Call)
	if !ok {
		return nil
	}
	switch dotted(c.Func) {
	case "sys.exit", "exit", "quit", "os._exit":
		return c
	}
	return nil
}

func lastStmt(stmts []ast.Stmt) ast.Stmt {
	if len(stmts) == 0 {
		return nil
	}
	return stmts[len(stmts)-1]
}

func (l *lowerer) statement(s ast.Stmt, st *state, rest []ast.Stmt) (*state, bool) {
	prev := l.stmt
	l.stmt = s
	defer func() { l.stmt = prev }()
	switch s := s.(type) {
	case *ast.ExprStmt:
		l.expr(s.Value, st, true)
		if c, ok := unwrapAwait(s.Value).(*ast.Call); ok {
			if rh := l.handedBack(c); rh != nil {
				l.handBack(rh, c, "_", st) // the helper's handle, dropped
			}
			l.methodFsAttrs(c)
			l.paramFsAttrs(c)
		}
		l.rankOnlyMethodFlags(s)
		l.methodRankFlags(s)
		if c, ok := s.Value.(*ast.Call); ok {
			l.fsBoundCallee(c)
			l.helperFsCounts(c)
			l.helperExitBranch(c)
		}
		if v := l.appendedFs(s); v != "" && l.notDist == 0 {
			// found.append(x) for x in this host's listing: the list is
			// this host's answer too.
			l.markFs(v, true, l.fsOriginOf(s.Value))
		}
		if c, ok := s.Value.(*ast.Call); ok && l.notDist == 0 && len(c.Args) == 1 {
			// `if os.path.exists(p): loader.load_state_dict(torch.load(p))`:
			// a stateful loader resumed from this host's file (its own
			// rank's, often) yields only the batches left in its epoch.
			if a, isAttr := c.Func.(*ast.Attribute); isAttr && a.Attr == "load_state_dict" {
				if n, isName := a.Value.(*ast.Name); isName && strings.Contains(strings.ToLower(n.Id), "loader") {
					if check := l.enclosingFsCheck(); check != nil {
						markVar(&l.fsLoaders, n.Id, true)
						l.noteFsOrigin(n.Id, check)
					}
				}
			}
		}
		if c, ok := s.Value.(*ast.Call); ok && l.notDist == 0 && len(c.Args) == 1 && (len(l.fsCounts) > 0 || len(l.hostTests) > 0) {
			// arguments.update(extra_checkpoint_data): the dict now holds
			// the position read from the checkpoint this host found
			// (maskrcnn-benchmark's resume, read back as
			// arguments["iteration"]).
			if a, isAttr := c.Func.(*ast.Attribute); isAttr && a.Attr == "update" && (l.fromFsCount(c.Args[0]) || len(l.hostTests) > 0 && l.storedValue(c.Args[0])) {
				if base := dotted(a.Value); base != "" && !l.fsCounts[base] {
					markVar(&l.fsCounts, base, true)
					if o := l.fsOriginOf(c.Args[0]); o != nil {
						l.noteFsOrigin(base, o)
					}
				}
			}
		}
		if c, ok := s.Value.(*ast.Call); ok && l.notDist == 0 && len(c.Args) == 1 {
			// losses.append(loss.detach()): a list of this rank's losses
			// is this rank's too, and so are its stack and mean
			// (revisiting-at's NaN exit on the epoch's mean loss).
			if a, isAttr := c.Func.(*ast.Attribute); isAttr && (a.Attr == "append" || a.Attr == "extend") {
				if base, isName := a.Value.(*ast.Name); isName && !l.localVars[base.Id] && l.fromSyncForward(c.Args[0]) {
					markVar(&l.localVars, base.Id, true)
				}
			}
		}
		if c, ok := s.Value.(*ast.Call); ok {
			l.discarded(c)
			l.globalSwitch(c)
			l.initSite(c, s)
			if d := storageFreed(c); d != "" {
				l.event(&rules.Event{Kind: rules.EvFree, Pos: l.pos(c.Pos), Var: d, Storage: true})
			}
		}
		if a, ok := s.Value.(*ast.Await); ok {
			if c, ok := a.Value.(*ast.Call); ok {
				l.discarded(c)
			}
		}
		if w := l.comprehensionWork(s.Value); w != nil {
			// [dist.broadcast(p, async_op=True) for p in ps]: the list of
			// handles, dropped.
			at := l.pos(s.Span())
			w.Discarded, w.Var, w.ListStmt = true, "", &at
		}
	case *ast.Assign:
		l.noteSentinel(s)
		if c, ok := s.Value.(*ast.Call); ok {
			l.helperExitBranch(c) // checkpoint = load_checkpoint(args): it may exit first
		}
		if v := l.appendedFs(s); v != "" && l.notDist == 0 {
			// found[step] = name for name in this host's listing: the
			// dict is this host's answer too.
			l.markFs(v, true, l.fsOriginOf(s.Value))
		}
		if c, ok := unwrapAwait(s.Value).(*ast.Call); ok && l.inline[c] != nil && len(s.Targets) == 1 {
			if n, ok := s.Targets[0].(*ast.Name); ok {
				l.callTarget[c] = n.Id
			}
		}
		switch {
		case storesOnly(s.Targets, s.Value):
			l.handOn(s.Value, st) // self.x = t, stash[k] = (buf, ev)
		case rebindsOnly(s.Targets, s.Value), l.filesHandle(s.Targets, s.Value):
		case itemStore(s.Targets, s.Value) && (l.listElement(s.Targets[0]) || l.dictItem(s.Targets[0])):
			// memo[key] = staged on a dict or list of the function's own
			// files a reference, as memo.append(staged) does; it reads
			// nothing (a tensor's item store would copy).
		case itemStore(s.Targets, s.Value):
			n := len(l.fn.Events)
			l.expr(s.Value, st, false)
			for _, e := range l.fn.Events[n:] {
				if e.Kind == rules.EvUse && !e.Write {
					e.Stored = true
				}
			}
		default:
			l.expr(s.Value, st, false)
		}
		for _, t := range s.Targets {
			l.assign(t, s.Value, st)
			// `losses[k] = loss.item()`: a container holding this rank's
			// losses is this rank's too (its mean is; nanoGPT's
			// estimate_loss).
			if sub, ok := t.(*ast.Subscript); ok && l.notDist == 0 {
				if base, ok := sub.Value.(*ast.Name); ok && !l.localVars[base.Id] && l.fromSyncForward(s.Value) {
					markVar(&l.localVars, base.Id, true)
				}
			}
		}
		if c, ok := s.Value.(*ast.Call); ok {
			l.initSite(c, s)
			// `best = load_model(args, model)`: what the helper stores on
			// the objects passed to it happens whatever its result is
			// bound to (dust3r's resume through args.start_epoch).
			l.helperFsCounts(c)
		}
	case *ast.AnnAssign:
		if s.Value != nil {
			if !rebindsOnly([]ast.Expr{s.Target}, s.Value) {
				l.expr(s.Value, st, false)
			}
			l.assign(s.Target, s.Value, st)
		}
	case *ast.AugAssign:
		l.expr(s.Value, st, false)
		l.reads(s.Target)
		if n, ok := s.Target.(*ast.Name); ok && s.Op == ast.Add && l.handleLists[n.Id] {
			// reqs += send_many(t, dst): a list grows in place, as with
			// extend; the handles the call returns are filed in it and
			// the ones it held stay pending there.
			items := []ast.Expr{s.Value}
			if listDisplay(s.Value) {
				items = ast.SeqElts(s.Value) // reqs += [dist.isend(…), …]
			}
			for _, x := range items {
				c, isCall := unwrapAwait(x).(*ast.Call)
				if !isCall {
					continue
				}
				if as := l.callAsync[c]; as != nil && as.Work != nil && as.Work.Container == "" && as.Work.Var == "" {
					as.Work.Container, as.Work.Var = n.Id, n.Id
					at := l.listStmt()
					as.Work.ListStmt = &at
					l.noteConds(as.Work)
					st.add(n.Id, as.Work)
				}
			}
			return st, false
		}
		if n, ok := s.Target.(*ast.Name); ok && l.hostVars[n.Id] && keepsHost(s.Value) {
			l.augHost = true
		}
		if l.hostCounter(s.Target) && keepsHost(s.Value) {
			l.augHost = true // self.counts[k] += 1 on a defaultdict(int)
		}
		if _, ok := s.Target.(*ast.Attribute); ok && isIntConst(s.Value) && (s.Op == ast.Add || s.Op == ast.Sub) {
			// entry.num_views -= 1: a field stepped by a constant is
			// taken for a Python count (NVIDIA's offload example's view
			// count), not a device tensor updated in place.
			l.augHost = true
		}
		if s.Op == ast.Add && listDisplay(s.Value) {
			l.augHost = true // ops += [P2POp(…) for …]: a Python list grows; no tensor takes a list
		}
		n, isName := s.Target.(*ast.Name)
		wasLocal := isName && l.localVars[n.Id]
		// A counter stepped by a constant stays a rank value where it was
		// one, and becomes one in a rank test's arm (particleflow's
		// patience counter, kept on rank 0 and tested by every rank).
		l.augCounted = isName && isIntConst(s.Value) && (l.rankVars[n.Id] && l.rankDefs[n.Id] == nil || l.rankCounter(s.Value))
		l.assign(s.Target, nil, st)
		l.augCounted = false
		l.augHost = false
		if isName && l.notDist == 0 {
			// loss += batch_loss.data: a sum of this rank's losses is
			// this rank's own too (MicroLens's NaN break).
			markVar(&l.localVars, n.Id, wasLocal || l.fromSyncForward(s.Value))
		}
	case *ast.Return:
		if n, ok := s.Value.(*ast.Name); ok && l.handleCarriers[n.Id] {
			// `submat.job_handle = job; return submat`: the tensor goes
			// back with the job its consumers wait on before they read
			// it (SMORE's embedding reads, `emb.job_handle.sync()`).
			break
		}
		if s.Value != nil {
			// Only a value handed back as it is (names, attributes, a
			// tuple of them) is a hand-off; return f(x) reads x here.
			handed := plainRefs(s.Value)
			returned := handed && len(l.streams) > 0
			if handed {
				l.inReturn++
			}
			if returned {
				l.returning++
			}
			l.handOn(s.Value, st)
			if handed {
				l.inReturn--
			}
			if returned {
				l.returning--
			}
			l.escape(s.Value, st)
			if d := dotted(s.Value); d != "" {
				l.event(&rules.Event{Kind: rules.EvReturn, Pos: l.pos(s.Value.Span()), Var: d})
			}
		}
		l.leave(st, l.pos(s.Pos))
		return st, true
	case *ast.Raise:
		if s.Exc != nil {
			l.expr(s.Exc, st, false)
		}
		return st, true
	case *ast.Break:
		if n := len(l.breakStates); n > 0 {
			l.breakStates[n-1] = merge(l.breakStates[n-1], st)
		}
		return st, true
	case *ast.Continue:
		return st, true
	case *ast.Delete:
		for _, t := range s.Targets {
			if d := dotted(t); d != "" {
				l.graphReleased(d)
				for _, w := range st.pending[d] {
					if w.Overwritten == nil {
						p := l.pos(s.Pos)
						w.Overwritten = &p
					}
				}
				delete(st.pending, d)
				l.event(&rules.Event{Kind: rules.EvFree, Pos: l.pos(t.Span()), Var: d})
			}
		}
	case *ast.If:
		l.sentinelEnd(s)
		return l.ifStmt(s, st, rest)
	case *ast.For:
		l.loopRankFlags(nil, s.Body)
		// The iterable is evaluated before the target is bound: `for
		// epoch in range(epoch + 1, n)` counts with the epoch bound above.
		counted := l.rankCounted(s.Iter)
		fsCounted := !counted && l.fsCounted(s.Iter)
		l.skippingIteration(s.Iter, s.Body)
		var rankGen ast.Expr
		if !counted {
			rankGen = l.rankYieldGen(s.Iter)
			l.rankYieldLoop(rankGen, s.Iter, s.Body)
		}
		if !counted && !fsCounted {
			l.fsYieldLoop(s.Iter, s.Body)
		}
		l.rebindLoopTarget(s.Iter, s.Target)
		l.listingLoop(s.Iter, s.Target)
		l.rankAppends(s.Target, s.Iter, s.Body, rankGen != nil)
		l.setLoop(s.Iter, s.Target, s.Body)
		l.batchLoop(s.Iter, s.Target)
		l.loopHead(s.Iter, s.Target, st)
		l.fsCountedIndex(s.Iter, s.Target)
		filled := l.setFilled(s.Iter, s.Target, s.Body)
		perDatum := l.dataLoop(s.Iter, s.Target, s.Body)
		end := l.forLoop(s.Iter, s.Target, s.Body, s.Orelse, st)
		if counted {
			l.rankLoop(s.Iter, s.Target, s.Body)
		} else if fsCounted {
			l.fsLoop(s.Iter, s.Body)
		} else {
			l.fsSkippedPasses(s.Target, s.Body)
		}
		l.markFilled(filled, perDatum)
		return end, false
	case *ast.AsyncFor:
		l.setLoop(s.Iter, s.Target, s.Body)
		l.batchLoop(s.Iter, s.Target)
		l.loopHead(s.Iter, s.Target, st)
		filled := l.setFilled(s.Iter, s.Target, s.Body)
		perDatum := l.dataLoop(s.Iter, s.Target, s.Body)
		end := l.forLoop(s.Iter, s.Target, s.Body, s.Orelse, st)
		l.markFilled(filled, perDatum)
		return end, false
	case *ast.While:
		l.loopRankFlags(s.Test, s.Body)
		l.test(s.Test, st)
		l.commandLoop(s)
		// `while not stop.is_set():`, `while time.monotonic() < end:` or
		// `while t < tf` with a bound of the rank's own around
		// collectives: each rank leaves the loop after its own number of
		// iterations.
		if div, ok := l.divergence(s.Test); ok && (div == rules.LocalTiming || div == rules.LocalRandom || div == rules.RankTest) {
			if ops := l.ops(s.Body); len(ops) > 0 && !(div == rules.LocalTiming && l.drainLoop(s)) {
				l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(s.Test.Span()), Cond: l.text(s.Test), Then: ops, Divergence: div})
			}
		} else if ok && div == rules.HostCheck && l.notDist == 0 {
			l.fsWhile(s)
		} else {
			l.fsBoundWhile(s)
		}
		// `while reqs: reqs.pop().wait()`: the loop ends when the list
		// is empty, so waiting its elements in the body waits it all.
		v, noneInThen, ok := noneTest(s.Test)
		var ws []*rules.Work
		var before []int
		if ok && !noneInThen {
			ws = append(ws, st.pending[v]...)
			for _, w := range ws {
				before = append(before, len(w.Waited))
			}
		}
		out := l.loop(nil, s.Body, s.Orelse, st)
		for i, w := range ws {
			if len(w.Waited) > before[i] {
				out.dropWork(w)
			}
		}
		return out, false
	case *ast.With:
		l.exitStackTeardown(s)
		return l.with(s.Items, s.Body, st)
	case *ast.AsyncWith:
		return l.with(s.Items, s.Body, st)
	case *ast.Try:
		return l.try(s.Body, s.Handlers, s.Orelse, s.Finalbody, st, rest)
	case *ast.TryStar:
		return l.try(s.Body, s.Handlers, s.Orelse, s.Finalbody, st, rest)
	case *ast.Match:
		l.expr(s.Subject, st, false)
		var outs []*state
		all := true
		for _, c := range s.Cases {
			o, ex := l.block(c.Body, st.clone())
			if !ex {
				outs = append(outs, o)
				all = false
			}
		}
		outs = append(outs, st) // no case matched
		_ = all
		return merge(outs...), false
	case *ast.FunctionDef:
		l.closureWaits(s.Name, s.Body, st)
	case *ast.AsyncFunctionDef:
		l.closureWaits(s.Name, s.Body, st)
	case *ast.ClassDef:
		// A method of a class defined here that waits the enclosing
		// function's handle (`class Waiter: def wait(self):
		// work.wait()`, machin's irecv): the handle goes where the
		// class and its instances go.
		for _, m := range s.Body {
			switch m := m.(type) {
			case *ast.FunctionDef:
				l.closureWaits(s.Name, m.Body, st)
			case *ast.AsyncFunctionDef:
				l.closureWaits(s.Name, m.Body, st)
			}
		}
	case *ast.Assert:
		l.test(s.Test, st)
	}
	return st, false
}

// fsCountArg returns the first argument of c that holds a position read
// from this host's stored data (fromFsCount), or nil.
func (l *lowerer) fsCountArg(c *ast.Call) ast.Expr {
	if len(l.fsCounts) == 0 {
		return nil
	}
	for _, a := range c.Args {
		if l.fromFsCount(a) {
			return a
		}
	}
	for _, k := range c.Keywords {
		if l.fromFsCount(k.Value) {
			return k.Value
		}
	}
	return nil
}

// enclosingFsCheck returns the innermost test of the enclosing ifs that
// checks this host's file system, or nil.
func (l *lowerer) enclosingFsCheck() ast.Expr {
	if n := len(l.hostTests); n > 0 {
		return l.hostTests[n-1]
	}
	for i := len(l.ifTests) - 1; i >= 0; i-- {
		if l.directFsProbe(l.ifTests[i]) {
			return l.ifTests[i]
		}
	}
	return nil
}

// missingFileHandler returns the exception class of the first handler
// that catches a missing file (FileNotFoundError, or OSError and IOError,
// its bases), or nil.
func missingFileHandler(handlers []*ast.ExceptHandler) ast.Expr {
	for _, h := range handlers {
		types := []ast.Expr{h.Type}
		if t, ok := h.Type.(*ast.Tuple); ok {
			types = t.Elts
		}
		for _, t := range types {
			switch lastDotted(t) {
			case "FileNotFoundError", "OSError", "IOError":
				return t
			}
		}
	}
	return nil
}

// swallowedLoad returns the load of a try body that binds what it reads
// from a stored file (`start_k = load_checkpoint(path)["k"]`, a helper
// returning pickle.load's answer) under a handler that catches any
// exception and goes on: a missing file is one of them, so the handler
// is that host's file check, as FileNotFoundError's is
// (missingFileHandler). Nil otherwise.
func (l *lowerer) swallowedLoad(body []ast.Stmt, handlers []*ast.ExceptHandler) ast.Expr {
	swallows := slices.ContainsFunc(handlers, func(h *ast.ExceptHandler) bool {
		return (h.Type == nil || catches(h.Type, "Exception", "BaseException")) && !failsOnly(h.Body) && !leavesFunction(h.Body)
	})
	if !swallows {
		return nil
	}
	for _, st := range body {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 || !l.storedValue(a.Value) {
			continue
		}
		// Only where the name still holds a value when the load failed:
		// bound before the try (a parameter, a default) or by a handler.
		// Otherwise the next read raises NameError on that host, a
		// failure that stops the job.
		names := ast.SeqElts(a.Targets[0])
		if len(names) == 0 {
			names = []ast.Expr{a.Targets[0]}
		}
		kept := true
		for _, t := range names {
			n, isName := t.(*ast.Name)
			kept = kept && isName && (l.boundBefore(n.Id, st.Span()) || slices.ContainsFunc(handlers, func(h *ast.ExceptHandler) bool { return storesName(h.Body, n.Id) }))
		}
		if kept {
			return a.Value
		}
	}
	return nil
}

// boundBefore reports a name that is a parameter of the function, or
// that one of its statements before pos binds.
func (l *lowerer) boundBefore(v string, pos ast.Pos) bool {
	if paramNames(l.node)[v] {
		return true
	}
	found := false
	ast.InspectBody(l.body, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && nm.Ctx == ast.Store && nm.Id == v && nm.Span().Lineno < pos.Lineno {
			found = true
		}
		return !found
	})
	return found
}

// missingFileExit records the branch of a handler for a missing file
// that leaves the function (`try: ckpt = torch.load(p) except
// FileNotFoundError: return -1`, mlcommons' R-GAT): it is a file check
// each host answers for itself, as `if not os.path.exists(p): return`
// is, and the rank that leaves skips what follows. A handler that raises
// or exits with a failure ends the job through the launcher instead.
func (l *lowerer) missingFileExit(h *ast.ExceptHandler) {
	if l.notDist > 0 || len(h.Body) == 0 || missingFileHandler([]*ast.ExceptHandler{h}) == nil || l.r.Prog().Facts.SingleHost() {
		return
	}
	if _, isReturn := h.Body[len(h.Body)-1].(*ast.Return); !isReturn && !endsCleanExit(h.Body) {
		return
	}
	after := l.ops(l.skipped(h.Body))
	if len(after) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), Then: l.ops(h.Body), EarlyExit: true, After: after, Divergence: rules.HostCheck})
}

// missingFileEntry records the branch of a try whose body returns what it
// loads from a file (`try: return ctypes.CDLL(so) except OSError: …`,
// PyOP2's compiled-code cache) and whose handler for a missing file
// communicates: the ranks whose host has the file leave from the body,
// the others go on into the handler's collectives. It is a file check,
// as `if os.path.exists(so): return load(so)` is.
func (l *lowerer) missingFileEntry(body []ast.Stmt, h *ast.ExceptHandler) {
	if l.notDist > 0 || len(h.Body) == 0 || missingFileHandler([]*ast.ExceptHandler{h}) == nil || l.r.Prog().Facts.SingleHost() {
		return
	}
	if _, ret := lastStmt(body).(*ast.Return); !ret || !loadsFile(body) {
		return
	}
	ops := l.ops(h.Body)
	if len(ops) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(h.Pos), Cond: l.exceptClause(h), Then: ops, Divergence: rules.HostCheck})
}

// loadsFile reports statements that open or load a file by path, by the
// loader's last name: open(), torch.load, ctypes' CDLL, safetensors'
// safe_open, Path.read_text.
func loadsFile(stmts []ast.Stmt) bool {
	found := false
	ast.InspectBody(stmts, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		switch lastDotted(c.Func) {
		case "open", "load", "CDLL", "LoadLibrary", "PyDLL", "load_state_dict", "read_text", "read_bytes", "safe_open", "load_file":
			found = len(c.Args) > 0
		}
		return !found
	})
	return found
}

// forLoop is loop for `for target in iter`: iterating over a pending list
// of handles (batch_isend_irecv's) and waiting each element waits the list.
// loopHead lowers `for target in iter`. Iterating a variable's sequence
// (a tuple or list of tensors) reads no device memory: the target is
// bound to its elements and holds what the sequence's producer made, so
// `for g in grads: g.record_stream(s)` is no cross-stream read of grads,
// while a use of g is a use of what grads' producer wrote.
func (l *lowerer) loopHead(iter, target ast.Expr, st *state) {
	if ints := intTargets(iter, target); ints != nil {
		// for i in range(n), for i, x in enumerate(xs): the indices are
		// Python ints.
		l.expr(iter, st, false)
		n := len(l.fn.Events)
		for _, t := range ints {
			if t.isInt {
				l.assign(t.name, &ast.Constant{Type: ast.ConstInt}, st)
			} else {
				l.assign(t.name, nil, st)
			}
		}
		l.loopSources(n, iter, target)
		return
	}
	if d := dotted(iter); d == "" && !sequenceOfRefs(iter) && !l.listConcat(iter) {
		// A display of names (for g in [a, b]) or zip/enumerate of them
		// reads nothing, nor does a concatenation of Python lists
		// (listConcat); anything else is evaluated first.
		if _, refs := references(iter); !refs {
			l.expr(iter, st, false)
		} else if _, display := displayItems(iter); !display {
			l.expr(iter, st, false)
		}
	}
	n := len(l.fn.Events)
	l.assign(target, nil, st)
	l.loopSources(n, iter, target)
}

// listConcat reports a concatenation of Python lists that a for loop
// iterates (`for t in sends + recvs`, `[] + [z for z in a] + [z for z
// in b]`): each operand a list display or comprehension over names, a
// local bound to a new list, or such a concatenation, and at least one
// of them known to be a list (two unknown names could be tensors added).
// Iterating it reads no tensor.
func (l *lowerer) listConcat(e ast.Expr) bool {
	var known bool
	var walk func(e ast.Expr) bool
	walk = func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BinOp:
			return e.Op == ast.Add && walk(e.Left) && walk(e.Right)
		case *ast.Name:
			known = known || l.pyLists[e.Id]
			return true
		case *ast.Attribute:
			return dotted(e) != ""
		case *ast.List, *ast.ListComp:
			_, ok := references(e)
			known = known || ok
			return ok
		}
		return false
	}
	b, ok := e.(*ast.BinOp)
	return ok && walk(b) && known
}

// sequenceBuiltins go over the elements of their arguments, in order.
var sequenceBuiltins = map[string]bool{"zip": true, "enumerate": true, "reversed": true, "list": true, "tuple": true}

// sequenceOfRefs: zip(a, b), enumerate(a), reversed(a), list(a),
// tuple(a), d.items(), d.values() over names: iterating them reads no
// tensor.
func sequenceOfRefs(iter ast.Expr) bool {
	c, ok := iter.(*ast.Call)
	if !ok {
		return false
	}
	var args []ast.Expr
	switch {
	case sequenceBuiltins[dotted(c.Func)]:
		args = c.Args
	default:
		a, ok := c.Func.(*ast.Attribute)
		if !ok || len(c.Args) != 0 || a.Attr != "items" && a.Attr != "values" && a.Attr != "keys" {
			return false
		}
		args = []ast.Expr{a.Value}
	}
	if len(args) == 0 || len(c.Keywords) > 0 && dotted(c.Func) != "zip" {
		return false
	}
	for _, a := range args {
		if dotted(a) == "" && !sequenceOfRefs(a) {
			return false
		}
	}
	return true
}

// loopSources marks the writes a for loop's binding made (the events
// from index n on) as bindings to existing objects (Event.From): `for g
// in grads`, `for g in [a, b]`, `for i, g in enumerate(grads)`, `for g, s
// in zip(grads, shards)`, `for k, v in d.items()`. No device work runs;
// each name holds what its sequence's producer made.
func (l *lowerer) loopSources(n int, iter, target ast.Expr) {
	src := map[string][]string{}
	var bind func(iter, target ast.Expr)
	bind = func(iter, target ast.Expr) {
		if d := dotted(iter); d != "" {
			ast.Inspect(target, func(x ast.Node) bool {
				if nm, ok := x.(*ast.Name); ok {
					src[nm.Id] = append(src[nm.Id], d)
				}
				return true
			})
			return
		}
		if b, ok := iter.(*ast.BinOp); ok && l.listConcat(b) {
			bind(b.Left, target)
			bind(b.Right, target)
			return
		}
		if lc, ok := iter.(*ast.ListComp); ok {
			if from, _ := references(lc); len(from) > 0 {
				if nm, ok := target.(*ast.Name); ok {
					src[nm.Id] = append(src[nm.Id], from...)
				}
			}
			return
		}
		if _, display := displayItems(iter); display {
			if from, _ := references(iter); len(from) > 0 {
				if nm, ok := target.(*ast.Name); ok {
					src[nm.Id] = append(src[nm.Id], from...)
				}
			}
			return
		}
		c, ok := iter.(*ast.Call)
		if !ok {
			return
		}
		elts := ast.SeqElts(target)
		switch fn := dotted(c.Func); {
		case fn == "enumerate" && len(c.Args) >= 1 && len(elts) == 2:
			bind(c.Args[0], elts[1])
		case fn == "zip" && len(elts) == len(c.Args):
			for i, a := range c.Args {
				bind(a, elts[i])
			}
		case fn == "reversed" || fn == "sorted" || fn == "list" || fn == "tuple":
			if len(c.Args) >= 1 {
				bind(c.Args[0], target)
			}
		default:
			if a, ok := c.Func.(*ast.Attribute); ok && len(c.Args) == 0 {
				switch a.Attr {
				case "items", "values", "keys":
					bind(a.Value, target)
				}
			}
		}
	}
	bind(iter, target)
	if len(src) == 0 {
		return
	}
	for _, e := range l.fn.Events[n:] {
		if e.Kind == rules.EvUse && e.Write && !e.Host && len(e.From) == 0 {
			if from := src[e.Var]; len(from) > 0 {
				e.From = from
			}
		}
	}
}

// loopTarget is a name a for loop binds, and whether it is a Python int.
type loopTarget struct {
	name  ast.Expr
	isInt bool
}

// intTargets lists the names a for loop binds, in order, with whether
// they are Python ints: the name of `for i in range(…)`, the index of
// `for i, x in enumerate(…)` (and x too over a range). nil for other
// loops.
func intTargets(iter, target ast.Expr) []loopTarget {
	c, ok := iter.(*ast.Call)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	isRange := func(e ast.Expr) bool {
		r, ok := e.(*ast.Call)
		return ok && dotted(r.Func) == "range"
	}
	switch dotted(c.Func) {
	case "range":
		if _, ok := target.(*ast.Name); ok {
			return []loopTarget{{target, true}}
		}
	case "enumerate":
		elts := ast.SeqElts(target)
		if len(elts) != 2 {
			return nil
		}
		if _, ok := elts[0].(*ast.Name); !ok {
			return nil
		}
		return []loopTarget{{elts[0], true}, {elts[1], isRange(c.Args[0])}}
	}
	return nil
}

// references reports whether value only names objects that exist
// already: a variable or attribute, a constant index or a slice of one
// (a list element, a view), a display of such, or a comprehension that
// selects among one's elements ([p for p in ps if …], [p.grad for p in
// ps]). Binding such a value launches no device work: the name then holds
// what those objects' producers made. It returns the variables named.
func references(value ast.Expr) (from []string, ok bool) {
	switch e := value.(type) {
	case *ast.Name, *ast.Attribute:
		if d := dotted(e); d != "" {
			return []string{d}, true
		}
	case *ast.Subscript:
		if !constIndex(e.Slice) {
			return nil, false // t[mask] gathers: a kernel on the current stream
		}
		return references(e.Value)
	case *ast.Starred:
		return references(e.Value)
	case *ast.List, *ast.Tuple:
		items, _ := displayItems(e)
		for _, x := range items {
			f, ok := references(x)
			if !ok {
				return nil, false
			}
			from = append(from, f...)
		}
		return from, true
	case *ast.ListComp:
		return selection(e.Elt, e.Generators)
	case *ast.GeneratorExp:
		return selection(e.Elt, e.Generators)
	case *ast.IfExp:
		// `record = {} if check else None`: a new, empty container or
		// nothing, on the host either way.
		if noneOrEmpty(e.Body) && noneOrEmpty(e.Orelse) {
			return nil, true
		}
	case *ast.Call:
		// typing.cast(T, x) is x: a type checker's note, not an operation.
		switch dotted(e.Func) {
		case "cast", "typing.cast", "typing_extensions.cast":
			if len(e.Args) == 2 && len(e.Keywords) == 0 {
				return references(e.Args[1])
			}
		case "torch.chunk", "torch.split", "torch.tensor_split", "torch.unbind", "torch.narrow":
			if len(e.Args) > 0 {
				return references(e.Args[0])
			}
		}
		// x.chunk(n), x.view(-1), x.narrow(0, i, n): a view of x's
		// memory, made on the host: no kernel runs, and the view holds
		// what x's producer wrote.
		if a, ok := e.Func.(*ast.Attribute); ok && (viewMethods[a.Attr] || symmetricView(e)) {
			return references(a.Value)
		}
	}
	return nil, false
}

// symmetricView reports a symmetric-memory handle's method that returns
// a view of the handle's buffer, its own or a peer's
// (hdl.get_buffer(rank, sizes, dtype, offset), hdl.get_remote_tensor(peer,
// sizes, dtype), hdl.get_signal_pad(rank)): no kernel runs, and what
// the peers write there is ordered by the handle's device-side barriers.
func symmetricView(c *ast.Call) bool {
	switch c.Func.(*ast.Attribute).Attr {
	case "get_buffer", "get_remote_tensor":
		return len(c.Args)+len(c.Keywords) >= 3
	case "get_signal_pad":
		return true
	}
	return false
}

// loaderBatch reports next(it) (or next(it, default)) on a data loader's
// or sampler's iterator outside any stream context: a batch made in host
// memory, which a prefetcher then copies to the device on its side
// stream (VideoLLaMA3's CUDA loader, SALIENT++'s transferer). Inside a stream context the
// iterator's own device copies run on that stream, and the batch is
// that stream's.
func (l *lowerer) loaderBatch(value ast.Expr) bool {
	c, ok := value.(*ast.Call)
	if !ok || len(l.streams) > 0 {
		return false
	}
	f, ok := c.Func.(*ast.Name)
	if !ok || f.Id != "next" || len(c.Args) == 0 {
		return false
	}
	src := strings.ToLower(lastDotted(c.Args[0]))
	return strings.Contains(src, "loader") || strings.Contains(src, "iter") || strings.Contains(src, "sampler") ||
		src == "it" || strings.HasSuffix(src, "_it")
}

// listElementRefs is references for a value taken out of a Python list,
// tuple or dict of tensors by a computed index, then sliced or viewed
// (`self.buffers[idx][:n].view(n, -1)`, llumnix's migration buffers):
// picking an element runs no kernel, where indexing a tensor by a
// computed index may gather. The resolver must know the container for a
// Python list, tuple or dict (ContainerResolver).
func (l *lowerer) listElementRefs(value ast.Expr) ([]string, bool) {
	cr, ok := l.r.(ContainerResolver)
	if !ok {
		return nil, false
	}
	e := value
	for {
		switch x := e.(type) {
		case *ast.Call:
			a, ok := x.Func.(*ast.Attribute)
			if !ok || !viewMethods[a.Attr] {
				return nil, false
			}
			e = a.Value
		case *ast.Subscript:
			if constIndex(x.Slice) {
				e = x.Value
				continue
			}
			if !cr.PythonContainer(l.fn, x.Value) {
				return nil, false
			}
			return references(x.Value)
		default:
			return nil, false
		}
	}
}

// comprehensionRefs returns, for a dict or list comprehension that only
// regroups objects the function already holds, the names it takes them
// from: `{r: list(split(plan[r], n)) for r in plan.keys()}` and
// `{r: groups[r][i] for r in plan.keys()}` (EcoRec's per-rank key plans,
// round 364) pick elements and slices, which runs no kernel. One
// generator without conditions, over a mapping's keys, a range or a
// name; each value is the loop variable, an element of a name picked by
// the loop variable, a constant, or an index of a Python container, a
// list() or tuple() of one, or what a regrouping function of the
// program returns for one.
func (l *lowerer) comprehensionRefs(value ast.Expr) ([]string, bool) {
	var elts []ast.Expr
	var gens []*ast.Comprehension
	switch e := value.(type) {
	case *ast.DictComp:
		if !plainKey(e.Key) {
			return nil, false
		}
		elts, gens = []ast.Expr{e.Value}, e.Generators
	case *ast.ListComp:
		elts, gens = []ast.Expr{e.Elt}, e.Generators
	default:
		return nil, false
	}
	if len(gens) != 1 || gens[0].IsAsync != 0 || len(gens[0].Ifs) > 0 {
		return nil, false
	}
	t, ok := gens[0].Target.(*ast.Name)
	if !ok {
		return nil, false
	}
	var from []string
	hostKey := false // t is a key of a mapping or an int: it picks, never gathers
	switch it := gens[0].Iter.(type) {
	case *ast.Call:
		if a, isAttr := it.Func.(*ast.Attribute); isAttr && a.Attr == "keys" && len(it.Args) == 0 {
			hostKey = true
		} else if dotted(it.Func) == "range" {
			hostKey = true
		} else {
			return nil, false
		}
	case *ast.Name:
		from = append(from, it.Id) // t is each element of it
	default:
		return nil, false
	}
	cr, _ := l.r.(ContainerResolver)
	var pick func(e ast.Expr) ([]string, bool)
	pick = func(e ast.Expr) ([]string, bool) {
		switch x := e.(type) {
		case *ast.Name:
			if x.Id == t.Id {
				if hostKey {
					return nil, true
				}
				return from, true
			}
			return []string{x.Id}, true
		case *ast.Constant:
			return nil, true
		case *ast.Subscript:
			index := constIndex(x.Slice) || isName(x.Slice, t.Id) && hostKey ||
				cr != nil && cr.PythonContainer(l.fn, x.Value)
			if n, isNm := x.Slice.(*ast.Name); isNm && !index {
				// groups[r][i], i the count of an enclosing enumerate:
				// an int picks an element (or a view's row), no kernel.
				index = l.enumerateIndex(n.Id)
			}
			if !index {
				return nil, false
			}
			return pick(x.Value)
		case *ast.Call:
			if d := dotted(x.Func); (d == "list" || d == "tuple") && len(x.Args) == 1 && len(x.Keywords) == 0 {
				return pick(x.Args[0])
			}
			return l.regroupedCall(x, pick)
		}
		return nil, false
	}
	var out []string
	for _, e := range elts {
		f, ok := pick(e)
		if !ok {
			return nil, false
		}
		out = append(out, f...)
	}
	return out, true
}

// pythonItem reports an item of a Python list, tuple or dict (t[k],
// when the resolver knows t for one), not a slice of a tensor.
func (l *lowerer) pythonItem(t ast.Expr) bool {
	sub, ok := t.(*ast.Subscript)
	if !ok {
		return false
	}
	cr, ok := l.r.(ContainerResolver)
	return ok && cr.PythonContainer(l.fn, sub.Value)
}

// allHost reports whether every name of from holds host memory.
func (l *lowerer) allHost(from []string) bool {
	for _, f := range from {
		if !l.hostVars[f] {
			return false
		}
	}
	return len(from) > 0
}

// knownTrue reports a test that holds wherever it is asked: `x is not
// None` or `x != ""` (alone, in an `or`, or with others that hold in an
// `and`) in the body of an if that tested x's truth (`if x:`, `if x and
// …:`), or after a guard that leaves when x is false (`if not x:
// return`).
func (l *lowerer) knownTrue(test ast.Expr) bool {
	if l.rankImplied(test) {
		return true
	}
	switch t := test.(type) {
	case *ast.BoolOp:
		if t.Op == ast.Or {
			return slices.ContainsFunc(t.Values, l.knownTrue)
		}
		return len(t.Values) > 0 && !slices.ContainsFunc(t.Values, func(v ast.Expr) bool { return !l.knownTrue(v) })
	case *ast.Compare:
		if l.localRankZeroUnderZero(t) {
			return true
		}
		// `x is not None`, `x != ""`: true where x is.
		if len(t.Ops) != 1 {
			return false
		}
		if k, isStr := constStr(t.Comparators[0]); !(t.Ops[0] == ast.IsNot && isNone(t.Comparators[0]) || t.Ops[0] == ast.NotEq && isStr && k == "") {
			return false
		}
		x := dotted(t.Left)
		if x == "" {
			return false
		}
		for _, outer := range l.ifTests {
			if dotted(outer) == x {
				return true
			}
			if b, ok := outer.(*ast.BoolOp); ok && b.Op == ast.And && slices.ContainsFunc(b.Values, func(v ast.Expr) bool { return dotted(v) == x }) {
				return true
			}
		}
	}
	return false
}

// rankImplied reports a rank test inside the arm of an enclosing rank
// test that holds on the same ranks (`if local_rank in [-1, 0]: save();
// if local_rank == 0: barrier()`, llama-pipeline-parallel's save: -1 is
// no distributed job): every rank that gets there takes it.
func (l *lowerer) rankImplied(test ast.Expr) bool {
	if len(l.rankIfs) == 0 {
		return false
	}
	sa, pa, ok := rankTestForm(test)
	if !ok {
		return false
	}
	for _, ri := range l.rankIfs {
		if sb, pb, ok := rankTestForm(ri.s.Test); ok && sa == sb && (pa == pb) != ri.inElse {
			return true
		}
	}
	return false
}

// localRankZeroUnderZero reports `local_rank == 0` inside the arm of a
// test that only global rank 0 takes (`if self.rank != 0: barrier()
// else: save(); if self.local_rank == 0: barrier()`, TextBrewer's
// saver): global rank 0 is local rank 0 of its node, so the test holds
// on the one rank that gets there (local rank -1 means no job at all).
func (l *lowerer) localRankZeroUnderZero(t *ast.Compare) bool {
	if !zeroTest(t, ast.Eq) || !strings.Contains(lastDotted(t.Left), "local_rank") {
		return false
	}
	for _, ri := range l.rankIfs {
		c, ok := ri.s.Test.(*ast.Compare)
		if !ok {
			continue
		}
		left := c.Left
		if call, isCall := left.(*ast.Call); isCall && len(call.Args) == 0 {
			left = call.Func // dist.get_rank() == 0
		}
		switch last := lastDotted(left); {
		case last == "rank" || last == "global_rank" || last == "get_rank" || last == "rank_id":
		default:
			continue
		}
		if zeroTest(c, ast.Eq) && !ri.inElse || zeroTest(c, ast.NotEq) && ri.inElse {
			return true
		}
	}
	return false
}

// zeroTest reports a comparison `x <op> 0`.
func zeroTest(t *ast.Compare, op ast.CmpOp) bool {
	if len(t.Ops) != 1 || t.Ops[0] != op {
		return false
	}
	k, ok := t.Comparators[0].(*ast.Constant)
	return ok && k.Type == ast.ConstInt && k.Int == 0
}

// constDisplay reports a list or tuple display of constants (None
// included): [None], [0, 0], (False,).
func constDisplay(e ast.Expr) bool {
	switch e.(type) {
	case *ast.List, *ast.Tuple:
	default:
		return false
	}
	items := ast.SeqElts(e)
	for _, x := range items {
		if _, ok := x.(*ast.Constant); !ok {
			return false
		}
	}
	return len(items) > 0
}

// viewMethods are the tensor methods that return views of the tensor's
// memory (or a list of views) without running a kernel. reshape,
// flatten and contiguous are not among them: they copy when the layout
// needs it.
var viewMethods = map[string]bool{
	"chunk": true, "split": true, "tensor_split": true, "unbind": true, "view": true, "view_as": true,
	"narrow": true, "select": true, "t": true, "transpose": true, "permute": true, "unsqueeze": true,
	"squeeze": true, "expand": true, "expand_as": true, "unflatten": true, "as_strided": true,
	"detach": true, "movedim": true, "diagonal": true, "unfold": true,
}

// selection is references for a comprehension: one generator whose
// element is the loop variable or a reference through it.
func selection(elt ast.Expr, gens []*ast.Comprehension) ([]string, bool) {
	if len(gens) != 1 {
		return nil, false
	}
	v, ok := gens[0].Target.(*ast.Name)
	if !ok || gens[0].IsAsync != 0 {
		return nil, false
	}
	for _, c := range gens[0].Ifs {
		calls := false
		ast.Inspect(c, func(n ast.Node) bool {
			_, call := n.(*ast.Call)
			calls = calls || call
			return !calls
		})
		if calls {
			return nil, false // a condition that calls may do device work
		}
	}
	inner, ok := references(elt)
	if !ok || len(inner) == 0 {
		return nil, false
	}
	for _, d := range inner {
		if head, _, _ := strings.Cut(d, "."); head != v.Id {
			return nil, false
		}
	}
	return references(gens[0].Iter)
}

// constIndex: a subscript that selects without computing, on a list as on
// a tensor: an int or string constant (negative too) or a slice.
func constIndex(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant:
		return e.Type == ast.ConstInt || e.Type == ast.ConstStr
	case *ast.UnaryOp:
		return e.Op == ast.USub && constIndex(e.Operand)
	case *ast.Slice:
		return true
	}
	return false
}

func (l *lowerer) forLoop(iter, target ast.Expr, body, orelse []ast.Stmt, st *state) *state {
	l.forIters = append(l.forIters, forIter{body: body, iter: iter, target: target})
	defer func() { l.forIters = l.forIters[:len(l.forIters)-1] }()
	if c, ok := iter.(*ast.Call); ok && dotted(c.Func) == "reversed" && len(c.Args) == 1 {
		iter = c.Args[0] // for w in reversed(works)
	}
	tn, tIsName := target.(*ast.Name)
	if !tIsName {
		// for handle, x in zip(handles, xs): the first name holds each
		// handle of the first list in turn; for i, handle in
		// enumerate(handles), the second.
		t, isTuple := target.(*ast.Tuple)
		c, isCall := iter.(*ast.Call)
		elt := 0
		if isCall && dotted(c.Func) == "enumerate" {
			elt = 1
		} else if isCall && dotted(c.Func) != "zip" {
			isCall = false
		}
		if !isTuple || !isCall || len(c.Args) == 0 || len(t.Elts) <= elt {
			return l.loop(target, body, orelse, st)
		}
		first, ok1 := t.Elts[elt].(*ast.Name)
		list, ok2 := c.Args[0].(*ast.Name)
		if !ok1 || !ok2 || !st.has(list.Id) {
			return l.loop(target, body, orelse, st)
		}
		tn, iter = first, list
	}
	// for w in works, or for w in (w1, w2, w3): the loop variable holds
	// each handle in turn.
	var ws []*rules.Work
	if in, ok := iter.(*ast.Name); ok {
		ws = append(ws, st.pending[in.Id]...)
	} else if lists := concatenatedNames(iter); lists != nil {
		// for r in out_reqs + in_reqs, for r in itertools.chain(a, b):
		// each list's handles in turn (docom's gossip aggregation).
		for _, n := range lists {
			ws = append(ws, st.pending[n]...)
		}
	} else {
		// A tuple or list display (not a dict: iterating one yields its
		// keys).
		for _, x := range ast.SeqElts(iter) {
			if n, ok := x.(*ast.Name); ok {
				ws = append(ws, st.pending[n.Id]...)
			}
		}
	}
	if len(ws) == 0 {
		return l.loop(target, body, orelse, st)
	}
	before := make([]int, len(ws))
	for i, w := range ws {
		before[i] = len(w.Waited)
	}
	st.pending[tn.Id] = append([]*rules.Work(nil), ws...)
	out := l.loop(target, body, orelse, st)
	delete(out.pending, tn.Id)
	for i, w := range ws {
		if len(w.Waited) > before[i] {
			out.dropWork(w)
		}
	}
	return out
}

// concatenatedNames returns the names of `a + b + c` or
// `itertools.chain(a, b)`, lists iterated one after the other; nil for
// anything else.
func concatenatedNames(e ast.Expr) []string {
	switch x := e.(type) {
	case *ast.BinOp:
		if x.Op != ast.Add {
			return nil
		}
		left := concatenatedNames(x.Left)
		right := concatenatedNames(x.Right)
		if left == nil || right == nil {
			return nil
		}
		return append(left, right...)
	case *ast.Name:
		return []string{x.Id}
	case *ast.Call:
		if d := dotted(x.Func); d != "itertools.chain" && d != "chain" || len(x.Keywords) > 0 {
			return nil
		}
		var out []string
		for _, a := range x.Args {
			n, ok := a.(*ast.Name)
			if !ok {
				return nil
			}
			out = append(out, n.Id)
		}
		return out
	}
	return nil
}

func (l *lowerer) loop(target ast.Expr, body, orelse []ast.Stmt, st *state) *state {
	l.loops++
	l.loopRests = append(l.loopRests, len(l.rests))
	l.loopBodies = append(l.loopBodies, body)
	l.loopTargets = append(l.loopTargets, target)
	l.loopStmts = append(l.loopStmts, l.stmt)
	l.breakStates = append(l.breakStates, nil)
	defer func() {
		l.breakStates = l.breakStates[:len(l.breakStates)-1]
		l.loops--
		l.loopRests = l.loopRests[:len(l.loopRests)-1]
		l.loopBodies = l.loopBodies[:len(l.loopBodies)-1]
		l.loopTargets = l.loopTargets[:len(l.loopTargets)-1]
		l.loopStmts = l.loopStmts[:len(l.loopStmts)-1]
	}()
	if w, ok := l.stmt.(*ast.While); ok && alwaysTrue(w.Test) {
		for _, c := range issuedOnce(body) {
			if l.onceIssued == nil {
				l.onceIssued = map[*ast.Call]bool{}
			}
			l.onceIssued[c] = true
		}
	}
	outerArm, outerBound := l.iterArm, l.bound
	l.iterArm, l.bound = nil, nil
	var targetName string
	if target != nil {
		ast.Inspect(target, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok {
				l.bound = append(l.bound, nm.Id)
				delete(l.loopDone, nm.Id)
			}
			return true
		})
		if nm, ok := target.(*ast.Name); ok {
			targetName = nm.Id
		}
	}
	defer func() {
		if targetName != "" {
			if l.loopDone == nil {
				l.loopDone = map[string]bool{}
			}
			l.loopDone[targetName] = true
		}
	}()
	// Handles filed in a list and waited in the body through its
	// elements (`for i, x in enumerate(xs): reqs[i].wait()`): the loop
	// waits the list, as `for r in reqs` does.
	var filed map[*rules.Work]int
	for _, ws := range st.pending {
		for _, w := range ws {
			if w.Container != "" {
				if filed == nil {
					filed = map[*rules.Work]int{}
				}
				filed[w] = len(w.Waited)
			}
		}
	}
	in := st.clone()
	out, _ := l.block(body, in)
	l.iterArm, l.bound = outerArm, outerBound
	var carry map[string]carried
	// A handle created in the body and still pending at its end is rebound
	// by the next iteration before anyone waits it.
	for v, ws := range out.pending {
		for _, w := range ws {
			// A list that holds handles is rebound only where the body
			// binds it afresh (`in_reqs = []` at the top of each pass).
			rebind := w.Container == v && w.Var == v && w.Site != nil && w.Overwritten == nil && !holds(st, v, w)
			var rebindAt *ast.Pos
			if rebind {
				rebindAt = rebindingStmt(body, v)
			}
			if !holds(st, v, w) && w.Site != nil && w.Overwritten == nil && w.Var == v && (w.Container != v || rebindAt != nil) {
				if carry == nil {
					carry = carriedWaits(body, l.waitingClosures())
				}
				c, ok := carry[v]
				if !ok && l.chained(w, w) && !l.groupVaries(w, target, body) {
					continue // the next round's work, on the same group, waits it
				}
				if !ok && waitsBeforeBinds(body, v) {
					continue // rebound only once waited: a later pass or the code after the loop waits it
				}
				if !ok && bindsOnlyWhenNone(body, v) {
					continue // `if req is None: req = comm.Ibarrier()`: the next pass keeps it
				}
				if ok {
					// The next pass waits it, or hands it on, before it
					// rebinds v. The last pass's is left pending after
					// the loop, unless that pass makes none (lastPass).
					if l.lastSkipped[w] == l.loops {
						if c.handed {
							w.Escapes = true
						} else {
							w.Waited = append(w.Waited, l.pos(c.at))
						}
					}
					continue
				}
				p := w.Site.Pos
				if w.Via != nil {
					p = *w.Via // rebound where the helper's call binds it
				}
				if rebindAt != nil {
					p = l.pos(*rebindAt)
				}
				w.Overwritten = &p
			}
		}
	}
	if w, ok := l.loopStmts[len(l.loopStmts)-1].(*ast.While); ok && (alwaysTrue(w.Test) || l.breaksOnlyFlag(w)) {
		// `while True:` runs its body at least once and ends only by a
		// break (or leaves the function): the state after it is the
		// body's, not the one it was entered with.
		st = l.lastPass(out)
		// A handle each break waits for first (`elif barrier.Test():
		// break`, the NBX exchange's): the loop ends on its completion.
		for v := range st.pending {
			if breaksAfterCompletion(body, v) {
				if st == out {
					st = out.clone()
				}
				delete(st.pending, v)
			}
		}
	} else if f, ok := l.loopStmts[len(l.loopStmts)-1].(*ast.For); ok && runsOnce(f.Iter) {
		// A loop over every rank runs at least once: there is no path
		// that skips its body (a ring that waits the first broadcast at
		// the top of each pass).
		st = l.lastPass(out)
	} else {
		st = merge(st, l.lastPass(out))
	}
	for w, n := range filed {
		if len(w.Waited) > n {
			st.dropWork(w)
		}
	}
	if len(orelse) > 0 {
		o, _ := l.block(orelse, st.clone())
		st = merge(st, o)
	}
	if brk := l.breakStates[len(l.breakStates)-1]; brk != nil {
		// A handle made before a break (`if h.is_completed(): h =
		// dist.broadcast(…, async_op=True); break`) is pending after the
		// loop, past its else.
		st = merge(st, brk)
	}
	return st
}

// carriedWaits returns the variables a loop's body waits, or hands to a
// call, before it binds them: each pass then waits (or hands on) the work
// the pass before left in them (`for w in works: w.wait()` at the top of
// the body, then `works = dist.batch_isend_irecv(ops)`). Waits under a
// test that the variable holds work (`if h is not None: h.wait()`, `if
// works:`) count; other conditional ones do not. handed: only handed to a
// call, which may keep it.
func carriedWaits(body []ast.Stmt, closures map[string][]string) map[string]carried {
	out := map[string]carried{}
	bound := map[string]bool{}
	note := func(v string, at ast.Pos, handed bool) {
		if v == "" || bound[v] {
			return
		}
		if c, ok := out[v]; ok && !c.handed {
			return
		}
		out[v] = carried{at: at, handed: handed}
	}
	// markBound notes the names s binds: a wait after them waits the
	// pass's own work, not the last pass's.
	markBound := func(s ast.Stmt) {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			}
			for _, t := range bindingTargets(n) {
				for _, v := range targetNames(t) {
					bound[v] = true
				}
			}
			return true
		})
	}
	var waits func(s ast.Stmt, guard string)
	waits = func(s ast.Stmt, guard string) {
		switch s := s.(type) {
		case *ast.ExprStmt:
			if v, at, ok := compWaitOf(s.Value); ok {
				// [r.wait() for r in reqs], as compWait lowers it.
				if guard == "" || guard == v {
					note(v, at, false)
				}
				return
			}
			c, ok := s.Value.(*ast.Call)
			if !ok {
				return
			}
			if a, ok := c.Func.(*ast.Attribute); ok && (a.Attr == "wait" || a.Attr == "Wait") {
				if n, ok := a.Value.(*ast.Name); ok && (guard == "" || guard == n.Id) {
					note(n.Id, c.Pos, false)
				}
				return
			}
			if f, ok := c.Func.(*ast.Name); ok && len(closures[f.Id]) > 0 {
				// finish_prev(): a nested def that waits the handle.
				for _, v := range closures[f.Id] {
					if guard == "" || guard == v {
						note(v, c.Pos, false)
					}
				}
				return
			}
			for _, x := range c.Args {
				if n, ok := x.(*ast.Name); ok && (guard == "" || guard == n.Id) {
					note(n.Id, c.Pos, true)
				}
			}
		case *ast.For:
			if len(s.Body) == 0 {
				return
			}
			t, ok1 := s.Target.(*ast.Name)
			in, ok2 := s.Iter.(*ast.Name)
			if ok1 && ok2 && (guard == "" || guard == in.Id) {
				if e, ok := s.Body[0].(*ast.ExprStmt); ok {
					if c, ok := e.Value.(*ast.Call); ok {
						if a, ok := c.Func.(*ast.Attribute); ok && (a.Attr == "wait" || a.Attr == "Wait") && dotted(a.Value) == t.Id {
							note(in.Id, c.Pos, false)
							return
						}
					}
				}
			}
			// An inner loop whose passes wait it before they bind it
			// (weipipe's schedule: `for j in …: …; wait(g_reqs); g_reqs
			// = flow(…)` inside the outer loop).
			for _, st := range s.Body {
				waits(st, guard)
				markBound(st)
			}
		case *ast.While:
			for _, st := range s.Body {
				waits(st, guard)
				markBound(st)
			}
		case *ast.If:
			if v, noneInThen, ok := noneTest(s.Test); ok && !noneInThen && guard == "" && len(s.Body) > 0 {
				waits(s.Body[0], v)
			} else if guard == "" && len(s.Orelse) == 0 && len(s.Body) > 0 && laterPass(s.Test) {
				// if i > 0: prev.wait(): every pass but the first, which
				// has no earlier handle, waits it.
				waits(s.Body[0], "")
			}
		}
	}
	for _, s := range body {
		waits(s, "")
		markBound(s)
	}
	return out
}

// laterPass reports a test that fails on a loop's first pass only, as a
// counter from zero has it (`i > 0`, `step != 0`, `k >= 1`).
func laterPass(test ast.Expr) bool {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return false
	}
	if _, isName := c.Left.(*ast.Name); !isName {
		return false
	}
	k, ok := c.Comparators[0].(*ast.Constant)
	if !ok || k.Type != ast.ConstInt {
		return false
	}
	switch c.Ops[0] {
	case ast.Gt, ast.NotEq:
		return k.Int == 0 && k.Big == nil
	case ast.GtE:
		return k.Int == 1 && k.Big == nil
	}
	return false
}

// waitingClosures returns, by name, the defs nested in the function being
// lowered that wait a handle of the enclosing function (`def
// finish_prev(): handle.wait()`, sparsify's Muon step): a call of one
// waits the enclosing function's handle, also one bound after the def
// (closureWaits hands on those pending when the def runs). Computed once
// per function.
func (l *lowerer) waitingClosures() map[string][]string {
	if l.closures != nil {
		return l.closures
	}
	l.closures = map[string][]string{}
	body, _, _, ok := defParts(l.node)
	if !ok {
		return l.closures
	}
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		switch d := st.(type) {
		case *ast.ClassDef, *ast.AsyncFunctionDef:
			return false
		case *ast.FunctionDef:
			if vs := freeWaits(d); len(vs) > 0 {
				l.closures[d.Name] = vs
			}
			return false
		}
		return true
	})
	return l.closures
}

// freeWaits returns the names a def waits (`h.wait()`) that it does not
// bind itself: the enclosing function's.
func freeWaits(def *ast.FunctionDef) []string {
	local := boundLocally(def)
	var out []string
	ast.InspectBody(def.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok && (a.Attr == "wait" || a.Attr == "Wait") && len(n.Args) == 0 {
				if v, ok := a.Value.(*ast.Name); ok && !local[v.Id] && !slices.Contains(out, v.Id) {
					out = append(out, v.Id)
				}
			}
		}
		return true
	})
	return out
}

// waitsBeforeBinds reports whether a loop's body binds v only where it has
// waited v's work first, in the same pass: `while True: if
// handle.is_completed(): …; handle = dist.broadcast(…, async_op=True);
// break` under `if it % interval == 0:` (emdr2's reload). A pass that does
// not bind v leaves the earlier work pending for a later pass or for the
// code after the loop, so the rebinding never drops unwaited work.
func waitsBeforeBinds(body []ast.Stmt, v string) bool {
	binds := false
	var block func(stmts []ast.Stmt, waited bool) bool
	polls := func(e ast.Expr, methods ...string) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				if a, ok := c.Func.(*ast.Attribute); ok && slices.Contains(methods, a.Attr) && dotted(a.Value) == v {
					found = true
				}
			}
			return !found
		})
		return found
	}
	bindsHere := func(s ast.Stmt) bool {
		if _, isFor := s.(*ast.For); isFor {
			return false // a for statement's own case
		}
		for _, t := range bindingTargets(s) {
			if slices.Contains(targetNames(t), v) {
				return true
			}
		}
		return false
	}
	block = func(stmts []ast.Stmt, waited bool) bool {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			case *ast.ExprStmt:
				if polls(s.Value, "wait", "Wait", "synchronize") {
					waited = true
				}
			case *ast.If:
				// if handle.is_completed(): the arm runs on completed work.
				done := waited || polls(s.Test, "is_completed", "wait", "done", "Test", "test")
				if !block(s.Body, done) || !block(s.Orelse, waited) {
					return false
				}
				continue
			case *ast.While:
				if !block(s.Body, waited) {
					return false
				}
				// while not handle.is_completed(): sleep(…) ends on
				// completed work.
				if u, ok := s.Test.(*ast.UnaryOp); ok && u.Op == ast.Not && polls(u.Operand, "is_completed", "done", "Test", "test") {
					waited = true
				}
				continue
			case *ast.For:
				if slices.Contains(targetNames(s.Target), v) || !block(s.Body, waited) {
					return false
				}
				continue
			case *ast.With:
				for _, it := range s.Items {
					if it.OptionalVars != nil && slices.Contains(targetNames(it.OptionalVars), v) {
						return false
					}
				}
				if !block(s.Body, waited) {
					return false
				}
				continue
			case *ast.Try:
				if !block(s.Body, waited) || !block(s.Orelse, waited) || !block(s.Finalbody, waited) {
					return false
				}
				for _, h := range s.Handlers {
					if !block(h.Body, waited) {
						return false
					}
				}
				continue
			}
			if bindsHere(s) {
				if !waited {
					return false
				}
				binds = true
				continue
			}
			bound := false
			ast.Inspect(s, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && nm.Id == v && nm.Ctx != ast.Load {
					bound = true
				}
				return !bound
			})
			if bound {
				return false
			}
		}
		return true
	}
	return block(body, false) && binds
}

// bindingTargets returns what an assignment, augmented or annotated
// assignment, for statement or walrus binds (nil for any other node).
func bindingTargets(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.Assign:
		return n.Targets
	case *ast.AugAssign:
		return []ast.Expr{n.Target}
	case *ast.AnnAssign:
		return []ast.Expr{n.Target}
	case *ast.For:
		return []ast.Expr{n.Target}
	case *ast.NamedExpr:
		return []ast.Expr{n.Target}
	}
	return nil
}

// everyBindingTarget is bindingTargets with the other nodes that bind
// names too: an async for, a with item's `as` target, a comprehension's
// for clause.
func everyBindingTarget(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.AsyncFor:
		return []ast.Expr{n.Target}
	case *ast.WithItem:
		if n.OptionalVars != nil {
			return []ast.Expr{n.OptionalVars}
		}
	case *ast.Comprehension:
		return []ast.Expr{n.Target}
	}
	return bindingTargets(n)
}

// carried is how a loop's body waits a variable's earlier work.
type carried struct {
	at     ast.Pos
	handed bool
}

// runsOnce reports a for loop's iterable that is never empty: range(n)
// over the number of ranks (world_size, dist.get_world_size(group),
// comm.Get_size()), and range(n - 1, -1, -1) over them backwards.
func runsOnce(iter ast.Expr) bool {
	c, ok := iter.(*ast.Call)
	if !ok || dotted(c.Func) != "range" || len(c.Keywords) > 0 {
		return false
	}
	switch len(c.Args) {
	case 1:
		return rankCount(c.Args[0])
	case 3:
		stop, ok1 := intConst(c.Args[1])
		step, ok2 := intConst(c.Args[2])
		if !ok1 || !ok2 || stop != -1 || step != -1 {
			return false
		}
		start := c.Args[0]
		if b, ok := start.(*ast.BinOp); ok && b.Op == ast.Sub {
			if k, ok := intConst(b.Right); ok && k == 1 {
				return rankCount(b.Left)
			}
		}
		k, ok := intConst(start)
		return ok && k >= 0
	}
	return false
}

// rankCount reports an expression that names the number of ranks, which
// is at least one: a name or attribute ending in world_size, or a call of
// get_world_size / Get_size.
func rankCount(e ast.Expr) bool {
	if call, ok := e.(*ast.Call); ok {
		e = call.Func
		n := lastDotted(e)
		return strings.HasSuffix(n, "get_world_size") || n == "Get_size"
	}
	return strings.HasSuffix(lastDotted(e), "world_size")
}

// readsLoopTarget reports whether e reads a name the innermost loop binds
// as its target.
func (l *lowerer) readsLoopTarget(e ast.Expr) bool {
	if len(l.loopTargets) == 0 || l.loopTargets[len(l.loopTargets)-1] == nil {
		return false
	}
	names := map[string]bool{}
	for _, n := range targetNames(l.loopTargets[len(l.loopTargets)-1]) {
		names[n] = true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && names[nm.Id] {
			found = true
		}
		return !found
	})
	return found
}

// breaksOnlyFlag reports `while keep_going:` whose flag the function sets
// to True everywhere but inside the loop, where each `keep_going = False`
// is followed at once by a break: the test is never false at the loop's
// head, so the loop ends only by a break, as `while True:` does (FedMPI's
// client polling its broadcast with req.is_completed()).
func (l *lowerer) breaksOnlyFlag(w *ast.While) bool {
	flag, ok := w.Test.(*ast.Name)
	if !ok || l.node == nil {
		return false
	}
	inLoop := func(n ast.Node) bool {
		sp, ws := n.Span(), w.Span()
		return sp.Lineno > ws.Lineno && sp.Lineno <= ws.EndLineno
	}
	ok, seen := true, false
	var visit func(stmts []ast.Stmt)
	visit = func(stmts []ast.Stmt) {
		for i, st := range stmts {
			if !ok {
				return
			}
			switch st := st.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			case *ast.Assign:
				for _, t := range st.Targets {
					n, isName := t.(*ast.Name)
					if !isName || n.Id != flag.Id {
						if slices.ContainsFunc(ast.SeqElts(t), func(e ast.Expr) bool { nm, ok := e.(*ast.Name); return ok && nm.Id == flag.Id }) {
							ok = false
						}
						continue
					}
					if inLoop(st) {
						_, brk := nextStmt(stmts, i).(*ast.Break)
						ok = ok && isFalse(st.Value) && brk
					} else {
						ok = ok && isTrue(st.Value)
						seen = true
					}
				}
			case *ast.AugAssign, *ast.AnnAssign:
				if rootName(assignTarget(st)) == flag.Id {
					ok = false
				}
			}
			for _, b := range ast.ChildBlocks(st) {
				visit(b)
			}
		}
	}
	visit(ast.DefBody(l.node))
	return ok && seen
}

// nextStmt returns the statement after stmts[i], or nil.
func nextStmt(stmts []ast.Stmt, i int) ast.Stmt {
	if i+1 < len(stmts) {
		return stmts[i+1]
	}
	return nil
}

// assignTarget returns the target of an augmented or annotated
// assignment.
func assignTarget(st ast.Stmt) ast.Expr {
	switch st := st.(type) {
	case *ast.AugAssign:
		return st.Target
	case *ast.AnnAssign:
		return st.Target
	}
	return nil
}

// alwaysTrue reports a constant true loop test: True, or a non-zero
// integer.
// pollUntilTaken reports an if that is the only way out of the `while
// True:` loop whose body it is in: its arm ends the loop (break, return,
// raise, process exit), its else arm (if any) neither leaves nor
// communicates, and nothing else in the body leaves the loop or
// communicates. Every rank then runs the arm exactly once.
func (l *lowerer) pollUntilTaken(s *ast.If) bool {
	last := lastStmt(s.Body)
	if last == nil {
		return false
	}
	if _, isBreak := last.(*ast.Break); !isBreak && !exitsFunction(s.Body) {
		return false
	}
	return l.pollDrain(s)
}

// leavesLoop reports statements that may leave the loop they are in:
// a break (outside nested loops), return or raise anywhere in them, or a
// process exit.
func leavesLoop(stmts []ast.Stmt) bool {
	found := false
	var walk func(ss []ast.Stmt, inLoop bool)
	walk = func(ss []ast.Stmt, inLoop bool) {
		for _, st := range ss {
			if found {
				return
			}
			switch x := st.(type) {
			case *ast.Break:
				found = !inLoop
			case *ast.Return, *ast.Raise:
				found = true
			case *ast.ExprStmt:
				found = processExit(x) != nil
			case *ast.For:
				walk(x.Body, true)
				walk(x.Orelse, inLoop)
			case *ast.AsyncFor:
				walk(x.Body, true)
				walk(x.Orelse, inLoop)
			case *ast.While:
				walk(x.Body, true)
				walk(x.Orelse, inLoop)
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			default:
				for _, b := range ast.ChildBlocks(st) {
					walk(b, inLoop)
				}
			}
		}
	}
	walk(stmts, false)
	return found
}

func alwaysTrue(e ast.Expr) bool {
	k, ok := e.(*ast.Constant)
	return ok && (k.Type == ast.ConstBool && k.Bool || k.Type == ast.ConstInt && k.Big == nil && k.Int != 0)
}

// lastPass returns the state after the body of the loop at the current
// depth as its last pass leaves it: without the work made under a test
// that is false on that pass (a pipeline's warm-up loop fires the next
// batch on every pass but the last, and waits the previous one first).
// The work earlier passes made is the next pass's to wait, which the
// loop's own check (Overwritten) sees.
func (l *lowerer) lastPass(out *state) *state {
	if len(l.lastSkipped) == 0 {
		return out
	}
	skipped := func(w *rules.Work) bool { return l.lastSkipped[w] == l.loops }
	var ended *state
	for v, ws := range out.pending {
		if !slices.ContainsFunc(ws, skipped) {
			continue
		}
		if ended == nil {
			ended = out.clone()
		}
		kept := slices.DeleteFunc(slices.Clone(ws), skipped)
		if len(kept) == 0 {
			delete(ended.pending, v)
		} else {
			ended.pending[v] = kept
		}
	}
	if ended == nil {
		return out
	}
	return ended
}

// notLastPass reports whether test is false exactly on the last pass of
// the innermost loop, a `for i in range(…)`: i != n - 1, i < n - 1,
// i + 1 < n, i + 1 != n (or the same written the other way round), where
// n is the range's stop.
func (l *lowerer) notLastPass(test ast.Expr) bool {
	if len(l.loopStmts) == 0 {
		return false
	}
	f, ok := l.loopStmts[len(l.loopStmts)-1].(*ast.For)
	if !ok {
		return false
	}
	idx, ok := f.Target.(*ast.Name)
	r, isCall := f.Iter.(*ast.Call)
	if ok && isCall && dotted(r.Func) == "range" && len(r.Args) == 3 && runsOnce(r) {
		// range(n - 1, -1, -1): the last pass is i == 0.
		ic, ok := l.intCondOf(test)
		// The test is false on that pass and true on every other (i > 0,
		// i != 0, i >= 1).
		onlyIdx := true
		ast.Inspect(test, func(n ast.Node) bool {
			if nm, isName := n.(*ast.Name); isName && nm.Id != idx.Id {
				onlyIdx = false
			}
			return onlyIdx
		})
		return ok && onlyIdx && ic.set.disjoint(intSet{{0, 0}}) &&
			ic.set.complement().disjoint(intSet{{1, math.MaxInt64}})
	}
	if !ok || !isCall || dotted(r.Func) != "range" || len(r.Keywords) > 0 || len(r.Args) == 0 || len(r.Args) > 2 {
		return false
	}
	stop := l.text(r.Args[len(r.Args)-1])
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return false
	}
	left, op, right := c.Left, c.Ops[0], c.Comparators[0]
	switch op {
	case ast.Gt:
		left, right, op = right, left, ast.Lt
	case ast.NotEq, ast.Lt:
	default:
		return false
	}
	isIdx := func(e ast.Expr) bool { n, ok := e.(*ast.Name); return ok && n.Id == idx.Id }
	isOne := func(e ast.Expr) bool {
		k, ok := e.(*ast.Constant)
		return ok && k.Type == ast.ConstInt && k.Big == nil && k.Int == 1
	}
	plusOne := func(e ast.Expr, is func(ast.Expr) bool, sub bool) bool {
		b, ok := e.(*ast.BinOp)
		want := ast.Add
		if sub {
			want = ast.Sub
		}
		return ok && b.Op == want && is(b.Left) && isOne(b.Right)
	}
	isStop := func(e ast.Expr) bool { return l.text(e) == stop }
	if op == ast.NotEq && (isIdx(right) || plusOne(right, isIdx, false)) {
		left, right = right, left
	}
	return isIdx(left) && plusOne(right, isStop, true) || plusOne(left, isIdx, false) && isStop(right)
}

func (l *lowerer) with(items []*ast.WithItem, body []ast.Stmt, st *state) (*state, bool) {
	pushed := 0
	if expectsRaise(items, l.body) {
		l.raising++
		defer func() { l.raising-- }()
	}
	// The program's own context managers' effects on exit, innermost
	// last (see cm.go).
	type cmExit struct {
		c   *ast.Call
		eff *cmEffects
	}
	var exits []cmExit
	enterStream := func(at ast.Pos, a ast.Expr) {
		if a == nil {
			return
		}
		if k, ok := a.(*ast.Constant); ok && k.Type == ast.ConstNone {
			return
		}
		sc := l.streamOf(a)
		l.event(&rules.Event{Kind: rules.EvStreamEnter, Pos: l.pos(at), Stream: sc.s, StreamText: sc.text})
		l.streams = append(l.streams, sc)
		pushed++
	}
	for _, it := range items {
		if n, ok := it.OptionalVars.(*ast.Name); ok {
			// `with tqdm.trange(a, b) as bar: for ep in bar:` (OpenPCSeg):
			// the loop runs the progress bar's passes.
			if c, ok := it.ContextExpr.(*ast.Call); ok && progressBars[lastDotted(c.Func)] {
				if l.withIters == nil {
					l.withIters = map[string]*ast.Call{}
				}
				l.withIters[n.Id] = c
			} else {
				delete(l.withIters, n.Id)
			}
		}
		switch it.ContextExpr.(type) {
		case *ast.Name, *ast.Attribute:
			// `with ctx:` enters a context manager (a lock, a stream, a
			// nullcontext()); tensors are none, so no data is read.
		default:
			l.expr(it.ContextExpr, st, false)
		}
		switch e := it.ContextExpr.(type) {
		case *ast.Name, *ast.Attribute:
			// `with stream:` — a CuPy stream is its own context
			// manager, making itself current in the block.
			if l.r.Stream(e) != nil || l.synth[dotted(e)] != nil {
				enterStream(e.Span(), e)
			}
		}
		if c, ok := it.ContextExpr.(*ast.Call); ok {
			ext, fn := l.callee(c)
			if l.joinContext(c, ext) {
				l.joining++
				names := joinedNames(c)
				if len(names) == 0 {
					names = l.joinAlias(c)
				}
				l.joinedModels = append(l.joinedModels, names)
				defer func() {
					l.joining--
					l.joinedModels = l.joinedModels[:len(l.joinedModels)-1]
				}()
				if ext != "torch.distributed.algorithms.Join" && ext != "torch.distributed.algorithms.join.Join" {
					l.joinedLoops(c, body)
				}
			}
			if lastName(ext) == "_coalescing_manager" || lastDotted(c.Func) == "_coalescing_manager" {
				l.coalescing++
				defer func() { l.coalescing-- }()
			}
			l.turnsBlock(c, body)
			if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "graph_capture" {
				if g := arg(c, sa.Arg); g != nil {
					l.graphCapture(c, g, body)
				}
			}
			if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "stream_context" {
				enterStream(c.Pos, arg(c, sa.Arg))
			} else if eff := l.cmEffectsOf(fn); eff != nil {
				l.applyCM(c, eff, eff.enter, l.pos(c.Pos))
				enterStream(c.Pos, eff.argument(c, eff.stream))
				exits = append(exits, cmExit{c, eff})
			}
		}
		if c, ok := it.ContextExpr.(*ast.Call); ok && l.callAsync[c] != nil {
			l.callAsync[c].WithEnd = int(l.stmt.Span().EndLineno)
		}
		if it.OptionalVars != nil {
			var value ast.Expr
			if c, ok := it.ContextExpr.(*ast.Call); ok && l.callAsync[c] != nil {
				// with _coalescing_manager(g, async_ops=True) as cm: cm
				// holds the manager's work.
				value = c
			}
			if c, ok := it.ContextExpr.(*ast.Call); ok && value == nil && l.entersSelf(c) {
				// with Engine(…) as engine: __enter__ returns the instance,
				// so engine is what the constructor made.
				value = c
			}
			l.assign(it.OptionalVars, value, st)
			if n, isName := it.OptionalVars.(*ast.Name); isName && l.notDist == 0 && l.fsProbe(it.ContextExpr) {
				// with open(os.path.join(found, "resume_step.txt")) as f:
				// what f reads is this host's file.
				l.markFs(n.Id, true, l.fsOriginOf(it.ContextExpr))
			}
		} else if c, ok := it.ContextExpr.(*ast.Call); ok {
			if s := l.callAsync[c]; s != nil && s.Work != nil && !s.Work.Escapes {
				s.Work.Discarded = true // no `as`: nothing can wait for it
			}
		}
	}
	st, exited := l.block(body, st)
	end := l.pos(l.stmt.Span())
	end.Line, end.Col = end.EndLine, end.EndCol
	for ; pushed > 0; pushed-- {
		sc := l.streams[len(l.streams)-1]
		l.streams = l.streams[:len(l.streams)-1]
		l.event(&rules.Event{Kind: rules.EvStreamExit, Pos: end, Stream: sc.s, StreamText: sc.text})
	}
	for i := len(exits) - 1; i >= 0; i-- {
		l.applyCM(exits[i].c, exits[i].eff, exits[i].eff.exit, end)
	}
	return st, exited
}

// fallsThrough reports a handler whose body can end without leaving.
func fallsThrough(handlers []*ast.ExceptHandler) bool {
	for _, h := range handlers {
		if !exits(h.Body) {
			return true
		}
	}
	return false
}

func (l *lowerer) try(body []ast.Stmt, handlers []*ast.ExceptHandler, orelse, final []ast.Stmt, st *state, rest []ast.Stmt) (*state, bool) {
	for _, h := range handlers {
		l.oomBranch(body, h, orelse)
		l.cleanExitBranch(body, h)
		// What the finally clause issues follows the handler too, on
		// every rank (an error flag all-reduced there meets the others'
		// collectives still in the body).
		l.writeFailureBranch(body, h, append(slices.Clip(final), rest...))
		l.exhaustBranch(body, h)
		l.missingFileExit(h)
		l.missingFileEntry(body, h)
		if br := l.handlerExitUnderRank(h); br != nil {
			l.addBranch(br)
		}
	}
	l.teardownBranch(body, handlers, final, rest)
	in := st.clone()
	// `try: state = torch.load(p) except FileNotFoundError: start = 0`:
	// the handler is the file check, and what the body reads from the
	// file is this host's answer, as under `if os.path.exists(p)`.
	var missing ast.Expr
	if l.notDist == 0 && !l.r.Prog().Facts.SingleHost() {
		missing = missingFileHandler(handlers)
		if missing == nil {
			missing = l.swallowedLoad(body, handlers)
		}
	}
	if missing != nil {
		l.hostTests = append(l.hostTests, missing)
	}
	if len(final) > 0 {
		l.finals = append(l.finals, finalAt{len(l.rests), final})
	}
	if len(handlers) > 0 {
		l.catches = append(l.catches, catchAt{len(l.rests), handlers})
	}
	out, exited := l.block(body, st)
	if len(handlers) > 0 {
		l.catches = l.catches[:len(l.catches)-1]
	}
	if len(final) > 0 {
		l.finals = l.finals[:len(l.finals)-1]
	}
	if missing != nil {
		l.hostTests = l.hostTests[:len(l.hostTests)-1]
	}
	if missing != nil || !exited && fallsThrough(handlers) {
		// The handler's `start = 0` is the other arm: what the body left
		// (a step this host read from its checkpoint) may still hold.
		defer l.unionTaints(l.saveTaints())
	}
	var outs []*state
	if !exited {
		o, ex := l.block(orelse, out)
		if !ex {
			outs = append(outs, o)
		}
	}
	for _, h := range handlers {
		// A handler that leaves: its own one-armed conditional, so that
		// what it does is not seen after the try.
		outer := l.arm
		if l.loops == 0 && exits(h.Body) {
			l.arm = &rules.Arm{Parent: outer, Cond: l.conds, Index: 0, Exits: true}
			l.conds++
		}
		l.handlers++
		o, ex := l.block(h.Body, merge(in, out))
		l.handlers--
		l.arm = outer
		if !ex {
			outs = append(outs, o)
		}
	}
	all := len(outs) == 0
	res := merge(outs...)
	if len(final) > 0 {
		var ex bool
		res, ex = l.block(final, res)
		all = all || ex
	}
	return res, all
}

// test lowers a condition. A variable tested for its truth (`if ran:`,
// `while not done`, `if a or b`) is taken for a Python value, not device
// memory: truth-testing a tensor is rare in this code (a tensor of more
// than one element refuses it) and would sync the device anyway; FSDP's
// `any_ran = any_ran or handle.pre_unshard()` under a stream is a bool.
//
// A value compared in a condition (`if src != -1:`, `while n < limit`)
// is a Python value too, or a tensor that bool() just copied to the host
// on the current stream: the comparison is a read there, and afterwards
// nothing is pending on the value, which is recorded as a host value.
func (l *lowerer) test(e ast.Expr, st *state) {
	switch e := e.(type) {
	case *ast.Name:
		return
	case *ast.Compare:
		if operands, ok := plainComparison(e); ok && l.uses {
			// The comparison reads the values where the condition runs
			// (a tensor written on another stream races it there), and
			// leaves Python values behind.
			l.expr(e, st, false)
			for _, x := range operands {
				if d := dotted(x); d != "" {
					if _, local := x.(*ast.Name); local {
						l.hostVars[d] = true
					}
					l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(x.Span()), Var: d, Write: true, Host: true})
				}
			}
			return
		}
	case *ast.UnaryOp:
		if e.Op == ast.Not {
			l.test(e.Operand, st)
			return
		}
	case *ast.BoolOp:
		for _, v := range e.Values {
			l.test(v, st)
		}
		return
	}
	l.expr(e, st, false)
	if l.uses && tensorTruthTest(e) {
		// `if not torch.isfinite(loss).all():` asks the device for a
		// Python bool: the host waits for the current stream.
		l.event(&rules.Event{Kind: rules.EvSync, Pos: l.pos(e.Span()), Host: true})
	}
}

// drainLoop reports a while loop that polls for work (`while not
// q.empty(): train(q.get())`) as the only statement that issues
// collectives in an endless loop (the enclosing `while True:`), with no
// way out of it: every rank runs the inner body once per item it
// receives, and each pass issues the same collectives, so the k-th pass
// of every rank meets the others' k-th; the poll decides when, not
// whether (brain-agent's learner). Anything else the outer loop issues
// would meet a rank still draining.
func (l *lowerer) drainLoop(inner *ast.While) bool {
	return l.onlyIssuerOfEndlessLoop(inner) && !leavesLoop([]ast.Stmt{inner})
}

// pollDrain is drainLoop for an if that polls (`while True: if not
// q.empty(): msg = q.get(); …`): an empty poll issues nothing and polls
// again, so the collectives follow the messages (FedScale's parameter
// server). Its arm may leave the loop (on a message).
func (l *lowerer) pollDrain(s *ast.If) bool {
	return l.onlyIssuerOfEndlessLoop(s) && !leavesLoop(s.Orelse) && len(l.ops(s.Orelse)) == 0
}

// onlyIssuerOfEndlessLoop reports a statement of the innermost loop's
// body, that loop being `while True:` without else, when no other
// statement of the body issues a collective or leaves the loop.
func (l *lowerer) onlyIssuerOfEndlessLoop(s ast.Stmt) bool {
	n := len(l.loopStmts)
	if n == 0 || len(l.loopBodies) == 0 {
		return false
	}
	w, ok := l.loopStmts[n-1].(*ast.While)
	if !ok || !alwaysTrue(w.Test) || len(w.Orelse) > 0 {
		return false
	}
	body := l.loopBodies[len(l.loopBodies)-1]
	if !slices.Contains(body, s) {
		return false
	}
	for _, st := range body {
		if st != s && (leavesLoop([]ast.Stmt{st}) || len(l.ops([]ast.Stmt{st})) > 0) {
			return false
		}
	}
	return true
}

// tensorTruthTest reports a test whose value is a one-element tensor of
// torch's reductions or comparisons, which Python's truth test copies to
// the host: torch.isfinite(x).all(), torch.isnan(x).any(), x.isnan().any(),
// torch.equal(a, b) and torch.allclose(a, b) (Python bools computed on
// the device).
func tensorTruthTest(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	switch dotted(c.Func) {
	case "torch.equal", "torch.allclose":
		return true
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "all" && a.Attr != "any" || len(c.Args) > 0 {
		return false
	}
	inner, ok := a.Value.(*ast.Call)
	if !ok {
		return false
	}
	if strings.HasPrefix(dotted(inner.Func), "torch.") {
		return true
	}
	m, ok := inner.Func.(*ast.Attribute)
	return ok && finiteTests[m.Attr]
}

func (l *lowerer) ifStmt(s *ast.If, st *state, rest []ast.Stmt) (*state, bool) {
	l.test(s.Test, st)
	if l.knownTrue(s.Test) {
		// `if args.resume is not None or …:` inside `if args.resume:`
		// (Hugging Face's no_trainer template): the else arm never runs.
		return l.block(s.Body, st)
	}
	l.uncalledPredicate(s)
	div, diverges := l.divergence(s.Test)
	singleThen := l.singleElifs[s]
	if singleThen {
		// `if A and dist.is_initialized(): … elif A and X:`: the elif
		// runs its arm only where A holds and the job is one process,
		// and every rank of a job takes the first arm or sees A false.
		diverges = false
	}
	if len(s.Orelse) == 1 {
		if e, ok := s.Orelse[0].(*ast.If); ok && l.elifAfterDistributed(s.Test, e.Test) {
			if l.singleElifs == nil {
				l.singleElifs = map[*ast.If]bool{}
			}
			l.singleElifs[e] = true
		}
	}
	if diverges && (l.pollUntilTaken(s) || div == rules.LocalTiming && l.pollDrain(s)) {
		// `while True: if handle.is_completed(): save(); break / else:
		// sleep(5)`: every rank leaves the loop through this arm, once,
		// whatever its test answers on each pass (emdr2's reindex wait).
		diverges = false
	}
	if diverges && div == rules.RankTest && l.commandProtocol(s) {
		l.commandArms++
		defer func() { l.commandArms-- }()
	}
	if diverges && div != rules.RankTest && div != rules.HostCheck && l.commandArms > 0 {
		// Inside a command loop's roles (commandProtocol): the leader
		// alone runs its arm, and what it decides there (a deadline, a
		// draw) reaches the followers as its next command.
		diverges = false
	}
	if diverges && div == rules.LocalValue {
		l.nanArms++
		defer func() { l.nanArms-- }()
	}
	if diverges && div == rules.RankTest {
		l.rankUnwrap(s)
		l.rankArms++
		l.rankIfs = append(l.rankIfs, &rankIf{s: s, loops: l.loops})
		defer func() {
			l.rankArms--
			l.rankIfs = l.rankIfs[:len(l.rankIfs)-1]
			l.promoteCounters()
		}()
	} else if br := l.exitUnderRank(s); br != nil {
		// The ranks of the enclosing rank arm alone can take this exit,
		// whatever its own condition: that is the reason to report.
		l.addBranch(br)
		diverges = false
	}
	if diverges && div == rules.RankTest {
		l.pairElifMembers(s)
	}
	if diverges && div == rules.RankTest && (l.paired[s] || l.pairSplitArms(s, rest)) {
		diverges = false // its pair issues what it leaves out (pairSplitArms)
	}
	if diverges && l.paired[s] {
		diverges = false // the complement of an earlier if (pairComplement)
	} else if diverges {
		l.pairComplement(s, rest)
	}
	if diverges {
		br := &rules.RankBranch{Func: l.fn, Guard: l.pos(s.Test.Span()), Cond: l.text(s.Test),
			Then: l.ops(s.Body), Else: l.ops(s.Orelse), Divergence: div}
		if div == rules.RankTest {
			br.Then, br.Else = l.dropSyncedForwards(br.Then, s), l.dropSyncedForwards(br.Else, s)
		}
		if len(br.Then) > 0 && l.mayIssueNothing(s.Orelse) && !l.sameGatedArms(s) {
			// `if rank == 0: X` / `elif cfg.flag: X`, no else: when the
			// flag is off the other ranks issue nothing at all, which the
			// flattened else sequence (X) hides.
			br.Else = nil
		}
		noneInElse := false
		if div == rules.LocalFailure {
			// `if x is None: return` on a helper's answer: name the
			// helper's out-of-memory handler, which decides.
			if h, noneInThen := l.oomNoneTest(s.Test); h != nil {
				br.Guard, br.Cond = h.pos, h.cond
				noneInElse = !noneInThen
			}
		}
		if div == rules.HostCheck {
			test := s.Test
			if p := l.fsProbeOperand(s.Test); p != nil {
				// `args.resume and os.path.exists(ckpt)`: name the check.
				br.Guard, br.Cond = l.pos(p.Span()), l.text(p)
				test = p
			}
			if !l.directFsProbe(test) {
				// `if step % 100 == 0` with step read from a checkpoint
				// found on this host: point at where that was decided.
				if o := l.fsOriginOf(test); o != nil {
					at := l.pos(o.Span())
					br.Origin = &at
				}
			}
		}
		if div == rules.RankTest {
			br.Then, br.Else = l.dropHeldGroupOps(br.Then), l.dropHeldGroupOps(br.Else)
			br.UniformIn = l.uniformIn(s.Test)
			br.RankViaKeys = l.rankVia(s.Test)
			br.RankDef = l.rankDefText(s.Test)
			br.RankIs = l.rankIs(s.Test)
			br.RankFrom = l.rankFrom(s.Test)
			br.RankBelow = l.rankBelow(s.Test)
			br.RankStride = l.rankStride(s.Test)
		}
		// An arm that raises is a failure, not a path that skips the
		// collectives: the launcher tears the job down when a rank dies
		// (torch's own `if not 0 <= rank < world_size: raise`).
		// A raise that a handler of this function catches is no failure:
		// the rank goes on after the handler.
		thenExits := exits(s.Body) && (!failsOnly(s.Body) || l.caughtRaise(s.Body) != nil)
		elseExits := len(s.Orelse) > 0 && exits(s.Orelse) && (!failsOnly(s.Orelse) || l.caughtRaise(s.Orelse) != nil)
		// …except under mpi4py, which does not abort the job on an
		// uncaught exception (mpiRaiseBefore).
		mpiRaise := div == rules.RankTest && len(s.Orelse) == 0 && raises(s.Body) && len(br.Then) == 0 &&
			l.mpiRaiseBefore(issuedDespite(l.pathOps(l.notWhenTaken(l.skipped(s.Body), s.Test)), l.falseWhenTaken(s.Test)))
		if mpiRaise {
			thenExits = true
		}
		switch {
		case thenExits && !elseExits:
			br.EarlyExit = true
			br.MPIRaise = mpiRaise
			if rest := l.skipped(s.Body); !l.outsideWorld(s.Test, rest) {
				br.After = issuedDespite(l.pathOps(l.notWhenTaken(rest, s.Test)), l.falseWhenTaken(s.Test))
				// A rank that skips a pass, or leaves the loop, on a
				// question about its own data or moment has still run
				// the loop's other passes.
				kind := exitKind(lastStmt(s.Body))
				skipsPass := div != rules.RankTest && div != rules.HostCheck && (kind == "continue" || kind == "break") ||
					// Round robin (`if idx % world_size != rank:
					// continue`): which passes a rank skips depends on the
					// pass, and each rank runs its share of them.
					div == rules.RankTest && kind == "continue" && l.readsLoopTarget(s.Test)
				if skipsPass {
					br.After = l.perPassOps(br.After)
				}
				if len(br.After) == 0 && len(br.Then) == 0 && nextPassDivergence(div) {
					// Nothing left in this pass: the next passes.
					br.After = l.ops(l.nextIterations(s.Body))
					if skipsPass {
						br.After = l.perPassOps(br.After)
					} else {
						br.After = l.dropRunThisPass(br.After, s)
					}
				} else if kind == "leave" && len(br.Then) > 0 && len(br.After) > 0 && div != rules.RankTest && div != rules.HostCheck && nextPassDivergence(div) && len(l.passRestOps()) == 0 {
					// `if time.time() - start > limit: all_reduce(loss);
					// return`, with the same all_reduce after the loop: the
					// ranks that stay run the next pass's collectives first
					// (the DDP backward) while this one reduces its loss.
					if next := l.dropRunThisPass(l.perPassOps(l.ops(l.passPrefix(s))), s); len(next) > 0 && l.nextIterations(s.Body) != nil {
						br.After = append(next, br.After...)
					}
				}
			}
		case elseExits && !thenExits:
			br.EarlyExit = true
			br.Then, br.Else = br.Else, br.Then
			br.After = l.ops(l.skipped(s.Orelse))
		case noneInElse:
			// A failure branch's Then is the failed rank's path.
			br.Then, br.Else = br.Else, br.Then
		}
		// An arm that communicates nothing and raises is the failure
		// path of a check (`if dirs: load() else: raise`), written either
		// way round: the ranks that fail die, and the launcher ends the job.
		failing := !br.EarlyExit && (raises(s.Body) && len(br.Then) == 0 || len(s.Orelse) > 0 && raises(s.Orelse) && len(br.Else) == 0)
		if len(br.Then)+len(br.Else)+len(br.After) > 0 && !failing && !l.commandProtocol(s) && !l.skipsOwnTurn(s, br) && !l.skipsOtherGroups(s, br) {
			l.addBranch(br)
			if !br.EarlyExit && len(br.Else) == 0 && len(br.Then) > 0 {
				l.pairRank(br, s.Test, l.following())
			}
		}
	} else if len(s.Orelse) > 0 {
		l.reorderedArms(s)
	}
	// Outside loops, the two arms never both run in one call: events are
	// tagged with their arm. Inside a loop, iterations may take different
	// arms, so no arm is recorded, unless the test is the same on every
	// pass (`if backend == "nccl":` in a loop over the parameters, xffl's
	// aggregation): then every pass takes the same arm. Such an arm
	// exits the function only by returning or raising (a break or
	// continue leaves the pass, and the code after the loop still runs).
	outer := l.arm
	armed := l.loops == 0 || l.loopInvariant(s.Test)
	armExits := exits
	if l.loops > 0 {
		armExits = exitsFunction
	}
	if armed {
		l.arm = &rules.Arm{Parent: outer, Cond: l.conds, Index: 0, Exits: armExits(s.Body)}
		l.conds++
	}
	// Inside a loop the arms still exclude each other within one
	// iteration; a name bound in one arm is not bound on the other's
	// path, nor after the conditional (unless bound before it).
	outerIter, boundBefore := l.iterArm, len(l.bound)
	if l.loops > 0 {
		l.iterArm = &rules.Arm{Parent: outerIter, Cond: l.conds, Index: 0, Exits: exits(s.Body)}
		l.conds++
	}
	thenSt, elseSt := st.clone(), st.clone()
	streamsBefore := maps.Clone(l.streamVars)
	// `if work is not None: work.wait()`: on the arm where the variable
	// is None, it holds no handle (a collective with async_op=async_op
	// returned None), so nothing is left to wait there.
	if v, noneInThen, ok := noneTest(s.Test); ok {
		if noneInThen {
			delete(thenSt.pending, v)
		} else {
			delete(elseSt.pending, v)
		}
	}
	// `elif req.Test(): break`: the arm runs once the request has
	// completed (mpi4py's Test completes it; is_completed and done say
	// the work is over).
	if v := completionTest(s.Test); v != "" {
		for _, w := range thenSt.pending[v] {
			w.Waited = append(w.Waited, l.pos(s.Test.Span()))
		}
		delete(thenSt.pending, v)
	}
	// The arm where torch.distributed is not initialised runs in a
	// single process: nothing bound there can differ between ranks.
	single, singleInThen := l.distributedTest(s.Test)
	if !single && l.launchTest(s.Test) && !callsNamed(s.Orelse, "init_process_group") && !callsNamed(s.Orelse, "init_distributed") {
		// `if is_torchrun(): … else: should_print = True`: the else arm
		// runs where no launcher started the process (mistral-inference).
		single, singleInThen = true, false
	}
	noRendezvous := false
	if !single && RendezvousEnvTest(s.Test) && !formsGroupWithoutEnv(s.Orelse) {
		// `if "RANK" in os.environ: init… elif device_count() > 1: init…`:
		// the else arm runs where env:// has no rank to read, so an init
		// there that names no rendezvous of its own raises, and no group
		// spans ranks that took different arms: no test there can split
		// a job.
		single, singleInThen, noRendezvous = true, false, true
	}
	if single && singleInThen {
		l.notDist++
	}
	// A handle made under `if c1 and c2:` does not exist where a later
	// test of those conditions (in any order or nesting) is false.
	if len(l.workConds) > 0 {
		// …and one made where the test was false is not there where it
		// is true (`if rank % 2 == 0: a = isend() else: b = irecv()`,
		// then the same test again: its then arm rebinds b on the ranks
		// that made a).
		negated := "not " + l.condKey(s.Test)
		// …and one made under an integer condition is not there where
		// the test excludes it (`if cp_rank > 0: req = irecv()`, then
		// `if cp_rank == 0: … else: req.wait()`).
		thenInt, intTest := l.intCondOf(s.Test)
		elseInt := intCond{subject: thenInt.subject, set: thenInt.set.complement()}
		for v, ws := range thenSt.pending {
			kept := ws[:0:0]
			for _, w := range ws {
				if !slices.Contains(l.workConds[w], negated) && !(intTest && excludes(thenInt, l.workInts[w])) {
					kept = append(kept, w)
				}
			}
			if len(kept) < len(ws) {
				thenSt.pending[v] = kept
			}
		}
		test := l.conjuncts(s.Test)
		for v, ws := range elseSt.pending {
			kept := ws[:0:0]
			for _, w := range ws {
				if !subsetOf(test, l.workConds[w]) && !(intTest && excludes(elseInt, l.workInts[w])) {
					kept = append(kept, w)
				}
			}
			if len(kept) < len(ws) {
				elseSt.pending[v] = kept
			}
		}
	}
	if diverges && div == rules.LocalTiming {
		l.clockArms++
		defer func() { l.clockArms-- }()
	}
	// A check whose other arm only fails (`if os.path.isfile(p): … else:
	// raise`) leaves alive only the ranks that took this arm: what it
	// reads, every survivor read alike (HuatuoGPT's resume).
	failingOther := len(s.Orelse) > 0 && failsOnly(s.Orelse) || failsOnly(s.Body)
	hostArm := diverges && div == rules.HostCheck && (l.directFsProbe(s.Test) || l.keptFsCheck(s.Test)) && !failingOther
	if hostArm {
		l.hostTests = append(l.hostTests, s.Test)
		defer func() { l.hostTests = l.hostTests[:len(l.hostTests)-1] }()
	}
	if diverges && div == rules.HostCheck && !failingOther {
		l.hostAnswerTests = append(l.hostAnswerTests, s.Test)
		defer func() { l.hostAnswerTests = l.hostAnswerTests[:len(l.hostAnswerTests)-1] }()
	}
	l.ifTests = append(l.ifTests, s.Test)
	l.armIfs = append(l.armIfs, armIf{s: s, loops: l.loops})
	defer func() { l.armIfs = l.armIfs[:len(l.armIfs)-1] }()
	taintsBefore := l.saveTaints()
	if singleThen {
		l.oneProcess++
	}
	a, ea := l.block(s.Body, thenSt)
	if singleThen {
		l.oneProcess--
	}
	taintsThen := l.saveTaints()
	l.restoreTaints(taintsBefore)
	l.ifTests = l.ifTests[:len(l.ifTests)-1]
	if l.loops > 0 && l.notLastPass(s.Test) {
		for v, ws := range a.pending {
			for _, w := range ws {
				if !holds(st, v, w) {
					if l.lastSkipped == nil {
						l.lastSkipped = map[*rules.Work]int{}
					}
					l.lastSkipped[w] = l.loops
				}
			}
		}
	}
	if single && singleInThen {
		l.notDist--
	}
	if armed {
		l.arm = &rules.Arm{Parent: outer, Cond: l.arm.Cond, Index: 1, Exits: len(s.Orelse) > 0 && armExits(s.Orelse)}
	}
	if l.loops > 0 {
		l.iterArm = &rules.Arm{Parent: outerIter, Cond: l.iterArm.Cond, Index: 1, Exits: len(s.Orelse) > 0 && exits(s.Orelse)}
		l.bound = l.bound[:boundBefore]
	}
	if single && !singleInThen {
		l.notDist++
	}
	if noRendezvous {
		l.noRendezvous++
	}
	if diverges && div == rules.RankTest {
		l.rankIfs[len(l.rankIfs)-1].inElse = true
	}
	streamsThen := l.streamVars
	l.streamVars = maps.Clone(streamsBefore)
	l.elseTests = append(l.elseTests, s.Test)
	l.armIfs[len(l.armIfs)-1].inElse = true
	b, eb := l.block(s.Orelse, elseSt)
	l.elseTests = l.elseTests[:len(l.elseTests)-1]
	l.mergeArmTaints(s, taintsThen, ea, eb)
	l.adoptedBroadcast(s)
	deadThen, deadElse := l.omittedParamArms(s.Test)
	switch {
	case ea && !eb, deadThen:
		// Only the else arm's bindings reach the code after the if.
	case eb && !ea, deadElse:
		l.streamVars = streamsThen
	default:
		l.streamVars = l.mergeStreamVars(streamsThen, l.streamVars, l.pos(s.Pos))
	}
	if single && !singleInThen {
		l.notDist--
	}
	if noRendezvous {
		l.noRendezvous--
	}
	l.arm = outer
	if l.loops > 0 {
		l.iterArm, l.bound = outerIter, l.bound[:boundBefore]
	}
	switch {
	case ea && eb:
		return merge(a, b), true
	case ea:
		return b, false
	case eb:
		return a, false
	}
	return merge(a, b), false
}

// rankGuard returns s when it is an if on a rank test, without an else,
// whose arm leaves the block's pass (continue, return, break): what
// follows it runs on the ranks that fail the test only.
func (l *lowerer) rankGuard(s ast.Stmt) *ast.If {
	i, ok := s.(*ast.If)
	if !ok || len(i.Orelse) > 0 || len(i.Body) == 0 || l.notDist > 0 {
		return nil
	}
	switch lastStmt(i.Body).(type) {
	case *ast.Continue, *ast.Return, *ast.Break:
	default:
		return nil
	}
	if div, ok := l.divergence(i.Test); !ok || div != rules.RankTest || len(l.uniformIn(i.Test)) > 0 {
		return nil
	}
	if l.loops > 0 && l.readsLoopTarget(i.Test) {
		// `if i == rank: continue`: each rank skips its own turn and runs
		// the others' (skipsOwnTurn), not a rank-only remainder.
		return nil
	}
	return i
}

// rankIf is an enclosing if statement whose test is a rank test, and
// whether its else part is being lowered.
type rankIf struct {
	s      *ast.If
	inElse bool
	loops  int // the loop depth it sits at
}

// exitUnderRank returns the branch for an if inside a rank test's arm
// that leaves the function on one of its arms, when collectives follow
// the rank test: only the ranks that took that arm can leave, so the
// others wait in them forever (open_clip's main: `if is_master(args):
// ... if os.path.exists(args.log_path): return -1`, then DDP). An arm of
// the rank test that leaves itself is that test's own early exit.
func (l *lowerer) exitUnderRank(s *ast.If) *rules.RankBranch {
	if len(l.rankIfs) == 0 {
		return nil
	}
	top := l.rankIfs[len(l.rankIfs)-1]
	// continue and break leave the pass of the innermost loop: an exit
	// when the rank test sits in that loop too.
	inLoop := top.loops == l.loops && l.loops > 0
	thenExits := leavesFunction(s.Body) || inLoop && leavesPass(s.Body)
	elseExits := leavesFunction(s.Orelse) || inLoop && leavesPass(s.Orelse)
	if thenExits == elseExits && !thenExits {
		// A raise leaves too, where it does not end the job (mpi4py's,
		// mpiRaiseBefore, decided below).
		thenExits, elseExits = endsInRaise(s.Body), endsInRaise(s.Orelse)
	}
	if thenExits == elseExits {
		return nil
	}
	if !armCanLeave(top) {
		return nil
	}
	exit := s.Body
	if elseExits {
		exit = s.Orelse
	}
	mpiRaise := false
	if raises(exit) {
		// A failure (raise, sys.exit(f"ERROR: …")): the launcher stops
		// the others, as for a raising arm of the rank test itself;
		// not under mpi4py (mpiRaiseBefore).
		rest := l.skipped(exit)
		if !elseExits {
			rest = l.notWhenTaken(rest, s.Test)
		}
		if !l.mpiRaiseBefore(l.ops(rest)) {
			return nil
		}
		mpiRaise = true
	}
	var after []*rules.OpRef
	var off map[string]bool
	rest := l.skipped(exit)
	if !elseExits {
		off = l.falseWhenTaken(s.Test)
		// `if exists(log) and not resume_latest: return` then `if
		// resume_latest: broadcast(…)`: where the exit is taken, that
		// arm is not (open_clip's main).
		rest = l.notWhenTaken(rest, s.Test)
	}
	for _, o := range issuedDespite(l.ops(rest), off) {
		if o.Pos.Line > int(top.s.EndLineno) {
			after = append(after, o)
		}
	}
	if len(after) == 0 && inLoop {
		// Nothing left in this pass: a break also skips the next passes'
		// collectives, which sit above the rank test in the loop's body
		// (LMCache's rank-0-only cache: every rank all-gathers a chunk,
		// then rank 0 breaks when its cache is full).
		for _, o := range l.ops(l.nextIterations(exit)) {
			if o.Pos.Line < int(top.s.Lineno) || o.Pos.Line > int(top.s.EndLineno) {
				after = append(after, o)
			}
		}
	}
	if len(after) == 0 {
		return nil
	}
	test := l.text(s.Test)
	if elseExits {
		test = "not (" + test + ")"
	}
	br := l.armExitBranch(top, l.pos(s.Test.Span()), test, l.ops(exit), after)
	br.MPIRaise = mpiRaise
	return br
}

// endsInRaise reports statements whose last one is a raise.
func endsInRaise(stmts []ast.Stmt) bool {
	return len(stmts) > 0 && isRaise(stmts[len(stmts)-1])
}

// mpiRaiseBefore reports collectives after a raise whose first one is
// mpi4py's, in a file that installs no exception hook and calls no
// Abort: an uncaught exception does not end an mpi4py job. The raising
// process runs MPI_Finalize as it exits and waits there, mpiexec sees no
// process end, and the ranks that went on wait in the collective
// (mpi4py's documentation: run such scripts with `python -m mpi4py`).
func (l *lowerer) mpiRaiseBefore(after []*rules.OpRef) bool {
	if len(after) == 0 || after[0].Site == nil || !strings.HasPrefix(after[0].Site.API, "mpi4py.") {
		return false
	}
	src := l.src.src
	return !bytes.Contains(src, []byte("excepthook")) && !bytes.Contains(src, []byte("Abort(")) && !bytes.Contains(src, []byte("mpi4py.run"))
}

// armCanLeave reports whether the ranks of top's arm being lowered can
// leave through an exit of their own: not when the arm leaves itself
// (its own early exit), nor when the other ranks have exits of their own
// (torch's FSDP _broadcast_state returns early on rank 0 and on the
// others alike, each deciding from what rank 0 broadcast).
func armCanLeave(top *rankIf) bool {
	arm, other := top.s.Body, top.s.Orelse
	if top.inElse {
		arm, other = other, arm
	}
	return !exits(arm) && !returnsIn(other)
}

// armExitBranch is the rank branch of an exit (at guard, on test) inside
// top's arm: its ranks issue then, the others after.
func (l *lowerer) armExitBranch(top *rankIf, guard rules.Pos, test string, then, after []*rules.OpRef) *rules.RankBranch {
	under := l.pos(top.s.Test.Span())
	topCond := l.text(top.s.Test)
	if u, ok := top.s.Test.(*ast.UnaryOp); ok && u.Op == ast.Not && top.inElse {
		topCond = l.text(u.Operand) // `if not is_main_process(): continue`
	} else if top.inElse {
		topCond = "not (" + topCond + ")" // the exit sits in the rank test's else arm
	}
	br := &rules.RankBranch{Func: l.fn, Guard: guard, Under: &under, Cond: topCond + "` and then `" + test,
		Then: then, After: after, EarlyExit: true, Divergence: rules.RankTest, UniformIn: l.uniformIn(top.s.Test)}
	br.RankViaKeys = l.rankVia(top.s.Test)
	br.RankDef = l.rankDefText(top.s.Test)
	return br
}

// handlerExitUnderRank is exitUnderRank for an except handler that
// leaves the function inside a rank test's arm: when the try's body
// fails there (a fetch on the target rank only), that rank leaves while
// the others go on to the collectives after the rank test (LightX2V's
// audio reader: `if rank == target: try: data = fetch() except
// Exception: return None`, then a broadcast from the target).
func (l *lowerer) handlerExitUnderRank(h *ast.ExceptHandler) *rules.RankBranch {
	if len(l.rankIfs) == 0 || !leavesFunction(h.Body) || raises(h.Body) || failsOnly(h.Body) {
		return nil
	}
	top := l.rankIfs[len(l.rankIfs)-1]
	if !armCanLeave(top) {
		return nil
	}
	var after []*rules.OpRef
	for _, o := range l.ops(l.skipped(h.Body)) {
		if o.Pos.Line > int(top.s.EndLineno) {
			after = append(after, o)
		}
	}
	if len(after) == 0 {
		return nil
	}
	handler := "except"
	if h.Type != nil {
		handler += " " + l.text(h.Type)
	}
	return l.armExitBranch(top, l.pos(h.Pos), handler, l.ops(h.Body), after)
}

// uncalledPredicate records an if whose test reads a predicate function
// without calling it (`if not tpc.is_first_in_pipeline_group:`) around
// collectives: a function object is always true, so the test never
// varies, and every rank takes the same arm (TorchDistPackage's pipeline
// warm-up: no stage receives, every stage but the last sends).
func (l *lowerer) uncalledPredicate(s *ast.If) {
	fo, ok := l.r.(FuncObjecter)
	if !ok {
		return
	}
	var operand ast.Expr
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.UnaryOp:
			if x.Op == ast.Not {
				walk(x.Operand)
			}
		case *ast.BoolOp:
			for _, v := range x.Values {
				walk(v)
			}
		case *ast.Name, *ast.Attribute:
			if operand == nil && fo.FuncObject(x) != nil {
				operand = x
			}
		}
	}
	walk(s.Test)
	if operand == nil {
		return
	}
	then, els := l.ops(s.Body), l.ops(s.Orelse)
	if len(then)+len(els) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(operand.Span()), Cond: l.text(operand), Then: then, Else: els, Uncalled: true})
}

// commandProtocol reports a rank test whose arms are the two halves of a
// command protocol: one arm is a follower's command loop (`while True:`
// receiving a broadcast first, and only that), and the other, the
// leader's, broadcasts on the same group only, last of all once outside
// any loop: the stop command that ends the followers' loop (levanter's
// eval harness, written as if/else). The arms' static sequences differ,
// their runs do not.
func (l *lowerer) commandProtocol(s *ast.If) bool {
	body, orelse := l.helperArm(s.Body), l.helperArm(s.Orelse)
	sameOp := func(a, b *rules.OpRef) bool { return a.Op == b.Op && a.Group == b.Group }
	for _, arms := range [][2][]ast.Stmt{{body, orelse}, {orelse, body}} {
		leader, follower := arms[0], arms[1]
		if len(leader) == 0 || len(follower) == 0 {
			continue
		}
		loop, ok := follower[len(follower)-1].(*ast.While)
		if !ok || !isTrue(loop.Test) {
			continue
		}
		// A handshake before the loop (`w = comm.bcast(None, root=0)`)
		// that the leader's first operations match (toric-RL-decoder's
		// initial weights): both sides issue it once, before the
		// commands.
		hello := l.ops(follower[:len(follower)-1])
		cmds := l.ops(loop.Body)
		if len(cmds) == 0 || cmds[0].Site == nil || !broadcastOp(cmds[0].Op) {
			continue
		}
		ops := l.ops(leader)
		if len(ops) <= len(hello) {
			continue
		}
		for i, o := range hello {
			if !sameOp(o, ops[i]) {
				return false
			}
		}
		ops = ops[len(hello):]
		// Each command is the loop body's sequence: the broadcast and
		// what the followers answer with (`comm.gather(reply, root=0)`,
		// Ape-X's transitions); the stop is the last broadcast alone.
		for i, o := range ops[:len(ops)-1] {
			if !sameOp(o, cmds[i%len(cmds)]) {
				return false
			}
		}
		if n := len(ops) - 1; n%len(cmds) != 0 || !sameOp(ops[n], cmds[0]) {
			return false
		}
		// The stop: the leader's last statement that issues anything is
		// no loop and issues one broadcast.
		for i := len(leader) - 1; i >= 0; i-- {
			last := l.ops(leader[i : i+1])
			if len(last) == 0 {
				continue
			}
			switch leader[i].(type) {
			case *ast.For, *ast.AsyncFor, *ast.While:
				return false
			}
			return len(last) == 1
		}
	}
	return false
}

// helperArm returns, for an arm that is one call of a program function
// (`if rank == 0: learner(steps)` / `else: actor()`), that function's
// statements, which play the arm's part; any other arm as it is.
func (l *lowerer) helperArm(arm []ast.Stmt) []ast.Stmt {
	if len(arm) != 1 {
		return arm
	}
	c := stmtCall(arm[0])
	if c == nil {
		return arm
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return arm
	}
	body, _, ok := l.defOf(fn)
	if !ok || len(body) == 0 {
		return arm
	}
	return body
}

// outsideWorld reports an exit of the ranks at or past a bound (`if rank
// >= world_size: sys.exit(0)`) before the default group is created with
// that bound as its size: the ranks that leave were never members, and
// the others make the group without them (open_lm's preset world size).
func (l *lowerer) outsideWorld(test ast.Expr, rest []ast.Stmt) bool {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.GtE || !l.isRank(c.Left) {
		return false
	}
	bound := l.text(c.Comparators[0])
	for _, st := range rest {
		if len(l.ops([]ast.Stmt{st})) == 0 {
			continue
		}
		call := stmtCall(st)
		if call == nil {
			return false
		}
		if ext, _ := l.callee(call); ext != "torch.distributed.init_process_group" {
			return false
		}
		for _, k := range call.Keywords {
			if k.Arg == "world_size" {
				return l.text(k.Value) == bound
			}
		}
		return false
	}
	return false
}

// falseWhenTaken returns the variables an if's test needs false, for a
// test that is a conjunction with `not x` among its terms (x a name that
// is no rank value): `if not is_rank_zero() and not is_sharded: return`
// leaves only while is_sharded is false.
func (l *lowerer) falseWhenTaken(test ast.Expr) map[string]bool {
	b, ok := test.(*ast.BoolOp)
	if !ok || b.Op != ast.And {
		return nil
	}
	var out map[string]bool
	for _, v := range b.Values {
		u, ok := v.(*ast.UnaryOp)
		if !ok || u.Op != ast.Not {
			continue
		}
		if n, ok := u.Operand.(*ast.Name); ok && !l.isRank(n) {
			if out == nil {
				out = map[string]bool{}
			}
			out[n.Id] = true
		}
	}
	return out
}

// notWhenTaken drops from rest the ifs whose test contradicts an exit
// test's uniform conjunct, which holds wherever the exit is taken: after
// `if collect_by_master and rank != 0: return`, the ranks that stay run
// `if not collect_by_master: barrier()` only when no rank left (Sana's
// and PixArt's all_gather_cpu). Their else parts stay.
func (l *lowerer) notWhenTaken(rest []ast.Stmt, test ast.Expr) []ast.Stmt {
	b, ok := test.(*ast.BoolOp)
	if !ok || b.Op != ast.And {
		return rest
	}
	on, off := map[string]bool{}, l.falseWhenTaken(test)
	for _, v := range b.Values {
		if n, ok := v.(*ast.Name); ok && !l.isRank(n) {
			on[n.Id] = true
		}
	}
	contradicts := func(t ast.Expr) bool {
		if u, ok := t.(*ast.UnaryOp); ok && u.Op == ast.Not {
			n, ok := u.Operand.(*ast.Name)
			return ok && on[n.Id]
		}
		n, ok := t.(*ast.Name)
		return ok && off[n.Id]
	}
	if !slices.ContainsFunc(rest, func(st ast.Stmt) bool { f, ok := st.(*ast.If); return ok && contradicts(f.Test) }) {
		return rest
	}
	out := make([]ast.Stmt, 0, len(rest))
	for _, st := range rest {
		if f, ok := st.(*ast.If); ok && contradicts(f.Test) {
			out = append(out, f.Orelse...)
			continue
		}
		out = append(out, st)
	}
	return out
}

// issuedDespite drops the ops a call issues only where one of the off
// variables is true (OpRef.GateArg): they run on no rank while the exit
// can be taken, and on every rank otherwise (audiocraft's checkpoint
// barriers, issued only when the checkpoint is sharded, after the
// non-zero ranks returned only when it is not).
func issuedDespite(ops []*rules.OpRef, off map[string]bool) []*rules.OpRef {
	if len(off) == 0 {
		return ops
	}
	out := ops[:0:0]
	for _, o := range ops {
		if o.GateArg == "" || !off[o.GateArg] {
			out = append(out, o)
		}
	}
	return out
}

// returnsIn reports a return statement among stmts or in their blocks
// (not in nested definitions).
func returnsIn(stmts []ast.Stmt) bool {
	return anyStmt(stmts, func(s ast.Stmt) bool {
		_, ok := s.(*ast.Return)
		return ok
	})
}

// anyStmt reports whether a statement among stmts or nested in their
// blocks (not in nested definitions) matches.
func anyStmt(stmts []ast.Stmt, match func(ast.Stmt) bool) bool {
	found := false
	ast.InspectStmts(stmts, func(s ast.Stmt) bool {
		switch s.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		}
		found = found || match(s)
		return !found
	})
	return found
}

// leavesFunction reports whether a statement list always ends the call:
// a return, sys.exit() and the like, or an if whose arms both do (not a
// raise: a failure the launcher handles; not continue or break).
// leavesPass reports a block that ends with continue or break.
func leavesPass(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch stmts[len(stmts)-1].(type) {
	case *ast.Continue, *ast.Break:
		return true
	}
	return false
}

func leavesFunction(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.Return:
		return true
	case *ast.If:
		return leavesFunction(s.Body) && leavesFunction(s.Orelse)
	case *ast.ExprStmt:
		return exits(stmts[len(stmts)-1:])
	}
	return false
}

// frameworkObject reports a call that makes an object of a framework
// class the tables describe (Trainer(**config), Lightning 1.x's
// Trainer.from_argparse_args(opt)): its attributes are the framework's
// own state (trainer.interrupted), not the host's answer its
// configuration was read with.
func (l *lowerer) frameworkObject(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	if fn != nil || ext == "" {
		return false
	}
	ext = strings.TrimSuffix(ext, ".from_argparse_args")
	last := ext[strings.LastIndexByte(ext, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' || strings.HasPrefix(ext, "torch.") ||
		strings.Contains(last, "Data") || strings.Contains(last, "Loader") || strings.Contains(last, "Sampler") {
		return false // (a data loader over this host's files holds them)
	}
	return l.tb.Covers(ext)
}

// listOfElement returns the list variable an element is taken from:
// v.pop(…) or v[i]; "" otherwise.
// comprehended returns the list a comprehension runs over
// (wait_all([r.get_future() for r in reqs]) waits what reqs holds), or "".
func comprehended(e ast.Expr) string {
	var gens []*ast.Comprehension
	switch x := e.(type) {
	case *ast.ListComp:
		gens = x.Generators
	case *ast.GeneratorExp:
		gens = x.Generators
	}
	if len(gens) != 1 {
		return ""
	}
	return dotted(gens[0].Iter)
}

func listOfElement(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Call:
		if a, ok := x.Func.(*ast.Attribute); ok && a.Attr == "pop" {
			return dotted(a.Value)
		}
	case *ast.Subscript:
		return dotted(x.Value)
	}
	return ""
}

// testsNotNone reports a test that holds only where v is not None:
// `v is not None`, alone or as a conjunct.
func testsNotNone(test ast.Expr, v string) bool {
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.And {
		for _, x := range b.Values {
			if testsNotNone(x, v) {
				return true
			}
		}
		return false
	}
	c, ok := test.(*ast.Compare)
	return ok && len(c.Ops) == 1 && c.Ops[0] == ast.IsNot && isNone(c.Comparators[0]) && dotted(c.Left) == v
}

// neverNone reports a value that cannot be None: arithmetic and string
// building, displays, non-None constants, and conversions to str.
func neverNone(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinOp, *ast.JoinedStr, *ast.List, *ast.Tuple, *ast.Dict, *ast.Set, *ast.ListComp, *ast.DictComp, *ast.SetComp:
		return true
	case *ast.Constant:
		return !isNone(x)
	case *ast.Call:
		switch dotted(x.Func) {
		case "str", "int", "float", "len", "os.path.join", "Path", "pathlib.Path":
			return true
		}
	}
	return false
}

// noneTest recognises a test of whether a variable is None (or falsy):
// `v is None`, `not v` (None on the then arm), `v is not None`, `v` (None
// on the else arm).
func noneTest(test ast.Expr) (v string, noneInThen, ok bool) {
	switch t := test.(type) {
	case *ast.Compare:
		if len(t.Ops) != 1 || len(t.Comparators) != 1 || !isNone(t.Comparators[0]) {
			return "", false, false
		}
		if v = dotted(t.Left); v == "" {
			return "", false, false
		}
		switch t.Ops[0] {
		case ast.Is:
			return v, true, true
		case ast.IsNot:
			return v, false, true
		}
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			if v = dotted(t.Operand); v != "" {
				return v, true, true
			}
		}
	default:
		if v = dotted(test); v != "" {
			return v, false, true
		}
	}
	return "", false, false
}

// exits reports whether a statement list always leaves (return, raise,
// continue, break as its last statement, or an if whose arms all exit).
func exits(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.Return, *ast.Raise, *ast.Continue, *ast.Break:
		return true
	case *ast.If:
		return exits(s.Body) && exits(s.Orelse)
	case *ast.ExprStmt:
		return processExit(s) != nil
	case *ast.With:
		// `with open(p) as f: return f.read()`: the block leaves with its
		// body (a raise may be one the context manager suppresses).
		_, raises := lastStmt(s.Body).(*ast.Raise)
		return !raises && exits(s.Body)
	}
	return false
}

// exitsFunction is exits without break and continue: the statement list
// always ends by returning, raising or ending the process.
func exitsFunction(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.Return, *ast.Raise:
		return true
	case *ast.If:
		return exitsFunction(s.Body) && exitsFunction(s.Orelse)
	case *ast.ExprStmt:
		return processExit(s) != nil
	}
	return false
}

// loopInvariant reports a test, inside loops, that has the same value on
// every pass of all of them: it is made of names, attribute paths and
// constants (compared, combined with and/or/not and arithmetic), with
// no call or subscript, and no enclosing loop body rebinds one of its
// names or paths (or a path it lies under), calls a method on one, or
// hands one whole to a call, which could change it.
func (l *lowerer) loopInvariant(test ast.Expr) bool {
	paths, ok := readPaths(test, func(n ast.Node) ([]string, bool, bool) {
		switch n.(type) {
		case *ast.Constant, *ast.Compare, *ast.BoolOp, *ast.UnaryOp, *ast.BinOp:
			return nil, true, true
		}
		return nil, false, false
	})
	if !ok || len(paths) == 0 {
		return false
	}
	// under reports that changing path p may change q: one is the
	// other, or lies under it (p = "a" changes "a.b"; p = "a.b.c" may
	// change what "a.b" is equal to).
	under := func(p, q string) bool {
		return p == q || strings.HasPrefix(q, p+".") || strings.HasPrefix(p, q+".")
	}
	touches := func(e ast.Expr) bool {
		for e != nil {
			switch x := e.(type) {
			case *ast.Subscript:
				e = x.Value
				continue
			case *ast.Starred:
				e = x.Value
				continue
			}
			break
		}
		d := dotted(e)
		if d == "" {
			return false
		}
		for _, p := range paths {
			if under(d, p) {
				return true
			}
		}
		return false
	}
	for _, t := range l.loopTargets {
		if t != nil && bindsAny(t, touches) {
			return false // the loop's own variable
		}
	}
	for _, body := range l.loopBodies {
		changed := false
		for _, st := range body {
			ast.Inspect(st, func(n ast.Node) bool {
				if changed || n == nil {
					return false
				}
				for _, t := range everyBindingTarget(n) {
					changed = changed || bindsAny(t, touches)
				}
				switch x := n.(type) {
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
					return false
				case *ast.Global, *ast.Nonlocal:
					changed = true
				case *ast.Delete:
					for _, t := range x.Targets {
						changed = changed || bindsAny(t, touches)
					}
				case *ast.Call:
					if a, isAttr := x.Func.(*ast.Attribute); isAttr && touches(a.Value) {
						changed = true // a method of it may change it
					}
					for _, arg := range x.Args {
						changed = changed || touches(arg)
					}
					for _, k := range x.Keywords {
						changed = changed || touches(k.Value)
					}
				}
				return !changed
			})
			if changed {
				return false
			}
		}
	}
	return true
}

// bindsAny reports an assignment target (a name, an attribute or item
// path, or a tuple or list of them) of which touches accepts a part.
func bindsAny(t ast.Expr, touches func(ast.Expr) bool) bool {
	switch x := t.(type) {
	case *ast.Tuple:
		for _, e := range x.Elts {
			if bindsAny(e, touches) {
				return true
			}
		}
		return false
	case *ast.List:
		for _, e := range x.Elts {
			if bindsAny(e, touches) {
				return true
			}
		}
		return false
	case *ast.Starred:
		return bindsAny(x.Value, touches)
	}
	return touches(t)
}

// raises reports whether a statement list always ends by raising.
// failsOnly reports an if arm that ends by raising with no path that
// returns before (`if allow_missing: return` ahead of the raise leaves
// without failing: an early exit, not a failure).
func failsOnly(stmts []ast.Stmt) bool {
	if !raises(stmts) {
		return false
	}
	for _, s := range stmts[:len(stmts)-1] {
		returns := false
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Return:
				returns = true
			}
			return !returns
		})
		if returns {
			return false
		}
	}
	return true
}

func raises(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.Raise:
		// raise SystemExit(0) is sys.exit(0): a clean exit, which the
		// launcher does not treat as a failure; raise SystemExit(1) is
		// sys.exit(1).
		x := s.Exc
		c, isCall := x.(*ast.Call)
		if isCall {
			x = c.Func
		}
		if lastDotted(x) != "SystemExit" {
			return true
		}
		return isCall && len(c.Args) == 1 && failureStatus(c.Args[0])
	case *ast.If:
		return raises(s.Body) && raises(s.Orelse)
	case *ast.ExprStmt:
		// sys.exit(1), sys.exit("message"): the process fails, and the
		// launcher stops the others (sys.exit() and sys.exit(0) are a
		// clean exit, which it waits out).
		if c := processExit(s); c != nil && len(c.Args) == 1 {
			return failureStatus(c.Args[0])
		}
	}
	return false
}

// failureStatus reports an exit status that fails the process: a
// non-zero int (exit(1), exit(-1), which the shell sees as 255), or a
// message (sys.exit("message"), sys.exit(f"ERROR: {error}")).
func failureStatus(e ast.Expr) bool {
	switch k := e.(type) {
	case *ast.Constant:
		return k.Type == ast.ConstStr || k.Type == ast.ConstInt && k.Int != 0
	case *ast.JoinedStr:
		return true
	case *ast.UnaryOp:
		n, ok := k.Operand.(*ast.Constant)
		return k.Op == ast.USub && ok && n.Type == ast.ConstInt && n.Int != 0
	}
	return false
}

// leave records, for every handle still pending at a function exit that
// was waited on some other path, the exit as unwaited.
func (l *lowerer) leave(st *state, at rules.Pos) {
	for _, ws := range st.pending {
		for _, w := range ws {
			if w.UnwaitedExit == nil && !w.Escapes {
				p := at
				w.UnwaitedExit = &p
			}
		}
	}
}

// ---- assignments, escapes, waits ----

func (l *lowerer) assign(target, value ast.Expr, st *state) {
	target = dictAttr(target)
	var site *rules.Site
	if c, ok := unwrapAwait(value).(*ast.Call); ok {
		site = l.callAsync[c]
	}
	if sub, ok := target.(*ast.Subscript); ok && len(l.dataVars) > 0 {
		// `sums[task] = …` with task a field of this rank's batch: the
		// dict holds a key per value this rank's batches had (MPP's
		// per-dataset losses), and a loop over it later runs that many
		// passes.
		if d, ok := sub.Value.(*ast.Name); ok && l.dataValued(sub.Slice) {
			l.dataVars[d.Id] = true
		}
	}
	switch t := target.(type) {
	case *ast.Name:
		v := t.Id
		if l.loops > 0 {
			l.bound = append(l.bound, v)
		}
		for _, old := range st.pending[v] {
			if (site == nil || old != site.Work) && old.Overwritten == nil {
				if site != nil && l.chained(old, site.Work) {
					continue // waiting the newer work waits this one
				}
				p := l.pos(l.stmt.Span())
				old.Overwritten = &p
			}
		}
		delete(st.pending, v)
		if site != nil && site.Work != nil {
			w := site.Work
			if v == "_" {
				w.Discarded = true
			} else if l.outerName(v) {
				// global PENDING; PENDING = collective(async_op=True):
				// stored where another function waits it.
				w.Var, w.Escapes = v, true
			} else {
				w.Var, w.Discarded = v, false
				st.pending[v] = []*rules.Work{w}
				l.noteConds(w)
			}
		} else if w := l.comprehensionWork(value); w != nil {
			// reqs = [dist.broadcast(p, async_op=True) for p in ps]: the
			// list holds a handle per element, waited by waiting each
			// element (like batch_isend_irecv's list).
			w.Var, w.Discarded = v, false
			at := l.pos(l.stmt.Span())
			w.ListStmt = &at
			st.pending[v] = []*rules.Work{w}
		} else if ws := l.literalWorks(value); len(ws) > 0 {
			// reqs = [comm.Iallreduce(…, x), comm.Iallreduce(…, y)]: a
			// list of handles, as for a comprehension.
			// The first stands for the list: waiting the list waits
			// them all, and a list never waited is one finding.
			at := l.pos(l.stmt.Span())
			w := ws[0]
			w.Var, w.Discarded = v, false
			w.ListStmt = &at
			for _, o := range ws[1:] {
				o.Escapes = true
			}
			st.pending[v] = ws[:1]
		} else if lst := listOfElement(value); lst != "" && st.has(lst) {
			// r = reqs.pop(), r = reqs[i]: r holds a handle of the list,
			// and waiting it waits the list, as `for r in reqs` does.
			st.pending[v] = append([]*rules.Work(nil), st.pending[lst]...)
		} else if n, ok := value.(*ast.Name); ok && st.has(n.Id) {
			// An alias: whoever holds it may wait it.
			for _, w := range st.pending[n.Id] {
				w.Escapes = true
			}
			delete(st.pending, n.Id)
		}
		delete(l.loopDone, v)
		markVar(&l.handleLists, v, emptyList(value))
		markVar(&l.pyLists, v, newList(value))
		markVar(&l.everyRankLists, v, l.rankArms == 0 && filledList(value))
		markVar(&l.rpcFutures, v, l.rpcCall(value))
		delete(l.curAlias, v)
		delete(l.streamVars, v)
		l.graphReleased(v)
		// `s = torch.cuda.current_stream(d) if d.type == "cuda" else
		// None`: where v holds a stream at all, it holds that one.
		streamValue := orNone(value)
		if l.isCurrentStream(stripHandle(streamValue)) {
			// stream_ptr = cp.cuda.get_current_stream().ptr: the current
			// stream, by its raw handle.
			l.curAlias[v] = l.streamOf(stripHandle(streamValue))
		}
		if streamValue != nil && legacyNull(stripHandle(streamValue)) {
			// stream = cp.cuda.Stream.null.ptr: the legacy default stream,
			// by its raw handle (streamOf reads it back as the default).
			if l.streamVars == nil {
				l.streamVars = map[string]streamCtx{}
			}
			l.streamVars[v] = streamCtx{}
		} else if l.uses && streamValue != nil && l.isStreamExpr(streamValue) {
			if l.streamVars == nil {
				l.streamVars = map[string]streamCtx{}
			}
			sc := l.newStream(streamValue) // the model's stream (a blocking CuPy one)
			if sc.s == nil {
				sc = l.streamOf(streamValue)
			}
			l.streamVars[v] = sc
		}
		l.trackSet(v, value)
		l.trackData(v, value)
		l.trackJaxArray(v, value)
		l.trackArmList(v, value)
		if value != nil {
			l.forgetRankFields(v)
			// An object only some ranks hold: `X if rank == 0 else None`,
			// or anything assigned inside a rank test's arm (`storage =
			// None` before `if rank == 0: storage = Storage()`). Whether it
			// is None differs between ranks (rankObject).
			switch {
			case isNone(value):
				if len(l.rankIfs) > 0 && !l.uniformRankArms() {
					top := l.rankIfs[len(l.rankIfs)-1]
					if o, ok := l.rankObjects[v]; ok && top.inElse && o.under == top.s && !o.inElse {
						// `if rank == 0: loader = make()` / `else:
						// loader = None`: only the first arm's ranks
						// hold it, as with `loader = None` before the if.
						break
					}
				}
				delete(l.rankObjects, v)
			case l.rankOrNone(value) || l.rankObjectCall(value):
				l.setRankObject(v, nil, false)
			case len(l.rankIfs) > 0 && !l.uniformRankArms():
				top := l.rankIfs[len(l.rankIfs)-1]
				if !top.inElse && testsNotNone(top.s.Test, v) && neverNone(value) {
					// `if path is not None and rank < tp: path = path +
					// f"_rank{rank}"`: a value that is never None, given
					// only where there was one, leaves whether v is None
					// as it was.
					break
				}
				if o, ok := l.rankObjects[v]; ok && o.under == top.s && o.inElse != top.inElse {
					// Both arms of the rank test bind it (`if rank == 0:
					// data = load()` / `else: data = receive()`): every
					// rank holds it after the if.
					delete(l.rankObjects, v)
					break
				}
				l.setRankObject(v, top.s, top.inElse)
			default:
				delete(l.rankObjects, v)
			}
			// `x = X if rank == 0 else None` holds an object on some
			// ranks and None on the others: whether it is None is the rank
			// test (rankObject), but what is made from it (a trainer handed
			// the logger only rank 0 has) is not the rank's own value.
			if l.rankNoneCall(value) {
				// `minibatch = prepare(sample, rank * rows, …)` returning
				// None where this rank's rows hold none of the sample: only
				// some ranks hold an object (`if minibatch is None:
				// continue` is a rank test).
				l.setRankObject(v, nil, false)
			}
			if l.isRank(value) && !deviceValue(value) && !l.rankOrNone(value) {
				if fields := l.rankFields(value); fields != nil {
					for _, f := range fields {
						l.rankVars[v+"."+f] = true
					}
					delete(l.rankVars, v)
				} else {
					l.rankVars[v] = true
					l.setRankDef(v, value)
				}
				// `ckpt = torch.load(f"…{rank:05d}-of-….pth")`: this rank's
				// shard of a checkpoint every rank saved at once.
				markVar(&l.rankLoaded, v, l.loadsStored(value))
			} else if l.rankFlag(value) {
				// `if rank == 0: stop = True`: a flag only some ranks set
				// (a stop decision made where only rank 0 looks), which
				// differs between ranks after the if.
				l.rankVars[v] = true
				delete(l.rankDefs, v)
			} else if l.rankCounter(value) || value == nil && l.augCounted {
				// `if rank == 0: stale_epochs = 0 … stale_epochs += 1`: a
				// counter only those ranks keep differs between ranks
				// after the if (inside it, the rank test is the reason).
				delete(l.rankVars, v)
				delete(l.rankDefs, v)
				if l.rankArms > 0 {
					markVar(&l.armCounters, v, true)
				} else {
					l.rankVars[v] = true
				}
			} else if l.notDist == 0 {
				// (An arm that runs in a single process only, `else:
				// should_print = True` beside a launcher's arm, leaves
				// what the distributed arm bound as it was.)
				delete(l.rankVars, v)
				delete(l.rankDefs, v)
			}
			markVar(&l.ownVars, v, l.isOwnRank(value))
			if l.nanArms > 0 && flagConst(value) || l.nanFlagCall(value, -1) {
				markVar(&l.nanFlags, v, true)
			} else if !flagConst(value) {
				delete(l.nanFlags, v)
			}
			markVar(&l.shiftVars, v, l.rankShift(value))
			l.markOOMNone(v, value)
			// An assignment on the arm where torch.distributed is not
			// initialised runs in a single process: it neither marks the
			// variable nor clears what the distributed arm marked
			// (espnet's GAN trainer draws its skip decision in both).
			// `try: states = os.listdir(d) except: states = []`: no
			// listing is this host's answer too (NAFNet's auto-resume),
			// so the handler keeps what the try body's listing marked.
			failedListing := l.handlers > 0 && l.fsLists[v] && emptyDisplay(value)
			kept, keptSet := l.ownValue(v, value, -1)
			if kept && l.notDist == 0 {
				// opt = resume(path, opt): the same object, with what
				// resume set on it.
				for _, a := range keptSet {
					l.markFsCount(v+"."+a, value)
				}
			}
			if l.notDist == 0 && !failedListing && !kept {
				// `if os.path.exists(out): items = items[len(done):]`: a
				// value cut from its own under the check differs between
				// hosts as a flag set there does (fsCuts).
				cut := len(l.hostTests) > 0 && readsName(value, v) || l.fsFiltered(value)
				markVar(&l.fsCuts, v, cut)
				if fs := (l.fsProbe(value) && !l.frameworkObject(value) && l.programInit(value) == nil) || len(l.hostTests) > 0 && (flagValue(value) || l.checkedPathValue(value)) || cut; fs {
					l.markFs(v, true, l.fsOriginOf(value))
				} else {
					l.markFs(v, false, nil)
				}
				markVar(&l.fsLists, v, l.listing(value))
				markVar(&l.checkedNames, v, l.readsCheckedPath(value))
				markVar(&l.notNone, v, l.notNoneValue(value))
				l.markFsCount(v, value)
				l.constructedFsAttrs(v, value)
				// `if check_deadline(start, budget): allowed = False`: a
				// flag set where only a rank past the deadline goes
				// (cramming's training_allowed).
				timing := l.timingProbe(value) || l.clockArms > 0 && isBoolConst(value)
				markVar(&l.timeVars, v, timing)
				markVar(&l.timeRecords, v, timing && l.timingRecord(value))
				markVar(&l.randVars, v, l.randomDraw(value))
				markVar(&l.deviceVars, v, l.deviceCount(value))
				markVar(&l.localVars, v, l.fromSyncForward(value))
			}
			markVar(&l.amountVars, v, len(l.batchVars) > 0 && l.batchAmount(value))
			markVar(&l.nodeSplitVars, v, l.notDist == 0 && l.memo().splitsByNode(l.r.Prog()) && l.nodeSplitData(value))
			if l.batchPart(value) || l.noneForEmptyBatch(value) {
				l.batchVars[v] = true // batchPart found it non-empty
			} else {
				delete(l.batchVars, v)
			}
			l.trackMesh(v, value)
			markVar(&l.builtLocals, v, constructed(value))
			delete(l.fsLoaders, v)
			delete(l.handleCarriers, v)
			if c, isCall := value.(*ast.Call); isCall && strings.Contains(strings.ToLower(v), "loader") {
				// make_data_loader(cfg, start_iter=start_iter) with the
				// position this host read: the loader yields the batches
				// after it (maskrcnn-benchmark's IterationBasedBatchSampler).
				if a := l.fsCountArg(c); a != nil {
					markVar(&l.fsLoaders, v, true)
					if o := l.fsOriginOf(a); o != nil {
						l.noteFsOrigin(v, o)
					}
				}
			}
			if sc := l.newStream(value); sc.s != nil {
				l.synth[v] = sc.s
			}
			l.recordedEvent(v, value)
			if k, ok := value.(*ast.Constant); ok && k.Type == ast.ConstNone {
				delete(l.hostVars, v)
				l.event(&rules.Event{Kind: rules.EvFree, Pos: l.pos(t.Pos), Var: v})
				return
			}
		}
		// Host only matters to the use events, which functions that never
		// mention a stream do not emit (uses): spare them the look-up.
		// A work handle (the result of an async collective) is a host
		// object too: its wait() is the synchronisation, not a read. So
		// is what an object collective returns (unpickled Python objects:
		// detectron2's comm.gather, mmengine's all_gather_object).
		host := hostValue(value) || value == nil && l.augHost || l.uses && (l.handleValue(value) || l.objectResult(value) || l.hostArith(value) || l.hostCall(value, -1) || l.loaderBatch(value) || l.extensionHandle(v, value) || l.handedOver(value)) || site != nil && site.Work != nil ||
			emptyDict(value) || l.stagingWrite(v, value) || syncedUpload(value)
		var from []string
		if !host && value != nil {
			// v = xs[0], v = [a, b]: a new name for existing objects; so
			// is what a regrouping function returns (group_by_dtype(ps)).
			f, ok := references(value)
			if !ok && l.uses {
				f, ok = l.listElementRefs(value)
			}
			if !ok && l.uses {
				f, ok = l.comprehensionRefs(value)
			}
			if c, isCall := value.(*ast.Call); !ok && isCall && l.uses {
				f, ok = l.regroupedArgs(c)
				if !ok {
					f, ok = l.getterRefs(c)
				}
				if !ok {
					f, ok = l.keptRefs(c, -1)
				}
			}
			if ok {
				from = f
				// [] or (): nothing is pending on a new container; nor on a
				// view of host memory (a pinned buffer's slice).
				host = len(f) == 0 || l.allHost(f)
			}
		} else if !host && value == nil && l.unpackKept {
			// buf, out = self.get_or_create_buf(k): an element of what
			// the helper keeps or made with nothing pending (keptRefs).
			from = l.unpackFrom
			host = len(from) == 0 || l.allHost(from)
		}
		if host {
			l.hostVars[v] = true
		} else {
			delete(l.hostVars, v)
		}
		gpu := l.uses && !host && l.gpuWrite(v, value)
		markVar(&l.gpuVars, v, gpu)
		if c, ok := unwrapAwait(value).(*ast.Call); !ok || l.callTarget[c] != v {
			// (The EvCall of an inlined method binds v to what it returns.)
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(t.Pos), Var: v, Write: true, Host: host, From: from,
				Fresh: !host && (freshAlloc(value) || l.gpuFresh(value)), Device: gpu})
		}
		if c, ok := unwrapAwait(value).(*ast.Call); ok && site == nil {
			// h = helper(x, async_op=True) that returns its handle.
			if rh := l.handedBack(c); rh != nil && rh.index == -1 {
				l.handBack(rh, c, v, st)
			}
		}
	case *ast.Attribute, *ast.Subscript:
		if a, ok := t.(*ast.Attribute); ok && handleName(a.Attr) {
			if base, isName := a.Value.(*ast.Name); isName {
				_, fromName := value.(*ast.Name)
				markVar(&l.handleCarriers, base.Id, fromName)
			}
		}
		if a, ok := t.(*ast.Attribute); ok && value != nil && (dotted(a) == "mpi4py.rc.thread_level" || l.r.Ref(a) == "mpi4py.rc.thread_level") {
			if v, ok := constStr(value); ok {
				l.setMPILevel(v, l.pos(l.stmt.Span()))
			}
		}
		if sub, ok := t.(*ast.Subscript); ok && value != nil && l.notDist == 0 {
			// state["epoch"] = checkpoint["epoch"] under this host's
			// check: the dict holds its answer (moshpit-sgd's resume
			// state, read back as state["epoch"]). Other keys stored
			// later do not clear it.
			if base := dotted(sub.Value); base != "" && !l.fsCounts[base] &&
				(len(l.hostTests) > 0 && (l.storedValue(value) || l.pathPosition(value)) || l.fromFsCount(value)) {
				l.markFsCount(base, value)
			}
		}
		if a, ok := t.(*ast.Attribute); ok && l.notDist == 0 {
			// self.early_stop = True under a kill-switch file check: the
			// flag is this host's answer (ArcticTraining's epoch loop).
			if d := dotted(a); d != "" {
				if value != nil && (l.fsProbe(value) || len(l.hostTests) > 0 && (flagValue(value) || l.checkedPathValue(value))) {
					l.markFs(d, true, l.fsOriginOf(value))
				} else {
					l.markFs(d, false, nil)
				}
				if value != nil {
					l.markFsCount(d, value)
				}
				// self.epochs = ceil(budget / (time.time() - start)): a
				// clock reading kept on the object (ultralytics'
				// time-limited training).
				markVar(&l.timeVars, d, value != nil && l.timingProbe(value))
				// `if rank == 0: state.stop = True`: a flag only some
				// ranks set on the object.
				// `if rank == 0: cfg.best_checkpoint = f"ckpt-{step}"`: a
				// name only some ranks record, tested later (`if
				// cfg.best_checkpoint:`) for which checkpoints to evaluate.
				if value != nil && l.rankFlag(value) {
					l.rankVars[d] = true
				} else if value != nil && l.inRankArm() && textValue(value) {
					top := l.rankIfs[len(l.rankIfs)-1]
					if o, ok := l.armTexts[d]; ok && o.under == top.s && o.inElse != top.inElse {
						delete(l.rankVars, d) // both arms of the test set it
						delete(l.armTexts, d)
					} else {
						l.rankVars[d] = true
						if l.armTexts == nil {
							l.armTexts = map[string]armList{}
						}
						l.armTexts[d] = armList{under: top.s, inElse: top.inElse}
					}
				} else if k, ok := value.(*ast.Constant); ok && (k.Type == ast.ConstBool || k.Type == ast.ConstStr) || textValue(value) {
					delete(l.rankVars, d) // set alike on every rank again
				}
			}
		}
		if site != nil && site.Work != nil {
			site.Work.Escapes = true
			if isSubscript(t) {
				site.Work.Container = dotted(t)
			}
		}
		if value != nil {
			l.escape(value, st)
		}
		if d := dotted(t); d != "" {
			if _, sub := t.(*ast.Subscript); !sub {
				for _, old := range st.pending[d] {
					if old.Overwritten == nil {
						p := l.pos(l.stmt.Span())
						old.Overwritten = &p
					}
				}
				if site != nil && site.Work != nil {
					// self.work = collective(async_op=True): tracked like a local,
					// but it may be waited in another method.
					site.Work.Var = d
				}
			}
			if k, ok := value.(*ast.Constant); ok && k.Type == ast.ConstNone && !isSubscript(t) {
				// self.buf = None drops the reference, as for a local: a
				// free, not a write on the current stream.
				l.event(&rules.Event{Kind: rules.EvFree, Pos: l.pos(t.Span()), Var: d})
				return
			}
			// works[i] = collective(async_op=True) files a work handle, a
			// host object, in a list: no device memory is written.
			handle := isSubscript(t) && (site != nil && site.Work != nil || l.uses && l.handleValue(value))
			// outs[i] = v on a list of the function's own binds an element
			// (a string, a closure, a new tensor), as `out = v` would.
			// An item of a list or dict (the graph knows the container:
			// `self.send_buffers = {}`) holds the new object, as a local
			// would: a pinned host buffer stored there is host memory.
			element := l.listElement(t) || l.pythonItem(t)
			host := hostValue(value) && (!isSubscript(t) || element) || handle || value == nil && l.augHost || isSubscript(t) && l.notTensorElement(value) ||
				!isSubscript(t) && l.uses && l.loaderBatch(value) || l.stagingWrite(d, value) || syncedUpload(value) ||
				element && l.paramValue(value)
			var from []string
			if !host && !isSubscript(t) && value != nil {
				// self.chunks = x.chunk(n), self.buf = buf: a new name for
				// what x holds, as for a local.
				if f, ok := references(value); ok {
					from, host = f, len(f) == 0
				}
			}
			// A store into an item of device memory (buf[:] = 0) is a
			// kernel writing it.
			gpu := l.uses && !host && (isSubscript(t) && l.gpuVars[d] || !isSubscript(t) && l.gpuWrite(d, value))
			if !isSubscript(t) {
				markVar(&l.gpuVars, d, gpu)
			}
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(t.Span()), Var: d, Write: true, Host: host, From: from, Fresh: element && !host && freshAlloc(value), Device: gpu})
		}
	case *ast.Tuple, *ast.List, *ast.Starred:
		if site != nil && site.Work != nil {
			site.Work.Escapes = true // unpacked: cannot follow the element
		}
		// batch, ok = batch: each name is a part of this rank's batch.
		fromBatch := l.batchPart(value) || l.noneForEmptyBatch(value)
		defer func() {
			if fromBatch {
				for _, e := range ast.SeqElts(target) {
					if n, ok := e.(*ast.Name); ok {
						l.batchVars[n.Id] = true
					}
				}
			}
		}()
		elts := ast.SeqElts(t)
		if s, ok := t.(*ast.Starred); ok {
			elts = []ast.Expr{s.Value}
		}
		// a, b = x, y: each name gets its own value.
		vals := seqValues(value)
		if len(vals) != len(elts) {
			vals = nil
		}
		// (g,) = grads, a, b = self.bufs: each name is a new name for an
		// element of an existing sequence, as `g = grads` would be.
		var whole ast.Expr
		if vals == nil && l.uses && value != nil {
			if refs, ok := references(value); ok && len(refs) == 1 && !st.has(refs[0]) {
				whole = value
			}
		}
		// path, error = broadcast_object((path, error)): the names are
		// bound afresh, to parts of a value that is no rank's own (nor
		// this host's answer); what they held before is gone, as a
		// single name's would be (flextrain's resume, round 373).
		// Only for what a collective agreed on, or a plain read of
		// names and items (`path, error = holder[0]` after the holder's
		// broadcast): there the value's own marks are exact, where a
		// helper's result may carry its argument unseen.
		var freshRank, freshFs bool
		if vals == nil && value != nil && l.notDist == 0 {
			c, isCall := value.(*ast.Call)
			if isCall && l.agreedCall(c) || !isCall && !mentionsCall(value) {
				freshRank = !l.isRank(value) && !l.rankOrNone(value)
				freshFs = !l.fsProbe(value) && !l.listing(value)
			}
		}
		for i, e := range elts {
			v := whole
			if vals != nil {
				v = vals[i]
			}
			if n, ok := e.(*ast.Name); ok && v == nil {
				if freshRank {
					delete(l.rankVars, n.Id)
					delete(l.rankDefs, n.Id)
					delete(l.rankObjects, n.Id)
				}
				if freshFs {
					l.markFs(n.Id, false, nil)
					markVar(&l.fsLists, n.Id, false)
				}
			}
			if v == nil && l.uses && (l.hostCall(value, i) || l.handedOver(value)) {
				// out, ok = pick(): the helper returns (None, False) there.
				saved := l.augHost
				l.augHost = true
				l.assign(e, nil, st)
				l.augHost = saved
				continue
			}
			if c, isCall := value.(*ast.Call); v == nil && l.uses && isCall {
				if from, ok := l.keptRefs(c, i); ok {
					saved, savedFrom := l.unpackKept, l.unpackFrom
					l.unpackKept, l.unpackFrom = true, from
					l.assign(e, nil, st)
					l.unpackKept, l.unpackFrom = saved, savedFrom
					continue
				}
			}
			l.assign(e, v, st)
			if n, ok := e.(*ast.Name); ok && v == nil && l.nanFlagCall(value, i) {
				markVar(&l.nanFlags, n.Id, true) // valid, err = check_loss(loss, …)
			}
		}
		if value != nil && l.notDist == 0 {
			// loss, aux = self.calc_loss(out): what a helper computes
			// from this rank's forward is this rank's own (RFdiffusion2's
			// NaN test of the unpacked loss); anything else rebinds the
			// names to values that are not (TGL's `ap, auc = eval('val')`
			// after another arm's per-rank ap).
			local := l.fromSyncForward(value)
			var elems []bool
			if local && len(elts) > 1 {
				// `rank_acc, global_acc = evaluate(model, …)`: the helper
				// all-reduced the second before returning it.
				elems = l.forwardElements(value)
				if len(elems) != len(elts) {
					elems = nil
				}
			}
			for i, e := range elts {
				if n, ok := e.(*ast.Name); ok {
					markVar(&l.localVars, n.Id, local && (elems == nil || elems[i]))
				}
			}
		}
		if c, ok := value.(*ast.Call); ok && l.notDist == 0 && l.fsProbe(c) {
			// path, start = find_latest(d): a helper answering a file
			// system check hands the answer to every element.
			origin := l.fsOriginOf(c)
			var only map[int]bool
			if _, fn := l.callee(c); fn != nil && fn != l.fn {
				only = l.fsReturnedElements(fn)
			}
			for i, e := range elts {
				if n, ok := e.(*ast.Name); ok && (only == nil || only[i]) {
					l.markFs(n.Id, true, origin)
				}
			}
		} else if len(l.hostTests) > 0 && l.notDist == 0 && (l.storedValue(value) || l.loadsCheckedPath(value)) {
			// step, start = net.loadFromFile(p, keys) under a host's file
			// check: every element is a position that host read.
			for i, e := range elts {
				n, isName := e.(*ast.Name)
				if !isName {
					continue
				}
				if kept, set := l.ownValue(n.Id, value, i); kept {
					for _, a := range set {
						l.markFsCount(n.Id+"."+a, value)
					}
					continue
				}
				l.markFsCount(n.Id, value)
			}
		} else if ok && l.notDist == 0 && len(l.fsCountsOf(c, len(elts))) > 0 {
			// start_epoch, best = resume_model(args): a helper that
			// returns what it read from a checkpoint it found on this
			// host, or constants (Point-BERT's resume).
			counts := l.fsCountsOf(c, len(elts))
			for i, e := range elts {
				if n, isName := e.(*ast.Name); isName && counts[i] {
					markVar(&l.fsCounts, n.Id, true)
					l.noteFsOrigin(n.Id, c)
				}
			}
		} else if ok && l.notDist == 0 {
			// load_path, state = engine.load_checkpoint(d): DeepSpeed
			// reads the tag from this host's `latest` file and hands back
			// None when it finds none.
			if ext, _ := l.callee(c); ext != "" {
				if i, found := fsLoadCalls[ext]; found && i < len(elts) {
					if n, isName := elts[i].(*ast.Name); isName {
						l.markFs(n.Id, true, c)
					}
				}
			}
		}
		if c, ok := value.(*ast.Call); ok {
			for i := range l.unpackedRankElements(c) {
				if i < len(elts) {
					if n, ok := elts[i].(*ast.Name); ok {
						l.rankVars[n.Id] = true
					}
				}
			}
			// _, loader = setup(): an element only some ranks hold.
			for i := range l.rankObjectReturns(c) {
				if i >= 0 && i < len(elts) {
					if n, ok := elts[i].(*ast.Name); ok {
						l.setRankObject(n.Id, nil, false)
					}
				}
			}

		}
		if c, ok := unwrapAwait(value).(*ast.Call); ok && site == nil {
			// out, h = helper(x, async_op=True): h is the helper's handle.
			if rh := l.handedBack(c); rh != nil && rh.index >= 0 && rh.index < len(elts) {
				if n, ok := elts[rh.index].(*ast.Name); ok {
					l.handBack(rh, c, n.Id, st)
				}
			}
		}
	}
}

// handBack starts tracking, in the caller, the work handle that call c
// received from a program function, bound to v ("_": discarded).
func (l *lowerer) handBack(rh *returnedHandle, c *ast.Call, v string, st *state) {
	at := l.pos(c.Pos)
	w := &rules.Work{Site: rh.site, Via: &at, ViaFunc: lastName(rh.fn.Name)}
	if v == "_" {
		w.Discarded = true
	} else {
		w.Var = v
		st.pending[v] = []*rules.Work{w}
		l.noteConds(w)
	}
	l.addWork(w)
}

func unwrapAwait(e ast.Expr) ast.Expr {
	if a, ok := e.(*ast.Await); ok {
		return a.Value
	}
	return e
}

// escape marks pending handles named in e (returned, stored, passed on)
// as someone else's to wait.
func (l *lowerer) escape(e ast.Expr, st *state) {
	if e == nil {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Name:
			for _, w := range st.pending[n.Id] {
				w.Escapes = true
			}
			delete(st.pending, n.Id)
		case *ast.Call:
			if s := l.callAsync[n]; s != nil && s.Work != nil {
				s.Work.Escapes = true
			}
		case *ast.Lambda:
			return false
		}
		return true
	})
}

// closureWaits hands the pending works that a nested def waits (`def
// wait(): comm.wait(); return out`) to the def's name (or to a nested
// class's, for its methods): whoever calls the closure waits them, so
// they go where the closure goes (returned to the caller, registered as a
// callback).
func (l *lowerer) closureWaits(name string, body []ast.Stmt, st *state) {
	if len(st.pending) == 0 {
		return
	}
	var ws []*rules.Work
	ast.InspectBody(body, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		if a, ok := c.Func.(*ast.Attribute); ok && (a.Attr == "wait" || a.Attr == "Wait") {
			if v, ok := a.Value.(*ast.Name); ok && st.has(v.Id) {
				ws = append(ws, st.pending[v.Id]...)
				delete(st.pending, v.Id)
			}
		}
		return true
	})
	if len(ws) > 0 {
		st.pending[name] = append(st.pending[name], ws...)
	}
}

// comprehensionWork returns the work of a list comprehension whose
// element is an async collective's call, or nil.
func (l *lowerer) comprehensionWork(value ast.Expr) *rules.Work {
	lc, ok := value.(*ast.ListComp)
	if !ok {
		return nil
	}
	c, ok := lc.Elt.(*ast.Call)
	if !ok {
		return nil
	}
	if s := l.callAsync[c]; s != nil && s.Work != nil && !s.Work.Escapes {
		return s.Work
	}
	return nil
}

// subsetWorld reports an init call sized `world_size=len(xs)` in a
// function that tests the rank's membership in xs (rules.Site.SubsetWorld).
func (l *lowerer) subsetWorld(c *ast.Call) bool {
	var size ast.Expr
	for _, k := range c.Keywords {
		if k.Arg == "world_size" {
			size = k.Value
		}
	}
	lc, ok := size.(*ast.Call)
	if !ok || len(lc.Args) != 1 || dotted(lc.Func) != "len" {
		return false
	}
	list := dotted(lc.Args[0])
	if list == "" {
		return false
	}
	found := false
	ast.InspectStmts(l.body, func(s ast.Stmt) bool {
		if found {
			return false
		}
		var test ast.Expr
		switch s := s.(type) {
		case *ast.If:
			test = s.Test
		case *ast.While:
			test = s.Test
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		default:
			return true
		}
		ast.Inspect(test, func(n ast.Node) bool {
			cmp, ok := n.(*ast.Compare)
			if ok && len(cmp.Ops) == 1 && (cmp.Ops[0] == ast.In || cmp.Ops[0] == ast.NotIn) &&
				dotted(cmp.Comparators[0]) == list && l.isRank(cmp.Left) {
				found = true
			}
			return !found
		})
		return true
	})
	return found
}

// literalWorks returns the works of a list or tuple display whose
// elements include async collectives' calls.
func (l *lowerer) literalWorks(value ast.Expr) []*rules.Work {
	var ws []*rules.Work
	for _, e := range ast.SeqElts(value) {
		if c, ok := e.(*ast.Call); ok {
			if s := l.callAsync[c]; s != nil && s.Work != nil && !s.Work.Escapes {
				ws = append(ws, s.Work)
			}
		}
	}
	return ws
}

// discarded marks the work of an expression-statement call as discarded.
func (l *lowerer) discarded(c *ast.Call) {
	if s := l.callAsync[c]; s != nil && s.Work != nil && !s.Work.Escapes {
		s.Work.Discarded = true
		s.Work.Var = ""
		l.discards = append(l.discards, discard{w: s.Work, arm: l.arm, iterArm: l.iterArm, loops: l.loops})
	}
}

// discard is a discarded work handle and where its collective ran.
type discard struct {
	w            *rules.Work
	arm, iterArm *rules.Arm
	loops        int
}

// drain records that a blocking barrier completes the torch collectives
// issued before it on its group and not waited yet: on NCCL it runs on
// the same communicator's stream after them and its wait blocks until
// it is done; gloo's barrier waits every operation in flight. Each rank
// then reads their buffers after they are complete (ml-4m's broadcasts
// with dropped handles, followed by dist.barrier() before torch.cat).
// Point-to-point operations run on communicators of their own and are
// not drained. A discarded handle counts only when every path that ran
// its collective reaches the barrier (it is not in an if arm or loop
// that the barrier is outside of).
func (l *lowerer) drain(c *ast.Call, site *rules.Site, st *state) {
	l.drainAt(c, site, st, site.Pos)
}

// drainAt is drain with the wait recorded at at (the call of a helper
// whose barrier drains the work).
func (l *lowerer) drainAt(c *ast.Call, site *rules.Site, st *state, at rules.Pos) {
	if site.Library != "torch" {
		return
	}
	text := ""
	if e := l.tb.Collectives[site.API]; e != nil && e.Group.Present() {
		if a := arg(c, e.Group); a != nil && !isNone(a) {
			text = l.text(a)
		}
	}
	same := func(w *rules.Work) bool {
		ws := w.Site
		// (group=None is the default group, as no group argument is.)
		return ws != nil && ws.Library == "torch" && ws.Kind != rules.OpP2P && ws.Group == site.Group && strings.TrimPrefix(l.workGroup[w], "None") == text
	}
	for _, d := range l.discards {
		if !d.w.Discarded || !same(d.w) || l.loops > d.loops || l.arm != nil && !d.arm.Within(l.arm) {
			continue
		}
		if l.loops == d.loops && l.loops > 0 && l.iterArm != nil && !d.iterArm.Within(l.iterArm) {
			continue
		}
		d.w.Discarded = false
		d.w.Waited = append(d.w.Waited, at)
	}
	for v, ws := range st.pending {
		drained := false
		for _, w := range ws {
			if same(w) {
				w.Waited = append(w.Waited, at)
				st.dropWork(w)
				drained = true
			}
		}
		if drained {
			l.event(&rules.Event{Kind: rules.EvWait, Pos: at, Var: v})
		}
	}
}

// helperBarrier drains, at the call c of the program function fn, the
// work a barrier statement of fn's body drains, when nothing in fn can
// leave before it (`def sync_all(): torch.cuda.synchronize();
// dist.barrier()`, a benchmark's fence after its async collectives).
func (l *lowerer) helperBarrier(c *ast.Call, fn *rules.Function, st *state) {
	fd, ok := l.r.(FuncDefiner)
	if !ok || len(st.pending) == 0 && len(l.discards) == 0 {
		return
	}
	for _, s := range ast.DefBody(fd.FuncDef(fn)) {
		if e, ok := s.(*ast.ExprStmt); ok {
			if b, ok := e.Value.(*ast.Call); ok {
				if bs := l.r.Site(b); bs != nil && !bs.Async && bs.Op == "barrier" {
					l.drainAt(b, bs, st, l.pos(c.Pos))
					return
				}
			}
		}
		if anyStmt([]ast.Stmt{s}, func(x ast.Stmt) bool {
			switch x.(type) {
			case *ast.Return, *ast.Raise, *ast.Break, *ast.Continue:
				return true
			}
			return false
		}) {
			return
		}
	}
}

func (l *lowerer) wait(v string, at rules.Pos, st *state) {
	ws := st.pending[v]
	if len(ws) == 0 {
		// Waited on a path where it is not pending (or a handle from
		// elsewhere): still record the wait on the latest handle of v.
		var last *rules.Work
		for _, x := range l.r.Prog().Works {
			if x != nil && x.Var == v && x.Site != nil && x.Site.Func == l.fn {
				last = x
			}
		}
		if last != nil {
			ws = []*rules.Work{last}
		}
	}
	var lists []string
	for _, w := range ws {
		w.Waited = append(w.Waited, at)
		st.dropWork(w)
		if w.Container != "" && w.Container != v && !slices.Contains(lists, w.Container) {
			lists = append(lists, w.Container)
		}
	}
	delete(st.pending, v)
	l.event(&rules.Event{Kind: rules.EvWait, Pos: at, Var: v})
	for _, c := range lists {
		// for h in handles: h.wait() waits what handles holds.
		l.event(&rules.Event{Kind: rules.EvWait, Pos: at, Var: c})
	}
}

// holds reports whether st binds v to w.
func holds(st *state, v string, w *rules.Work) bool {
	for _, x := range st.pending[v] {
		if x == w {
			return true
		}
	}
	return false
}

// ---- expressions ----

// expr lowers an expression: calls in evaluation order (arguments before
// the call), tensor reads. stmtLevel is set for an expression statement.
func (l *lowerer) expr(e ast.Expr, st *state, stmtLevel bool) {
	if e == nil {
		return
	}
	switch e := e.(type) {
	case *ast.Call:
		l.call(e, st)
	case *ast.Lambda:
		// its own function
	case *ast.IfExp:
		l.test(e.Test, st)
		if div, ok := l.divergence(e.Test); ok {
			then, els := l.exprOps(e.Body), l.exprOps(e.Orelse)
			if len(then)+len(els) > 0 {
				l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(e.Test.Span()), Cond: l.text(e.Test), Then: then, Else: els, Divergence: div})
			}
		}
		l.expr(e.Body, st, false)
		l.expr(e.Orelse, st, false)
	case *ast.Name:
		if e.Ctx == ast.Load && l.shadowed[e.Id] == 0 {
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(e.Pos), Var: e.Id, Escape: l.escaping > 0, Kept: l.keeping > 0, Returned: l.returning > 0, Return: l.inReturn > 0, Handed: l.handing > 0})
		} else if src := l.compAlias[e.Id]; e.Ctx == ast.Load && src != "" {
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(e.Pos), Var: src})
		}
	case *ast.Attribute:
		if d := dotted(e); d != "" && e.Ctx == ast.Load {
			if root, _, _ := strings.Cut(d, "."); l.shadowed[root] == 0 {
				l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(e.Pos), Var: d, Escape: l.escaping > 0, Kept: l.keeping > 0, Returned: l.returning > 0, Return: l.inReturn > 0, Handed: l.handing > 0})
			} else if src := l.compAlias[root]; src != "" {
				l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(e.Pos), Var: src})
			}
			return
		}
		l.expr(e.Value, st, false)
	case *ast.Compare:
		if !identityOnly(e) {
			l.children(e, st)
			return
		}
		// x is None, a is not b: identity, which reads no device memory.
		for _, x := range append([]ast.Expr{e.Left}, e.Comparators...) {
			switch x.(type) {
			case *ast.Name, *ast.Attribute, *ast.Constant:
			default:
				l.expr(x, st, false)
			}
		}
	case *ast.ListComp:
		l.compWait(e.Elt, e.Generators, st)
		l.comprehension(e, st)
	case *ast.GeneratorExp:
		l.compWait(e.Elt, e.Generators, st)
		l.comprehension(e, st)
	case *ast.SetComp, *ast.DictComp:
		l.comprehension(e, st)
	default:
		l.children(e, st)
	}
}

// textValue reports a string constant or an f-string.
func textValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Constant:
		return x.Type == ast.ConstStr
	case *ast.JoinedStr:
		return true
	}
	return false
}

// comprehension lowers a comprehension with its target names shadowed:
// they are the comprehension's own variables (Python 3 scopes them to
// it), so `[b[i] for b in bufs]` reads bufs, whatever a local b of the
// function last held.
func (l *lowerer) comprehension(e ast.Expr, st *state) {
	var names []string
	for _, g := range generators(e) {
		ast.Inspect(g.Target, func(n ast.Node) bool {
			if id, ok := n.(*ast.Name); ok {
				names = append(names, id.Id)
			}
			return true
		})
	}
	if l.shadowed == nil {
		l.shadowed = map[string]int{}
	}
	for _, n := range names {
		l.shadowed[n]++
	}
	// `{k: v.cpu().item() for k, v in losses.items()}` reads the
	// tensors of losses through v (fast-reid's metrics on a side
	// stream): a use of v is a use of what it ranges over.
	saved := map[string]string{}
	for _, g := range generators(e) {
		for name, src := range compSources(g.Iter, g.Target) {
			if _, seen := saved[name]; !seen {
				saved[name] = l.compAlias[name]
			}
			if l.compAlias == nil {
				l.compAlias = map[string]string{}
			}
			l.compAlias[name] = src
		}
	}
	l.children(e, st)
	for name, old := range saved {
		if old == "" {
			delete(l.compAlias, name)
		} else {
			l.compAlias[name] = old
		}
	}
	for _, n := range names {
		if l.shadowed[n]--; l.shadowed[n] == 0 {
			delete(l.shadowed, n)
		}
	}
}

// compSources maps the names a comprehension's target binds to the
// variable whose elements they are: `x` of `for x in xs`, `v` of `for
// k, v in d.items()` or of `for v in d.values()`, the second name of
// `for i, x in enumerate(xs)`, each name of `for a, b in zip(xs, ys)`.
// Keys name no tensor, and other iterables are left out.
func compSources(iter, target ast.Expr) map[string]string {
	out := map[string]string{}
	var bind func(iter, target ast.Expr)
	bind = func(iter, target ast.Expr) {
		n, isName := target.(*ast.Name)
		elts := ast.SeqElts(target)
		if d := dotted(iter); d != "" {
			if isName {
				out[n.Id] = d
			}
			return
		}
		c, ok := iter.(*ast.Call)
		if !ok {
			return
		}
		switch fn := dotted(c.Func); {
		case fn == "enumerate" && len(c.Args) >= 1 && len(elts) == 2:
			bind(c.Args[0], elts[1])
			return
		case fn == "zip" && len(elts) == len(c.Args):
			for i, a := range c.Args {
				bind(a, elts[i])
			}
			return
		}
		a, ok := c.Func.(*ast.Attribute)
		if !ok || len(c.Args) != 0 {
			return
		}
		switch d := dotted(a.Value); {
		case d == "":
		case a.Attr == "values" && isName:
			out[n.Id] = d
		case a.Attr == "items" && len(elts) == 2:
			if v, ok := elts[1].(*ast.Name); ok {
				out[v.Id] = d
			}
		}
	}
	bind(iter, target)
	return out
}

// plainComparison returns the operands of a value comparison whose
// operands are names, attribute paths and constants only (`src != -1`,
// `a < b`); ok is false for anything else, identity tests included.
func plainComparison(c *ast.Compare) (operands []ast.Expr, ok bool) {
	if identityOnly(c) {
		return nil, false
	}
	for _, op := range c.Ops {
		if op == ast.In || op == ast.NotIn || op == ast.Is || op == ast.IsNot {
			return nil, false
		}
	}
	for _, x := range append([]ast.Expr{c.Left}, c.Comparators...) {
		switch x := x.(type) {
		case *ast.Constant:
		case *ast.UnaryOp:
			if _, isConst := x.Operand.(*ast.Constant); !isConst {
				return nil, false
			}
		case *ast.Name, *ast.Attribute:
			if dotted(x) == "" {
				return nil, false
			}
			operands = append(operands, x)
		default:
			return nil, false
		}
	}
	return operands, len(operands) > 0
}

// identityOnly: every comparison of c is `is` or `is not`.
func identityOnly(c *ast.Compare) bool {
	for _, op := range c.Ops {
		if op != ast.Is && op != ast.IsNot {
			return false
		}
	}
	return len(c.Ops) > 0
}

// compWait handles [r.wait() for r in reqs]: the list's handle is waited.
func (l *lowerer) compWait(elt ast.Expr, gens []*ast.Comprehension, st *state) {
	if v, at, ok := compWaitParts(elt, gens); ok && st.has(v) {
		l.wait(v, l.pos(at), st)
	}
}

// compWaitOf returns the list a comprehension expression waits each
// element of (`[r.wait() for r in reqs]`, or as a generator), and where.
func compWaitOf(e ast.Expr) (string, ast.Pos, bool) {
	switch e := e.(type) {
	case *ast.ListComp:
		return compWaitParts(e.Elt, e.Generators)
	case *ast.GeneratorExp:
		return compWaitParts(e.Elt, e.Generators)
	}
	return "", ast.Pos{}, false
}

// compWaitParts is compWaitOf for a comprehension's parts: one generator
// over a name, whose element calls wait() on the generator's target.
func compWaitParts(elt ast.Expr, gens []*ast.Comprehension) (string, ast.Pos, bool) {
	if len(gens) != 1 {
		return "", ast.Pos{}, false
	}
	in, ok1 := gens[0].Iter.(*ast.Name)
	tn, ok2 := gens[0].Target.(*ast.Name)
	c, ok3 := elt.(*ast.Call)
	if !ok1 || !ok2 || !ok3 {
		return "", ast.Pos{}, false
	}
	if a, ok := c.Func.(*ast.Attribute); ok && dotted(a.Value) == tn.Id && (a.Attr == "wait" || a.Attr == "Wait") {
		return in.Id, c.Pos, true
	}
	return "", ast.Pos{}, false
}

// handOn lowers a value that is returned or stored as it is. When it is
// a display of references that carries a recorded event with them (a
// stash of (buffer, event) pairs), the references are handed on, not read
// by device work here: whoever takes them can wait the event. Anything
// else is lowered as usual.
func (l *lowerer) handOn(e ast.Expr, st *state) {
	if mixedDisplay(e) && (l.carriesEvent(e) || l.sharedEvent()) {
		l.handOnItems(e, st)
		return
	}
	if !plainRefs(e) || !l.carriesEvent(e) && !l.sharedEvent() {
		// (Kept: what a method of the class waits for before it reads
		// may still be ordered; the rule decides.)
		l.keeping++
		l.expr(e, st, false)
		l.keeping--
		return
	}
	l.escaping++
	l.expr(e, st, false)
	l.escaping--
}

// mixedDisplay reports a tuple or list display that holds more than
// references: (batch, done_event, holdables_of(batch)).
func mixedDisplay(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Tuple, *ast.List:
		return !plainRefs(e)
	}
	return false
}

// handOnItems lowers a mixedDisplay that carries a recorded event: the
// references among its items go on with the event, as a display of
// references alone does, and the calls among them are lowered as usual
// (RecIS's prefetcher hands on its batch, its event, and the tensors a
// helper collected from the batch).
func (l *lowerer) handOnItems(e ast.Expr, st *state) {
	items, _ := displayItems(e)
	for _, x := range items {
		if plainRefs(x) {
			l.escaping++
			l.expr(x, st, false)
			l.escaping--
		} else {
			l.expr(x, st, false)
		}
	}
}

// exitStackTeardown records `stack.callback(dist.destroy_process_group)`
// in a `with ExitStack() as stack:` block ahead of the block's
// collectives: the stack runs it when the block exits, also by an
// exception on one rank while the others still wait in its collectives,
// as a finally clause does (spidr's and minimal_hubert's trainers).
func (l *lowerer) exitStackTeardown(w *ast.With) {
	if l.notDist > 0 || l.initsFakeGroup() {
		return
	}
	stack := ""
	for _, it := range w.Items {
		if c, ok := it.ContextExpr.(*ast.Call); ok && lastDotted(c.Func) == "ExitStack" {
			if v, ok := it.OptionalVars.(*ast.Name); ok {
				stack = v.Id
			}
		}
	}
	if stack == "" {
		return
	}
	for i, st := range w.Body {
		c := stmtCall(st)
		if c == nil || len(c.Args) != 1 {
			continue
		}
		a, ok := c.Func.(*ast.Attribute)
		if !ok || a.Attr != "callback" || !isName(a.Value, stack) {
			continue
		}
		if l.tb.Canonical(l.r.Ref(c.Args[0])) != "torch.distributed.destroy_process_group" {
			continue
		}
		if !slices.ContainsFunc(l.ops(w.Body[i+1:]), func(o *rules.OpRef) bool { return o.Op != "destroy" && o.Op != "init" }) {
			return
		}
		if l.hostGroup(worldGroup) {
			return // a gloo group's teardown is local
		}
		op := &rules.OpRef{Op: "destroy_process_group", Group: worldGroup, Pos: l.pos(c.Pos)}
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Span()), Cond: "exit of the with block, also by an exception", Then: []*rules.OpRef{op}, Divergence: rules.LocalTeardown})
		return
	}
}

// itemStore: x[k] = v with a bare name or attribute v, which files v in
// a container (or copies it, when x is a tensor).
func itemStore(targets []ast.Expr, value ast.Expr) bool {
	if len(targets) != 1 || dotted(value) == "" {
		return false
	}
	_, ok := targets[0].(*ast.Subscript)
	return ok
}

// storesOnly reports whether every target only stores a reference to
// value: an attribute, or an item of a container when value is a display
// (stash[k] = (buf, ev)). What is stored is handed on, not read. An item
// store of a bare value may be a tensor copy (out[i] = y reads y on the
// device), so it stays a read.
func storesOnly(targets []ast.Expr, value ast.Expr) bool {
	_, display := displayItems(value)
	for _, t := range targets {
		switch t.(type) {
		case *ast.Attribute:
		case *ast.Subscript:
			if !display {
				return false
			}
		default:
			return false
		}
	}
	return len(targets) > 0
}

// filesHandle reports whether an assignment files a bare name into a
// handle registry of the instance (self.X[k] = handle, see
// HandleRegistries): a reference stored, not a tensor copied.
func (l *lowerer) filesHandle(targets []ast.Expr, value ast.Expr) bool {
	hr, ok := l.r.(HandleRegistries)
	if _, name := value.(*ast.Name); !ok || !name {
		return false
	}
	for _, t := range targets {
		s, ok := t.(*ast.Subscript)
		if !ok {
			return false
		}
		a, ok := s.Value.(*ast.Attribute)
		if !ok {
			return false
		}
		if n, ok := a.Value.(*ast.Name); !ok || n.Id != "self" || !hr.HandleRegistry(l.fn, a.Attr) {
			return false
		}
	}
	return len(targets) > 0
}

// rebindsOnly reports whether an assignment only gives names to existing
// objects (x = y, x = xs[0], x = [a, b]): it reads no device memory, and
// the names hold what the objects' producers made (references).
func rebindsOnly(targets []ast.Expr, value ast.Expr) bool {
	for _, t := range targets {
		if !namesOnly(t) {
			return false
		}
	}
	_, ok := references(value)
	return ok && len(targets) > 0
}

// namesOnly: a name, or names unpacked (a, b = …, (g,) = …, a, *rest = …).
func namesOnly(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Name:
		return true
	case *ast.Starred:
		return namesOnly(t.Value)
	case *ast.Tuple, *ast.List:
		for _, e := range ast.SeqElts(t) {
			if !namesOnly(e) {
				return false
			}
		}
		return true
	}
	return false
}

// carriesEvent reports whether a display names an event the function
// recorded on a stream.
func (l *lowerer) carriesEvent(e ast.Expr) bool {
	items, _ := displayItems(e)
	for _, x := range items {
		if d := dotted(x); d != "" {
			if _, ok := l.eventOn[d]; ok {
				return true
			}
		}
	}
	return false
}

// argsCarryEvent reports a call handed, as an argument or keyword, a
// recorded event (eventOn).
func (l *lowerer) argsCarryEvent(c *ast.Call) bool {
	if len(l.eventOn) == 0 {
		return false
	}
	has := func(x ast.Expr) bool {
		d := dotted(x)
		_, ok := l.eventOn[d]
		return d != "" && ok
	}
	for _, x := range c.Args {
		if has(x) {
			return true
		}
	}
	for _, k := range c.Keywords {
		if has(k.Value) {
			return true
		}
	}
	return false
}

// sharedEvent reports whether an event held in an attribute (self.event)
// has been recorded: whoever takes a value handed on can reach that event
// through the object and wait on it (Megatron's schedule nodes record
// self.event as their forward ends and the next node waits on it). A
// local event dies with the function, so only returning it helps
// (carriesEvent).
func (l *lowerer) sharedEvent() bool {
	for d := range l.eventOn {
		if strings.Contains(d, ".") {
			return true
		}
	}
	return false
}

// plainRefs reports whether e only names values: a name, an attribute
// path, or a tuple, list or dict display of them (constants allowed).
func plainRefs(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name, *ast.Constant:
		return true
	case *ast.Attribute:
		return dotted(e) != ""
	case *ast.Dict:
		for _, k := range e.Keys {
			if k != nil && !plainRefs(k) {
				return false
			}
		}
	}
	items, ok := displayItems(e)
	if !ok {
		return false
	}
	for _, x := range items {
		if !plainRefs(x) {
			return false
		}
	}
	return true
}

// displayItems returns what a tuple, list or dict display holds (a
// dict's values); ok is false for any other expression.
func displayItems(e ast.Expr) (items []ast.Expr, ok bool) {
	switch e := e.(type) {
	case *ast.Tuple:
		return e.Elts, true
	case *ast.List:
		return e.Elts, true
	case *ast.Dict:
		return e.Values, true
	}
	return nil, false
}

func (l *lowerer) children(e ast.Expr, st *state) {
	{
		ast.Children(e, func(n ast.Node) {
			switch n := n.(type) {
			case ast.Expr:
				l.expr(n, st, false)
			case *ast.Keyword:
				l.expr(n.Value, st, false)
			case *ast.Comprehension:
				l.expr(n.Iter, st, false)
				for _, x := range n.Ifs {
					l.expr(x, st, false)
				}
			}
		})
	}
}

func (l *lowerer) reads(e ast.Expr) {
	if d := dotted(e); d != "" {
		l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(e.Span()), Var: d})
	}
}

func (l *lowerer) call(c *ast.Call, st *state) {
	site := l.r.Site(c)
	if site == nil {
		l.memoizedCall(c)
	}
	l.perKey(c, site)
	l.graphCall(c, site)
	// Receiver and arguments first.
	if a, ok := c.Func.(*ast.Attribute); ok {
		// t.record_stream(s) marks t's memory as used by s: it reads
		// nothing (and is the protection CV203 asks for).
		if _, isCall := a.Value.(*ast.Call); isCall || site == nil && a.Attr != "record_stream" && !toDevice(c) && !containerMethods[a.Attr] && !handleMethods[a.Attr] {
			l.expr(a.Value, st, false)
		}
	} else if _, ok := c.Func.(*ast.Name); !ok {
		l.expr(c.Func, st, false)
	}
	ext, calleeFn := l.callee(c)
	if l.uses && site == nil && calleeFn != nil {
		l.helperWaits(c, calleeFn)
	}
	if site == nil && calleeFn != nil {
		l.helperBarrier(c, calleeFn, st)
	}
	if n, isName := c.Func.(*ast.Name); isName && site == nil {
		for _, v := range l.waitingClosures()[n.Id] {
			if st.has(v) {
				l.wait(v, l.pos(c.Pos), st)
			}
		}
	}
	l.reseed(c, ext)
	helper := deviceCopyHelper(c) || unflattens(c) || likeFactories[ext]
	filed := filesArgs(c) || calleeFn == nil && introspects[dotted(c.Func)]
	var recorded map[int]bool
	if l.uses && site == nil {
		recorded = l.recordOnlyArgs(c, calleeFn)
	}
	// What a thread or pool call hands over (Thread(args=…), pool.submit(fn,
	// x)) is read by the thread's function, not here: the spawn reads no
	// device memory on the current stream.
	handed := false
	if sp := l.tb.Spawners[ext]; sp != nil && (sp.Context == "thread" || sp.Context == "pool") {
		handed = true
	}
	// keeps: a call that is no torch operation may only keep what it is
	// handed (Event.Handed).
	keeps := l.uses && site == nil && (calleeFn != nil || !strings.HasPrefix(ext, "torch."))
	// manager.put(key, buf, event), with event recorded after buf's
	// write: the buffer is handed on with the event that orders it, as a
	// returned (buf, event) pair is (LiteGen's offload manager).
	withEvent := keeps && l.argsCarryEvent(c)
	for i, x := range c.Args {
		if site != nil || handed || helper && i == 0 || filed && (dotted(x) != "" || refsDisplay(x)) || recorded[i] {
			l.nestedCalls(x, st)
		} else if withEvent && plainRefs(x) {
			l.escaping++
			l.expr(x, st, false)
			l.escaping--
		} else if keeps && mixedDisplay(x) && (withEvent || l.carriesEvent(x)) {
			l.handOnItems(x, st)
		} else if filed && mixedDisplay(x) {
			// queue.put((batch, done, holdables_of(batch))): the
			// references are filed, the calls beside them run here.
			items, _ := displayItems(x)
			for _, it := range items {
				if plainRefs(it) {
					l.nestedCalls(it, st)
				} else {
					l.expr(it, st, false)
				}
			}
		} else if keeps && (dotted(x) != "" || refsDisplay(x)) {
			l.handing++
			l.expr(x, st, false)
			l.handing--
		} else {
			l.expr(x, st, false)
		}
	}
	var keptLocal map[ast.Expr]bool
	if a, ok := c.Func.(*ast.Attribute); ok && filesArgs(c) {
		// handles.append(dist.all_reduce(…, async_op=True)): the handle
		// is filed in the list, and waiting the list's elements waits it.
		if list := dotted(a.Value); list != "" {
			for _, x := range c.Args {
				if n, isName := x.(*ast.Name); isName && l.handleLists[list] && n.Id != list {
					// sender = dist.isend(…); senders.append(sender): the
					// handle moves into the function's own list.
					for _, w := range st.pending[n.Id] {
						if w.Var == n.Id && w.Container == "" && w.Site != nil {
							w.Container, w.Var = list, list
							at := l.listStmt()
							w.ListStmt = &at
							st.add(list, w)
						}
					}
					if ws := st.pending[n.Id]; len(ws) > 0 && ws[0].Container == list {
						delete(st.pending, n.Id)
					}
				}
				if ac, isCall := unwrapAwait(x).(*ast.Call); isCall {
					if as := l.callAsync[ac]; as != nil && as.Work != nil && as.Work.Container == "" && as.Work.Var == "" {
						as.Work.Container = list
						st.add(list, as.Work)
						if l.handleLists[list] {
							// A list of this function's own: the handle
							// is pending under the list's name until
							// its elements are waited or it leaves.
							as.Work.Var = list
							at := l.listStmt()
							as.Work.ListStmt = &at
							l.noteConds(as.Work)
							if keptLocal == nil {
								keptLocal = map[ast.Expr]bool{}
							}
							keptLocal[x] = true
						}
					}
				}
			}
		}
	}
	for _, k := range c.Keywords {
		if site != nil || handed {
			l.nestedCalls(k.Value, st)
		} else {
			l.expr(k.Value, st, false)
		}
	}
	at := l.pos(c.Pos)
	if site != nil {
		l.collective(c, site, ext, st)
	} else if calleeFn != nil && calleeFn != l.fn {
		l.agreedArgs(c, calleeFn)
	}
	l.groupMembers(c, ext, at)
	l.zero3Generate(c)
	if ext == "atexit.register" && len(c.Args) > 0 {
		// atexit.register(cleanup): what cleanup issues runs at exit.
		if fo, ok := l.r.(FuncObjecter); ok {
			if fn := fo.FuncObject(c.Args[0]); fn != nil && fn != l.fn {
				l.exitHandlerBranch(c, l.text(c), barriers(l.r.Summary(fn)))
			}
		}
	}
	if callee := l.inline[c]; callee != nil {
		params, from := l.boundArgs(c, callee)
		l.event(&rules.Event{Kind: rules.EvCall, Pos: at, Callee: callee, Var: l.callTarget[c], Params: params, From: from})
	}
	l.streamCall(c, ext, at, st)
	if l.uses && site == nil {
		if v := hostRead(c); v != "" || l.gpuHostCopy(c) {
			// The host waits for the copy, so for everything issued
			// on the current stream before it.
			if v == "" {
				v = dotted(c.Func.(*ast.Attribute).Value)
			}
			l.event(&rules.Event{Kind: rules.EvSync, Pos: at, Host: true, Var: v})
		} else if calleeFn != nil && calleeFn != l.fn && l.inline[c] == nil && l.hostSyncs(calleeFn) {
			// A helper that copies to the host (parallel-krylov's
			// mpi_matvec: `Ax = x.get()`): the host has waited for the
			// current stream when it returns.
			l.event(&rules.Event{Kind: rules.EvSync, Pos: at, Host: true})
		}
	}
	l.multiComm(c, ext, at)
	l.mpiLevel(c, ext, at)
	// Handles passed to another call are that call's to wait; so are
	// those handed to a program method named like a wait
	// (self.synchronize(req), which waits req itself).
	if site == nil && (!l.isWaitCall(c, ext) || calleeFn != nil && calleeFn != l.fn && len(c.Args)+len(c.Keywords) > 0) {
		for _, x := range c.Args {
			if !keptLocal[x] {
				l.escape(x, st)
			}
		}
		for _, k := range c.Keywords {
			l.escape(k.Value, st)
		}
		if calleeFn != nil {
			l.filedBack(c, calleeFn, st)
		}
	}
}

// hostRead returns the tensor a blocking copy to the host reads (t.item(),
// t.tolist(), t.cpu() and t.to("cpu") without non_blocking=True), or "".
func hostRead(c *ast.Call) string {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return ""
	}
	switch a.Attr {
	case "item", "tolist", "cpu":
	case "to":
		if len(c.Args) == 0 || !cpuDevice(c.Args[0]) {
			return ""
		}
	default:
		return ""
	}
	for _, k := range c.Keywords {
		if k.Arg == "non_blocking" {
			if b, ok := k.Value.(*ast.Constant); !ok || b.Type != ast.ConstBool || b.Bool {
				return ""
			}
		}
	}
	return dotted(a.Value)
}

// introspects names the builtins that look at an object without reading
// a tensor's device memory: isinstance(res, Tensor) is no read of res.
// likeFactories make a new tensor shaped like their first argument: they
// read its shape, dtype and device, never its memory
// (torch.empty_like(p, device="cpu", pin_memory=True) on a side stream).
var likeFactories = map[string]bool{
	"torch.empty_like": true, "torch.zeros_like": true, "torch.ones_like": true, "torch.full_like": true,
	"torch.rand_like": true, "torch.randn_like": true, "torch.randint_like": true,
}

var introspects = map[string]bool{
	"isinstance": true, "issubclass": true, "type": true, "id": true,
	"hasattr": true, "callable": true, "len": true,
}

// nestedCalls lowers the calls inside a collective's argument without
// recording the argument itself as a tensor read (the collective event
// carries its inputs).
func (l *lowerer) nestedCalls(e ast.Expr, st *state) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			l.call(n, st)
			return false
		case *ast.Lambda:
			return false
		case *ast.IfExp:
			l.expr(n, st, false)
			return false
		}
		return true
	})
}

func (l *lowerer) collective(c *ast.Call, site *rules.Site, ext string, st *state) {
	entry := l.tb.Collectives[site.API]
	if entry == nil {
		entry = l.tb.Collectives[ext]
	}
	if entry != nil && len(site.Inputs) == 0 && len(site.Outputs) == 0 {
		for _, a := range entry.Inputs {
			if x := arg(c, a); x != nil {
				site.Inputs = append(site.Inputs, tensors(x)...)
			}
		}
		for _, a := range entry.Outputs {
			if x := arg(c, a); x != nil {
				site.Outputs = append(site.Outputs, tensors(x)...)
			}
		}
	}
	if site.Kind == rules.OpInit && site.Op == "init" && l.subsetWorld(c) {
		site.SubsetWorld = true
	}
	if site.Kind == rules.OpInit && l.node != nil && l.src.mentions(l.node.Span(), "is_initialized") {
		site.InitIfNeeded = true
	}
	if site.Kind == rules.OpInit && strings.HasPrefix(site.API, "accelerate.") {
		// Accelerator() keeps its state in a shared PartialState: a
		// second construction, in a helper, reuses the group the first
		// made and says nothing about who joined.
		site.InitIfNeeded = true
	}
	if entry != nil && l.notDist == 0 {
		// init_process_group(rank=rank): the variable is this process's
		// rank from here on, however it was computed.
		if x, ok := arg(c, entry.RankArg).(*ast.Name); ok {
			l.rankVars[x.Id] = true
		}
	}
	if entry != nil && site.GroupText == "" {
		if x := arg(c, entry.Group); x != nil {
			site.GroupText = l.text(x)
		} else if a, ok := c.Func.(*ast.Attribute); ok && entry.ReceiverGroup {
			site.GroupText = l.text(a.Value) // self.comm.broadcast(t): the communicator
		}
	}
	if entry != nil && entry.Root.Present() {
		l.rankRoot(c, site, entry.Root)
	}
	if entry != nil && entry.Stream.Present() {
		// An explicit stream argument (CuPy NCCL, cupyx stream=) decides
		// where the operation runs; 0 / None mean the null/current stream.
		if x := arg(c, entry.Stream); x != nil && !isNone(x) && !isFalse(x) {
			site.Stream = l.streamOf(stripHandle(x)).s
		}
	}
	if site.Stream == nil && len(l.streams) > 0 {
		site.Stream = l.streams[len(l.streams)-1].s
	}
	if site.Async && site.Work == nil {
		w := &rules.Work{Site: site}
		site.Work = w
		l.addWork(w)
	}
	if site.Async {
		for _, vs := range [2][]string{site.Inputs, site.Outputs} {
			for _, v := range vs {
				if l.asyncBufs == nil {
					l.asyncBufs = map[string]bool{}
				}
				l.asyncBufs[v] = true
			}
		}
	}
	if site.Work != nil {
		l.callAsync[c] = site
		if l.workGroup == nil {
			l.workGroup = map[*rules.Work]string{}
		}
		if e := l.tb.Collectives[site.API]; e != nil && e.Group.Present() {
			if a := arg(c, e.Group); a != nil {
				l.workGroup[site.Work] = l.text(a)
				if l.workGroupArg == nil {
					l.workGroupArg = map[*rules.Work]ast.Expr{}
				}
				l.workGroupArg[site.Work] = a
			}
		}
		if l.raising > 0 {
			site.Work.Escapes = true // expected to raise: there is no handle
		}
		if l.coalescing > 0 {
			site.Work.Escapes = true // the coalescing manager's work completes it
		}
	}
	if !site.Async && site.Op == "barrier" {
		l.drain(c, site, st)
	}
	ev := &rules.Event{Kind: rules.EvCollective, Pos: site.Pos, Site: site}
	if e := l.tb.Collectives[site.API]; e != nil && e.Stream.Present() && site.Stream != nil {
		// An explicit stream argument (CuPy's and NCCL's stream=): the
		// collective runs there, whatever stream is current.
		if a := arg(c, e.Stream); a != nil {
			sc := l.streamOf(stripHandle(a))
			ev.Stream, ev.StreamText = sc.s, sc.text
		}
	}
	l.unorderedReads(c, site)
	l.event(ev)
	l.hostResume(c, site)
	if l.rootedInPlace(site) {
		// dist.reduce(t, dst=0): only the destination holds the result;
		// every other rank keeps its own input. A decision read from t on
		// every rank (an early stop on the validation loss) differs.
		for _, v := range site.Outputs {
			l.rankVars[v] = true
		}
	}
	if uniformOps[site.Op] && (site.Group == nil || site.Group.Kind != rules.GroupAlloc) {
		// Every rank holds the same value afterwards: a flag decided on
		// one rank and broadcast, or reduced over all of them, no longer
		// depends on the rank (the fix CV301 recommends). Over a subgroup
		// of the program's making it is the same within that group only.
		for _, v := range site.Outputs {
			l.agreed(v)
		}
	}
}

// agreed records that every rank holds the same value in v: whatever
// marked it as one rank's or one host's own no longer does.
func (l *lowerer) agreed(v string) {
	delete(l.rankVars, v)
	delete(l.rankObjects, v) // bound on some ranks only, now on all
	delete(l.fsVars, v)
	delete(l.fsLists, v)
	delete(l.fsCounts, v)
	delete(l.timeVars, v)
	delete(l.timeRecords, v)
	delete(l.localVars, v)
	delete(l.amountVars, v)
	delete(l.randVars, v)
	delete(l.deviceVars, v)
	delete(l.nanFlags, v) // a NaN flag all-reduced (op=MAX)
}

// adoptedBroadcast clears the taints of a variable that the ranks other
// than a broadcast's source take from it (`lst = [stop if RANK == 0 else
// None]; dist.broadcast_object_list(lst, 0); if RANK != 0: stop =
// lst[0]`, YOLOv5's and YOLOv9's early stop): the source keeps the value
// it sent, so after the if every rank holds the same.
func (l *lowerer) adoptedBroadcast(s *ast.If) {
	if len(s.Orelse) > 0 || !l.allButRankZero(s.Test) {
		return
	}
	for _, st := range s.Body {
		a, ok := st.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			continue
		}
		t, ok := a.Targets[0].(*ast.Name)
		if !ok {
			continue
		}
		sub, ok := a.Value.(*ast.Subscript)
		if !ok {
			continue
		}
		if lst, ok := sub.Value.(*ast.Name); ok && l.broadcastFromZero(lst.Id, t.Id) {
			l.agreed(t.Id)
		}
	}
}

// allButRankZero reports a test that holds on every rank but rank 0
// (`RANK != 0`, `rank > 0`).
func (l *lowerer) allButRankZero(test ast.Expr) bool {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || (c.Ops[0] != ast.NotEq && c.Ops[0] != ast.Gt) {
		return false
	}
	k, ok := c.Comparators[0].(*ast.Constant)
	return ok && k.Type == ast.ConstInt && k.Int == 0 && k.Big == nil && l.isRank(c.Left)
}

// broadcastFromZero reports whether the function builds the list named
// lst as a display that holds x (`[stop if RANK == 0 else None]`) and
// broadcasts it from rank 0 with broadcast_object_list.
func (l *lowerer) broadcastFromZero(lst, x string) bool {
	body, _, _, ok := defParts(l.node)
	if !ok {
		if m, isMod := l.node.(*ast.Module); isMod {
			body = m.Body
		} else {
			return false
		}
	}
	holds, sent := false, false
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if len(n.Targets) == 1 && isName(n.Targets[0], lst) {
				if d, ok := n.Value.(*ast.List); ok {
					for _, e := range d.Elts {
						holds = holds || mentions(e, map[string]bool{x: true})
					}
				}
			}
		case *ast.Call:
			if lastDotted(n.Func) != "broadcast_object_list" || len(n.Args) == 0 || !isName(n.Args[0], lst) {
				return true
			}
			src := arg(n, api.Arg{Pos: 1, Name: "src"})
			if k, ok := src.(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
				sent = true
			}
		}
		return true
	})
	return holds && sent
}

// agreedArgs clears the rank and host taint of the variables a call of a
// program function hands to a parameter that the function broadcasts or
// reduces in place (a helper `def broadcast(value, src):
// dist.broadcast(value, src)`): every rank holds the same value
// afterwards, as after the collective itself.
func (l *lowerer) agreedArgs(c *ast.Call, fn *rules.Function) {
	params := l.uniformParams(fn)
	if len(params) == 0 {
		return
	}
	_, args, ok := l.defOf(fn)
	if !ok {
		return
	}
	names := args.Positional()
	shift := 0
	if len(names) > 0 {
		shift = receiverShift(c, names[0].Arg)
	}
	clear := func(x ast.Expr) {
		if v, isName := x.(*ast.Name); isName {
			l.agreed(v.Id)
		}
	}
	for i, x := range c.Args {
		if j := i + shift; j < len(names) && params[names[j].Arg] {
			clear(x)
		}
	}
	for _, k := range c.Keywords {
		if params[k.Arg] {
			clear(k.Value)
		}
	}
}

// uniformParams returns the parameters a program function hands, as they
// are, to the outputs of a collective of uniformOps on a group that is
// not a subgroup of the program's making (memoized).
func (l *lowerer) uniformParams(fn *rules.Function) map[string]bool {
	c := l.memo()
	if v, ok := c.uniformParams.Load(fn); ok {
		return v.(map[string]bool)
	}
	var out map[string]bool
	if body, args, ok := l.defOf(fn); ok {
		params := map[string]bool{}
		for _, a := range args.Positional() {
			params[a.Arg] = true
		}
		for _, a := range args.KwOnlyArgs {
			params[a.Arg] = true
		}
		ast.InspectBody(body, func(n ast.Node) bool {
			call, isCall := n.(*ast.Call)
			if !isCall {
				return true
			}
			s := l.r.Site(call)
			if s == nil || !uniformOps[s.Op] || s.Group != nil && s.Group.Kind == rules.GroupAlloc {
				return true
			}
			e := l.tb.Collectives[s.API]
			if e == nil {
				return true
			}
			for _, a := range e.Outputs {
				if x, isName := arg(call, a).(*ast.Name); isName && params[x.Id] {
					if out == nil {
						out = map[string]bool{}
					}
					out[x.Id] = true
				}
			}
			return true
		})
	}
	v, _ := c.uniformParams.LoadOrStore(fn, out)
	return v.(map[string]bool)
}

// uniformOps leave the same value in their outputs on every rank.
var uniformOps = map[string]bool{
	"broadcast": true, "broadcast_object": true, "all_reduce": true, "all_reduce_object": true,
	"all_gather": true, "all_gather_object": true,
}

// uniformCall reports a collective call of uniformOps: what it returns
// (and what is computed from it) is every rank's, whatever went in.
func (l *lowerer) uniformCall(c *ast.Call) bool {
	s := l.r.Site(c)
	return s != nil && uniformOps[s.Op]
}

func (l *lowerer) isWaitCall(c *ast.Call, ext string) bool {
	if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "wait_work" {
		return true
	}
	if a, ok := c.Func.(*ast.Attribute); ok {
		switch a.Attr {
		case "wait", "Wait", "waitall", "Waitall", "wait_all", "Test", "test", "is_completed", "synchronize", "result":
			return true
		}
	}
	return false
}

// streamCall handles stream, event, wait and autograd-switch APIs.
// outWrites records the tensors a call writes through its out= keyword
// (torch.add(a, b, out=buf), torch.cat(xs, out=buf)): the operator's
// kernel writes them on the current stream.
func (l *lowerer) outWrites(c *ast.Call) {
	for _, k := range c.Keywords {
		if k.Arg != "out" {
			continue
		}
		targets := []ast.Expr{k.Value}
		if t, ok := k.Value.(*ast.Tuple); ok {
			targets = t.Elts
		}
		for _, t := range targets {
			if d := dotted(t); d != "" {
				l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(t.Span()), Var: d, Write: true, Device: l.gpuVars[d]})
			}
		}
	}
}

func (l *lowerer) streamCall(c *ast.Call, ext string, at rules.Pos, st *state) {
	if l.filedWait(c, at, st) {
		return
	}
	sa := l.tb.Streams[ext]
	recv := ast.Expr(nil)
	method := ""
	if a, ok := c.Func.(*ast.Attribute); ok {
		recv, method = a.Value, a.Attr
	}
	if recv != nil {
		switch method {
		case "wait", "Wait", "is_completed", "get_future", "Test", "test", "synchronize":
			// An element taken out of a list of handles (`while reqs:
			// reqs.pop().wait()`, `reqs[i].wait()` in a loop) waits the
			// list, as the loop variable of `for r in reqs` does.
			if lst := listOfElement(recv); lst != "" && st.has(lst) {
				recv = &ast.Name{Id: lst}
			}
			// A variable that holds a work handle: whatever the call
			// graph guessed for a receiver it could not type (an event's
			// wait, a request's), this waits the handle.
			if v := dotted(recv); v != "" && st.has(v) {
				sa = &api.StreamAPI{Role: "wait_work", Method: true}
			}
		}
	}
	if sa == nil && recv != nil {
		// Receivers of unknown type: match distinctive method names.
		switch method {
		case "wait_stream", "wait_event", "record_stream":
			for _, name := range l.tb.MethodNames[method] {
				if s := l.tb.Streams[name]; s != nil {
					sa = s
					break
				}
			}
		case "wait", "Wait", "is_completed", "get_future", "Test", "test":
			if v := dotted(recv); v != "" && st.has(v) {
				sa = &api.StreamAPI{Role: "wait_work", Method: true}
			}
		case "synchronize":
			if v := dotted(recv); v != "" && st.has(v) {
				sa = &api.StreamAPI{Role: "wait_work", Method: true}
			}
		case "record":
			// ev.record(stream) on an event the analysis cannot type
			// (taken out of a dict of events, BMTrain's p2p ops): no
			// tensor has a record method, and its argument is a stream.
			if len(c.Args) == 1 && len(c.Keywords) == 0 && l.isStreamExpr(c.Args[0]) {
				for _, name := range l.tb.MethodNames[method] {
					if s := l.tb.Streams[name]; s != nil && s.Role == "record_event" && strings.HasSuffix(name, "Event.record") {
						sa, ext = s, name
						break
					}
				}
			}
		}
	}
	if sa == nil {
		if recv != nil && strings.HasSuffix(method, "_") && method != "__init__" {
			// In-place tensor method (x.add_(y), buf.zero_()): a write. A
			// blocking copy into host memory (pinned.copy_(t)) has
			// finished when the call returns: nothing is left pending.
			if d := dotted(recv); d != "" {
				host := method == "copy_" && l.hostVars[d] && !nonBlocking(c)
				l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(recv.Span()), Var: d, Write: true, Host: host, Device: !host && l.gpuVars[d]})
			}
		} else if d := dotted(recv); recv != nil && d != "" && l.gpuVars[d] && cupyInPlace[method] {
			// buf.fill(0) on a CuPy array: a kernel writes it.
			l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(recv.Span()), Var: d, Write: true, Device: true})
		} else if l.uses && l.r.Ref(c.Func) == "cupy.copyto" && len(c.Args) > 0 {
			if d := dotted(c.Args[0]); d != "" {
				l.event(&rules.Event{Kind: rules.EvUse, Pos: l.pos(c.Args[0].Span()), Var: d, Write: true, Device: true})
			}
		}
		l.outWrites(c)
		return
	}
	switch sa.Role {
	case "wait_stream":
		if recv == nil {
			return
		}
		w, o := l.streamOf(recv), streamCtx{}
		if x := arg(c, sa.Arg); x != nil {
			o = l.streamOf(x)
		}
		l.event(&rules.Event{Kind: rules.EvWaitStream, Pos: at, Stream: w.s, StreamText: w.text, Other: o.s, OtherText: o.text})
	case "wait_event":
		if recv == nil {
			return
		}
		var ev ast.Expr
		if x := arg(c, sa.Arg); x != nil {
			ev = x
		}
		if strings.HasSuffix(ext, "Event.wait") {
			// event.wait(stream): the stream (or the current one) waits the event.
			w := l.current()
			if ev != nil {
				w = l.streamOf(ev)
			}
			o := l.eventOn[dotted(recv)]
			l.event(&rules.Event{Kind: rules.EvWaitEvent, Pos: at, Stream: w.s, StreamText: w.text, Other: o.s, OtherText: o.text})
			return
		}
		w := l.streamOf(recv)
		o := streamCtx{}
		if ev != nil {
			o = l.eventOn[dotted(ev)]
		}
		l.event(&rules.Event{Kind: rules.EvWaitEvent, Pos: at, Stream: w.s, StreamText: w.text, Other: o.s, OtherText: o.text})
	case "record_event":
		if recv == nil {
			return
		}
		var on streamCtx
		if strings.HasSuffix(ext, "Event.record") {
			on = l.current()
			if x := arg(c, sa.Arg); x != nil {
				on = l.streamOf(x)
			}
			l.eventOn[dotted(recv)] = on
		} else {
			on = l.streamOf(recv)
			if x := arg(c, sa.Arg); x != nil {
				l.eventOn[dotted(x)] = on
			}
		}
		l.event(&rules.Event{Kind: rules.EvRecordEvent, Pos: at, Stream: on.s, StreamText: on.text})
	case "record_stream":
		if recv == nil {
			return
		}
		o := l.current()
		if x := arg(c, sa.Arg); x != nil {
			o = l.streamOf(x)
		}
		l.event(&rules.Event{Kind: rules.EvRecordStream, Pos: at, Var: dotted(recv), Other: o.s, OtherText: o.text})
	case "synchronize":
		ev := &rules.Event{Kind: rules.EvSync, Pos: at}
		if sa.Method && recv != nil && strings.HasSuffix(ext, "Event.synchronize") {
			// ev.synchronize(): the host waits for the stream the event
			// was recorded on, up to the record (FluidMoE's send buffers).
			o, known := l.eventOn[dotted(recv)]
			if !known {
				return // recorded where the analysis cannot tell
			}
			ev.Host, ev.Stream, ev.StreamText = true, o.s, o.text
		} else if sa.Method && recv != nil && strings.HasSuffix(lastName(strings.TrimSuffix(ext, ".synchronize")), "Stream") {
			// stream.synchronize(): the host waits for that stream only.
			o := l.streamOf(recv)
			ev.Other, ev.OtherText = o.s, cmp.Or(o.text, l.text(recv))
		}
		l.event(ev)
	case "set_stream":
		if x := arg(c, sa.Arg); x != nil {
			sc := l.streamOf(x)
			if len(l.streams) > 0 {
				l.streams[len(l.streams)-1] = sc
			} else {
				l.streams = append(l.streams, sc)
			}
			if sc.s == nil {
				l.event(&rules.Event{Kind: rules.EvStreamExit, Pos: at})
			} else {
				l.event(&rules.Event{Kind: rules.EvStreamEnter, Pos: at, Stream: sc.s, StreamText: sc.text})
			}
		} else if recv != nil && sa.Method { // cupy stream.use()
			sc := l.streamOf(recv)
			l.streams = append(l.streams, sc)
			l.event(&rules.Event{Kind: rules.EvStreamEnter, Pos: at, Stream: sc.s, StreamText: sc.text})
		}
	case "wait_work":
		if rc, ok := recv.(*ast.Call); ok && sa.Method {
			// collective(...).wait() / .get_future(): waited on the spot.
			if s := l.callAsync[rc]; s != nil && s.Work != nil {
				s.Work.Waited = append(s.Work.Waited, at)
			}
			return
		}
		var targets []string
		if sa.Method && recv != nil && len(c.Args) > 0 && strings.HasSuffix(ext, "."+method) && l.r.Ref(recv) == strings.TrimSuffix(ext, "."+method) {
			// MPI.Request.Wait(req): the method called on its class, the
			// handle its first argument.
			recv = c.Args[0]
		}
		if sa.Method && recv != nil {
			targets = append(targets, dotted(recv))
		}
		if x := arg(c, sa.Arg); x != nil && !sa.Method {
			targets = append(targets, tensors(x)...)
			targets = append(targets, comprehended(x))
		} else if !sa.Method && len(c.Args) > 0 {
			targets = append(targets, tensors(c.Args[0])...)
			targets = append(targets, comprehended(c.Args[0]))
		}
		for _, v := range targets {
			if v != "" {
				l.wait(v, at, st)
			}
		}
	}
}

// filedWait handles works[i].wait() on a list this function filed work
// handles in (works[i] = collective(async_op=True)): a wait of those
// handles, whatever the receiver's type resolved to (an element of
// unknown type may resolve to Event.wait by name).
func (l *lowerer) filedWait(c *ast.Call, at rules.Pos, st *state) bool {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || a.Attr != "wait" || len(c.Args) != 0 || !isSubscript(a.Value) {
		return false
	}
	d := dotted(a.Value)
	if d == "" {
		return false
	}
	found := false
	factsMu.Lock()
	for _, w := range l.r.Prog().Works {
		if w != nil && w.Container == d && w.Site != nil && w.Site.Func == l.fn {
			w.Waited = append(w.Waited, at)
			st.dropWork(w)
			found = true
		}
	}
	factsMu.Unlock()
	if found {
		l.event(&rules.Event{Kind: rules.EvWait, Pos: at, Var: d})
	}
	return found
}

// current is the current stream (nil outside any stream context).
func (l *lowerer) current() streamCtx {
	if len(l.streams) > 0 {
		return l.streams[len(l.streams)-1]
	}
	return streamCtx{}
}

// streamOf resolves a stream expression: current_stream()/default_stream()
// calls denote the current stream; otherwise the resolver, then streams
// created in this function, then a stream known only by its text.
func (l *lowerer) streamOf(e ast.Expr) streamCtx {
	if legacyNull(e) {
		return streamCtx{} // CuPy's (and Chainer's) Stream.null: the legacy default stream
	}
	if n, ok := e.(*ast.Name); ok {
		if sc, ok := l.curAlias[n.Id]; ok {
			if sc.text == "" {
				sc.text = n.Id // names the variable as a stream handle (CV203)
			}
			return sc
		}
		if sc, ok := l.streamVars[n.Id]; ok && sc.s != nil {
			// stream = self._comm_stream: the stream it was bound to (or,
			// after an if whose arms bind different ones, either).
			return streamCtx{s: sc.s, text: n.Id}
		} else if ok && sc == (streamCtx{}) {
			// stream = cp.cuda.Stream.null.ptr: the legacy default
			// stream, whatever else the name holds on other paths.
			return sc
		}
	}
	if c, ok := e.(*ast.Call); ok {
		ext, _ := l.callee(c)
		if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "current_stream" {
			return l.current()
		}
		if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "default_stream" {
			return streamCtx{} // the default stream: what code outside any stream context runs on
		}
		if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "new_stream" {
			return streamCtx{s: &rules.Stream{ID: l.streamID(c), Pos: l.pos(c.Pos)}, text: l.text(c)}
		}
		switch lastDotted(c.Func) {
		case "current_stream":
			return l.current()
		case "default_stream":
			return streamCtx{}
		}
	}
	text := l.text(e)
	s := l.r.Stream(e)
	if a, ok := e.(*ast.Attribute); ok && s == nil {
		if n, ok := a.Value.(*ast.Name); ok && n.Id == "self" {
			if ss, ok := l.r.(SelfStreamer); ok {
				s = ss.SelfStream(l.fn, a.Attr)
			}
		}
	}
	if s != nil {
		// The default stream, or what torch.cuda.current_stream()
		// returned where the value was made (`self.compute_stream =
		// torch.cuda.current_stream(device)` in a constructor, the
		// polkadot FSDP layer of round 369): the stream code runs on
		// outside any stream context. (A call in this function is the
		// stream current at it, above.)
		if s.Default || s.ID == "current" {
			return streamCtx{}
		}
		return streamCtx{s: s, text: text}
	}
	d := dotted(e)
	if d == "" {
		d = text
	}
	if s := l.synth[d]; s != nil {
		return streamCtx{s: s, text: text}
	}
	s = &rules.Stream{ID: "stream:" + d, Pos: l.pos(e.Span())}
	if a, ok := e.(*ast.Attribute); ok && a.Attr == "ptds" && lastDotted(a.Value) == "Stream" {
		// CuPy's per-thread default stream synchronises with the legacy
		// default stream, as a blocking stream does.
		s.Blocking = true
	}
	l.synth[d] = s
	return streamCtx{s: s, text: text}
}

// mergeStreamVars joins the stream bindings of an if statement's two
// arms: a name both arms bind to the same stream keeps it; one they bind
// to different streams is bound to a stream whose Alts are those (the
// pipelined loops that alternate `stream = current_stream()` and `stream
// = backend_stream`: work on it is ordered after another stream's only
// if it is on every alternative). A name one arm alone binds is dropped
// here; its current-stream alias, if any, stays the last arm's, as before
// this merge existed.
func (l *lowerer) mergeStreamVars(a, b map[string]streamCtx, at rules.Pos) map[string]streamCtx {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	out := map[string]streamCtx{}
	for v, x := range a {
		y, ok := b[v]
		if !ok {
			continue
		}
		if sameStream(x.s, y.s) {
			out[v] = x
			continue
		}
		delete(l.curAlias, v)
		alts := append(streamAlts(x.s), streamAlts(y.s)...)
		ids := make([]string, len(alts))
		for i, s := range alts {
			ids[i] = "current"
			if s != nil {
				ids[i] = s.ID
			}
		}
		out[v] = streamCtx{s: &rules.Stream{ID: "stream:" + v + "@" + strconv.Itoa(at.Line) + "{" + strings.Join(ids, ",") + "}", Pos: at, Alts: alts}, text: v}
	}
	return out
}

// streamAlts lists the streams s may be: its Alts, or s itself (nil: the
// current stream).
func streamAlts(s *rules.Stream) []*rules.Stream {
	if s != nil && len(s.Alts) > 0 {
		return s.Alts
	}
	return []*rules.Stream{s}
}

func sameStream(a, b *rules.Stream) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID
}

// isCurrentStream reports whether e is a current_stream() or
// default_stream() call, whose stream streamOf decides from the context.
func (l *lowerer) isCurrentStream(e ast.Expr) bool {
	if legacyNull(e) {
		return true
	}
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	ext, _ := l.callee(c)
	if sa := l.tb.Streams[ext]; sa != nil {
		return sa.Role == "current_stream" || sa.Role == "default_stream"
	}
	switch lastDotted(c.Func) {
	case "current_stream", "default_stream":
		return true
	}
	return false
}

// orNone returns x for `x if c else None` and `None if c else x`, and e
// itself otherwise.
func orNone(e ast.Expr) ast.Expr {
	ie, ok := e.(*ast.IfExp)
	if !ok {
		return e
	}
	switch {
	case isNone(ie.Orelse) && !isNone(ie.Body):
		return ie.Body
	case isNone(ie.Body) && !isNone(ie.Orelse):
		return ie.Orelse
	}
	return e
}

// legacyNull reports CuPy's Stream.null (cupy.cuda.Stream.null,
// chainer's cuda.Stream.null): the legacy default stream, which is the
// current stream outside any `with stream:`.
func legacyNull(e ast.Expr) bool {
	a, ok := e.(*ast.Attribute)
	if !ok || a.Attr != "null" {
		return false
	}
	return lastDotted(a.Value) == "Stream"
}

// isStreamExpr reports whether e denotes a stream: a name bound to one,
// current_stream()/default_stream(), a stream the resolver knows, or the
// stream of an enclosing stream context, by its text.
func (l *lowerer) isStreamExpr(e ast.Expr) bool {
	if n, ok := e.(*ast.Name); ok {
		if _, ok := l.curAlias[n.Id]; ok {
			return true
		}
		if _, ok := l.streamVars[n.Id]; ok {
			return true
		}
		if l.synth[n.Id] != nil {
			return true // used as a stream before (side.wait_stream(…))
		}
	}
	if l.isCurrentStream(e) || l.newStream(e).s != nil || l.r.Stream(e) != nil {
		return true
	}
	if len(l.streams) == 0 {
		return false
	}
	text := l.text(e)
	for _, sc := range l.streams {
		if sc.text != "" && sc.text == text {
			return true
		}
	}
	return false
}

// newStream returns the stream a value creates (torch.cuda.Stream()).
func (l *lowerer) newStream(value ast.Expr) streamCtx {
	c, ok := value.(*ast.Call)
	if !ok {
		return streamCtx{}
	}
	ext, _ := l.callee(c)
	if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "new_stream" {
		if s := l.r.Stream(value); s != nil {
			return streamCtx{s: s}
		}
		return streamCtx{s: &rules.Stream{ID: l.streamID(c), Pos: l.pos(c.Pos)}}
	}
	return streamCtx{}
}

// ---- facts: autograd switch, inits, multi-communicator frameworks, MPI level ----

var factsMu sync.Mutex

// ProcessLaunchers start processes that run a function of the program in
// a fresh interpreter: per-thread settings such as the autograd switch
// made beside them do not reach the workers.
var ProcessLaunchers = map[string]bool{
	"torch.multiprocessing.spawn":                 true,
	"torch.multiprocessing.spawn.spawn":           true,
	"torch.multiprocessing.start_processes":       true,
	"torch.multiprocessing.spawn.start_processes": true,
	"torch.multiprocessing.Process":               true,
	"multiprocessing.Process":                     true,
	"multiprocessing.context.Process":             true,
	// torchelastic's launcher (entrypoint=…, one process per local rank).
	"torch.distributed.elastic.multiprocessing.start_processes":     true,
	"torch.distributed.elastic.multiprocessing.api.start_processes": true,
}

// launchesProcesses reports whether the function being lowered starts
// processes (ProcessLaunchers).
func (l *lowerer) launchesProcesses() bool {
	found := false
	ast.Inspect(l.node, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found {
			if ext, _ := l.callee(c); ProcessLaunchers[ext] {
				found = true
			}
		}
		return !found
	})
	return found
}

func (l *lowerer) globalSwitch(c *ast.Call) {
	ext, _ := l.callee(c)
	sa := l.tb.Streams[ext]
	if sa == nil || sa.Role != "disable_autograd_threads" {
		return
	}
	x := arg(c, sa.Arg)
	if x == nil || !isFalse(x) {
		return
	}
	if l.launchesProcesses() {
		return // a launcher's switch: its workers do not inherit it
	}
	p := l.pos(c.Pos)
	factsMu.Lock()
	defer factsMu.Unlock()
	f := &l.r.Prog().Facts
	for _, q := range f.AutogradSingleThreaded {
		if q.Path == p.Path && q.Line == p.Line {
			return
		}
	}
	f.AutogradSingleThreaded = append(f.AutogradSingleThreaded, p)
}

func (l *lowerer) initSite(c *ast.Call, s ast.Stmt) {
	ext, _ := l.callee(c)
	if ext != "torch.distributed.init_process_group" && ext != "deepspeed.comm.init_distributed" && ext != "deepspeed.init_distributed" {
		return
	}
	line, indent := l.stmtInfo()
	_ = line
	p := l.pos(c.Pos)
	backend := ""
	if g := l.tb.GroupCreators[ext]; g != nil {
		if x := arg(c, g.Backend); x != nil {
			backend, _ = constStr(x)
		}
	}
	factsMu.Lock()
	defer factsMu.Unlock()
	f := &l.r.Prog().Facts
	for _, in := range f.Inits {
		if in != nil && in.Pos.Path == p.Path && in.Pos.Line == p.Line {
			return
		}
	}
	f.Inits = append(f.Inits, &rules.InitSite{Pos: p, Func: l.fn, Backend: backend, AfterLine: int(s.Span().EndLineno), Indent: indent})
}

func (l *lowerer) multiComm(c *ast.Call, ext string, at rules.Pos) {
	sp := l.tb.Spawners[ext]
	if sp == nil || len(sp.MultiCommValues) == 0 {
		return
	}
	x := arg(c, sp.MultiCommArg)
	if x == nil {
		return
	}
	detail := ""
	for _, v := range sp.MultiCommValues {
		if v == "2d" {
			if n := l.meshDimsOf(x); n >= 2 {
				detail = fmt.Sprintf("%s=%s (a %d-D mesh)", argName(sp.MultiCommArg), l.text(x), n)
			}
		} else if lastDotted(x) == v {
			detail = argName(sp.MultiCommArg) + "=" + v
		} else if s, ok := constStr(x); ok && s == v {
			detail = argName(sp.MultiCommArg) + "=" + v
		}
	}
	comms := ""
	if detail == "" {
		// FSDP2 on one dimension of a mesh and tensor parallelism on
		// another (M6): the data- and tensor-parallel communicators.
		if tp := l.tensorParallelMesh(x); tp != "" {
			detail = fmt.Sprintf("%s=%s and parallelize_module on %s", argName(sp.MultiCommArg), l.text(x), tp)
			comms = "data- and tensor-parallel"
		}
	}
	if detail == "" {
		return
	}
	factsMu.Lock()
	defer factsMu.Unlock()
	f := &l.r.Prog().Facts
	for _, m := range f.MultiComm {
		if comms != "" && m.Func == l.fn && m.Detail == detail {
			return // one finding per function for every block it wraps
		}
	}
	f.MultiComm = append(f.MultiComm, &rules.MultiCommUse{Pos: at, Func: l.fn, API: ext, Detail: detail, Comms: comms})
}

// tensorParallelMesh returns the text of the mesh a parallelize_module
// call of this function uses when it is another dimension of the mesh
// that mesh (a `mesh["dp"]` subscript) is one dimension of: mesh["tp"].
func (l *lowerer) tensorParallelMesh(mesh ast.Expr) string {
	dim, ok := mesh.(*ast.Subscript)
	if !ok {
		return ""
	}
	base := l.text(dim.Value)
	found := ""
	for _, st := range l.body {
		ast.Inspect(st, func(n ast.Node) bool {
			c, ok := n.(*ast.Call)
			if !ok || found != "" {
				return found == ""
			}
			if ext, _ := l.callee(c); lastName(ext) != "parallelize_module" {
				return true
			}
			tp, ok := arg(c, api.Arg{Pos: 1, Name: "device_mesh"}).(*ast.Subscript)
			if ok && l.text(tp.Value) == base && l.text(tp.Slice) != l.text(dim.Slice) {
				found = l.text(tp)
			}
			return true
		})
	}
	return found
}

func argName(a api.Arg) string {
	if a.Name != "" {
		return a.Name
	}
	return fmt.Sprintf("argument %d", a.Pos)
}

func (l *lowerer) trackMesh(v string, value ast.Expr) {
	c, ok := value.(*ast.Call)
	if !ok {
		delete(l.meshDims, v)
		return
	}
	ext, _ := l.callee(c)
	if g := l.tb.GroupCreators[ext]; g == nil || g.Returns != "mesh" {
		delete(l.meshDims, v)
		return
	}
	shape := arg(c, api.Arg{Pos: 1, Name: "mesh_shape"})
	if t, ok := shape.(*ast.Tuple); ok {
		l.meshDims[v] = len(t.Elts)
	} else if t, ok := shape.(*ast.List); ok {
		l.meshDims[v] = len(t.Elts)
	}
}

func (l *lowerer) meshDimsOf(x ast.Expr) int {
	if n, ok := x.(*ast.Name); ok {
		return l.meshDims[n.Id]
	}
	if c, ok := x.(*ast.Call); ok {
		ext, _ := l.callee(c)
		if g := l.tb.GroupCreators[ext]; g != nil && g.Returns == "mesh" {
			shape := arg(c, api.Arg{Pos: 1, Name: "mesh_shape"})
			if t, ok := shape.(*ast.Tuple); ok {
				return len(t.Elts)
			}
		}
	}
	return 0
}

var mpiLevels = map[string]string{"THREAD_SINGLE": "single", "THREAD_FUNNELED": "funneled", "THREAD_SERIALIZED": "serialized", "THREAD_MULTIPLE": "multiple"}

func (l *lowerer) mpiLevel(c *ast.Call, ext string, at rules.Pos) {
	if ext != "mpi4py.MPI.Init_thread" {
		return
	}
	lvl := "multiple"
	if len(c.Args) > 0 {
		if v, ok := mpiLevels[lastDotted(c.Args[0])]; ok {
			lvl = v
		}
	}
	l.setMPILevel(lvl, at)
}

func (l *lowerer) setMPILevel(lvl string, at rules.Pos) {
	factsMu.Lock()
	defer factsMu.Unlock()
	l.r.Prog().Facts.RequestMPIThreadLevel(lvl, at, l.fn)
}

// addFact appends x to one of the Program's lists (Branches, Works,
// Exchanges, …) under factsMu.
func addFact[T any](list *[]T, x T) {
	factsMu.Lock()
	defer factsMu.Unlock()
	*list = append(*list, x)
}

func (l *lowerer) addBranch(br *rules.RankBranch) {
	if br.Divergence == rules.RankTest && l.turnBalanced() {
		return // a pass of a balanced turn-taking loop (turnloop.go)
	}
	if len(l.joinedModels) > 0 && len(l.loopBodies) > 0 && !br.RankCount && !br.JoinedLoop {
		// `with model.join(): for x, y in loader: if y.size(0) == 0:
		// continue`: a rank that skips a pass runs out of passes
		// first, and join() shadows the joined model's forwards and
		// backwards for it; what else the passes issue stays.
		body := l.loopBodies[len(l.loopBodies)-1]
		then, els, after := l.joinShadowed(br.Then, body), l.joinShadowed(br.Else, body), l.joinShadowed(br.After, body)
		if len(then) != len(br.Then) || len(els) != len(br.Else) || len(after) != len(br.After) {
			c := *br
			c.Then, c.Else, c.After = then, els, after
			if len(then) == 0 && len(els) == 0 && len(after) == 0 {
				return
			}
			br = &c
		}
	}
	addFact(&l.r.Prog().Branches, br)
}

func (l *lowerer) addWork(w *rules.Work) { addFact(&l.r.Prog().Works, w) }

// noteConds records the conditions a handle is bound under, for a later
// test of them (workConds).
func (l *lowerer) noteConds(w *rules.Work) {
	// A for loop runs its body only when what it iterates is not empty
	// (`for i in range(len(params))[::world]:`): a handle made there does
	// not exist where a later `if params:` is false.
	var ran []string
	for _, st := range l.loopStmts {
		if f, ok := st.(*ast.For); ok {
			if x := iteratedCollection(f.Iter); x != nil {
				ran = append(ran, l.condKey(x))
			}
		}
	}
	if len(l.ifTests)+len(l.elseTests)+len(ran) == 0 {
		return
	}
	if l.workConds == nil {
		l.workConds = map[*rules.Work][]string{}
	}
	conds := ran
	for _, t := range l.ifTests {
		conds = append(conds, l.conjuncts(t)...)
	}
	for _, t := range l.elseTests {
		conds = append(conds, "not "+l.condKey(t))
	}
	l.workConds[w] = conds
	var ints []intCond
	for _, t := range l.ifTests {
		for _, c := range conjunctExprs(t) {
			if ic, ok := l.intCondOf(c); ok {
				ints = append(ints, ic)
			}
		}
	}
	for _, t := range l.elseTests {
		if ic, ok := l.intCondOf(t); ok {
			ic.set = ic.set.complement()
			ints = append(ints, ic)
		}
	}
	if len(ints) > 0 {
		if l.workInts == nil {
			l.workInts = map[*rules.Work][]intCond{}
		}
		l.workInts[w] = ints
	}
}

// conjunctExprs lists the operands of an `and`, or the test itself.
func conjunctExprs(test ast.Expr) []ast.Expr {
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.And {
		return b.Values
	}
	return []ast.Expr{test}
}

// conjuncts lists the operands of an `and` (or the test itself), as
// ast.Dump prints them (condKey).
func (l *lowerer) conjuncts(test ast.Expr) []string {
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.And {
		out := make([]string, 0, len(b.Values))
		for _, v := range b.Values {
			out = append(out, l.condKey(v))
		}
		return out
	}
	return []string{l.condKey(test)}
}

// iteratedCollection returns the collection a loop over iter runs only
// when it is not empty: iter itself (a name or attribute path), what
// enumerate, zip (its first), reversed, sorted or list go over,
// range(len(x)), and a slice of one of those from its start
// (`range(len(params))[::world_size]`); nil otherwise.
func iteratedCollection(iter ast.Expr) ast.Expr {
	switch x := iter.(type) {
	case *ast.Name, *ast.Attribute:
		if dotted(x) != "" {
			return x
		}
	case *ast.Subscript:
		if sl, ok := x.Slice.(*ast.Slice); ok && sl.Upper == nil && (sl.Lower == nil || isZero(sl.Lower)) {
			return iteratedCollection(x.Value)
		}
	case *ast.Call:
		if len(x.Args) == 0 || len(x.Keywords) > 0 {
			return nil
		}
		switch dotted(x.Func) {
		case "enumerate", "zip", "reversed", "sorted", "list":
			return iteratedCollection(x.Args[0])
		case "range":
			if len(x.Args) == 1 {
				if c, ok := x.Args[0].(*ast.Call); ok && dotted(c.Func) == "len" && len(c.Args) == 1 {
					return iteratedCollection(c.Args[0])
				}
			}
		}
	}
	return nil
}

// isZero reports the literal 0.
func isZero(e ast.Expr) bool {
	k, ok := intConst(e)
	return ok && k == 0
}

// condKey is a condition as ast.Dump prints it, except that in an
// autograd Function's backward the two spellings of "input i requires
// grad" (ctx.needs_input_grad[i], and the ctx attribute forward set to
// the input's requires_grad) are one condition.
func (l *lowerer) condKey(e ast.Expr) string {
	if l.gradInputs != nil {
		switch x := e.(type) {
		case *ast.Subscript:
			a, ok := x.Value.(*ast.Attribute)
			k, isConst := x.Slice.(*ast.Constant)
			if ok && isConst && k.Type == ast.ConstInt && a.Attr == "needs_input_grad" && dotted(a.Value) == l.ctxName {
				if attr, ok := l.gradInputs[int(k.Int)]; ok {
					return "requires_grad:" + attr
				}
			}
		case *ast.Attribute:
			if dotted(x.Value) == l.ctxName {
				for _, attr := range l.gradInputs {
					if attr == x.Attr {
						return "requires_grad:" + attr
					}
				}
			}
		}
	}
	return ast.Dump(e, ast.DumpOptions{})
}

// gradInputConds fills gradInputs when def is the backward of a class
// whose forward saves an input's requires_grad on ctx.
func (l *lowerer) gradInputConds(def ast.Node) {
	fd, ok := def.(*ast.FunctionDef)
	md, isMD := l.r.(MethodDefiner)
	if !ok || fd.Name != "backward" || !isMD || fd.Args == nil {
		return
	}
	params := fd.Args.PositionalNames()
	if len(params) == 0 {
		return
	}
	fwd, ok := md.MethodDef(l.fn, "forward").(*ast.FunctionDef)
	if !ok || fwd.Args == nil {
		return
	}
	inputs := fwd.Args.PositionalNames()
	if len(inputs) < 2 {
		return
	}
	ctx, inputs := inputs[0], inputs[1:]
	ast.InspectBody(fwd.Body, func(n ast.Node) bool {
		s, ok := n.(*ast.Assign)
		if !ok {
			return true
		}
		t, ok := s.Targets[0].(*ast.Attribute)
		v, isAttr := s.Value.(*ast.Attribute)
		if len(s.Targets) != 1 || !ok || !isAttr || dotted(t.Value) != ctx || v.Attr != "requires_grad" {
			return true
		}
		if i := slices.Index(inputs, dotted(v.Value)); i >= 0 {
			if l.gradInputs == nil {
				l.gradInputs = map[int]string{}
			}
			l.gradInputs[i] = t.Attr
		}
		return true
	})
	l.ctxName = params[0]
}

// subsetOf reports whether every element of a is in b (b non-empty).
func subsetOf(a, b []string) bool {
	if len(b) == 0 {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// stripHandle maps s.ptr / s.cuda_stream / s.handle to the stream s.
func stripHandle(e ast.Expr) ast.Expr {
	if a, ok := e.(*ast.Attribute); ok {
		switch a.Attr {
		case "ptr", "cuda_stream", "handle", "stream_ptr":
			return a.Value
		}
	}
	return e
}

// recordedEvent notes e = stream.record() / stream.record_event(): the
// event v was recorded on the receiver stream (an event's own record()
// returns nothing and is handled as a call).
func (l *lowerer) recordedEvent(v string, value ast.Expr) {
	c, ok := value.(*ast.Call)
	if !ok {
		return
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok || (a.Attr != "record" && a.Attr != "record_event") {
		return
	}
	if l.r.Stream(a.Value) != nil || l.synth[dotted(a.Value)] != nil {
		l.eventOn[v] = l.streamOf(a.Value)
	}
}

// expectsRaise reports whether a with statement expects its body to raise
// (self.assertRaises(...), self.assertRaisesRegex(...), pytest.raises(...),
// or a name bound to one above it in body).
func expectsRaise(items []*ast.WithItem, body []ast.Stmt) bool {
	for _, it := range items {
		c, ok := it.ContextExpr.(*ast.Call)
		if n, isName := it.ContextExpr.(*ast.Name); isName {
			// `ctx = self.assertRaisesRegex(…)`, then `with ctx:`
			// (torch's barrier-timeout tests).
			c, ok = lastBindingBefore(body, n.Id, int(n.Lineno)).(*ast.Call)
		}
		if !ok {
			continue
		}
		switch lastDotted(c.Func) {
		case "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "raises":
			return true
		}
	}
	return false
}

// nonBlocking reports a call that passes non_blocking=True.
func nonBlocking(c *ast.Call) bool {
	for _, k := range c.Keywords {
		if k.Arg == "non_blocking" && isTrue(k.Value) {
			return true
		}
	}
	return false
}

// lastDotted is lastName(dotted(e)) without building the dotted name:
// the last name of a dotted path ("b" for a.b, a.b[0] and *a.b), or "".
func lastDotted(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		if rooted(e.Value) {
			return e.Attr
		}
	case *ast.Subscript:
		return lastDotted(e.Value)
	case *ast.Starred:
		return lastDotted(e.Value)
	}
	return ""
}

// rooted reports whether dotted(e) is not empty.
func rooted(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.Name:
			return x.Id != ""
		case *ast.Attribute:
			e = x.Value
		case *ast.Subscript:
			e = x.Value
		case *ast.Starred:
			e = x.Value
		default:
			return false
		}
	}
}

// fsFiltered reports a list or set built by a comprehension whose
// iterables or filters read this host's file system answer, or what it
// loaded under its check (`todo = [k for k in grid if str(k) not in
// done]`, done read from a results file that exists on some hosts):
// as many elements as that answer leaves, on each host its own.
func (l *lowerer) fsFiltered(value ast.Expr) bool {
	var gens []*ast.Comprehension
	switch x := value.(type) {
	case *ast.ListComp:
		gens = x.Generators
	case *ast.SetComp:
		gens = x.Generators
	default:
		return false
	}
	if len(l.fsVars) == 0 && len(l.fsCounts) == 0 {
		return false
	}
	host := func(e ast.Expr) bool { return l.fsProbe(e) || l.fromFsCount(e) }
	for _, g := range gens {
		if host(g.Iter) || slices.ContainsFunc(g.Ifs, host) {
			return true
		}
	}
	return false
}

// launchEnv are the variables a distributed launcher (torchrun, the
// launch utilities) sets in each process it starts.
var launchEnv = map[string]bool{"RANK": true, "WORLD_SIZE": true, "LOCAL_RANK": true, "MASTER_ADDR": true, "MASTER_PORT": true}

// launchTest reports a test of whether a launcher started the process: a
// program helper whose one return checks that two or more of the
// launcher's variables are set (mistral-inference's is_torchrun:
// `all(v in os.environ for v in ["MASTER_ADDR", …])`).
func (l *lowerer) launchTest(test ast.Expr) bool {
	c, ok := test.(*ast.Call)
	if !ok || len(c.Args) > 0 {
		return false
	}
	_, body, ok := l.calleeDef(c)
	if !ok {
		return false
	}
	var ret *ast.Return
	for i, st := range body {
		if i == 0 && isDocstring(st) {
			continue
		}
		r, isRet := st.(*ast.Return)
		if !isRet || ret != nil {
			return false
		}
		ret = r
	}
	if ret == nil || ret.Value == nil {
		return false
	}
	names, environ := 0, false
	ast.Inspect(ret.Value, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Constant:
			if n.Type == ast.ConstStr && launchEnv[n.Str] {
				names++
			}
		case *ast.Attribute:
			environ = environ || dotted(n) == "os.environ"
		}
		return true
	})
	return environ && names >= 2
}

// omittedParamArms reports which arm of `if p is None:` cannot run
// because p is a parameter that defaults to None and that no call in the
// program passes (ParamOmitter): `if stream is None: stream =
// cp.cuda.Stream.null.ptr` / `else: stream = stream.ptr`, with every
// caller leaving stream out, runs on the null stream only.
func (l *lowerer) omittedParamArms(test ast.Expr) (deadThen, deadElse bool) {
	v, noneInThen, ok := noneTest(test)
	po, isPO := l.r.(ParamOmitter)
	if !ok || !isPO || !isNone(ParamDefault(l.node, v)) || !po.ParamOmitted(l.fn, v) {
		return false, false
	}
	return !noneInThen, noneInThen
}

// elifAfterDistributed reports an elif test that holds only where the
// job is one process: the if before it is `A and dist.is_initialized()`
// (the conjuncts in any order) and the elif's test needs every A too
// (`elif A and bad >= patience:`), so it holds only where
// is_initialized() is false.
func (l *lowerer) elifAfterDistributed(test, elif ast.Expr) bool {
	b, ok := test.(*ast.BoolOp)
	if !ok || b.Op != ast.And {
		return false
	}
	need := map[string]bool{}
	inits := 0
	for _, v := range b.Values {
		if c, ok := v.(*ast.Call); ok {
			if ext, _ := l.callee(c); ext == "torch.distributed.is_initialized" {
				inits++
				continue
			}
		}
		need[l.text(v)] = true
	}
	if inits != 1 || len(need) == 0 {
		return false
	}
	have := []ast.Expr{elif}
	if e, ok := elif.(*ast.BoolOp); ok && e.Op == ast.And {
		have = e.Values
	}
	for _, v := range have {
		delete(need, l.text(v))
	}
	return len(need) == 0
}

// rendezvousEnv are the variables torch.distributed's env:// rendezvous
// cannot start without.
var rendezvousEnv = map[string]bool{"RANK": true, "WORLD_SIZE": true, "MASTER_ADDR": true, "MASTER_PORT": true}

// RendezvousEnvTest reports a test, written inline, that is false only
// where one of env://'s variables is unset: `"RANK" in os.environ`, an
// `or` of such tests naming at least one of them, or an `and` of tests
// naming only them.
func RendezvousEnvTest(test ast.Expr) bool {
	present := func(e ast.Expr) (name string, ok bool) {
		c, isCmp := e.(*ast.Compare)
		if !isCmp || len(c.Ops) != 1 || c.Ops[0] != ast.In || dotted(c.Comparators[0]) != "os.environ" {
			return "", false
		}
		k, isStr := c.Left.(*ast.Constant)
		if !isStr || k.Type != ast.ConstStr {
			return "", false
		}
		return k.Str, true
	}
	if name, ok := present(test); ok {
		return rendezvousEnv[name]
	}
	b, ok := test.(*ast.BoolOp)
	if !ok {
		return false
	}
	some, all := false, true
	for _, v := range b.Values {
		name, ok := present(v)
		if !ok {
			return false
		}
		some = some || rendezvousEnv[name]
		all = all && rendezvousEnv[name]
	}
	if b.Op == ast.Or {
		return some
	}
	return all
}

// formsGroupWithoutEnv reports statements that could make a process
// group where env:// has no rank to read: an init_process_group given
// its own rendezvous (init_method, store, rank or world_size, or any
// argument after the backend), DeepSpeed's init_distributed (it finds
// the ranks from MPI), or a write to os.environ ahead of an init.
func formsGroupWithoutEnv(body []ast.Stmt) bool {
	found := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.Call:
				switch lastDotted(n.Func) {
				case "init_distributed", "putenv":
					found = true
				case "init_process_group":
					found = len(n.Args) > 1 || slices.ContainsFunc(n.Keywords, func(k *ast.Keyword) bool {
						switch k.Arg {
						case "backend", "timeout", "device_id", "pg_options":
							return false
						}
						return true
					})
				case "update", "setdefault":
					found = dotted(n.Func) == "os.environ."+lastDotted(n.Func)
				}
			case *ast.Subscript:
				found = n.Ctx == ast.Store && dotted(n.Value) == "os.environ"
			}
			return !found
		})
	}
	return found
}

// bindsOnlyWhenNone reports a loop body that binds v only in arms where v
// is None (`elif barrier is None: … barrier = comm.Ibarrier()`, the NBX
// exchange's once-issued barrier): a later pass never replaces a live
// handle.
func bindsOnlyWhenNone(body []ast.Stmt, v string) bool {
	binds, guarded := 0, 0
	var walk func(stmts []ast.Stmt, none bool)
	walk = func(stmts []ast.Stmt, none bool) {
		for _, st := range stmts {
			switch x := st.(type) {
			case *ast.If:
				name, noneInThen, ok := noneTest(x.Test)
				isV := ok && name == v
				walk(x.Body, none || isV && noneInThen)
				walk(x.Orelse, none || isV && !noneInThen)
				continue
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				if nm, ok := n.(*ast.Name); ok && nm.Id == v && nm.Ctx == ast.Store {
					binds++
					if none {
						guarded++
					}
				}
				return true
			})
		}
	}
	walk(body, false)
	return binds > 0 && binds == guarded
}

// completionTest returns the handle a test asks about completion
// (`req.Test()`, `work.is_completed()`, `fut.done()`), or "".
func completionTest(test ast.Expr) string {
	c, ok := test.(*ast.Call)
	if !ok || len(c.Args) > 0 {
		return ""
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return ""
	}
	switch a.Attr {
	case "Test", "is_completed", "done":
		return dotted(a.Value)
	}
	return ""
}

// issuedOnce finds the calls of a `while True:` body that the loop issues
// exactly once before it ends, whichever arms its passes take:
// `v = comm.Ibarrier()` bound only where v is None, in a loop left only
// by a break after v's work completed (bindsOnlyWhenNone,
// breaksAfterCompletion) and never by a return. The NBX exchange polls
// for messages and issues its barrier once its own sends are done: each
// rank issues it at its own moment, but every rank issues it.
func issuedOnce(body []ast.Stmt) []*ast.Call {
	var out []*ast.Call
	returns := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Return:
				returns = true
			case *ast.Assign:
				if t, ok := n.Targets[0].(*ast.Name); ok && len(n.Targets) == 1 {
					if c, ok := n.Value.(*ast.Call); ok && bindsOnlyWhenNone(body, t.Id) && breaksAfterCompletion(body, t.Id) {
						out = append(out, c)
					}
				}
			}
			return !returns
		})
	}
	if returns {
		return nil
	}
	return out
}

// breaksAfterCompletion reports a loop body whose every break (outside
// nested loops) sits in the arm of an if that asks whether v's work has
// completed (completionTest), and that has one at least.
func breaksAfterCompletion(body []ast.Stmt, v string) bool {
	breaks, after := 0, 0
	var walk func(stmts []ast.Stmt, done bool)
	walk = func(stmts []ast.Stmt, done bool) {
		for _, st := range stmts {
			switch x := st.(type) {
			case *ast.Break:
				breaks++
				if done {
					after++
				}
			case *ast.If:
				walk(x.Body, done || completionTest(x.Test) == v)
				walk(x.Orelse, done)
			case *ast.With, *ast.Try:
				for _, arm := range ast.ChildBlocks(x) {
					walk(arm, done)
				}
			}
		}
	}
	walk(body, false)
	return breaks > 0 && breaks == after
}
