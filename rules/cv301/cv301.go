// Package cv301 implements CV301 rank-conditional-collective: a collective
// (directly, through calls, or hidden in a framework call) that runs under
// a rank-dependent condition while the other path does not issue the same
// collective sequence.
package cv301

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV301.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV301",
	Name:     "rank-conditional-collective",
	Severity: rules.Error,
	Lowered:  rules.Warning,
	Run:      run,
	Doc: rules.Doc{
		Title: "a collective runs on some ranks only",
		What: "Reports a collective, barrier, object collective, group creation or framework call that is " +
			"collective inside (Trainer.save_checkpoint, engine.save_checkpoint, accelerator.gather_for_metrics, a TorchMetrics metric's compute(), get_model_state_dict or set_model_state_dict with StateDictOptions(full_state_dict=True) or broadcast_from_rank0=True, " +
			"self.log(sync_dist=True), …) or a framework's distributed helper (mmengine's all_reduce, detectron2's " +
			"comm.synchronize, Composer's dist.barrier, fairseq's all_gather_list, Ignite's idist.all_reduce) that runs only when a " +
			"rank-dependent condition holds — `if rank == 0`, `if trainer.is_global_zero`, " +
			"`if accelerator.is_main_process`, `if comm.is_main_process()`, an early `return` on a rank test (or under one: `if is_master: ... if os.path.exists(p): return`, which only the master can take; a `continue` or `break` " +
			"under one skips the rest of that loop pass the same way), a True or False that a rank test's arm sets and a later test reads " +
			"(`if rank == 0: stop = True` … `if stop: break`, also set by the instance's own method that a rank test's arm calls: " +
			"`if rank == 0: self._log_scores()`), a text a rank test's one arm stores on an object a later test reads " +
			"(`if rank == 0: cfg.best_checkpoint = f\"ckpt-{step}\"` … `if cfg.best_checkpoint:`), a " +
			"@rank_zero_only, @master_only or @idist.one_rank_only() function; in Go, an `if` on a rank that MPI_Comm_rank, ncclCommUserRank, " +
			"ncclCommInitRank or a binding's WorldRank()/Rank() gave, with the collectives its blocks issue directly, or that returns (or breaks out of its loop) before the function's later collectives, and a wait on a context's end (`case <-ctx.Done(): return`, `if ctx.Err() != nil { break }`) before them, since each rank's deadline passes at its own moment — when the other path does not issue the same sequence. Point-to-point " +
			"operations split by rank, the same collective on both sides, and rank-dependent arguments " +
			"(`gather_list if rank == dst else None`) are fine and not reported; so is a hierarchical collective, whose arms meet on one group " +
			"(gather to the node's leader, scatter back) while the leader's arm alone also communicates on a group the other arm never uses " +
			"(the leaders' group); nor is an op on a communicator that is itself created only where the same condition holds " +
			"(every chain of calls to its creation passes through `if cond:`, or follows `if not cond: return`, as TRL's trainer does for the main process's link to a " +
			"vLLM server, and RL trainers for the weight-update group they make with torch's _new_process_group_helper), whose members are those ranks alone, " +
			"also after the other ranks left early; nor is an op on a group whose members all answer the condition " +
			"alike: Megatron's pipeline-stage tests (is_pipeline_last_stage()) on a data-, tensor-, context- or expert-parallel group, " +
			"which lie within one stage, and its tensor-parallel rank on a data- or pipeline-parallel group (ColossalAI's gpc.is_pipeline_first_stage() on " +
			"gpc.get_group(ParallelMode.PARALLEL_1D) and the other data- and tensor-parallel modes likewise); nor is an op on a group whose " +
			"members the condition picks out (Megatron's embedding group under `is_pipeline_first_stage() or is_pipeline_last_stage()`, " +
			"the tables' member_tests); nor is an op on a group the rank picks out of a list (`adj_groups[rank - 1]`) under a test that " +
			"only bounds that rank (`if rank:`, `rank != world - 1`), which keeps the index in range; nor is an op on a group of every rank from K on " +
			"(`new_group(ranks=range(1, world_size))`) under `rank != 0` or `rank >= K`, or of every rank below K (`new_group(ranks=list(range(num_gpus)))`) " +
			"under `rank < K`, or of every L-th rank (`range(0, world_size, L)`, `[r for r in range(world_size) if r % L == 0]`) under `rank % L == 0`: the test picks out the members; nor are the same ops on a group the program allocates in both arms of `if src == me:` / `elif dst == me:` " +
			"(a pair group's two members, as `if me in (src, dst):` picks them out); nor is an op on a communicator split by a color (mpi4py's `comm = world.Split(color, key)`, " +
			"or Horovod's default group after `hvd.init(comm=world.Split(local_rank, rank))`) under a test that reads the rank only " +
			"through that color's variable, which every member holds alike. A loop over every rank's index that skips the rank's " +
			"own turn (`for i in range(world_size): if i == rank: continue`) runs as many passes on every rank, so a collective that " +
			"is the same in every pass is fine; one that changes with the pass (`broadcast(t, src=i)`, `all_reduce(bufs[i])`) is " +
			"reported. A loop over every rank's index whose tests only compare the index, the rank and values every rank holds " +
			"alike, and whose passes issue the same operations on every rank however those compare (ZeroRedundancyOptimizer's " +
			"consolidate_state_dict: rank r sends, rank `to` receives, the others relay, and nobody communicates in the pass r == to), " +
			"is fine. Rank 0's broadcasts on a group where the other ranks run a command loop (`while True:` " +
			"receiving a broadcast first, then dispatching) are that loop's commands, also when the two halves are the arms of one if/else and the leader's arm ends with one broadcast outside its loops (the stop command), and when the leader returns early (a bad request) from the function " +
			"the followers' loop itself calls, which only sends no command this time; an arm that creates the default group against " +
			"one that issues nothing is ranks inside the job against ranks outside it; what an except handler issues before it " +
			"raises is the failure path's signal, and a failing exit (`sys.exit(\"message\")`, `exit(-1)`, `raise SystemExit(1)`) under a rank test is a failure, " +
			"which the launcher ends, not an early exit; so is an arm that raises without communicating, in either arm " +
			"(`if dirs: load() else: raise`, the way transformers checks for a checkpoint), unless a handler of the same function names the class " +
			"and does not raise again (`raise StopTraining()` under `except StopTraining:`): the rank then leaves the rest of the try's body and goes on " +
			"after the handler, an early exit; except before an mpi4py collective, in a file that installs no " +
			"excepthook and calls no Abort: an uncaught exception does not end an mpi4py job (the raising process waits in MPI_Finalize as it exits), " +
			"so a raise under a rank test there is reported, as a warning (`python -m mpi4py` aborts the job instead), and so is an mpi4py collective whose arguments read a local that only the ranks taking one arm of a rank test bind (`if rank == 0: state = load()`, then `comm.bcast(state)`): the others raise UnboundLocalError before they issue it. A condition on a file system check (not in a program whose every init_process_group meets on localhost, " +
			"`os.environ[\"MASTER_ADDR\"] = \"localhost\"` (not only in the arm of a plain run, where env://'s variables are unset) or `init_method=\"tcp://127.0.0.1:…\"`: its ranks share one machine's file system; nor, for a Lightning Trainer's own calls, in a program " +
			"that starts its ranks only through Trainers naming no `num_nodes`, which Lightning runs on one node; nor in a process that asserts its local rank is its global rank, " +
			"`assert args.local_rank == dist.get_rank()`, which holds on one host only) " +
			"(`os.path.exists(p)`, `Path(p).exists()`, `os.path.isdir`, etils' `epath.Path(p).exists()`, `tf.io.gfile.exists(p)`, fsspec's `fs.exists(p)`, blobfile's `bf.exists(p)`, iopath's and fvcore's `PathManager.exists(p)`, a directory listing: `glob.glob`, `os.listdir`, `fs.ls`, `PathManager.ls`, and what a loop over one computes or appends to a list) is reported too, as is a loop over such a listing itself (`for f in sorted(glob.glob(pattern)):`) whose passes communicate, as a warning: each rank asks its own " +
			"host, and ranks can disagree; so is a flag or path an if on such a check sets (`if kill_switch.exists(): " +
			"self.early_stop = True`), an object whose class's __init__, or a method called on it (`train_state.resume(ckpt_root)`, which lists the directory and loads the newest `step`), stored such an answer (`self.tot_length = len(os.listdir(path))`, " +
			"or a position a method of its own that __init__ calls read from what the host found: `self.load_checkpoint()` setting `self.curr_step = state[\"curr_step\"]`, " +
			"or read back through a property that returns it, or handed to a program iterable whose __iter__ starts from it (`IterationBasedBatchSampler(…, start_iter)`; " +
			"a position a method the program does not define loads from the checked path, `it, start = model.load_params_with_optimizer(ckpts[-1])`, counts too, as does one read in " +
			"a try whose handler swallows any exception, or returned by a helper as {} or the state it loaded under its own check and merged with `arguments.update(…)`), " +
			"then `for i in range(loader.tot_length):`), and a position read from stored data there that bounds a loop (`if os.path.isfile(ckpt): start = torch.load(ckpt)[\"epoch\"] + 1`, then `for epoch in range(start, epochs):`, or a `while step <= max_step:` after `step = torch.load(ckpt)[\"step\"]`, also through a whole state loaded there: `state = torch.load(p)`, `it = state[\"iter\"] if state else 0`, also when one arm of a later if resets it (`if args.real_data: start = 0`, which leaves the other path this host's answer) or an exception handler does (`except Exception: start = 0`), also through a helper that sets a local to None first and fills it under the check (`meta = None`, `if os.path.exists(p): meta = json.load(f)`, `return meta`; loading a framework's checkpoint there, accelerator.load_state, agrees on nothing), or by a helper that stores it on an object the caller passes, under a check of its own or of a path the caller found: `load_model(args)` setting `args.start_epoch = ckpt[\"epoch\"] + 1`, or DINO's `restart_from_checkpoint(p, run_variables=to_restore)`, which returns early where `os.path.isfile(p)` fails and fills the dict it was given), a training loop's call that resumes from a checkpoint in one arm only (`if list(Path(out).glob(\"checkpoint-*\")): trainer.train(resume_from_checkpoint=True) else: trainer.train()`, Lightning's `fit(…, ckpt_path=…)`), since the resumed run restores the step count and runs the remaining steps only, and an exit on one at the end of a loop's pass, which strands the others in the " +
			"next pass's collectives (as for a rank test, the clock or a random draw). So is a condition that reads the clock (`time.monotonic() - last > interval`, " +
			"a deadline, or a True or False set where one holds: `if check_deadline(): allowed = False`) or this rank's memory use (`torch.cuda.memory_reserved() - torch.cuda.memory_allocated()`, `mem_get_info()`), or asks whether concurrent work has finished (`future.done()`, `running()`, `thread.is_alive()`, " +
			"`event.is_set()`, `queue.empty()`, an MPI request's `Test()`, `Iprobe`), or reads a flag that a signal handler " +
			"sets (`self._signal_received` in the handler's class, `trainer._received_sigterm` on the object the handler sets it on, " +
			"a module global the handler declares global) or that a background thread's function sets (unless the thread is joined at once), " +
			"also through a method that returns one: ranks do not run in step, so each asks at its own " +
			"moment (Megatron all-gathers its signal flag, Lightning broadcasts its time-based decisions). So is a draw from a process-wide random " +
			"generator (`random.random()`, `np.random.rand()`, `torch.rand()`, `torch.empty(n).uniform_()`; not a generator the program seeds " +
			"for itself, nor a draw after the function reseeds the global generator with a value every rank holds, `torch.manual_seed(step)`): ranks seed apart, or consume one seed differently, and LayerDrop hung FSDP this way (fairscale#796); also a for loop over a module list whose own __iter__ yields a layer only when such a draw clears the rate (fairseq's LayerDropModuleList). " +
			"Once a value has been broadcast or all-reduced it is the same on every rank (a buffer reduced to one rank, `dist.reduce(t, dst=0)`, is not: only the destination holds the result, so a decision every rank reads from it, an early stop on the validation loss, also through a helper that returns it, differs between ranks), and a type test (`isinstance(outputs, tuple)`) of a value each rank computed for itself asks what every rank answers alike, " +
			"and branching on it is fine. The \"main process first\" idiom — `if rank != 0: barrier()`, the work, " +
			"`if rank == 0: barrier()`, with no collective between (also with the same extra condition on both halves, `and num_gpus > 1`, or with a test that the job is distributed on one half only, `if dist.is_initialized() and is_master():`) — issues one barrier on every rank and is not " +
			"reported, nor is its class form (the first half in __enter__, the second in __exit__), nor a release split over the arms of a later conditional (FastChat: rank 0 releases from the cache under `if rank == 0:`, or after building it in the else arm). " +
			"A collective inside the block of such a context manager is reported, though: `with accelerator.main_process_first():`, " +
			"`training_args.main_process_first()`, YOLOv5's `torch_distributed_zero_first(local_rank)`, Fabric's `rank_zero_first()`, Composer's " +
			"`run_local_rank_zero_first()`, and a @contextmanager function of the program that yields inside a rank test's arm or behind a collective " +
			"only some ranks issue, run the block on rank 0 before the barrier and on the others after it, so the block's collectives " +
			"(a ZeRO-3 model built under deepspeed.zero.Init broadcasts) meet the barrier; blocking barriers on the default group alone " +
			"inside the block are not reported, since a barrier meeting a barrier leaves every rank with the same count. So is a collective of the program's own in a loop " +
			"inside DDP's `with model.join():`: join() is there because ranks hold different numbers of batches, and it shadows only DDP's " +
			"own collectives for a rank that ran out (a loop that leaves on a test that communicates, `if all_done(): break`, is agreed). The first parameter of a function that torch.multiprocessing.spawn runs is the rank, and so is " +
			"a helper's parameter that a caller passes the rank, or a test of it, to (save(model, rank)), and an attribute the caller set to one " +
			"on an object it hands on (`options.master = rank == 0`, then `evaluate(model, options)` tests `options.master`). A helper " +
			"that communicates only when a parameter of its own is true (`if synchronize: barrier()`) issues nothing " +
			"at a call that passes, or defaults to, False; nor does a method that communicates only when an attribute of its receiver is true (`if self.args.is_pipe_parallel:`), called on the path where the caller found that attribute false (gpt-neox's gradient noise scale); and an early exit taken only while a flag is false (`if not is_main and not sharded: return`) skips nothing a helper issues only when that flag is true (audiocraft's checkpoint barriers). When both paths communicate and one does so inside a library call whose collectives the tables leave unspecified (Megatron's save_checkpoint, which fastmoe's data-parallel rank 0 runs while the other ranks save between barriers of their own), the paths are not compared, unless they differ before that call. Also reported, as a warning: collectives issued once per " +
			"element of a set (`for name in set(names): dist.broadcast(bufs[name], 0)`), since a set iterates in hash " +
			"order and hashes differ between processes (R13), also through list(s), a comprehension over s, or a dict filled in a loop over s " +
			"(apex's flat_dist_call); integer sets, sorted(...) and Horovod's name-matched " +
			"operations are fine. Under DistributedDataParallel, FSDP, deepspeed.initialize's engine, accelerate's prepare() (of a module with parameters: one of buffers alone is moved, not wrapped) or Lightning Fabric's setup(), " +
			"loss.backward() (or engine.backward(loss), accelerator.backward(loss), fabric.backward(loss)) on a loss computed from the wrapped model's forward is itself a collective (the gradient " +
			"all-reduce), outside `with model.no_sync():`; so is the forward of an FSDP model, of a module handed to FSDP2's fully_shard " +
			"(each block of a model sharded block by block, also called through the nn.Sequential that holds the blocks), or of a ZeRO-3 engine (it all-gathers the parameters; so does a method of the model's class that runs its submodules, `model.predict_action(x)`, and a model that accelerate's prepare() returns under a DeepSpeedPlugin(zero_stage=3)): `if rank == 0: model(batch)` hangs, and so does `model.generate(…)` on such a module, or a profiler or tracer handed it (fvcore's `FlopCountAnalysis(model, x)`, `thop.profile`, `torch.jit.trace`), which runs its forward. A group creation that synchronises the default group and is called on every rank " +
			"with a member list computed from the rank (`new_group(tp_ranks)` where tp_ranks is this rank's subset, R18) is reported " +
			"too: every rank must create every subset's group, unless use_local_synchronization=True; a group of this rank alone is fine, and so is an MPI group (MPI_Comm_create takes each rank's own disjoint group). So is generate() on a model that DeepSpeed ZeRO-3 partitions " +
			"(deepspeed.initialize with zero_optimization.stage 3) without synced_gpus=True (R16): each rank stops generating at " +
			"its own end-of-sequence token, while every token's forward all-gathers the parameters. A program helper that returns None on a test of parameters the call hands rank-dependent values " +
			"(`prepare(sample, rank * rows, …)` returning None where this rank's rows hold none of the sample) gives an object only some ranks hold, " +
			"so `if minibatch is None: continue` is a rank test. So is a call handing a rank-dependent " +
			"argument to a program function that functools.lru_cache (or functools.cache) memoizes and that communicates: only a cache miss " +
			"runs it, and which arguments a rank has seen is its own history. So is, as a warning, a test of " +
			"torch.cuda.device_count() (`if torch.cuda.device_count() > 1 and enable_fsdp: all_reduce(loss)`, also through a local bound to it; " +
			"torch.npu's, torch.xpu's and torch.accelerator's alike), " +
			"which counts the GPUs this process sees on its host, not the ranks of the job: nodes with other GPU counts disagree, and with one GPU " +
			"bound per process every rank skips the collective (not where the function launches the workers, mp.spawn one per GPU it counted, " +
			"before there are ranks; nor in a program whose ranks all meet on localhost, or whose init_process_group runs only behind such a test, which every member of the group passed; " +
			"nor in the arm of a test of env://'s variables (`if \"RANK\" in os.environ: … elif torch.cuda.device_count() > 1:`) where they are unset and no init " +
			"names a rendezvous of its own: an init there raises, so no job spans that arm and the other). Nothing splits ranks either in an elif that repeats the other " +
			"conditions of an if on dist.is_initialized() (`if A and dist.is_initialized(): … elif A and bad >= patience: break`: one process only), under a test " +
			"of a parameter that every call leaves at a false default or passes false (also through a **kwargs the caller hands on), or at a call that a " +
			"`while True:` loop issues exactly once before it ends (a handle bound only where it is None, the loop left only after it completed: the NBX exchange's " +
			"Ibarrier, which each rank issues at its own moment). Two more conditions differ " +
			"between ranks and are reported as warnings: a NaN/Inf test of such a loss (`if torch.isnan(loss): continue` before " +
			"loss.backward(), or a flag set in its arms, a bool or a one-element tensor, then tested, `if bad.item() == 1: continue`) or a comparison of it with a bound (`if loss.item() < 0.06: break`), since each rank computes its loss from " +
			"its own batch, unless the value was all-reduced first; " +
			"and an out-of-memory handler that recovers (`except torch.cuda.OutOfMemoryError: continue`, or `\"out of memory\" in " +
			"str(e)` in a RuntimeError handler) around collectives (R15), unless it re-raises, or re-raises whenever the job is " +
			"distributed (`if dist.is_initialized(): raise`, `if world_size > 1: raise`), and accelerate's " +
			"@find_executable_batch_size, which runs the function again on the rank that ran out of memory; a handler that swallows the error " +
			"(`except Exception: log`, no raise) of a try body that writes files (torch.save, save_checkpoint, dcp.save, open(…, \"w\")) before " +
			"collectives, which a write failing on one host makes that rank skip (or, in a retry loop that a successful write leaves, issue again alone), and, whatever the body does, the collectives such a handler's try body issues after other work (or a backward, which computes before it reduces) when collectives follow the try (`try: loss.backward(); dist.all_reduce(g)` `except Exception: log`), which an error on one rank makes it skip; and destroy_process_group in a finally " +
			"clause or an exception handler of a try whose body issues collectives, or after such a try when a handler swallows the error " +
			"(any exception, or KeyboardInterrupt, with no raise or exit): it also runs on the rank whose work raised, while " +
			"the others wait in a collective it never joined, and hangs there instead of letting that rank die (torchtitan#1342); " +
			"a barrier in a function registered to run at exit (`@atexit.register`, `atexit.register(cleanup)`), which Python runs after an uncaught " +
			"exception too; " +
			"a handler for any error that ends the process with status 0 (`except Exception: exit(0)`, or a `return` from the main the script ends with, " +
			"unless the script exits with what main returns, `sys.exit(main())`, and the handler returns a failing status) before collectives, which the " +
			"launcher takes for success, so it leaves the others waiting (none of these inside a function whose only calls are reported " +
			"under a rank test: the ranks that run it have no peer to fall out of step with, and the call is the finding); " +
			"and a test of whether the batch a rank " +
			"loaded is missing or empty (`for batch in loader: if batch is None: continue`, `len(batch) == 0`, `(mask == 0).all()`; " +
			"after the loop, `if batch is None:` only asks whether the loop ran at all and is not such a test; a helper's None for an empty batch " +
			"(`def forward_pass(m, batch): if not batch: return None`, then `if loss is None: continue`) is one) " +
			"or holds too little (`batch[\"loss_mask\"].sum() < min_loss_tokens`; not when the pass it skips only runs a DDP " +
			"model's forward under no_grad, whose buffer broadcast a rank issues once, on its first such forward, whichever batches it skips; " +
			"nor a round robin that skips the passes other ranks take, `if idx % world_size != rank: continue`, around such forwards), " +
			"and a loop that a rank leaves when its own iterator runs out (`try: batch = next(it)` `except StopIteration: break`) with " +
			"collectives after it (R12): ranks can hold different numbers of batches (not when the iterator comes from a loader whose " +
			"sampler is a DistributedSampler, which evens them, nor inside DDP's join() context, which shadows a finished rank's " +
			"all-reduces). So are collectives issued once per element of a field of " +
			"this rank's batch (`for task in batch[\"tasks\"]: self.log(task, …, sync_dist=True)`, or log_dict(sync_dist=True) on a dict keyed " +
			"by them, R4): the batch's own fields, keys() and items() are the same on every rank and fine. So are collectives in a loop " +
			"over an iterable whose length depends on the rank (`for _ in range(rank)`, `for p in partitions[rank]`, `for f in " +
			"files[rank::world]`, a WebDataset split between nodes with `nodesplitter=wds.split_by_node` and no `.with_epoch(n)` or " +
			"`resampled=True`, whose ranks read their own shards, a list that the arms of a rank test bind with different lengths (or its only arm rebinds, `if rank == 0: ckpts = [ckpts[-1]]`), `keys = list(sd)` against " +
			"`keys = [None]`, which broadcast_object_list fills in place and leaves at each rank's own length, a list a loop over the rank's share appends to or a dict it adds keys computed from the share's elements to, also one a helper handed the rank returns), except those on a group the loop variable names (each rank on its own groups). A test of the rank " +
			"within one parallel dimension's group (`dist.get_rank(pc.pp_pg) == last`, or a device mesh's `mesh[\"tp\"].get_local_rank() == 0`; read into a local, `pp_rank = dist.get_rank(group=pp_group)`, or a flag made from one, `has_loss = pp_rank == pp_world_size - 1`; or kept under its dimension's name, `self.tp_rank`, `self.expert_parallel_rank`, which is a rank value by its name) may guard collectives on another dimension's " +
			"groups (tp, dp, cp, ep, sp, read from the group's name): their members all answer it alike. And, whatever the condition, " +
			"an if whose two arms issue the same collectives on two or more groups in different orders (R17): ranks that take different " +
			"arms wait on each other across groups. " +
			"In JAX, a host copy (np.asarray, float(), .item(), jax.device_get) of a jitted function's result under a " +
			"jax.process_index() test (R9): the result may be sharded over every process, and one process cannot copy it alone (JAX " +
			"raises \"Fetching value for jax.Array that spans non-addressable devices\" there, and the others wait in their next " +
			"collective; a result the program replicated on every process copies locally, which the analysis cannot tell apart); " +
			"so is the run of a compiled program itself under such a test (a function decorated with jax.jit, pjit or pmap, or the " +
			"object `p = jax.jit(f)` called; numba's @jit is another thing). " +
			"A module-level name bound to the rank (IS_MAIN = int(os.environ[\"RANK\"]) == 0) is a rank value in the module's functions; so is a one-line predicate the program writes for itself (`def is_head(self): return dist.get_rank(self.group) == 0`, asserts before the return allowed), a rank getter that falls back to a constant outside a distributed run, written as statements (`if dist.is_initialized(): return dist.get_rank()`, then `return 0`), an attribute read with getattr and a constant name (`getattr(self.accelerator, \"is_main_process\", True)`), an attribute of the instance that one of its class's methods assigns the rank, a test of it, or a number a program helper computes from it (`self.num_videos = divide_across_ranks(n, world, dist.get_rank())`; `self.is_head = dist.get_rank() == 0` in __init__, read as `if self.is_head:` in another method or a subclass's), and torch.cuda.current_device(), the rank within the node (what model of device it is, get_device_properties(…), is not). " +
			"Last, a plain torch GradScaler's step() in a file whose model FSDP or fairscale's ShardedDataParallel shards the gradients of " +
			"(R14): the scaler looks for inf/NaN in this rank's shard only and skips the optimizer step on the ranks that find one; " +
			"ShardedGradScaler all-reduces that check (a file that names it is taken to use it where it belongs). " +
			"And a test of a predicate function itself rather than its result around collectives (`if not " +
			"tpc.is_first_in_pipeline_group:`, the call's parentheses missing; a method read off an object, or a module's " +
			"function by its own name, named is_…, has_…, should_… or can_…): a function is always true, so every rank takes the " +
			"same arm, and the ranks that should take the other never do; properties are values and are fine.",
		Why: "Every rank of the group must call every collective, in the same order. NCCL matches them by " +
			"sequence number, not by name: rank 0's extra barrier pairs with the other ranks' next collective, " +
			"and the last one waits forever (a watchdog timeout after 10–30 minutes), or ranks exchange " +
			"mismatched buffers. Framework calls hide this: Lightning's save_checkpoint ends with a barrier, " +
			"DeepSpeed's save_checkpoint gathers, accelerate's gather_for_metrics all-gathers.",
		Example: `trainer.fit(model)
if trainer.is_global_zero:
    trainer.save_checkpoint(path)      # ends with strategy.barrier()
trainer.strategy.barrier("finalize")

if dist.get_rank() == 0:
    preds = accelerator.gather_for_metrics(preds)`,
		UseInstead: `trainer.fit(model)
trainer.save_checkpoint(path)          # every rank; Lightning writes on rank 0 only
trainer.strategy.barrier("finalize")

preds = accelerator.gather_for_metrics(preds)   # every rank
if accelerator.is_main_process:
    log(preds)                                   # gate only the I/O`,
		FixSafety: "No automatic fix: moving a call out of the guard changes what the other ranks do (usually what " +
			"the framework expects). When the condition is in fact the same on every rank (a flag broadcast from " +
			"rank 0), suppress with `# collvet: ignore[CV301] reason`; `collvet guard` checks at run time that all " +
			"ranks issue the same sequence.",
		References: []string{
			"https://github.com/alan-turing-institute/autocast/pull/386 — trainer.save_checkpoint under is_global_zero hangs (R1)",
			"https://github.com/ray-project/ray/issues/56997 — Ray Train docs guarded save_checkpoint with rank 0 (R2)",
			"https://github.com/huggingface/accelerate/issues/2785 — gather_for_metrics under is_main_process hangs (R5)",
			"https://github.com/deepspeedai/DeepSpeed/issues/797 — engine.save_checkpoint on rank 0 only hangs (R7)",
			"https://github.com/KempnerInstitute/KempnerForge/issues/49 — per-rank Path.exists() decides a broadcast_object_list (R8)",
			"https://github.com/huggingface/transformers/pull/48302 — each tensor-parallel subset calls new_group for its own ranks only (R18)",
			"https://github.com/Lightning-AI/pytorch-lightning/issues/19106 — log_dict(sync_dist=True) with rank-dependent keys (R4)",
			"https://github.com/NVIDIA/apex/pull/18 — flat_dist_call iterated tensors in an order that differed across processes (R13)",
			"https://github.com/mosaicml/composer/pull/1319 — a subset of ranks ran out of memory and retried while the others waited in DDP's gradient all-reduce (R15)",
			"https://github.com/deepspeedai/DeepSpeed/issues/8262 — ZeRO-3 generate() hangs when one rank stops at its end-of-sequence token first; synced_gpus=True (R16)",
		},
		Since: "0.1.0",
	},
})

// counts reports whether an op takes part in the sequence comparison.
// Point-to-point is rank-asymmetric by design; ops on a named subgroup may
// legitimately be guarded by a membership test, and so may those on the
// default group when the program makes it of a list's members only
// (subsetWorld).
func counts(o *rules.OpRef, membership, subsetWorld bool) bool {
	if o == nil {
		return false
	}
	if s := o.Site; s != nil {
		switch s.Kind {
		case rules.OpP2P, rules.OpOther:
			return false
		case rules.OpObject:
			if s.Op == "send_object" || s.Op == "recv_object" {
				return false // send_object_list / recv_object_list: point-to-point
			}
		}
	}
	if membership && o.Group != nil && (o.Group.Kind == rules.GroupAlloc || subsetWorld && o.Group.Kind == rules.GroupWorld) {
		return false
	}
	return true
}

func filter(ops []*rules.OpRef, membership, subsetWorld bool) []*rules.OpRef {
	var out []*rules.OpRef
	for _, o := range ops {
		if counts(o, membership, subsetWorld) {
			out = append(out, o)
		}
	}
	return out
}

// withinUniform drops the ops on groups whose members all answer the
// branch's condition the same way (a data-parallel group under Megatron's
// is_pipeline_last_stage()): those are issued by every member or by none.
func withinUniform(ops []*rules.OpRef, uniformIn []string) []*rules.OpRef {
	if len(uniformIn) == 0 {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Group != nil && o.Group.Kind == rules.GroupAlloc && slices.Contains(uniformIn, o.Group.API) {
			continue
		}
		if o.Site != nil && namesGetter(o.Site.GroupText, uniformIn) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// withinOtherDim drops the ops on a group of another parallel dimension
// than the one whose rank the condition tests (`dist.get_rank(pc.pp_pg)
// == last_stage` around all-gathers on pc.tp_pg and pc.dp_pg, nanotron's
// ParallelContext as lighteval uses it). The groups of a device mesh's
// dimension hold ranks that differ only in that dimension's coordinate,
// so they share the other coordinates and answer a test of one of those
// alike. Dimensions are read from the names (tp/tensor, pp/pipeline,
// dp/data, cp/context, ep/expert, sp/sequence).
func withinOtherDim(ops []*rules.OpRef, br *rules.RankBranch) []*rules.OpRef {
	tested := testedDim(br.Cond)
	if tested == "" && br.RankDef != "" && !strings.Contains(br.Cond, "get_rank(") {
		// `pp_rank = dist.get_rank(group=pp_group)` … `if pp_rank ==
		// last:`: the local's value names the group.
		tested = testedDim(br.RankDef)
	}
	if tested == "" {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Site != nil && o.Site.GroupText != "" {
			if d := groupDim(o.Site.GroupText); d != "" && d != tested {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// groupDim is the parallel dimension of a group expression: a device
// mesh's `mesh.get_group(1)` or `mesh.get_group("tp")` (meshDim), else
// the dimension its last name names (parallelDim).
func groupDim(text string) string {
	if d, ok := meshSubDim(text, "get_group("); ok {
		return d
	}
	if d, ok := meshDim(text, "get_group("); ok {
		return d
	}
	return parallelDim(text)
}

// meshSubDim reads the dimension of a device mesh's one-dimension slice
// whose method text calls (`mesh["tp"].get_local_rank()`,
// `mesh["dp"].get_group()`, RL2's rollout workers): the parallel
// dimension (or "=name") its name gives; ok is false when text makes no
// such call.
func meshSubDim(text, call string) (d string, ok bool) {
	i := strings.Index(text, "]."+call)
	if i < 0 || strings.Contains(text[i+1:], "]."+call) {
		return "", false
	}
	j := strings.LastIndexByte(text[:i], '[')
	if j < 0 {
		return "", false
	}
	arg := strings.TrimSpace(text[j+1 : i])
	if len(arg) < 2 || (arg[0] != '"' && arg[0] != '\'') || arg[len(arg)-1] != arg[0] {
		return "", false
	}
	name := arg[1 : len(arg)-1]
	if d := rules.ParallelDim(strings.ToLower(name)); d != "" {
		return d, true
	}
	return "=" + name, true
}

// meshDim reads the dimension argument of a device mesh's method call in
// text (`get_local_rank(0)`, `get_group(mesh_dim="dp")`): "#0" for an
// index, the parallel dimension (or "=name") for a name; ok is false when
// text makes no such call, d is "" when its argument is neither. An index
// and a name are not compared (the mesh's names are not read).
func meshDim(text, call string) (d string, ok bool) {
	i := strings.Index(text, call)
	if i < 0 || strings.Contains(text[i+1:], call) {
		return "", false
	}
	arg := text[i+len(call):]
	j := strings.IndexByte(arg, ')')
	if j < 0 {
		return "", true
	}
	arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg[:j]), "mesh_dim="))
	if n, err := strconv.Atoi(arg); err == nil && n >= 0 {
		return "#" + arg, true
	}
	if len(arg) >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg[len(arg)-1] == arg[0] {
		name := arg[1 : len(arg)-1]
		if d := rules.ParallelDim(strings.ToLower(name)); d != "" {
			return d, true
		}
		return "=" + name, true
	}
	return "", true
}

// testedDim returns the parallel dimension of the group whose rank the
// condition reads (`get_rank(pc.pp_pg)`, `get_rank(group=self.pp_group)`),
// when the condition reads no other rank; "" otherwise.
func testedDim(cond string) string {
	if d, ok := meshSubDim(cond, "get_local_rank("); ok {
		if strings.Contains(cond, "get_rank(") || strings.Contains(cond, "get_coordinate(") {
			return ""
		}
		return d
	}
	if d, ok := meshDim(cond, "get_local_rank("); ok {
		// mesh.get_local_rank(0): the coordinate along the mesh's first
		// dimension, when the condition reads no other rank.
		if strings.Contains(cond, "get_rank(") || strings.Contains(cond, "get_coordinate(") {
			return ""
		}
		return d
	}
	i := strings.Index(cond, "get_rank(")
	if i < 0 {
		if d := groupMethodDim(cond); d != "" {
			return d
		}
		return rankNameDim(cond)
	}
	if strings.Contains(cond[i+1:], "get_rank(") {
		return ""
	}
	arg := cond[i+len("get_rank("):]
	j := strings.IndexByte(arg, ')')
	if j <= 0 {
		return ""
	}
	return parallelDim(strings.TrimPrefix(strings.TrimSpace(arg[:j]), "group="))
}

// groupMethodDim reads the parallel dimension of the one process group
// whose own rank() a condition calls (`pp_group.rank() ==
// pp_group.size() - 1`, the rank within the pipeline group), or "".
func groupMethodDim(cond string) string {
	i := strings.Index(cond, ".rank()")
	if i <= 0 || strings.Contains(cond[i+1:], ".rank()") {
		return ""
	}
	// The dotted name the call is made on (`self.pp_group`).
	j := strings.LastIndexFunc(cond[:i], func(r rune) bool {
		return r != '_' && r != '.' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) + 1
	return parallelDim(cond[j:i])
}

// rankNameDim reads the parallel dimension of the rank names a
// condition reads (`self.tp_rank == 0`, `ep_rank > 0`): the one
// dimension they all name, or "".
func rankNameDim(cond string) string {
	found := ""
	for _, tok := range strings.FieldsFunc(cond, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if !strings.HasSuffix(tok, "_rank") {
			continue
		}
		d := rules.RankNameDim(tok)
		if d == "" || found != "" && found != d {
			return ""
		}
		found = d
	}
	return found
}

// parallelDim returns the one parallel dimension the last name of a group
// expression names (tp_pg of self.parallel_context.tp_pg), or "".
func parallelDim(text string) string {
	text = text[strings.LastIndexByte(text, '.')+1:]
	found := ""
	for _, tok := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if d := rules.ParallelDim(tok); d != "" {
			if found != "" && found != d {
				return ""
			}
			found = d
		}
	}
	return found
}

// withinSplit drops the ops on communicators split by a color when the
// branch depends on the rank only through that color's variable
// (RankBranch.RankViaKeys, Group.Color): the communicator's members all take
// the same arm. A library's ops on WORLD count as on the communicator
// its init was given in their process (hvd.init(comm=world.Split(
// local_rank, rank))). So are the ops on a group of one constant member
// under a test that the rank is that member (RankBranch.RankIs,
// Group.Sole); a rank outside a torch group skips its collectives.
func withinSplit(ops []*rules.OpRef, br *rules.RankBranch, prog *rules.Program) []*rules.OpRef {
	if len(br.RankViaKeys) == 0 && br.RankIs == "" {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		g := o.Group
		if g != nil && g.Kind == rules.GroupWorld && o.Site != nil {
			if w := worldComm(prog, o.Site.Library, br.Func); w != nil {
				g = w
			}
		}
		if g != nil && g.Color != "" && slices.Contains(br.RankViaKeys, g.Color) {
			continue
		}
		if g != nil && g.Sole != "" && g.Sole == br.RankIs {
			continue // `if rank == 0:` on new_group([0]): its one member
		}
		out = append(out, o)
	}
	return out
}

// withinRankIndexed drops the ops on a group the rank picks out of a list
// (`pair_groups[rank - 1]`, `groups[rank]`) in an arm whose test only
// bounds that rank (`if rank:`, `rank > 0`, `rank != world - 1`): each
// rank talks to its own neighbours' groups, and the test keeps the index
// in range, so the ranks that skip the call are not members of the group
// it names (Video-Infinity's adjacent-pair groups). An equality test
// (`rank == 0`) picks ranks rather than bounding them and is left alone.
func withinRankIndexed(ops []*rules.OpRef, cond string) []*rules.OpRef {
	v := boundsTestVar(cond)
	if v == "" {
		return ops
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(v) + `\b`)
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Site != nil {
			if m := indexedGroup.FindStringSubmatch(o.Site.GroupText); m != nil && word.MatchString(m[1]) {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

var (
	indexedGroup = regexp.MustCompile(`^[\w.]+\[([^\[\]]+)\]$`)
	boundsTest   = regexp.MustCompile(`^(?:([\w.]+)|([\w.]+)\s*(?:!=|<=|>=|<|>)\s*[^=<>!]+|[^=<>!]+?\s*(?:!=|<=|>=|<|>)\s*([\w.]+))$`)
)

// boundsTestVar returns the rank variable a condition only bounds: the
// name itself (`rank`), or the name compared by !=, <, <=, > or >= with
// another term; "" otherwise.
func boundsTestVar(cond string) string {
	cond = strings.TrimSpace(cond)
	if len(splitTopLevel(cond, " and ")) > 1 || len(splitTopLevel(cond, " or ")) > 1 {
		return ""
	}
	m := boundsTest.FindStringSubmatch(cond)
	if m == nil {
		return ""
	}
	v := cmp.Or(m[1], m[2], m[3])
	if v == "not" || v == "True" || v == "False" || v == "None" || (v[0] >= '0' && v[0] <= '9') {
		return ""
	}
	return v
}

// withinMembers drops the ops on a group of every rank from K on
// (Group.FromRank) in an arm that runs on exactly those ranks (from, K as
// written; "" for none): `if rank != 0:` around the ops of
// new_group(ranks=range(1, world_size)), a split-role job whose workers
// train with DDP on their own group while rank 0 aggregates.
func withinMembers(ops []*rules.OpRef, from string) []*rules.OpRef {
	return dropOnGroups(ops, from, func(g *rules.Group) string { return g.FromRank })
}

// withinBelow drops the ops on a group of every rank below K
// (Group.BelowRank) in an arm that runs on exactly those ranks (`rank <
// K`): a job whose first K ranks train on their own group while the
// rank after them serves data (TGL's host process).
func withinBelow(ops []*rules.OpRef, below string) []*rules.OpRef {
	return dropOnGroups(ops, below, func(g *rules.Group) string { return g.BelowRank })
}

// withinStride drops the ops on a group of every L-th rank from 0
// (Group.Stride) in an arm that runs on exactly those ranks (`rank % L ==
// 0`): one head rank per node working on the heads' group (GraNNDis's
// per-node preprocessing).
func withinStride(ops []*rules.OpRef, stride string) []*rules.OpRef {
	return dropOnGroups(ops, stride, func(g *rules.Group) string { return g.Stride })
}

// dropOnGroups drops the ops on a group whose key is want ("" drops
// nothing).
func dropOnGroups(ops []*rules.OpRef, want string, key func(*rules.Group) string) []*rules.OpRef {
	if want == "" {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Group != nil && key(o.Group) == want {
			continue
		}
		out = append(out, o)
	}
	return out
}

// elseFrom is RankFrom for a branch's else arm: the else arm of `rank
// == 0` runs on every rank from 1 on.
func elseFrom(br *rules.RankBranch) string {
	if br.RankIs == "0" {
		return "1"
	}
	return ""
}

// worldComm returns the communicator a library's default group stands
// for in the processes that run fn: the one every init of the library
// in fn's file was given, else every init that may share a process with
// fn; nil when there is none or they differ.
func worldComm(prog *rules.Program, library string, fn *rules.Function) *rules.Group {
	pick := func(keep func(w *rules.WorldComm) bool) (g *rules.Group, found bool) {
		for _, w := range prog.Facts.WorldComms {
			if w.Library != library || !keep(w) {
				continue
			}
			if found && g != w.Group {
				return nil, true
			}
			g, found = w.Group, true
		}
		return g, found
	}
	if fn == nil {
		return nil
	}
	if g, found := pick(func(w *rules.WorldComm) bool { return w.Pos.Path == fn.Pos.Path }); found {
		return g
	}
	g, _ := pick(func(w *rules.WorldComm) bool { return rulekit.MayShareProcess(prog, w.Func, fn) })
	return g
}

// namesGetter reports whether a group argument's text is a call of one of
// the getters by its own name (`mpu.get_embedding_group()`): a program's
// copy of the library (Megatron-DeepSpeed's megatron/mpu) makes the group
// with its own new_group, and only the getter's name says which it is.
func namesGetter(text string, getters []string) bool {
	name, args, ok := splitGetterCall(text)
	if !ok {
		return false
	}
	for _, g := range getters {
		gn, gargs, ok := splitGetterCall(g)
		if !ok {
			gn, gargs = g, ""
		}
		if lastDotted(gn) == lastDotted(name) && lastDotted(gargs) == lastDotted(args) {
			return true
		}
	}
	return false
}

// splitGetterCall splits "x.get_group(ParallelMode.DATA)" into the called
// name and its argument text; ok is false for text that is no call.
func splitGetterCall(text string) (name, args string, ok bool) {
	i := strings.IndexByte(text, '(')
	if i <= 0 || !strings.HasSuffix(text, ")") {
		return "", "", false
	}
	return text[:i], strings.TrimSpace(text[i+1 : len(text)-1]), true
}

// lastDotted is the last component of a dotted name.
func lastDotted(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }

func key(o *rules.OpRef) string {
	g := "?"
	if rulekit.Known(o.Group) {
		g = rulekit.GroupKey(o.Group)
	}
	if o.Resumed {
		return o.Op + "@" + g + "+resumed"
	}
	return o.Op + "@" + g
}

// firstDiff returns the first op of a that the other sequence b does not
// match at the same index, or nil when the sequences agree.
func firstDiff(a, b []*rules.OpRef) *rules.OpRef {
	for i, o := range a {
		if i >= len(b) || key(b[i]) != key(o) {
			return o
		}
	}
	return nil
}

// incomparable reports two paths that both communicate, one of them
// through a framework call whose collectives the tables do not spell out
// (fastmoe's rank 0 runs Megatron's save_checkpoint, the others their own
// save between the same two barriers): whether they agree cannot be told.
//
// Only such a call up to where the two first differ counts: paths that
// already differ before it (`barrier` then exit against `all_reduce`, a
// barrier, then save_checkpoint) disagree whatever it issues.
func incomparable(a, b []*rules.OpRef) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	differ := 0
	for differ < len(a) && differ < len(b) && key(a[differ]) == key(b[differ]) {
		differ++
	}
	opaque := func(ops []*rules.OpRef) bool {
		for i, o := range ops {
			if i > differ {
				break
			}
			if o.Site != nil && o.Site.OpaqueSequence {
				return true
			}
		}
		return false
	}
	return opaque(a) || opaque(b)
}

// joinsWorld reports an arm that starts by creating the default process
// group while the other arm issues nothing: the ranks of the other arm
// are not in the job at all (PiPPy's examples start more processes than
// the pipeline needs, and those past its world size print "I'm unused"
// and leave). Whatever the first arm issues later is among the ranks that
// joined. A lazy accessor's init (one that first asks is_initialized())
// is no such sign: the job may exist already on every rank.
func joinsWorld(a, b []*rules.OpRef) bool {
	return len(b) == 0 && len(a) > 0 && a[0].Site != nil && a[0].Site.Kind == rules.OpInit && !a[0].Site.InitIfNeeded
}

// commands reports an arm that only broadcasts, on groups where followers
// run a command loop (Facts.CommandLoops), against an arm that issues
// nothing: the leader's commands, which the others receive in their loop
// (TensorRT-LLM: rank 0 broadcasts "setup_engine" on the control group,
// the workers' loop receives it and runs the same method, where the rank
// test skips the broadcast).
func commands(prog *rules.Program, a, b []*rules.OpRef) bool {
	if len(b) > 0 || len(a) == 0 || len(prog.Facts.CommandLoops) == 0 {
		return false
	}
	for _, o := range a {
		if o.Site == nil {
			return false
		}
		looped := false
		for _, cl := range prog.Facts.CommandLoops {
			if cl.Barriers == 0 && slices.Contains(cl.Sites, o.Site) {
				looped = true // the same helper's collective: one protocol
				break
			}
			if !rulekit.Known(o.Group) {
				continue
			}
			if cl.Barriers > 0 && !mirrored(prog, cl) {
				continue // the leader's half of the handshake is nowhere
			}
			if (cl.Op == o.Op || cl.Barriers > 0 && o.Op == "barrier") && rulekit.Known(cl.Group) && rulekit.GroupKey(cl.Group) == rulekit.GroupKey(o.Group) {
				looped = true
				break
			}
		}
		if !looped {
			return false
		}
	}
	return true
}

// followersLeave reports an early exit taken by the ranks other than
// rank 0 (`if self.rank != 0: return`): the leader stays, and what it
// issues after may be the commands the followers' loop receives. Not
// when rank 0 leaves (Megatron's generation loop: `if mp_rank == 0: …
// continue` skips the broadcasts the others then wait in).
func followersLeave(br *rules.RankBranch) bool {
	if br.Under != nil {
		return false
	}
	c := strings.ReplaceAll(br.Cond, " ", "")
	return strings.HasSuffix(c, "!=0") || strings.HasSuffix(c, ">0")
}

// leaderLeaves reports an exit inside the leader's arm of a rank test
// (`if rank == 0:` … `if request is None: return`) in a function that a
// command loop's body calls: where what the others issue is that loop's
// own collective (commands), the leader that leaves only sends no
// command this time, and the followers go on waiting for the next one
// (a serving function that rank 0 calls per request and the workers
// call in `while True:`). An exit in another function, before it calls
// a helper that a command loop also calls, still skips what the others
// issue there.
func leaderLeaves(prog *rules.Program, br *rules.RankBranch) bool {
	if br.Under == nil {
		return false
	}
	arm, _, _ := strings.Cut(br.Cond, "` and then `")
	if !strings.HasSuffix(strings.ReplaceAll(arm, " ", ""), "==0") {
		return false
	}
	for _, cl := range prog.Facts.CommandLoops {
		if cl.Func == br.Func {
			return true
		}
		if cl.Func != nil && slices.ContainsFunc(cl.Func.Calls, func(c *rules.Call) bool {
			return c.Callee == br.Func && c.Pos.Path == cl.Pos.Path && c.Pos.Line >= cl.Pos.Line
		}) {
			return true
		}
	}
	return false
}

// enterCommandLoop reports an early exit after which the ranks that stay
// enter a command loop of the same function (mpi4pyscf's pool: `if
// self.is_master(): return`, then `while True: task = comm.bcast(None)`):
// they are the followers, and the leader that left sends the commands.
func enterCommandLoop(prog *rules.Program, br *rules.RankBranch) bool {
	for _, cl := range prog.Facts.CommandLoops {
		if cl.Func == br.Func && cl.Pos.Path == br.Guard.Path && cl.Pos.Line > br.Guard.Line {
			return true
		}
	}
	return false
}

// splitHalf reports one half of a protocol split across two functions by
// the rank (micro-vllm's TP communicator: bcast_batch returns at once
// unless this is rank 0, then broadcasts; recv_batch returns at once on
// rank 0, then receives the same broadcast): another function leaves
// early on the negated test and then issues the same first collective
// on the same group. Each half is rank-conditional by design; the
// program calls the sending half on the root and the other elsewhere.
func splitHalf(prog *rules.Program, br *rules.RankBranch) bool {
	if br.Divergence != rules.RankTest || len(br.After) == 0 || br.After[0] == nil || !broadcastLike(br.After[0].Op) {
		return false
	}
	first := br.After[0]
	for _, o := range prog.Branches {
		if o == nil || o == br || o.Func == br.Func || !o.EarlyExit || o.Divergence != rules.RankTest || len(o.After) == 0 || o.After[0] == nil {
			continue
		}
		if !complementaryExits(br.Cond, o.Cond) {
			continue
		}
		if of := o.After[0]; of.Op == first.Op && rulekit.Known(of.Group) && rulekit.Known(first.Group) && rulekit.GroupKey(of.Group) == rulekit.GroupKey(first.Group) {
			return true
		}
	}
	return false
}

// complementaryExits reports two exit tests that split the ranks the
// other way round: one the negation of the other, or two disjunctions
// alike but for one term negated (`world <= 1 or not rank0()` and
// `world <= 1 or rank0()`: both leave in a single process).
func complementaryExits(a, b string) bool {
	norm := func(x string) string { return strings.ReplaceAll(x, " ", "") }
	if norm(negateCond(a)) == norm(b) {
		return true
	}
	ta, tb := splitTopLevel(a, " or "), splitTopLevel(b, " or ")
	if len(ta) < 2 || len(ta) != len(tb) {
		return false
	}
	diff := 0
	for i := range ta {
		switch {
		case norm(ta[i]) == norm(tb[i]):
		case norm(negateCond(ta[i])) == norm(tb[i]):
			diff++
		default:
			return false
		}
	}
	return diff == 1
}

// broadcastLike reports the rooted ops whose root sends and whose other
// ranks receive.
func broadcastLike(op string) bool {
	switch op {
	case "broadcast", "broadcast_object_list", "scatter", "scatter_object_list":
		return true
	}
	return false
}

// mirrored reports that some function other than the loop's starts with
// the loop's handshake: its barriers, then its broadcast, on its group (a
// web route's handler on the leader, which no call in the program
// reaches).
func mirrored(prog *rules.Program, cl *rules.CommandLoop) bool {
	for _, f := range prog.Funcs {
		if f == cl.Func || len(f.Sites) <= cl.Barriers {
			continue
		}
		ok := true
		for i, s := range f.Sites[:cl.Barriers+1] {
			want := "barrier"
			if i == cl.Barriers {
				want = cl.Op
			}
			if s.Op != want || !rulekit.Known(s.Group) || rulekit.GroupKey(s.Group) != rulekit.GroupKey(cl.Group) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func isMembership(cond string) bool {
	return strings.Contains(cond, " in ") || strings.Contains(cond, " not in ")
}

// initsByProcess returns, per function, the facts about the
// init_process_group calls that can run in its process (the scripts that
// reach it, rulekit.MayShareProcess): a localhost rendezvous in one
// script says nothing of another script's job in the same tree.
func initsByProcess(prog *rules.Program) func(*rules.Function) *rules.Facts {
	memo := map[*rules.Function]*rules.Facts{}
	return func(fn *rules.Function) *rules.Facts {
		if f, ok := memo[fn]; ok {
			return f
		}
		f := &rules.Facts{Trainers: prog.Facts.Trainers, MultiNodeTrainer: prog.Facts.MultiNodeTrainer}
		for _, is := range prog.Facts.Inits {
			if is != nil && rulekit.MayShareProcess(prog, is.Func, fn) {
				f.Inits = append(f.Inits, is)
			}
		}
		for _, a := range prog.Facts.LocalRankAsserts {
			if rulekit.MayShareProcess(prog, a, fn) {
				f.LocalRankAsserts = append(f.LocalRankAsserts, a)
			}
		}
		memo[fn] = f
		return f
	}
}

// lightningOnly reports a branch whose every operation is Lightning's
// (Trainer.fit, validate, save_checkpoint): the ranks that issue them
// are the Trainer's.
func lightningOnly(br *rules.RankBranch) bool {
	n := 0
	for _, ops := range [][]*rules.OpRef{br.Then, br.Else} {
		for _, o := range ops {
			if o == nil || o.Site == nil || !strings.HasPrefix(o.Site.API, "lightning.") {
				return false
			}
			n++
		}
	}
	return n > 0
}

// failuresLast orders the branches so that rank tests come first and
// those of error handlers last: an op that a rank test gates inside a try
// (`try: if accelerator.is_main_process: save_state()` / `except
// Exception: print(e)`), or inside a test of a step read from this host's
// checkpoint (`if step % save_steps == 0: if is_main_process:`), is
// reported for the rank test, which is why it hangs on every run, not for
// the failure or the file system that could also skip it.
func failuresLast(brs []*rules.RankBranch) []*rules.RankBranch {
	order := func(br *rules.RankBranch) int {
		if br == nil {
			return 1
		}
		switch br.Divergence {
		case rules.RankTest:
			return 0
		case rules.LocalWriteFailure, rules.LocalWriteRetry, rules.LocalSwallowedError, rules.LocalFailure:
			return 2
		}
		return 1
	}
	out := slices.Clone(brs)
	slices.SortStableFunc(out, func(a, b *rules.RankBranch) int { return order(a) - order(b) })
	return out
}

func run(p *rules.Pass) {
	// The findings are held back until every branch has been read, so
	// that a collective several rank-dependent conditions skip names
	// them all (a NaN `continue` and an OOM handler's `continue` before
	// one backward): fixing the first must not hide the others.
	type finding struct {
		d  rules.Diagnostic
		br *rules.RankBranch
	}
	var found []finding
	seen := &reported{m: map[rules.Pos]bool{}, also: map[rules.Pos][]rules.Related{}, first: map[rules.Pos]rules.Pos{}}
	held := rules.NewPass(p.Rule, p.Prog, func(d rules.Diagnostic) { found = append(found, finding{d, seen.cur}) })
	runBranches(held, seen)
	// A function that only calls reported for a rank test reach runs on
	// those ranks alone: what else splits the ranks inside it (a batch
	// skipped on an error in an evaluation that rank 0 runs by itself)
	// has no peer to split from, and the call is the finding.
	rankCalls := map[rules.Pos]bool{}
	for _, f := range found {
		if f.br != nil && f.br.Divergence == rules.RankTest {
			rankCalls[f.d.Pos] = true
		}
	}
	var callers map[*rules.Function][]*rules.Call
	for _, f := range found {
		if f.br != nil && f.br.Divergence != rules.RankTest && f.br.Func != nil && len(rankCalls) > 0 {
			if callers == nil {
				callers = rulekit.Callers(p.Prog)
			}
			if cs := callers[f.br.Func]; len(cs) > 0 && !slices.ContainsFunc(cs, func(c *rules.Call) bool { return !rankCalls[c.Pos] }) {
				continue
			}
		}
		d := f.d
		for _, r := range seen.also[d.Pos] {
			if !slices.ContainsFunc(d.Related, func(x rules.Related) bool { return x.Pos == r.Pos }) {
				d.Related = append(d.Related, r)
			}
		}
		p.Report(d)
	}
}

// reported records the collectives already reported (by position), and
// for each the other conditions found to skip it.
type reported struct {
	m    map[rules.Pos]bool
	also map[rules.Pos][]rules.Related
	// first: the guard of the condition each collective was reported
	// for, where report or reportExiting reported it.
	first map[rules.Pos]rules.Pos
	// cur: the branch being read (what its findings are reported for).
	cur *rules.RankBranch
}

// alsoSkipped notes that br's condition skips o too, where o was
// reported for another condition.
func (s *reported) alsoSkipped(br *rules.RankBranch, o *rules.OpRef) {
	if !br.Guard.IsValid() || slices.ContainsFunc(s.also[o.Pos], func(r rules.Related) bool { return r.Pos == br.Guard }) {
		return
	}
	// A test between the reported condition and the collective is, as
	// a rule, nested in that condition's arm: only the ranks that passed
	// it ask.
	if f, ok := s.first[o.Pos]; ok && f.Path == br.Guard.Path && br.Guard.Path == o.Pos.Path && f.Line < br.Guard.Line && br.Guard.Line < o.Pos.Line {
		return
	}
	cond := br.Cond
	if cond == "" {
		cond = "a rank-dependent condition"
	}
	s.also[o.Pos] = append(s.also[o.Pos], rulekit.Related(br.Guard, fmt.Sprintf("also decided by another condition that can differ between ranks: `%s`", cond)))
}

func runBranches(p *rules.Pass, seen *reported) {
	subset := false
	for _, s := range p.Prog.Sites {
		subset = subset || s.SubsetWorld
	}
	inits := initsByProcess(p.Prog)
	for _, br := range failuresLast(p.Prog.Branches) {
		seen.cur = br
		if br == nil || br.Paired {
			continue // a paired branch's ranks issue the same sequence once each
		}
		var singleHost, deviceGated bool
		if br.Divergence == rules.HostCheck || br.Divergence == rules.LocalDevices {
			f := inits(br.Func)
			singleHost, deviceGated = f.SingleHost() || f.AssertsOneHost(), f.DeviceGated()
			// What a Lightning Trainer that names no nodes runs (its fit
			// resuming from this host's listing) runs on one node.
			singleHost = singleHost || br.Divergence == rules.HostCheck && f.OneNodeTrainers() && lightningOnly(br)
		}
		if singleHost && (br.Divergence == rules.HostCheck || br.Divergence == rules.LocalDevices) ||
			br.Divergence == rules.LocalDevices && deviceGated {
			// Every rank runs on this machine (a localhost rendezvous):
			// they ask one file system, and it answers them alike. Or
			// the group exists only where the device count test passed:
			// every member answers it alike.
			continue
		}
		if br.Uncalled {
			reportUncalled(p, br, seen)
			continue
		}
		if br.StopsEarly {
			for _, o := range br.Then {
				reportStopsEarly(p, br, o, seen)
			}
			continue
		}
		if br.Memoized != "" {
			reportMemoized(p, br, seen)
			continue
		}
		if br.Reordered {
			reportReordered(p, br, seen)
			continue
		}
		if br.JoinedLoop {
			for _, o := range filter(br.Then, false, false) {
				if o.Site != nil && rulekit.IssueOrdered(o.Site) || o.Site == nil && br.JoinedModel != "" {
					reportJoinedLoop(p, br, o, seen)
					break
				}
			}
			continue
		}
		if br.Unwrapped {
			for _, o := range filter(br.Then, false, false) {
				reportUnwrapped(p, br, o, seen)
				break
			}
			continue
		}
		if br.InTurns {
			for _, o := range filter(br.Then, false, false) {
				if rulekit.IssueOrdered(o.Site) || o.Site == nil {
					reportInTurns(p, br, o, seen)
					break
				}
			}
			continue
		}
		if br.DataCount {
			for _, o := range br.Then {
				reportDataCount(p, br, o, seen)
			}
			continue
		}
		if br.RankCount {
			then := br.Then
			if br.Divergence == rules.RankTest {
				// Passes counted from the rank in one dimension's group
				// (a pipeline stage's warm-up loop) are the same for the
				// members of another dimension's group (the stage's
				// tensor-parallel broadcast).
				then = withinOtherDim(then, br)
			}
			for _, o := range filter(then, false, false) {
				reportRankCount(p, br, o, seen)
				if br.Divergence == rules.HostCheck {
					break // one warning a loop: its bounds are the one cause
				}
			}
			continue
		}
		if br.SkipsStep {
			for _, o := range br.Then {
				reportSkipsStep(p, br, o, seen)
			}
			continue
		}
		if br.Members {
			for _, o := range br.Then {
				reportMembers(p, br, o, seen)
			}
			continue
		}
		if br.SetOrder {
			for _, o := range filter(br.Then, false, false) {
				// Horovod matches operations by tensor name: the order
				// in which a rank submits them does not matter. Each
				// backward reduces the whole model's gradients, in the
				// same buckets whatever the order.
				if o.Site == nil && (o.Op == "backward" || o.Op == "forward" || o.Op == "materialize" || o.Op == "jit") {
					continue
				}
				if o.Site == nil || !o.Site.NameMatched {
					reportSetOrder(p, br, o, seen)
					break
				}
			}
			continue
		}
		mem := isMembership(br.Cond)
		br := withoutLazyInits(br)
		then, els := filter(withinOtherDim(withinMembers(withinSplit(withinUniform(br.Then, br.UniformIn), br, p.Prog), br.RankFrom), br), mem, subset), filter(withinOtherDim(withinMembers(withinSplit(withinUniform(br.Else, br.UniformIn), br, p.Prog), elseFrom(br)), br), mem, subset)
		then, els = withinStride(withinBelow(withinRankIndexed(then, br.Cond), br.RankBelow), br.RankStride), withinRankIndexed(els, negateCond(br.Cond))
		if br.EarlyExit {
			after := filter(withinOtherDim(withinSplit(withinUniform(br.After, br.UniformIn), br, p.Prog), br), mem, subset)
			// The exiting ranks run `then`; the others run `els` then `after`.
			others := append(append([]*rules.OpRef{}, els...), after...)
			if incomparable(then, others) || (followersLeave(br) || enterCommandLoop(p.Prog, br) || leaderLeaves(p.Prog, br)) && commands(p.Prog, others, then) || splitHalf(p.Prog, br) {
				continue
			}
			if o := firstDiff(others, then); o != nil && len(after) > 0 {
				report(p, br, o, true, seen)
			} else if o := firstDiff(then, others); o != nil {
				reportExiting(p, br, o, seen)
			}
			continue
		}
		then, els = leaderOps(then, els), leaderOps(els, then)
		// A command loop splits roles by rank; a rank whose pass failed
		// and went back to the loop's first broadcast is no follower
		// (the others are further on in that pass).
		roles := br.Divergence != rules.LocalSwallowedError && br.Divergence != rules.LocalWriteFailure && br.Divergence != rules.LocalFailure
		if incomparable(then, els) || joinsWorld(then, els) || joinsWorld(els, then) ||
			roles && (commands(p.Prog, then, els) || commands(p.Prog, els, then)) {
			continue
		}
		if o := firstDiff(then, els); o != nil {
			reportExiting(p, br, o, seen)
		} else if o := firstDiff(els, then); o != nil {
			// The op is in the else arm: it runs where the test fails
			// (the messages that say "depends on" need no negation).
			nb := *br
			if t, ok := localTextFor(br); !ok || t.holds {
				nb.Cond = negateCond(br.Cond)
			}
			report(p, &nb, o, false, seen)
		}
	}
}

// splitTopLevel splits a condition's text at sep where it stands outside
// brackets and string literals.
func splitTopLevel(c, sep string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case quote != 0:
			if ch == '\\' {
				i++
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case depth == 0 && strings.HasPrefix(c[i:], sep):
			out = append(out, c[start:i])
			start = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, c[start:])
}

// oneTerm reports a condition text with no space outside brackets (a
// name, an attribute, a call, a subscript): `not` binds it whole.
func oneTerm(c string) bool {
	depth := 0
	for _, r := range c {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ' ':
			if depth == 0 {
				return false
			}
		}
	}
	return depth == 0
}

// negateCond writes the negation of a condition's source text: `x is
// None` becomes `x is not None`, `a == b` `a != b`, `not f` `f`, and
// anything else `not (…)`.
func negateCond(c string) string {
	if c == "" {
		return c
	}
	// De Morgan over one kind of top-level connective: `a is None or not
	// f(a)` becomes `a is not None and f(a)`.
	for _, pair := range [][2]string{{" or ", " and "}, {" and ", " or "}} {
		terms := splitTopLevel(c, pair[0])
		if len(terms) < 2 {
			continue
		}
		out := make([]string, len(terms))
		for i, t := range terms {
			if len(splitTopLevel(t, pair[1])) > 1 {
				return "not (" + c + ")" // both connectives: keep it whole
			}
			out[i] = negateCond(t)
		}
		return strings.Join(out, pair[1])
	}

	if rest, ok := strings.CutPrefix(c, "not "); ok {
		if oneTerm(rest) {
			return rest
		}
		return "not (" + c + ")"
	}
	for _, pair := range [][2]string{{" is not ", " is "}, {" not in ", " in "}, {" != ", " == "}, {" == ", " != "}, {" is ", " is not "}, {" in ", " not in "}} {
		if parts := splitTopLevel(c, pair[0]); len(parts) == 2 {
			return parts[0] + pair[1] + parts[1]
		}
	}
	if oneTerm(c) {
		return "not " + c
	}
	return "not (" + c + ")"
}

// withoutLazyInits returns br with the inits of lazy accessors (Site.
// InitIfNeeded) left out of its sequences: once the job exists, as every
// other collective needs, they issue nothing. br itself is unchanged.
func withoutLazyInits(br *rules.RankBranch) *rules.RankBranch {
	lazy := func(ops []*rules.OpRef) bool {
		for _, o := range ops {
			if o.Site != nil && o.Site.InitIfNeeded {
				return true
			}
		}
		return false
	}
	if !lazy(br.Then) && !lazy(br.Else) && !lazy(br.After) {
		return br
	}
	drop := func(ops []*rules.OpRef) []*rules.OpRef {
		var out []*rules.OpRef
		for _, o := range ops {
			if o.Site == nil || !o.Site.InitIfNeeded {
				out = append(out, o)
			}
		}
		return out
	}
	c := *br
	c.Then, c.Else, c.After = drop(br.Then), drop(br.Else), drop(br.After)
	return &c
}

// Hierarchical collectives. ColossalAI's HierarchicalAllToAll, and
// hierarchical all-reduces generally, go
//
//	if dist.get_rank() == src_rank:   # this node's leader
//	    dist.gather(x, out, dst=src_rank, group=intra_node_group)
//	    dist.all_to_all_single(o, i, group=inter_node_group)
//	    dist.scatter(y, out, src=src_rank, group=intra_node_group)
//	else:
//	    dist.gather(x, dst=src_rank, group=intra_node_group)
//	    dist.scatter(y, src=src_rank, group=intra_node_group)
//
// Both arms meet on the node's group; only the leaders, the members of
// the leaders' group, take the extra step on it. Ops on a group that the
// other arm never uses, next to ops on a group both arms use, are taken
// for the leaders' collectives and left out of the comparison. An arm
// that shares no group with the other (`if rank == 0:
// dist.all_reduce(x, group=pg)` alone) gets no such allowance: nothing
// shows that the other ranks are outside pg.

// leaderOps drops from arm the ops on a non-default group that other
// never uses, when the two arms share a group (nil: the arm as it is).
func leaderOps(arm, other []*rules.OpRef) []*rules.OpRef {
	used := map[string]bool{}
	for _, o := range other {
		used[groupIdentity(o)] = true
	}
	shared := false
	for _, o := range arm {
		if g := groupIdentity(o); g != "" && g != "WORLD" && used[g] {
			shared = true
		}
	}
	if !shared {
		return arm
	}
	var out []*rules.OpRef
	for _, o := range arm {
		if g := groupIdentity(o); g != "" && g != "WORLD" && !used[g] {
			continue
		}
		out = append(out, o)
	}
	return out
}

// groupIdentity names an op's group: the model's key for a known group,
// the group expression's text for one it does not know ("" for neither).
func groupIdentity(o *rules.OpRef) string {
	switch {
	case o.Group == nil:
		return ""
	case rulekit.Known(o.Group):
		return rulekit.GroupKey(o.Group)
	case strings.HasPrefix(o.Group.ID, "expr:"):
		return o.Group.ID
	case o.Site != nil && o.Site.GroupText != "" && o.Site.GroupText != "None":
		return "expr:" + o.Site.GroupText
	}
	return ""
}

// opName names the op for messages: the collective's API, or the op.
func opName(o *rules.OpRef) string {
	if o.Site != nil && o.Resumed {
		return rulekit.OpName(o.Site) + " resuming from a checkpoint (it restores the step count and runs the remaining steps only, " +
			"fewer collectives than a run from the start)"
	}
	if o.Site != nil {
		return rulekit.OpName(o.Site)
	}
	switch o.Op {
	case "backward":
		// A backward pass through DDP or FSDP: its gradient reduction.
		return "backward() (it reduces the gradients under DDP, FSDP, DeepSpeed, accelerate or Fabric)"
	case "forward":
		return "the model's forward (FSDP and ZeRO-3 all-gather the sharded parameters in it; DDP broadcasts the module's buffers from rank 0 in it, unless broadcast_buffers=False)"
	case "materialize":
		return "a host copy of a jitted function's result (np.asarray, float(), .item(), jax.device_get: when the result is sharded over the processes, the copy cannot be made on one of them — JAX raises there, and the others wait in their next collective)"
	case "jit":
		return "a run of a compiled JAX program (jax.jit, pjit, pmap: over a mesh that spans the processes, every process must run it, in the same order)"
	}
	return rulekit.ShortAPI("", o.Op)
}

// addReached points at the collective itself when o is a call that
// reaches it.
func addReached(d *rules.Diagnostic, o *rules.OpRef) {
	if o.Site != nil && o.Site.Pos.IsValid() && o.Site.Pos != o.Pos {
		d.Related = append(d.Related, rulekit.Related(o.Site.Pos, fmt.Sprintf("the collective reached through this call (%s)", rulekit.OpName(o.Site))))
	}
}

// reportStopsEarly reports a generation loop that each rank ends on its
// own over a model whose forward communicates.
func reportStopsEarly(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	p.Report(rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s on a DeepSpeed ZeRO-3 model runs one forward per new token, and each forward all-gathers the partitioned parameters; "+
			"each rank stops at its own end-of-sequence token, so a rank that finishes first moves on while the others wait in the "+
			"next all-gather (hang); pass synced_gpus=True (finished ranks keep running forwards until all are done), or build an "+
			"HfDeepSpeedConfig before loading the model so that transformers turns it on", br.Cond)})
}

// reportMemoized reports a memoized function's collectives, reached
// with a rank-dependent argument.
func reportMemoized(p *rules.Pass, br *rules.RankBranch, seen *reported) {
	ops := filter(br.Then, false, false)
	if len(ops) == 0 || seen.m[br.Guard] {
		return
	}
	seen.m[br.Guard] = true
	o := ops[0]
	d := rules.Diagnostic{Pos: br.Guard, Message: fmt.Sprintf(
		"%s on %s runs inside %s, which functools.lru_cache memoizes, and this call hands it `%s`, which differs between ranks: "+
			"only a call whose arguments the rank has not seen runs the function, so a rank that saw them before returns the cached "+
			"result while another issues the collective, and the ranks pair different collectives or wait forever (hang); "+
			"keep the collective out of the cached function, or cache on a key every rank shares",
		opName(o), rulekit.GroupLabel(o.Group), br.Memoized, br.Cond)}
	addReached(&d, o)
	p.Report(d)
}

// reportUncalled reports a test of a predicate function that is never
// called, around collectives.
func reportUncalled(p *rules.Pass, br *rules.RankBranch, seen *reported) {
	if seen.m[br.Guard] {
		return
	}
	seen.m[br.Guard] = true
	ops := append(append([]*rules.OpRef{}, br.Then...), br.Else...)
	d := rules.Diagnostic{Pos: br.Guard, Message: fmt.Sprintf(
		"`%s` is a function, not its result: the test never calls it (the parentheses are missing), and a function is always true, "+
			"so every rank takes the same arm around %s on %s — the ranks that should take the other arm never do, and the peers "+
			"wait for collectives or messages that never come (hang); call it: `%s()`",
		br.Cond, opName(ops[0]), rulekit.GroupLabel(ops[0].Group), br.Cond)}
	addReached(&d, ops[0])
	p.Report(d)
}

// reportReordered reports two arms that issue the same collectives on
// several groups in different orders.
func reportReordered(p *rules.Pass, br *rules.RankBranch, seen *reported) {
	var a, b *rules.OpRef
	for i := range br.Then {
		if i < len(br.Else) && (br.Then[i].Op != br.Else[i].Op || armGroup(br.Then[i]) != armGroup(br.Else[i])) {
			a, b = br.Then[i], br.Else[i]
			break
		}
	}
	if a == nil || seen.m[a.Pos] {
		return
	}
	seen.m[a.Pos] = true
	d := rules.Diagnostic{Pos: a.Pos, Severity: rules.Warning, Message: fmt.Sprintf(
		"the two arms of `if %s` issue the same collectives in different orders (here %s on %s, in the other arm %s on %s first): "+
			"ranks that take different arms, which a condition on this rank's own values allows, issue collectives on different groups "+
			"in different orders, so each group's ranks wait for members stuck in the other group's collective (cross-group deadlock, "+
			"as in torchrec PR #4149); issue them in one order in both arms",
		br.Cond, opName(a), armGroup(a), opName(b), armGroup(b))}
	d.Related = append(d.Related, rulekit.Related(b.Pos, "the other arm's first collective"), rulekit.Related(br.Guard, "the condition"))
	addReached(&d, a)
	p.Report(d)
}

// armGroup labels a reordered arm's group: the model's label, or the
// group argument's text for a group the model does not know.
func armGroup(o *rules.OpRef) string {
	if o.Group != nil && strings.HasPrefix(o.Group.ID, "expr:") {
		return "`" + strings.TrimPrefix(o.Group.ID, "expr:") + "`"
	}
	return rulekit.GroupLabel(o.Group)
}

// reportDataCount reports a collective issued once per element of this
// rank's data.
func reportDataCount(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	d := rules.Diagnostic{Pos: o.Pos, Severity: rules.Warning, Message: fmt.Sprintf(
		"%s on %s is issued once per element of `%s`, which comes from the batch this rank loaded: ranks whose batches hold different "+
			"elements issue different numbers of collectives, and the extra ones pair with something else or wait forever (hang; "+
			"Lightning reports \"mismatch between collectives\"); issue a fixed set on every rank (every key, with a zero where a rank has no data), "+
			"or agree on the set first", opName(o), rulekit.GroupLabel(o.Group), br.Cond)}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "elements of this rank's own batch"))
	addReached(&d, o)
	p.Report(d)
}

// reportRankCount reports a collective issued once per element of an
// iterable whose length depends on the rank.
func reportRankCount(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	if br.Divergence == rules.HostCheck {
		per := "once per element of"
		switch {
		case strings.HasPrefix(br.Cond, "while "):
			per = "once per pass of" // `while step <= total:`
		case strings.HasPrefix(br.Cond, "if "):
			per = "once per pass the loop does not skip with" // `if step < first_step: continue`
		}
		d := rules.Diagnostic{Pos: o.Pos, Severity: rules.Warning, Message: fmt.Sprintf(
			"%s on %s is issued "+per+" `%s`, whose bounds depend on a file system check of this host: ranks on hosts "+
				"that see different files (a checkpoint written on one node, a lagging network file system) run different numbers of passes, "+
				"and the extra collectives pair with the next one or wait forever (hang); decide on one rank and broadcast the start, "+
				"or check a path every host sees alike", opName(o), rulekit.GroupLabel(o.Group), br.Cond)}
		d.Related = append(d.Related, rulekit.Related(br.Guard, "the loop bounds from this host's file system"))
		if br.Origin != nil {
			d.Related = append(d.Related, rulekit.Related(*br.Origin, "the file system check its bounds come from"))
		}
		addReached(&d, o)
		p.Report(d)
		return
	}
	d := rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s on %s is issued once per element of `%s`, whose length depends on the rank: ranks issue it different numbers "+
			"of times, and the extra ones pair with the next collective or wait forever (hang); loop the same number of times "+
			"on every rank (pad the shorter shares, or loop over every rank's share)", opName(o), rulekit.GroupLabel(o.Group), br.Cond)}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "the rank-dependent iterable"))
	addReached(&d, o)
	p.Report(d)
}

// reportSkipsStep reports a GradScaler step on sharded gradients.
func reportSkipsStep(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	sharder := br.Sharder.API[strings.LastIndexByte(br.Sharder.API, '.')+1:]
	d := rules.Diagnostic{Pos: o.Pos, Severity: rules.Warning, Message: fmt.Sprintf(
		"`%s` checks only the gradients this rank holds for inf/NaN, and %s (line %d) shards them: a rank whose own shard "+
			"overflows skips the optimizer step while the others take it, so the ranks' parameters and loss scales drift apart, "+
			"and an optimizer whose step communicates (fairscale's OSS) hangs; use ShardedGradScaler "+
			"(torch.distributed.fsdp.sharded_grad_scaler, or fairscale.optim.grad_scaler for fairscale's wrappers), "+
			"which all-reduces the check", br.Cond, sharder, br.Sharder.Pos.Line)}
	d.Related = append(d.Related, rulekit.Related(br.Sharder.Pos, "the gradients are sharded here"))
	p.Report(d)
}

// reportMembers reports a group creation whose member list depends on
// the rank.
func reportMembers(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] || mpiCreation(p.Prog, o.Pos) {
		return
	}
	seen.m[o.Pos] = true
	d := rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s is collective over the default group: every rank must call it with the same ranks, in the same order, "+
			"members or not; here the list `%s` depends on the rank, so each subset creates its own group and waits for the "+
			"ranks that never create it (hang); create every subset's group on every rank and keep the one this rank belongs to, "+
			"or pass use_local_synchronization=True", opName(o), br.Cond)}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "the member list, computed from the rank"))
	p.Report(d)
}

// mpiCreation reports a new_group at pos that creates an MPI group (its
// own backend, or the MPI default group's it inherits). torch creates
// such a group with MPI_Comm_create over the world communicator, which
// since MPI 2.2 lets each rank pass its own group as long as the groups
// are disjoint (a rank's residue class), and synchronises with a barrier
// of the whole world, not the store barrier keyed by the member list
// that makes other backends wait for ranks that never create the group.
func mpiCreation(prog *rules.Program, pos rules.Pos) bool {
	for _, g := range prog.Groups {
		if g.Kind == rules.GroupAlloc && g.Pos.Path == pos.Path && g.Pos.Line == pos.Line && g.Pos.Col == pos.Col {
			return strings.EqualFold(g.Backend, "mpi") && strings.HasSuffix(g.API, ".new_group")
		}
	}
	return false
}

// reportJoinedLoop reports a collective of its own in a loop over this
// rank's data inside DDP's join().
func reportJoinedLoop(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	shadowed, covers := "DDP's own gradient all-reduce and buffer broadcast for it, not this collective", "DDP's collectives only"
	if o.Site == nil && br.JoinedModel != "" {
		shadowed = fmt.Sprintf("the DDP collectives of `%s`, the model whose join() it is, not those of another model like this one", br.JoinedModel)
		covers = fmt.Sprintf("`%s`'s DDP collectives only", br.JoinedModel)
	}
	d := rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s on %s runs in a loop over `%s` inside DDP's join(), which is there because ranks hold different numbers of batches: "+
			"a rank that runs out leaves the loop, and join() shadows only %s, "+
			"so the ranks still in the loop wait for it forever (hang); agree on a has-more-data flag every step, "+
			"or move the collective after the join() block",
		opName(o), rulekit.GroupLabel(o.Group), br.Cond, shadowed)}
	if br.Under != nil {
		d.Related = append(d.Related, rulekit.Related(*br.Under, "the join() context, which covers "+covers))
	}
	addReached(&d, o)
	p.Report(d)
}

// reportUnwrapped reports the forward of a model that a rank arm of the
// loop rebinds to the module its wrapper holds.
func reportUnwrapped(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	d := rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s on %s runs in a loop whose `if %s:` arm rebinds the model's variable to the module its wrapper holds: from the "+
			"next pass on, those ranks run the plain module, whose forward and backward issue none of the wrapper's collectives "+
			"(buffer broadcast, gradient all-reduce), while the other ranks' wrapped forward and backward wait for them (hang); "+
			"bind the unwrapped module to a new name (`to_save = model.module`)",
		opName(o), rulekit.GroupLabel(o.Group), br.Cond)}
	if br.Under != nil {
		d.Related = append(d.Related, rulekit.Related(*br.Under, "the model rebound to the unwrapped module, on these ranks only"))
	}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "the rank-dependent condition"))
	addReached(&d, o)
	p.Report(d)
}

// reportInTurns reports a collective inside a with block that the ranks
// run in turns around a collective of the context manager's.
func reportInTurns(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	if br.EarlyExit {
		// The block ends the process (sys.exit): report the exit.
		if seen.m[br.Guard] {
			return
		}
		seen.m[br.Guard] = true
		d := rules.Diagnostic{Pos: br.Guard, Message: fmt.Sprintf(
			"the process exits inside `with %s:`, which runs its block on the first rank(s) before %s and on the others after it: "+
				"SystemExit skips what the manager does after its yield, so the ranks that run the block first never issue %s and "+
				"the others wait in theirs forever (hang); leave the with block first, then exit",
			br.Cond, opName(o), opName(o))}
		d.Related = append(d.Related, rulekit.Related(o.Pos, opName(o)+" of the context manager"))
		p.Report(d)
		return
	}
	d := rules.Diagnostic{Pos: o.Pos, Message: fmt.Sprintf(
		"%s on %s runs inside `with %s:`, which runs its block on the first rank(s) before a barrier and on the others after it: "+
			"the ranks issue %s on opposite sides of that barrier, so one side waits in it while the other waits in the barrier "+
			"(hang, or the two paired with each other on one communicator); move the collective out of the block, or run the "+
			"block on every rank at once",
		opName(o), rulekit.GroupLabel(o.Group), br.Cond, opName(o))}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "the context manager that runs the block in turns"))
	addReached(&d, o)
	p.Report(d)
}

// reportSetOrder reports a collective issued once per element of a set.
func reportSetOrder(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	if seen.m[o.Pos] {
		return
	}
	seen.m[o.Pos] = true
	name := opName(o)
	effect := "each rank issues these collectives in its own order and they pair different tensors or hang"
	if o.Creates {
		effect = "each rank creates these groups in its own order, and group creation pairs the ranks' calls by order: ranks " +
			"join different groups' rendezvous (hang, or groups with the wrong members; DeepSpeed's tied-module groups, fixed by sorting the keys)"
	}
	d := rules.Diagnostic{Pos: o.Pos, Severity: rules.Warning, Message: fmt.Sprintf(
		"%s on %s is issued once per element of `%s`, in a set's iteration order: that order follows the elements' hashes, "+
			"which differ between processes (strings are hashed with a per-process seed, objects by address), so %s; "+
			"iterate a list, or sorted(...) by a stable key",
		name, rulekit.GroupLabel(o.Group), br.Cond, effect)}
	d.Related = append(d.Related, rulekit.Related(br.Guard, "iterated in a set's hash order"))
	addReached(&d, o)
	p.Report(d)
}

// localText is how a finding explains a condition that is no rank test
// but differs between ranks all the same: exit is the message when the
// ranks that see it leave early (op, group, guard position, condition),
// branch when it guards the op (op, group, condition; with atGuard, op,
// group, guard position, condition: an out-of-memory handler, a
// teardown's finally), guard labels the condition's location.
type localText struct {
	exit, branch, guard string
	// inHandler, for a handler's branch (atGuard): the message for an op
	// the handler itself issues, on the failed rank only.
	inHandler string
	atGuard   bool
	// holds: branch says the op runs where the condition holds, so an op
	// of the else arm is given the condition's negation.
	holds bool
}

// localTextFor is the branch's entry of localTexts; for a file system
// check, the condition may test a value that came from one (a flag set
// where a file was found, a step read from a checkpoint) rather than make
// the check itself, and says so.
func localTextFor(br *rules.RankBranch) (localText, bool) {
	t, ok := localTexts[br.Divergence]
	if ok && br.Divergence == rules.HostCheck && !probeCall.MatchString(br.Cond) {
		t = hostCheckDerived
	}
	return t, ok
}

// probeCall matches a condition's text that makes a file system check
// itself (os.path.exists(p), path.is_file(), a helper named *_exists()).
var probeCall = regexp.MustCompile(`(?i)(exists?|isfile|isdir|is_file|is_dir|listdir|scandir|iterdir|glob|walk)\s*\(`)

var hostCheckDerived = localText{
	exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), which depends on a file system check that " +
		"each rank makes on its own host: ranks can see the file system differently (node-local paths, a network file system's cache), " +
		"and those that left never issue it, so the others wait forever (hang); decide on one rank and broadcast the decision",
	branch: "%s on %s runs only when %s holds, which depends on a file system check that each rank makes on its own host: " +
		"ranks can see the file system differently (node-local paths, a network file system's cache), so some issue it and others do not " +
		"and the job hangs; decide on one rank and broadcast the decision (broadcast_object_list), then branch on that",
	guard: "the condition, which depends on a file system check made on each host",
	holds: true,
}

var localTexts = map[rules.Divergence]localText{
	rules.HostCheck: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), a file system check that " +
			"each rank makes on its own host: ranks can see the file system differently (node-local paths, a network file system's cache), " +
			"and those that left never issue it, so the others wait forever (hang); decide on one rank and broadcast the decision",
		branch: "%s on %s runs only when %s holds, a file system check that each rank makes on its own host: " +
			"ranks can see the file system differently (node-local paths, a network file system's cache), so some issue it and others do not " +
			"and the job hangs; decide on one rank and broadcast the decision (broadcast_object_list), then branch on that",
		guard: "the file system check, made on each host",
		holds: true,
	},
	rules.LocalValue: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), a NaN/Inf test of a value " +
			"computed from each rank's own batch: a rank whose loss is not finite skips it while the others issue it and wait for that rank forever (hang); " +
			"all-reduce the test's result first (a found-NaN flag) and branch on that, so every rank skips together",
		branch: "%s on %s depends on %s, a NaN/Inf test of a value computed from each rank's own batch: " +
			"one rank's NaN is not the others', so some ranks issue it and others do not and the job hangs; " +
			"all-reduce the test's result first (a found-NaN flag) and branch on that, so every rank takes the same path",
		guard: "the NaN/Inf test of a value local to each rank",
	},
	rules.LocalData: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), a test of the batch this rank loaded: " +
			"each rank loads its own data, so a rank whose batch is missing, empty or short (a collate function that drops bad samples, all padding, too few supervised tokens) " +
			"skips it while the others issue it and wait for that rank forever (hang); agree first (all-reduce a skip flag and branch on it), " +
			"or never hand out an empty batch",
		branch: "%s on %s depends on %s, a test of the batch this rank loaded: each rank loads its own data, so a rank " +
			"whose batch is missing, empty or short (a collate function that drops bad samples, all padding, too few supervised tokens) skips it while the others issue it " +
			"and wait for that rank forever (hang); agree first (all-reduce a skip flag and branch on it), or never hand out an empty batch",
		guard: "the test of this rank's own batch",
	},
	rules.LocalEnd: {
		exit: "%s on %s runs only on the ranks whose data has not run out at %s (%s): ranks can hold different numbers of batches " +
			"(uneven shards, an IterableDataset, files split by rank), and the first rank to run out leaves the loop while the others issue it " +
			"and wait for that rank forever (hang, as in Horovod's have_more_data loops); agree first (all-reduce a has-more-data flag every " +
			"step and leave together), use DDP's join() context, or give every rank the same number of batches",
		branch: "%s on %s depends on %s, whether this rank's data has run out: ranks can hold different numbers of batches, so the first " +
			"to run out skips it while the others issue it and wait for that rank forever (hang); agree first (all-reduce a has-more-data flag)",
		guard: "the end of this rank's own data",
	},
	rules.LocalTiming: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), which reads the clock or this rank's memory use, asks whether " +
			"concurrent work has finished or reads a flag a signal handler sets: ranks do not run in step, so each asks at its own moment and near the threshold some leave while " +
			"the others issue it and wait for them forever (hang); decide on one rank and broadcast the decision (as Lightning does for " +
			"time-based checkpoints and max_time), or all-reduce a done flag and branch on that",
		branch: "%s on %s depends on %s, which reads the clock or this rank's memory use, asks whether concurrent work has finished or reads a flag a signal handler sets: ranks do not run in step, " +
			"so each asks at its own moment and some issue it while others do not, and the job hangs; decide on one rank and broadcast " +
			"the decision, or all-reduce a done flag and branch on that",
		guard: "the clock, memory, completion or signal check, made by each rank at its own moment",
	},
	rules.LocalRandom: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), which draws a random number: each rank draws from " +
			"its own generator and the draws differ (other seeds, or one seed consumed differently), so some ranks leave while the others issue it " +
			"and wait for them forever (hang, as LayerDrop did under FSDP: fairscale#796); draw on one rank and broadcast the decision, or draw " +
			"from a generator seeded alike on every rank for this decision alone (random.Random(step))",
		branch: "%s on %s depends on %s, which draws a random number: each rank draws from its own generator and the draws differ " +
			"(other seeds, or one seed consumed differently), so some ranks issue it and others do not and the job hangs (LayerDrop under FSDP, " +
			"fairscale#796); draw on one rank and broadcast the decision, or draw from a generator seeded alike on every rank for this decision alone",
		guard: "the random draw, made by each rank from its own generator",
	},
	rules.LocalTeardown: {
		branch: "%s on %s runs at %s (`%s`), also on a rank whose work above raised while the other ranks still wait in the " +
			"collectives it never joined: destroying a group is collective (NCCL flushes or aborts its communicators with the peers), so that rank " +
			"hangs there instead of exiting, and the launcher, which stops the job when a rank dies, never does (torchtitan#1342); destroy the group " +
			"only once the work has returned normally (after the try, or in its else clause)",
		guard:   "the clean-up that runs on the failed rank too",
		atGuard: true,
	},
	rules.LocalThreshold: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), a comparison of a value computed from " +
			"each rank's own batch (its loss, not reduced): ranks cross the bound at different steps, so those that left skip it while the others " +
			"issue it and wait for them forever (hang); all-reduce the value first and compare that, so every rank leaves together",
		branch: "%s on %s depends on %s, a comparison of a value computed from each rank's own batch (its loss, not reduced): " +
			"ranks cross the bound at different steps, so some issue it and others do not and the job hangs; all-reduce the value first and compare that",
		guard: "the comparison of a value local to each rank",
	},
	rules.LocalDevices: {
		exit: "%s on %s runs only on the ranks that do not leave early at %s (%s), which depends on the device count: " +
			"the number of GPUs this process sees on its own host, not the size of the job, so ranks on nodes with other GPU counts leave " +
			"while the others issue it and wait for them forever (hang), and with one GPU bound per process (CUDA_VISIBLE_DEVICES set per rank) " +
			"every rank leaves; test the world size instead (dist.get_world_size() > 1)",
		branch: "%s on %s runs only when %s holds, which depends on the device count: the number of GPUs this process " +
			"sees on its own host, not the size of the job, so on nodes with other GPU counts some ranks issue it and others do not (hang), " +
			"and with one GPU bound per process (CUDA_VISIBLE_DEVICES set per rank) no rank does, which silently leaves the value unreduced; " +
			"test the world size instead (dist.get_world_size() > 1)",
		guard: "the GPU count of this process's host",
	},
	rules.LocalCleanExit: {
		branch: "%s on %s is skipped on a rank whose work raises before it: the handler at %s (`%s`) ends the process with " +
			"status 0, which the launcher takes for success, so it does not stop the job, and the other ranks wait in it forever (hang); " +
			"exit with a non-zero status (re-raise, or sys.exit(1)) so that the launcher stops every rank",
		guard:   "the handler that ends the process with status 0",
		atGuard: true,
	},
	rules.LocalSwallowedTeardown: {
		branch: "%s on %s runs after the try whose handler at %s (`%s`) swallows the error: on a rank whose work in the try raised, it runs " +
			"while the other ranks still wait in the collectives that rank never joined; destroying a group is collective (NCCL flushes or aborts " +
			"its communicators with the peers), so that rank hangs there instead of exiting, and the launcher, which stops the job when a rank dies, " +
			"never does (torchtitan#1342); re-raise (or exit) in the handler, and destroy the group only once the work has returned normally " +
			"(in the try's else clause)",
		guard:   "the handler that swallows the error and goes on to the teardown",
		atGuard: true,
	},
	rules.LocalRetry: {
		branch: "%s on %s runs again on a rank that runs out of memory: the decorator at %s (`%s`) catches the error and calls " +
			"the function again with a smaller batch on that rank alone, which issues its collectives again while the other ranks have gone on " +
			"(hang); agree on the batch size on every rank (all-reduce the out-of-memory flag before retrying), or re-raise when the job is distributed",
		guard:   "the retrying decorator, which re-runs the function on the failed rank only",
		atGuard: true,
	},
	rules.LocalCleanup: {
		branch: "%s on %s runs at %s (`%s`), also on a rank whose work above raised while the other ranks still wait in the " +
			"collectives it never joined: it pairs with one of theirs or waits forever, and the failed rank never exits, so the launcher, which stops " +
			"the job when a rank dies, never does; issue it only once the work has returned normally (after the try, or in its else clause)",
		guard:   "the clean-up that runs on the failed rank too",
		atGuard: true,
	},
	rules.LocalWriteFailure: {
		branch: "%s on %s is skipped on a rank whose file write fails before it (the handler at %s, `%s`, swallows the error " +
			"and carries on): a write fails on one host only (a full disk, a quota, a flaky network file system), and the other ranks issue it and wait " +
			"for that rank forever, or pair it with the next collective that rank issues (hang); re-raise so that the launcher stops every rank, or " +
			"agree on the failure on every rank (all-reduce a failed flag) before the next collective",
		guard:   "the handler that swallows a write failure, run on the failed rank only",
		atGuard: true,
	},
	rules.LocalWriteRetry: {
		branch: "%s on %s is issued again on a rank whose file write fails (the handler at %s, `%s`, swallows the error and the loop " +
			"around the try writes again): a write fails on one host only (a full disk, a quota, a flaky network file system), so that rank alone " +
			"repeats the collectives of the write, which pair with the other ranks' next ones or wait forever (hang); agree on the failure on every " +
			"rank (all-reduce a failed flag) before trying again, or re-raise so that the launcher stops every rank",
		guard:   "the handler that swallows a write failure; the loop tries again on the failed rank only",
		atGuard: true,
	},
	rules.LocalExitHandler: {
		branch: "%s on %s runs at exit (registered at %s, `%s`), also on a rank that is exiting because its work raised: Python runs exit " +
			"handlers after an uncaught exception, while the other ranks still wait in the collectives that rank never joined, so it pairs with one of " +
			"theirs or waits forever, and the failed rank never exits, so the launcher, which stops the job when a rank dies, never does (hang); " +
			"issue it at the end of the normal path instead, or skip it when the process is exiting with an error",
		guard:   "the exit handler's registration: it runs on a failed rank too",
		atGuard: true,
	},
	rules.LocalSwallowedError: {
		branch: "%s on %s is skipped on a rank whose work before it raises (the handler at %s, `%s`, swallows the error " +
			"and carries on): an error on one rank only (running out of memory on its longer batch, a bad sample) makes that rank go on to the " +
			"collectives after the try, which pair with the ones the other ranks are still issuing here: wrong data, then a hang; re-raise so that the launcher " +
			"stops every rank, or agree on the failure on every rank (all-reduce a failed flag) before the next collective",
		guard:   "the handler that swallows the error, run on the failed rank only",
		atGuard: true,
		inHandler: "%s on %s runs in the handler at %s (`%s`), on the failed rank only, while the other ranks run the rest of the try " +
			"body and what follows it: it pairs with one of their collectives or waits forever (hang); re-raise when the job is distributed so that " +
			"the launcher stops every rank, or agree on the failure on every rank before the next collective",
	},
	rules.LocalFailure: {
		branch: "%s on %s is skipped on a rank that runs out of memory before it (the handler at %s, `%s`, recovers " +
			"and carries on) while the other ranks issue it and wait for that rank forever (hang, as in Composer's automatic micro-batching); " +
			"re-raise when the job is distributed so that the launcher stops every rank, or agree on the failure on every rank before the next collective",
		guard:   "the out-of-memory handler, run on the failed rank only",
		atGuard: true,
		inHandler: "%s on %s runs in the handler at %s (`%s`), on the failed rank only, while the other ranks run the rest of the try " +
			"body and what follows it: it pairs with one of their collectives or waits forever (hang); re-raise when the job is distributed so that " +
			"the launcher stops every rank, or agree on the failure on every rank before the next collective",
	},
}

// reportExiting reports an op of the exiting ranks' own path: for a
// handler's branch, an op the handler issues on the failed rank only.
func reportExiting(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, seen *reported) {
	t, ok := localTextFor(br)
	if !ok || t.inHandler == "" || seen.m[o.Pos] {
		report(p, br, o, false, seen)
		return
	}
	seen.m[o.Pos] = true
	seen.first[o.Pos] = br.Guard
	d := rules.Diagnostic{Pos: o.Pos, Severity: rules.Warning, Message: fmt.Sprintf(t.inHandler, opName(o), rulekit.GroupLabel(o.Group), br.Guard.Short(), br.Cond)}
	d.Related = append(d.Related, rulekit.Related(br.Guard, t.guard))
	addReached(&d, o)
	p.Report(d)
}

func report(p *rules.Pass, br *rules.RankBranch, o *rules.OpRef, afterExit bool, seen *reported) {
	if seen.m[o.Pos] {
		seen.alsoSkipped(br, o)
		return
	}
	seen.m[o.Pos] = true
	seen.first[o.Pos] = br.Guard
	name := opName(o)
	cond := br.Cond
	if cond == "" {
		cond = "a rank-dependent condition"
	} else {
		cond = "`" + cond + "`"
	}
	var msg string
	if o.Creates {
		local := ""
		if o.Op == "new_group" {
			local = " (unless use_local_synchronization=True)"
		}
		msg = fmt.Sprintf("%s is collective over the default group: every rank must call it, in the same order, "+
			"whether or not it joins the new group%s; here only the ranks where %s holds call it, "+
			"so group creation waits for the others forever (hang); create the group on every rank and gate only its use",
			name, local, cond)
		if afterExit {
			msg = fmt.Sprintf("%s is collective over the default group: every rank must call it, in the same order, "+
				"whether or not it joins the new group%s; the ranks that leave early at %s (%s) never call it, "+
				"so group creation waits for them forever (hang)", name, local, br.Guard.Short(), cond)
		}
	} else if t, ok := localTextFor(br); ok && t.atGuard {
		msg = fmt.Sprintf(t.branch, name, rulekit.GroupLabel(o.Group), br.Guard.Short(), br.Cond)
	} else if ok && afterExit {
		msg = fmt.Sprintf(t.exit, name, rulekit.GroupLabel(o.Group), br.Guard.Short(), cond)
	} else if ok {
		msg = fmt.Sprintf(t.branch, name, rulekit.GroupLabel(o.Group), cond)
	} else if afterExit && br.Unbound != "" {
		msg = fmt.Sprintf("%s on %s reads `%s`, which only the ranks where %s holds bind (%s): the others raise "+
			"UnboundLocalError evaluating its arguments, and an uncaught exception does not end an mpi4py job (the raising "+
			"process waits in MPI_Finalize as it exits), so the ranks that bound it wait in it forever (hang); bind it on "+
			"every rank first (`%s = None`) and let the collective carry the value",
			name, rulekit.GroupLabel(o.Group), br.Unbound, cond, br.Guard.Short(), br.Unbound)
	} else if afterExit && br.MPIRaise {
		msg = fmt.Sprintf("%s on %s runs only on the ranks that do not raise at %s (%s): an uncaught exception does not end "+
			"an mpi4py job, since the raising process waits in MPI_Finalize as it exits and mpiexec keeps the others running, "+
			"so they wait in it forever (hang); run the script as `python -m mpi4py script.py`, which aborts the job on an "+
			"uncaught exception, or call comm.Abort() where it fails",
			name, rulekit.GroupLabel(o.Group), br.Guard.Short(), cond)
	} else if afterExit {
		msg = fmt.Sprintf("%s on %s runs only on the ranks that do not leave early at %s (%s): "+
			"the ranks that left never issue it, so NCCL pairs it with a different collective or it waits forever (hang)",
			name, rulekit.GroupLabel(o.Group), br.Guard.Short(), cond)
	} else {
		msg = fmt.Sprintf("%s on %s runs only when %s holds, and the other ranks do not issue the same collective sequence: "+
			"collectives are matched by order, so the ranks pair different collectives or wait forever (hang); call it on every rank and gate only the side effects",
			name, rulekit.GroupLabel(o.Group), cond)
	}
	d := rules.Diagnostic{Pos: o.Pos, Message: msg}
	if br.MPIRaise {
		d.Severity = rules.Warning // how the job is launched decides
	}
	guard := "the rank-dependent condition"
	if t, ok := localTextFor(br); ok {
		// Whether hosts disagree depends on the file system, which the
		// analysis cannot see; whether a loss is NaN, a batch empty or
		// memory short on some ranks only depends on the data; whether a
		// clock or a thread is past a point, on timing.
		d.Severity = rules.Warning
		guard = t.guard
	}
	if br.Under != nil {
		d.Related = append(d.Related, rulekit.Related(*br.Under, guard),
			rulekit.Related(br.Guard, "the exit, in that condition's arm"))
	} else {
		d.Related = append(d.Related, rulekit.Related(br.Guard, guard))
	}
	if br.Origin != nil && br.Divergence == rules.HostCheck {
		d.Related = append(d.Related, rulekit.Related(*br.Origin, "the file system check its value comes from"))
	}
	addReached(&d, o)
	p.Report(d)
}
