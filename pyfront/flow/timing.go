package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Conditions that each rank answers at its own moment.
//
// Ranks do not run in step: they reach the same line at different times,
// and their threads, futures and clocks move independently. A condition
// that reads the clock (`time.time() - last_save > interval`) or asks
// whether concurrent work has finished (`future.done()`,
// `thread.is_alive()`, `stop_event.is_set()`, an MPI request's `Test()`)
// can hold on one rank and not on another, so collectives it guards are
// issued by some ranks only. So can a flag that a signal handler sets
// (signalFlag): each rank receives the signal at its own step. Lightning
// broadcasts its time-based
// checkpoint and max_time decisions from rank 0 for this reason, and
// fairseq2 all-reduces whether its asynchronous save has finished.

// clockCalls read the host's clock.
var clockCalls = map[string]bool{
	"time.time": true, "time.time_ns": true, "time.monotonic": true, "time.monotonic_ns": true,
	"time.perf_counter": true, "time.perf_counter_ns": true, "time.process_time": true,
	"datetime.datetime.now": true, "datetime.datetime.utcnow": true, "timeit.default_timer": true,
}

// memoryReadings read this process's memory use at the moment of the
// call (the CUDA caching allocator's counters, the host's free memory):
// each rank reads its own, and they differ (HALOs frees its cache when
// the slack between reserved and allocated runs low).
var memoryReadings = map[string]bool{
	"torch.cuda.memory_allocated": true, "torch.cuda.memory_reserved": true,
	"torch.cuda.max_memory_allocated": true, "torch.cuda.max_memory_reserved": true,
	"torch.cuda.memory_cached": true, "torch.cuda.max_memory_cached": true,
	"torch.cuda.mem_get_info": true, "torch.cuda.memory.memory_allocated": true,
	"torch.cuda.memory.memory_reserved": true, "torch.cuda.memory.max_memory_allocated": true,
	"torch.cuda.memory.max_memory_reserved": true, "torch.cuda.memory.mem_get_info": true,
	"psutil.virtual_memory": true,
}

// completionProbes are methods, called without arguments, that ask whether
// work running elsewhere has finished or arrived: concurrent.futures and
// torch futures, threads and processes, torch.distributed work handles,
// threading events, queues, and mpi4py requests.
var completionProbes = map[string]bool{
	"done": true, "running": true, "is_alive": true, "is_completed": true,
	"is_set": true, "empty": true, "qsize": true, "full": true,
	"Test": true, "Get_status": true,
}

// messageProbes ask whether a message has arrived (mpi4py's Iprobe, with
// or without a source and tag).
var messageProbes = map[string]bool{"Iprobe": true, "iprobe": true, "Improbe": true, "improbe": true}

// agreeingMethods are the method names by which frameworks make every rank
// hold one value (Lightning's strategy.broadcast and
// reduce_boolean_decision, mpi4py's bcast and allreduce): a clock reading
// passed through one is no longer this rank's own, whatever the receiver.
var agreeingMethods = map[string]bool{
	"broadcast": true, "broadcast_object": true, "broadcast_object_list": true, "reduce_boolean_decision": true,
	"all_reduce": true, "allreduce": true, "all_gather": true, "all_gather_object": true, "allgather": true, "bcast": true,
}

// agreedCall reports a call whose result every rank holds alike: a
// collective of uniformOps, or a call that is no collective site but is
// named the way frameworks name their broadcasts and reductions
// (trainer.strategy.broadcast(should_stop) on a receiver of unknown
// type, a program's own broadcast_object helper).
func (l *lowerer) agreedCall(c *ast.Call) bool {
	if s := l.r.Site(c); s != nil {
		return uniformOps[s.Op]
	}
	if _, fn := l.callee(c); fn != nil && fn != l.fn && l.returnsAgreed(fn) {
		return true
	}
	switch f := c.Func.(type) {
	case *ast.Attribute:
		return agreeingMethods[f.Attr]
	case *ast.Name:
		return agreeingMethods[f.Id]
	}
	return false
}

// returnsAgreed reports a program function whose every return is what a
// collective left the same on every rank: the list a broadcast or an
// all-gather filled, an element of it, or such a collective's result
// (`box = [v]; dist.broadcast_object_list(box, src=0); return box[0]`).
func (l *lowerer) returnsAgreed(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().agreedRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		outs := map[string]bool{}
		var rets []ast.Expr
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Call:
				if s := l.r.Site(n); s != nil && uniformOps[s.Op] {
					for _, v := range s.Outputs {
						outs[v] = true
					}
				}
			case *ast.Return:
				rets = append(rets, n.Value)
			}
			return true
		})
		if len(rets) == 0 || len(outs) == 0 {
			return false
		}
		for _, r := range rets {
			if s, ok := r.(*ast.Subscript); ok && constIndex(s.Slice) {
				r = s.Value
			}
			switch r := r.(type) {
			case *ast.Name:
				if !outs[r.Id] {
					return false
				}
			case *ast.Call:
				if !l.uniformCall(r) {
					return false
				}
			default:
				return false
			}
		}
		return true
	})
}

// timingProbe reports whether e depends on a clock reading, a completion
// probe or a signal flag, directly, through a local holding one, or
// through a program function that returns one. A value broadcast or
// all-reduced afterwards is the same on every rank (the fix) and does not
// count.
func (l *lowerer) timingProbe(e ast.Expr) bool {
	return dependsOnNames(e, l.timeVars, func(n ast.Node) (found, descend bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			if a, isAttr := n.(*ast.Attribute); isAttr && len(l.timeVars) > 0 && a.Ctx == ast.Load && l.timeVars[dotted(a)] {
				return true, false // an attribute set from the clock above
			}
			return l.signalFlag(n, l.fn), true
		}
		if l.agreedCall(c) {
			return false, false
		}
		ext, fn := l.callee(c)
		if fn != nil {
			// A program function: its name says nothing about the clock,
			// but its returns may read it (def elapsed(self): return
			// time.monotonic() - self.start).
			if l.returnsTiming(fn) {
				return true, false
			}
			// Its result depends on a clock argument only when it returns
			// something computed from that parameter (not a value it
			// all-reduced: all_reduce_value(canceling_rank)).
			if len(c.Args)+len(c.Keywords) > 0 && (len(l.timeVars) > 0 || l.passesSignalFlag(c)) {
				if has, known := l.throughCall(c, l.timingProbe); known {
					return has, false
				}
			}
			return false, true
		}
		if isTimingCall(c, ext) && !l.programMethodCall(c, ext) {
			return true, false
		}
		if constructs(c) {
			// A library object configured with a reading (accelerate's
			// ProjectConfiguration(project_dir=f"logs/{run_name}") with
			// a timestamped run name, then Accelerator(project_config=…))
			// is no clock reading: its other attributes do not depend on
			// it (ddpo's accelerator.sync_gradients).
			return false, false
		}
		return false, true
	}, true)
}

// constructs reports a call of a class by its conventional capitalized
// name (Accelerator(…), ProjectConfiguration(…)), not a function.
func constructs(c *ast.Call) bool {
	name := lastDotted(c.Func)
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// timingTest is timingProbe for an if's test, where a record that holds a
// clock reading among its fields (`info = evaluate()`, which returns
// {"acc": …, "elapse": time.time() - st}) is asked only whether it is
// empty: `if info or step % 10 == 0:`. Its fields still count
// (`info["elapse"] > 5`).
func (l *lowerer) timingTest(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BoolOp:
		for _, v := range x.Values {
			if l.timingTest(v) {
				return true
			}
		}
		return false
	case *ast.UnaryOp:
		if x.Op == ast.Not {
			return l.timingTest(x.Operand)
		}
	case *ast.Name:
		if l.timeRecords[x.Id] {
			return false
		}
	}
	return l.timingProbe(e)
}

// timingRecord reports a call of a program function every return of
// which is a dict, list, tuple or set display: a record of values.
func (l *lowerer) timingRecord(value ast.Expr) bool {
	c, ok := value.(*ast.Call)
	if !ok {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil {
		return false
	}
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	n, displays := 0, 0
	ast.InspectBody(body, func(x ast.Node) bool {
		if r, ok := x.(*ast.Return); ok {
			n++
			switch r.Value.(type) {
			case *ast.Dict, *ast.List, *ast.Tuple, *ast.Set:
				displays++
			}
		}
		return true
	})
	return n > 0 && n == displays
}

// programMethodCall reports an unresolved method call whose name the
// program defines itself: bucket.full() on a parameter the analysis has
// no value for is as likely the program's Bucket.full as a queue's.
func (l *lowerer) programMethodCall(c *ast.Call, ext string) bool {
	a, ok := c.Func.(*ast.Attribute)
	return ok && ext == "" && completionProbes[a.Attr] && l.memo().programDefines(l.r.Prog(), a.Attr)
}

// isTimingCall reports a clock call or a completion probe (ext is the
// call's external name, "" when unknown).
func isTimingCall(c *ast.Call, ext string) bool {
	if clockCalls[ext] || ext == "" && clockCalls[dotted(c.Func)] || memoryReadings[ext] {
		return true
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	if messageProbes[a.Attr] {
		return true
	}
	if completionProbes[a.Attr] && len(c.Args) == 0 && len(c.Keywords) == 0 {
		return true
	}
	// A torch.distributed store asked, without waiting, whether another
	// process has set a key yet (a crash sidecar's rejoin flag in a
	// FileStore, diloco-vs-ddp-failures): each rank asks at its own
	// moment.
	if a.Attr == "check" && strings.HasPrefix(ext, "torch.distributed.") && strings.HasSuffix(ext, "Store.check") {
		return true
	}
	// A CUDA event or stream asked whether its work has run.
	return a.Attr == "query" && len(c.Args) == 0 && strings.HasPrefix(ext, "torch.cuda.")
}

// returnsTiming reports whether a program function returns a clock reading
// or a completion probe's answer directly (one level: what it returns, not
// what its callees do). Answers are kept per analysis when the resolver
// can keep them.
func (l *lowerer) returnsTiming(fn *rules.Function) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return false
	}
	var memo map[*rules.Function]bool
	if m, ok := l.r.(Memoizer); ok {
		memo = m.Memo("returnsTiming")
		if v, seen := memo[fn]; seen {
			return v
		}
	}
	found := returnsDirectTiming(ast.DefBody(fd.FuncDef(fn)), l, fn)
	if memo != nil {
		memo[fn] = found
	}
	return found
}

// returnsDirectTiming looks through body's statements, not into nested
// functions, classes or lambdas, for a return of a clock call or a
// completion probe, or a constant returned under a test of one (`for
// work in pending: if not work.is_completed(): return True`, Hierarchical
// Local SGD's readiness check).
func returnsDirectTiming(body []ast.Stmt, l *lowerer, fn *rules.Function) bool {
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.Return:
			found = x.Value != nil && directTiming(x.Value, l, fn)
			return false
		case *ast.If:
			if directTiming(x.Test, l, fn) && (returnsConstant(x.Body) || returnsConstant(x.Orelse)) {
				found = true
				return false
			}
			if single, inThen := l.distributedTest(x.Test); single {
				// `if not dist.is_initialized(): return self.requested`:
				// a single process's answer, which no other rank reads
				// differently; the other arm still counts.
				arm := x.Orelse
				if !inThen {
					arm = x.Body
				}
				found = returnsDirectTiming(arm, l, fn)
				return false
			}
		}
		return true
	})
	return found
}

// returnsConstant reports a block whose last statement returns a
// constant (`return True`).
func returnsConstant(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	r, ok := body[len(body)-1].(*ast.Return)
	if !ok || r.Value == nil {
		return false
	}
	_, isConst := r.Value.(*ast.Constant)
	return isConst
}

// signalFlag reports a read, in fn, of an attribute or a global name that
// a signal handler sets.
func (l *lowerer) signalFlag(n ast.Node, fn *rules.Function) bool {
	switch n := n.(type) {
	case *ast.Attribute:
		if n.Ctx != ast.Load {
			return false
		}
	case *ast.Name:
		if n.Ctx != ast.Load {
			return false
		}
	case *ast.Subscript:
		if _, ok := n.Value.(*ast.Name); !ok || n.Ctx != ast.Load {
			return false // flags["stop"]
		}
	default:
		return false
	}
	sf, ok := l.r.(SignalFlagger)
	return ok && sf.SignalFlag(fn, n.(ast.Expr))
}

// directTiming is timingProbe without locals and without program
// functions: a clock call, a completion probe or a signal flag of fn's
// class written in e itself.
func directTiming(e ast.Expr, l *lowerer, fn *rules.Function) bool {
	return dependsOnNames(e, nil, func(n ast.Node) (bool, bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return l.signalFlag(n, fn), true
		}
		ext, fn := l.callee(c)
		if fn != nil {
			return false, true
		}
		return isTimingCall(c, ext), true
	}, true)
}

// passesSignalFlag reports a call handed a flag a signal handler sets
// (is_true_on_any_rank(_signal_received)): what the callee returns of it
// decides whether the caller's test still reads it.
func (l *lowerer) passesSignalFlag(c *ast.Call) bool {
	for _, a := range c.Args {
		if l.signalFlag(a, l.fn) {
			return true
		}
	}
	for _, k := range c.Keywords {
		if l.signalFlag(k.Value, l.fn) {
			return true
		}
	}
	return false
}
