package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// rankHelperNames are user helpers that, by near-universal convention,
// test or return the rank (def is_main_process(): return get_rank() == 0).
// The model resolves them to user functions whose bodies the flow pass
// does not see, so their names stand in.
var rankHelperNames = map[string]bool{
	"is_main_process": true, "is_master": true, "is_rank_zero": true, "is_rank_0": true,
	"is_global_zero": true, "is_local_main_process": true, "get_rank": true, "get_local_rank": true,
	"get_global_rank": true, "get_world_rank": true, "is_main": true,
}

// deviceKindQueries ask about the model of a device, not its index.
var deviceKindQueries = map[string]bool{
	"torch.cuda.get_device_properties": true, "torch.cuda.get_device_capability": true,
	"torch.cuda.get_device_name": true, "torch.xpu.get_device_properties": true,
	"torch.xpu.get_device_capability": true, "torch.xpu.get_device_name": true,
}

// isRank reports whether e depends on the rank (§3.2 of the reference):
// calls, attributes and environment reads from the rank_predicate tables,
// locals assigned from them, and expressions built from those.
func (l *lowerer) isRank(e ast.Expr) bool {
	if len(l.rankObjects) > 0 && l.rankObjectTest(e) {
		return true
	}
	return dependsOn(e, l.rankVars, func(n ast.Node) (found, descend bool) {
		if x, ok := n.(ast.Expr); ok && len(l.rankLoaded) > 0 && l.shardMetadata(x) {
			return false, false
		}
		switch n := n.(type) {
		case *ast.IfExp:
			// `src.shape[0] if src is not None else infer(names)` with
			// src held by rank 0 only: each rank takes its own arm.
			if len(l.rankObjects) > 0 && l.rankObjectTest(n.Test) {
				return true, false
			}
		case *ast.Compare:
			if l.uncalledGroupRank(n) {
				// `dp_group.rank == 0`: the method itself, never equal
				// to a number (OpenCastKit): no rank takes the arm.
				return false, false
			}
			if l.shiftEquality(n) {
				// `send_idx == recv_idx == rank` with send_idx = (rank +
				// step) % world: true for every rank at once (step 0).
				return false, false
			}
			// `local_rank == -1` / `!= -1`, `local_rank >= 0`,
			// `local_rank is None` ask "launched distributed at all?",
			// which every rank answers the same way; not so for an object
			// only some ranks hold (rankObjects).
			for _, c := range n.Comparators {
				if isMinusOne(c) || isNone(c) {
					return false, false
				}
			}
			if len(n.Ops) == 1 && len(n.Comparators) == 1 && (n.Ops[0] == ast.GtE || n.Ops[0] == ast.Lt) {
				if k, ok := n.Comparators[0].(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
					return false, false
				}
			}
		case *ast.Attribute:
			if n.Ctx == ast.Load && l.agreedObjectProperty(n) {
				return false, false
			}
			if len(l.agreedAttrs) > 0 && l.agreedAttrs[dotted(n)] {
				return false, false // set from a collective's result by a method (agreedSetAttrs)
			}
			if len(l.rankCounterAttrs) > 0 && l.rankCounterAttrs[dotted(n)] {
				return true, false // an instance counter stepped in a rank arm (loopRankFlags)
			}
			if l.rankAttr(n) {
				return true, true
			}
			if ca, ok := l.r.(ConstAttrer); ok && rootedIn(n, l.rankVars) && ca.ConstAttr(n) {
				return false, false // a class constant of an object built with the rank
			}
			return false, true
		case *ast.Subscript:
			if l.rankElement(n) {
				return true, false
			}
			if evenShare(n) {
				return false, false
			}
			return l.envRank(n.Value, n.Slice) || l.rankKey(n), true
		case *ast.Call:
			if l.rankCall(n) {
				return true, false
			}
			if f, ok := n.Func.(*ast.Name); ok && f.Id == "len" && len(n.Args) == 1 && l.fixedWidthRange(n.Args[0]) {
				return false, false // len(range(start, start + k)): k on every rank
			}
			// getattr(self.accelerator, "is_main_process", True) reads the
			// attribute it names (SimpleTuner's save hooks).
			if a := constGetattr(n); a != nil && l.rankAttr(a) {
				return true, false
			}
			// What a broadcast or a reduction returns is every rank's
			// (mpi4py's `ok = comm.bcast(ok, root=0)`), whatever went in.
			if l.agreedCall(n) {
				return false, false
			}
			// isinstance(x, T) asks for x's type, which ranks share
			// even when x's value is their own (NeMo-Aligner's
			// `isinstance(outputs, tuple)` on this rank's inference
			// results; Ignite's placeholder of the broadcast's type).
			if f, ok := n.Func.(*ast.Name); ok && f.Id == "isinstance" && len(n.Args) == 2 {
				return false, false
			}
			// What kind of device this rank's device is asks what every
			// rank of a homogeneous job answers alike, even though the
			// device index (torch.cuda.current_device()) is the local
			// rank: TransformerEngine's
			// get_device_properties(current_device()).major >= 9.
			if ext, _ := l.callee(n); deviceKindQueries[ext] {
				return false, false
			}
			// A DistributedSampler given the rank hands each rank its own
			// indices but as many as the others (it pads or drops to an
			// even share): a loader over it has one length everywhere.
			if lastDotted(n.Func) == "DistributedSampler" {
				return false, false
			}
			if l.agreedObjectCall(n) {
				return false, false // len(it) of a loader built with the rank, whose __len__ reads none of it
			}
			// A program function's result is rank-dependent only through
			// the parameters it is computed from: validation(model,
			// rank, …) returns a loss it all-reduced, and resume(…,
			// device=device, rank=rank) a step read from the checkpoint.
			// Only those arguments are examined; other calls are walked
			// as before.
			if len(n.Args)+len(n.Keywords) > 0 {
				if rank, known := l.rankThroughCall(n); known {
					return rank || l.isRank(n.Func), false
				}
			}
			// A rank test handed to a library as a logging switch
			// (timm's resume_checkpoint(…, log_info=local_rank == 0),
			// tqdm(…, disable=rank != 0)) decides who prints, not what
			// the call returns: the rest of the call decides.
			if quietKeywords(n) {
				if l.isRank(n.Func) {
					return true, false
				}
				for _, a := range n.Args {
					if l.isRank(a) {
						return true, false
					}
				}
				for _, k := range n.Keywords {
					if !outputSwitch(n, k) && l.isRank(k.Value) {
						return true, false
					}
				}
				return false, false
			}
			// Where a value is placed is no part of the value: a
			// checkpoint loaded with map_location=f"cuda:{local_rank}",
			// or x.to(device), holds the same data on every rank.
			if placement(n) {
				for _, x := range placedValues(n) {
					if l.isRank(x) {
						return true, false
					}
				}
				return false, false
			}
		}
		return false, true
	})
}

// constGetattr returns getattr(x, "name"[, default]) as the attribute
// x.name it reads, or nil.
func constGetattr(c *ast.Call) *ast.Attribute {
	f, ok := c.Func.(*ast.Name)
	if !ok || f.Id != "getattr" || len(c.Args) < 2 || len(c.Args) > 3 {
		return nil
	}
	name, ok := constStr(c.Args[1])
	if !ok || name == "" {
		return nil
	}
	return &ast.Attribute{Pos: c.Pos, Value: c.Args[0], Attr: name, Ctx: ast.Load}
}

// placementMethods move a value to a device; their arguments say where.
var placementMethods = map[string]bool{"to": true, "cuda": true, "pin_memory": true}

// placementKeywords name the device an operation places its result on.
var placementKeywords = map[string]bool{"map_location": true, "device": true, "device_ids": true, "output_device": true}

// placement reports a call whose arguments include where its result lives.
func placement(c *ast.Call) bool {
	if a, ok := c.Func.(*ast.Attribute); ok && placementMethods[a.Attr] {
		return true
	}
	for _, k := range c.Keywords {
		if placementKeywords[k.Arg] {
			return true
		}
	}
	return false
}

// placedValues returns the parts of a placement call that carry data: the
// receiver of x.to(…) (and what it is called on), or the callee and the
// arguments other than placement keywords.
func placedValues(c *ast.Call) []ast.Expr {
	if a, ok := c.Func.(*ast.Attribute); ok && placementMethods[a.Attr] {
		return []ast.Expr{a.Value}
	}
	out := []ast.Expr{c.Func}
	out = append(out, c.Args...)
	for _, k := range c.Keywords {
		if !placementKeywords[k.Arg] {
			out = append(out, k.Value)
		}
	}
	return out
}

// dependsOn reports whether e reads a local of vars or holds a node that
// hit finds; hit also says whether to look inside a node it did not find.
// Lambdas are not entered: their bodies run later, if at all.
func dependsOn(e ast.Expr, vars map[string]bool, hit func(ast.Node) (found, descend bool)) bool {
	return dependsOnNames(e, vars, hit, false)
}

// dependsOnNames is dependsOn that, with names set, also asks hit about
// the names that are not among vars.
func dependsOnNames(e ast.Expr, vars map[string]bool, hit func(ast.Node) (found, descend bool), names bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Name:
			found = n.Ctx == ast.Load && vars[n.Id]
			if !found && names {
				found, _ = hit(n)
			}
			return !found
		case *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
			if inner, ok := shadowed(n, vars); ok {
				// The comprehension binds its own names: an outer
				// variable of the same name does not reach its body.
				f, descend := hit(n)
				if f || !descend {
					found = f
					return false
				}
				gens, parts := comprehensionParts(n)
				found = dependsOnNames(gens[0].Iter, vars, hit, names)
				for _, x := range parts {
					found = found || x != nil && dependsOnNames(x, inner, hit, names)
				}
				for i, g := range gens {
					if i > 0 {
						found = found || dependsOnNames(g.Iter, inner, hit, names)
					}
					for _, c := range g.Ifs {
						found = found || dependsOnNames(c, inner, hit, names)
					}
				}
				return false
			}
		}
		f, descend := hit(n)
		found = f
		return !f && descend
	})
	return found
}

// comprehensionParts returns a comprehension's generators and the
// expressions it builds (elt, or key and value).
func comprehensionParts(n ast.Node) ([]*ast.Comprehension, []ast.Expr) {
	switch n := n.(type) {
	case *ast.ListComp:
		return n.Generators, []ast.Expr{n.Elt}
	case *ast.SetComp:
		return n.Generators, []ast.Expr{n.Elt}
	case *ast.DictComp:
		return n.Generators, []ast.Expr{n.Key, n.Value}
	case *ast.GeneratorExp:
		return n.Generators, []ast.Expr{n.Elt}
	}
	return nil, nil
}

// shadowed returns vars less the names the comprehension n binds, when it
// binds one of them (ok false, and vars unchanged, otherwise).
func shadowed(n ast.Node, vars map[string]bool) (map[string]bool, bool) {
	gens, _ := comprehensionParts(n)
	if len(gens) == 0 || len(vars) == 0 {
		return vars, false
	}
	var bound []string
	for _, g := range gens {
		ast.Inspect(g.Target, func(m ast.Node) bool {
			if nm, ok := m.(*ast.Name); ok && vars[nm.Id] {
				bound = append(bound, nm.Id)
			}
			return true
		})
	}
	if len(bound) == 0 {
		return vars, false
	}
	inner := make(map[string]bool, len(vars))
	for v := range vars {
		inner[v] = true
	}
	for _, b := range bound {
		delete(inner, b)
	}
	return inner, true
}

// fsProbeCalls and fsProbeMethods ask the file system of the host that
// runs them: ranks on different hosts, or that look at different times,
// can get different answers (R8: a network file system's cache).
var (
	fsProbeCalls = map[string]bool{"os.path.exists": true, "os.path.isfile": true, "os.path.isdir": true, "os.path.lexists": true, "os.access": true,
		// TensorFlow's file API, which JAX trainers (t5x, maxtext) use for
		// checkpoints on object stores.
		"tensorflow.io.gfile.exists": true, "tensorflow.io.gfile.isdir": true, "tensorflow.gfile.Exists": true, "tensorflow.gfile.IsDirectory": true,
		// blobfile, which guided-diffusion and its derivatives use for
		// local and cloud paths alike.
		"blobfile.exists": true, "blobfile.isdir": true,
		// megfile, which Megvii's frameworks (cvpods) use for local and
		// object-store paths alike.
		"megfile.smart_exists": true, "megfile.smart_isfile": true, "megfile.smart_isdir": true}
	fsProbeMethods = map[string]bool{"exists": true, "is_file": true, "is_dir": true} // pathlib.Path's (etils.epath's, upath's), with no arguments
	// fsLoadCalls return a tuple whose element at the index is this
	// host's answer: DeepSpeed's load_checkpoint reads the tag from the
	// `latest` file of this host's directory and returns (None, None)
	// when there is none.
	fsLoadCalls = map[string]int{"deepspeed.DeepSpeedEngine.load_checkpoint": 0}
	// fsProbeLibMethods: file-system objects whose methods take the path
	// (fsspec's fs.exists(p), and the filesystems built on it).
	fsProbeLibMethods = map[string]bool{"exists": true, "isdir": true, "isfile": true, "lexists": true}
	// fsListLibMethods list a directory through those objects (fs.ls(p),
	// PathManager.ls(p)).
	fsListLibMethods = map[string]bool{"ls": true, "listdir": true, "glob": true}
	// fsProbeLibs: fsspec and the filesystems built on it, and the
	// PathManagers of iopath, fvcore and detectron2, which SlowFast,
	// TimeSformer and detectron2's users resume from.
	fsProbeLibs = []string{"fsspec.", "gcsfs.", "s3fs.", "adlfs.", "iopath.common.file_io.", "fvcore.common.file_io.", "detectron2.utils.file_io."}
	pathLibs    = []string{"pathlib.", "etils.epath.", "upath."}
	// fsListings list a directory of this host (VideoMAE's and BEiT-3's
	// auto_load_model pick the latest checkpoint from glob.glob;
	// transformers' get_last_checkpoint lists the output directory;
	// OpenMMLab's find_latest_checkpoint globs the work directory).
	fsListings = map[string]bool{"glob.glob": true, "glob.iglob": true, "os.listdir": true, "os.scandir": true, "os.walk": true, "blobfile.listdir": true, "blobfile.glob": true,
		"megfile.smart_listdir": true, "megfile.smart_glob": true, "megfile.smart_scandir": true,
		"transformers.trainer_utils.get_last_checkpoint": true,
		// OpenMMLab's auto-resume: the newest *.pth of this host's
		// work_dir (mmdet's, and mmengine's runner).
		"mmdet.utils.find_latest_checkpoint": true, "mmdet.utils.misc.find_latest_checkpoint": true,
		"mmengine.runner.find_latest_checkpoint": true, "mmengine.runner.checkpoint.find_latest_checkpoint": true}
	pathListMeths = map[string]bool{"glob": true, "rglob": true, "iterdir": true}
)

// shardMetadata reports a value read by a string key from a rank's own
// shard of a checkpoint (rankLoaded): `ckpt["epoch"]`, `ckpt.get("iter",
// 0)`. Every rank saved its shard in the same call, with the same
// counters (OneLLM's sharded FSDP resume).
func (l *lowerer) shardMetadata(e ast.Expr) bool {
	var base ast.Expr
	switch x := e.(type) {
	case *ast.Subscript:
		if k, ok := constStr(x.Slice); ok && counterKey(k) {
			base = x.Value
		}
	case *ast.Call:
		if a, ok := x.Func.(*ast.Attribute); ok && a.Attr == "get" && len(x.Args) >= 1 {
			if k, ok := constStr(x.Args[0]); ok && counterKey(k) {
				base = a.Value
			}
		}
	case *ast.Compare:
		// `if "epoch" in ckpt:`: every shard has the same keys.
		if len(x.Ops) == 1 && (x.Ops[0] == ast.In || x.Ops[0] == ast.NotIn) {
			if k, ok := constStr(x.Left); ok && counterKey(k) {
				base = x.Comparators[0]
			}
		}
	}
	n, ok := base.(*ast.Name)
	return ok && l.rankLoaded[n.Id]
}

// counterKey reports a checkpoint key that names the training position
// (epoch, step, iter, global_step, …), which every rank's shard stores
// alike; other keys (a flag the rank saved for itself) may differ.
func counterKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"epoch", "step", "iter", "batch_idx", "consumed"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// pathListing reports a directory listing through a receiver the
// analysis cannot type (a parameter annotated `out_dir: Path`): glob or
// rglob given one pattern with a wildcard (`out_dir.glob("*.pth")`), or
// iterdir() with no arguments.
func pathListing(c *ast.Call, a *ast.Attribute) bool {
	if len(c.Keywords) > 0 {
		return false
	}
	if a.Attr == "iterdir" {
		return len(c.Args) == 0
	}
	if len(c.Args) != 1 {
		return false
	}
	pat, ok := constStr(c.Args[0])
	if !ok {
		if j, isF := c.Args[0].(*ast.JoinedStr); isF {
			for _, v := range j.Values {
				if k, ok := v.(*ast.Constant); ok && strings.ContainsAny(k.Str, "*?[") {
					return true
				}
			}
		}
		return false
	}
	return strings.ContainsAny(pat, "*?[")
}

// appendMethods add their arguments to the container they are called on.
var appendMethods = map[string]bool{"append": true, "extend": true, "add": true, "insert": true, "appendleft": true}

// appendedFs returns the local a statement adds a file system answer to
// (`found.append(x)` with x a name from this host's listing), or "".
func (l *lowerer) appendedFs(s ast.Stmt) string {
	if a, ok := s.(*ast.Assign); ok && len(a.Targets) == 1 {
		// d[int(name[4:])] = name, in a loop over a listing: a dict of
		// this host's file names (xyfJASON's find_resume_checkpoint).
		if sub, ok := a.Targets[0].(*ast.Subscript); ok {
			if recv, ok := sub.Value.(*ast.Name); ok && (l.fsProbe(a.Value) || l.fsProbe(sub.Slice)) {
				return recv.Id
			}
		}
		return ""
	}
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return ""
	}
	c, ok := e.Value.(*ast.Call)
	if !ok {
		return ""
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok || !appendMethods[a.Attr] {
		return ""
	}
	recv, ok := a.Value.(*ast.Name)
	if !ok {
		return ""
	}
	for _, x := range c.Args {
		if l.fsProbe(x) {
			return recv.Id
		}
	}
	return ""
}

// markAppended marks the locals body adds file system answers to (a list
// of the checkpoints a glob found, built with append in the loop).
func (l *lowerer) markAppended(body []ast.Stmt) {
	ast.InspectBody(body, func(n ast.Node) bool {
		if s, ok := n.(ast.Stmt); ok {
			if v := l.appendedFs(s); v != "" {
				l.fsVars[v] = true
			}
		}
		return true
	})
}

// rankAppends marks the lists a loop over a rank-dependent iterable (this
// rank's shard of the rows) appends to as rank values: how many elements
// they end with is the rank's own count, and a test of it (`if
// len(local_pcs) == 0: continue`) differs between ranks. A loop over a
// generator that yields only under a rank test (yielding: rankYieldGen)
// is one such loop too.
func (l *lowerer) rankAppends(target, iter ast.Expr, body []ast.Stmt, yielding bool) {
	if l.notDist > 0 || !yielding && !l.rankCount(iter, 0) {
		return
	}
	// How many elements they end with is the rank's own count too: a
	// loop over one (`for k in found:`), or over a dict the loop stores
	// computed keys in (`success[env_id] = 0` for each environment this
	// rank's episodes hold, dit_policy_vla's evaluation), runs as many
	// passes as the rank's share made.
	// The keys must come from the elements themselves (the loop's
	// target, or a local computed from it): keys taken from a nested
	// loop over each element's fields (`for k, v in out.items():
	// stats[k] = v`) are the same names on every rank.
	lens := func(v string) {
		if l.rankLens == nil {
			l.rankLens = map[string]bool{}
		}
		l.rankLens[v] = true
	}
	fromElem := map[string]bool{}
	for _, v := range targetNames(target) {
		fromElem[v] = true
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		}
		if as, ok := n.(*ast.Assign); ok {
			for _, t := range as.Targets {
				if nm, ok := t.(*ast.Name); ok && readsAny(as.Value, fromElem) {
					fromElem[nm.Id] = true
				}
				if sub, ok := t.(*ast.Subscript); ok && readsAny(sub.Slice, fromElem) {
					if d, ok := sub.Value.(*ast.Name); ok {
						lens(d.Id)
					}
				}
			}
			return true
		}
		e, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		c, ok := e.Value.(*ast.Call)
		if !ok {
			return true
		}
		a, ok := c.Func.(*ast.Attribute)
		if !ok || !appendMethods[a.Attr] {
			return true
		}
		if recv, ok := a.Value.(*ast.Name); ok && l.r.Site(c) == nil {
			l.rankVars[recv.Id] = true
			lens(recv.Id)
		}
		return true
	})
}

// listingLoop marks the targets of a for loop over a file-system probe
// (`for ckpt in glob.glob(pattern):`) as holding its answer: what the
// loop computes from them (the latest checkpoint's number) is this
// host's view.
// rebindLoopTarget drops what a for loop's target names held from a
// file system check before the loop, when the loop binds them to
// elements of something that is no check's answer (LiteGen's second
// `for obj in args`, after `obj = setup_module(obj)` in the first).
func (l *lowerer) rebindLoopTarget(iter, target ast.Expr) {
	if l.notDist > 0 || len(l.fsVars)+len(l.fsLists) == 0 || l.fsProbe(iter) || l.listing(iter) {
		return
	}
	for _, v := range targetNames(target) {
		l.markFs(v, false, nil)
		markVar(&l.fsLists, v, false)
	}
}

func (l *lowerer) listingLoop(iter, target ast.Expr) {
	if l.notDist > 0 || !l.listing(iter) {
		return
	}
	origin := l.fsOriginOf(iter)
	ast.Inspect(target, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			l.markFs(nm.Id, true, origin)
		}
		return true
	})
}

// fsCountedIndex marks the index of `for step, x in enumerate(loader,
// start=resume_step)` as this host's answer when the start is one: the
// steps a test of the index picks (`(step + 1) % log_every == 0`) differ
// between hosts that resumed from different checkpoints (Lumina's
// resumed step loop). Called once the loop's head has bound the target.
func (l *lowerer) fsCountedIndex(iter, target ast.Expr) {
	if l.notDist > 0 {
		return
	}
	start := enumerateStart(iter)
	if start == nil || !l.fsProbe(start) {
		return
	}
	if t, ok := target.(*ast.Tuple); ok && len(t.Elts) == 2 {
		if n, ok := t.Elts[0].(*ast.Name); ok {
			l.markFs(n.Id, true, l.fsOriginOf(start))
		}
	}
}

// enumerateStart returns the start of enumerate(xs, start) or
// enumerate(xs, start=k), or nil.
func enumerateStart(iter ast.Expr) ast.Expr {
	c, ok := iter.(*ast.Call)
	if !ok || dotted(c.Func) != "enumerate" {
		return nil
	}
	if len(c.Args) == 2 {
		return c.Args[1]
	}
	for _, k := range c.Keywords {
		if k.Arg == "start" {
			return k.Value
		}
	}
	return nil
}

// markFs marks (or clears) v as holding a file system answer, taken at
// origin (nil when unknown).
func (l *lowerer) markFs(v string, on bool, origin ast.Node) {
	markVar(&l.fsVars, v, on)
	if !on || origin == nil {
		delete(l.fsOrigin, v)
		return
	}
	l.noteFsOrigin(v, origin)
}

// noteFsOrigin records origin as where v took its file system answer.
func (l *lowerer) noteFsOrigin(v string, origin ast.Node) {
	if l.fsOrigin == nil {
		l.fsOrigin = map[string]ast.Node{}
	}
	l.fsOrigin[v] = origin
}

// fsOriginOf returns where the file system answer e depends on was
// taken: the check it makes itself, the check a variable it reads was
// set from, or the check whose arm the statement is in; nil when unknown.
func (l *lowerer) fsOriginOf(e ast.Expr) ast.Node {
	var found ast.Node
	done := false
	ast.Inspect(e, func(n ast.Node) bool {
		if done || n == nil {
			return false
		}
		key := ""
		switch x := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Name:
			key = x.Id
		case *ast.Attribute:
			key = dotted(x)
		case *ast.Call:
			if l.directFsProbe(x) {
				found, done = x, true
				return false
			}
		}
		if key != "" && (l.fsVars[key] || l.fsCounts[key]) {
			found, done = l.fsOrigin[key], true
			return false
		}
		return true
	})
	if found == nil && len(l.hostTests) > 0 {
		found = l.hostTests[len(l.hostTests)-1]
	}
	return found
}

// seedFsAttrs marks, in a method, the attributes its class's __init__
// sets from a file system check of the host (`self.ok =
// os.path.isfile(p)`, or a flag set under such a check): what the other
// methods decide on them is this host's view (OCP's BalancedBatchSampler
// balances, with an all_gather, only where it saw the metadata file).
func (l *lowerer) seedFsAttrs(fn *rules.Function, node ast.Node) {
	if init, self := l.classInit(fn, node); init != nil {
		for _, a := range l.initFsAttrs(init) {
			markVar(&l.fsVars, self+"."+a, true)
		}
	}
	ha, ok := l.r.(HostAttrer)
	if !ok {
		return
	}
	attrs := ha.HostAttrs(fn)
	if len(attrs) == 0 {
		return
	}
	_, args, _, isDef := defParts(node)
	if !isDef || args == nil || len(args.Positional()) == 0 {
		return
	}
	var own []string
	if d, isFunc := node.(*ast.FunctionDef); isFunc {
		own = l.initFsAttrs(d) // its own checks mark them where they run
	}
	self := args.Positional()[0].Arg
	for _, a := range attrs {
		if !slices.Contains(own, a) {
			markVar(&l.fsVars, self+"."+a, true)
		}
	}
}

// HostAttrer is implemented by resolvers that know which attributes of a
// method's instance another method of its class (or a base) sets from
// this host's file system, outside __init__: a Solver's resume() that
// sets `self.last_epoch` from the checkpoint it found, read by its
// train() as the loop's start (SoundStorm). HostAttrs returns them for
// fn's class and its bases.
type HostAttrer interface {
	HostAttrs(fn *rules.Function) []string
}

// MethodHostAttrs returns the attributes of its instance that method fn
// (not an __init__, which seedFsAttrs reads itself) sets from this host's
// file system: a check's answer, or a position read from the file it
// found (initFsAttrs). Nil for a function whose text names no check.
func MethodHostAttrs(fn *rules.Function, node ast.Node, r Resolver) []string {
	d, ok := node.(*ast.FunctionDef)
	if !ok || d.Name == "__init__" || d.Args == nil || len(d.Args.Positional()) == 0 {
		return nil
	}
	_, l := bodyLowerer(fn, node, r)
	if l == nil || !l.src.mentionsAny(node.Span(), fsWords) && !l.callsFsHelper(d.Body) {
		return nil
	}
	self := d.Args.Positional()[0].Arg
	// A local holding a helper's answer (`epoch = find_last_epoch(p)`)
	// is no agreed value when it is stored last.
	markBound(d.Body, l.fsVars, l.fsHelperCall)
	var out []string
	for _, a := range l.initFsAttrs(d) {
		if !rebindsLast(d.Body, self+"."+a, l.fsProbe) {
			out = append(out, a)
		}
	}
	return out
}

// callsFsHelper reports a call among body's statements of a program
// function whose result answers this host's file system
// check or lists its files (`epoch = find_last_epoch(pattern)`, a max over
// a glob).
func (l *lowerer) callsFsHelper(body []ast.Stmt) bool {
	// Only a value it binds counts (`epoch = …`, `self.step = …`), and
	// only in a method that stores something on its instance at all.
	stores := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			for _, t := range a.Targets {
				if at, ok := t.(*ast.Attribute); ok {
					_, onName := at.Value.(*ast.Name)
					stores = stores || onName
				}
			}
		}
		return !stores
	})
	if !stores {
		return false
	}
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok && !found {
			found = l.fsHelperCall(a.Value)
		}
		return !found
	})
	return found
}

// fsHelperCall reports a call of a function of the program whose result
// answers this host's file system check (fsProbe).
func (l *lowerer) fsHelperCall(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	_, fn := l.callee(c)
	return fn != nil && fn != l.fn && l.fsProbe(c)
}

// rebindsLast reports whether the last top-level statement of body that
// stores attr is a plain assignment of a value probed does not take:
// `self.skip_first = decision[0]` after the check, what a broadcast
// agreed, is what the method leaves there.
func rebindsLast(body []ast.Stmt, attr string, probed func(ast.Expr) bool) bool {
	var last ast.Stmt
	for _, st := range body {
		stores := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Attribute:
				if n.Ctx == ast.Store && dotted(n) == attr {
					stores = true
				}
			}
			return !stores
		})
		if stores {
			last = st
		}
	}
	a, ok := last.(*ast.Assign)
	return ok && !probed(a.Value)
}

// constructedFsAttrs marks, for `v = Cls(…)` with Cls a class of the
// program, the attributes Cls's __init__ sets from this host's file
// system (`self.tot_length = len(os.listdir(path))`) as v's: what the
// object holds is this host's answer wherever it is read
// (`for i in range(loader.tot_length)`, DistTGL's minibatch loader).
func (l *lowerer) constructedFsAttrs(v string, value ast.Expr) {
	for k := range l.fsVars {
		if strings.HasPrefix(k, v+".") {
			delete(l.fsVars, k) // a new object: the old one's answers go
		}
	}
	if init := l.programInit(value); init != nil {
		l.markFsAttrs(v, init)
		l.markFsArgAttrs(v, value.(*ast.Call), init)
	}
}

// programInit returns the __init__ of the program class a call
// constructs, or nil (also for super().__init__(…) and the like, which
// construct nothing new).
func (l *lowerer) programInit(value ast.Expr) *ast.FunctionDef {
	c, ok := value.(*ast.Call)
	if !ok {
		return nil
	}
	if _, isAttr := c.Func.(*ast.Attribute); isAttr && lastDotted(c.Func) == "__init__" {
		return nil
	}
	_, fn := l.callee(c)
	fd, isFD := l.r.(FuncDefiner)
	if fn == nil || !isFD || !strings.HasSuffix(fn.Name, ".__init__") {
		return nil
	}
	init, _ := fd.FuncDef(fn).(*ast.FunctionDef)
	return init
}

// markFsArgAttrs marks the attributes of v that its __init__ binds from
// the parameters the construction hands this host's file system answer
// (`Learner(name)` with name chosen by os.path.exists, and `self.name =
// name`): those hold the answer, not the whole object (`learner.failed`,
// set from what init_rpc did, does not).
func (l *lowerer) markFsArgAttrs(v string, c *ast.Call, init *ast.FunctionDef) {
	if len(l.fsVars) == 0 {
		return
	}
	for a := range attrsFromArgs(c, init, l.fsProbe) {
		markVar(&l.fsVars, v+"."+a, true)
	}
}

// attrsFromArgs returns the attributes of its instance that an __init__
// binds from the parameters to which the construction c hands arguments
// carries accepts (`self.name = name`, `self.start_iter = start_iter`).
func attrsFromArgs(c *ast.Call, init *ast.FunctionDef, carries func(ast.Expr) bool) map[string]bool {
	if init.Args == nil || len(init.Args.Positional()) == 0 {
		return nil
	}
	params := init.Args.Positional()
	given := map[string]bool{}
	for i, a := range c.Args {
		if _, star := a.(*ast.Starred); star {
			break
		}
		if i+1 < len(params) && carries(a) {
			given[params[i+1].Arg] = true
		}
	}
	for _, k := range c.Keywords {
		if k.Arg != "" && carries(k.Value) {
			given[k.Arg] = true
		}
	}
	if len(given) == 0 {
		return nil
	}
	self := params[0].Arg
	out := map[string]bool{}
	ast.InspectBody(init.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.Assign); ok && readsAny(as.Value, given) {
			for _, t := range as.Targets {
				if a, ok := t.(*ast.Attribute); ok && isName(a.Value, self) {
					out[a.Attr] = true
				}
			}
		}
		return true
	})
	return out
}

// markFsAttrs marks v's attributes that method (an __init__, or another
// method called on v) sets from this host's file system (initFsAttrs).
func (l *lowerer) markFsAttrs(v string, method *ast.FunctionDef) {
	for _, a := range l.initFsAttrs(method) {
		markVar(&l.fsVars, v+"."+a, true)
	}
}

// methodFsAttrs marks the attributes of a local object that a method of
// its class, called on it as a statement, sets from what this host's file
// system holds (U-ViT's `train_state.resume(ckpt_root)`, which lists the
// checkpoint directory and loads the newest step): the caller's later
// tests of `train_state.step` ask this host's answer, as for what an
// __init__ stored (constructedFsAttrs). So does a method of self called
// by another (guided-diffusion's `self._load_and_sync_parameters()` in
// the constructor, after `self.resume_step = 0`).
func (l *lowerer) methodFsAttrs(c *ast.Call) {
	a, ok := c.Func.(*ast.Attribute)
	if !ok || l.notDist > 0 {
		return
	}
	recv, ok := a.Value.(*ast.Name)
	if !ok {
		return
	}
	_, fn := l.callee(c)
	fd, isFD := l.r.(FuncDefiner)
	if fn == nil || fn == l.fn || !isFD || strings.HasSuffix(fn.Name, ".__init__") {
		return
	}
	m, ok := fd.FuncDef(fn).(*ast.FunctionDef)
	if !ok || m.Args == nil || len(m.Args.Positional()) == 0 || m.Args.Positional()[0].Arg != "self" {
		return
	}
	l.markFsAttrs(recv.Id, m)
}

// fsProperty reports `ck.step` where step is a property of ck's class
// returning an attribute (`return self._step`) that a method called on ck
// set from this host's file system (spidr's checkpointer, resumed with
// `ck.resume()` and read back through its step property).
func (l *lowerer) fsProperty(a *ast.Attribute) bool {
	p := l.propertyPath(a, l.fsVars)
	return p != "" && l.fsVars[p]
}

// propertyGetter is the getter a read of a property runs, also where the
// receiver is a local the function binds once to a construction (ck =
// Ckpt(d)): the receiver's values are then that call's.
func (l *lowerer) propertyGetter(pg PropertyGetterer, a *ast.Attribute) *rules.Function {
	if fn := pg.PropertyGetter(a); fn != nil {
		return fn
	}
	if v, isName := a.Value.(*ast.Name); isName {
		if c, isCall := LocalValue(l.node, v.Id).(*ast.Call); isCall {
			return pg.PropertyGetter(&ast.Attribute{Value: c, Attr: a.Attr, Ctx: ast.Load})
		}
	}
	return nil
}

// paramFsAttrs marks the attributes of the object a call hands a
// program function as its first argument that the function sets from
// this host's file system (initFsAttrs, with that parameter as the
// receiver): EVL's find_resume_path(args) lists the checkpoint
// directory and stores args.resume_path, which the caller then loads.
func (l *lowerer) paramFsAttrs(c *ast.Call) {
	if l.notDist > 0 || len(c.Args) == 0 {
		return
	}
	if _, plain := c.Func.(*ast.Name); !plain {
		return
	}
	recv := dotted(c.Args[0])
	if recv == "" || recv == "self" {
		return
	}
	_, fn := l.callee(c)
	fd, isFD := l.r.(FuncDefiner)
	if fn == nil || fn == l.fn || !isFD || strings.HasSuffix(fn.Name, ".__init__") {
		return
	}
	if d, ok := fd.FuncDef(fn).(*ast.FunctionDef); ok && d.Args != nil && len(d.Args.Positional()) > 0 {
		l.markFsAttrs(recv, d)
	}
}

// seedHostAttrs marks, in a method, the attributes its class's __init__
// binds to host memory (`self.buf = torch.empty(…, pin_memory=True)`, a
// list of such buffers): a copy into them, or a view of them, leaves
// nothing pending on a stream.
func (l *lowerer) seedHostAttrs(fn *rules.Function, node ast.Node) {
	if init, self := l.classInit(fn, node); init != nil {
		for _, a := range l.initHostAttrs(init) {
			l.hostVars[self+"."+a] = true
		}
	}
}

// classInit returns the __init__ of the class a method (node, other
// than __init__ itself) belongs to, and the method's receiver name; nil
// when there is none.
func (l *lowerer) classInit(fn *rules.Function, node ast.Node) (*ast.FunctionDef, string) {
	md, ok := l.r.(MethodDefiner)
	if !ok {
		return nil, ""
	}
	_, args, _, isDef := defParts(node)
	if !isDef || args == nil || len(args.Positional()) == 0 {
		return nil, ""
	}
	init, isFunc := md.MethodDef(fn, "__init__").(*ast.FunctionDef)
	if !isFunc || init == node {
		return nil, ""
	}
	return init, args.Positional()[0].Arg
}

// initHostAttrs returns the attributes an __init__ binds once to host
// memory (a pinned or CPU tensor, or a list of them), memoized per
// constructor.
func (l *lowerer) initHostAttrs(init *ast.FunctionDef) []string {
	c := l.memo()
	if v, ok := c.hostAttrs.Load(init); ok {
		return v.([]string)
	}
	out := onceBoundAttrs(init, pinnedBuffers)
	v, _ := c.hostAttrs.LoadOrStore(init, out)
	return v.([]string)
}

// onceBoundAttrs returns, sorted, the attributes of its instance that an
// __init__ binds exactly once, to a value pred accepts.
func onceBoundAttrs(init *ast.FunctionDef, pred func(ast.Expr) bool) []string {
	if init.Args == nil || len(init.Args.Positional()) == 0 {
		return nil
	}
	self := init.Args.Positional()[0].Arg
	count := map[string]int{}
	accepted := map[string]bool{}
	ast.InspectBody(init.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.Assign)
		if !ok || len(as.Targets) != 1 {
			return true
		}
		if a, ok := as.Targets[0].(*ast.Attribute); ok {
			if x, ok := a.Value.(*ast.Name); ok && x.Id == self {
				count[a.Attr]++
				accepted[a.Attr] = pred(as.Value)
			}
		}
		return true
	})
	var out []string
	for a, n := range count {
		if n == 1 && accepted[a] {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// pinnedBuffers reports a tensor made in host memory (pin_memory=True,
// device="cpu") or a list of them, by a display or a comprehension.
func pinnedBuffers(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.ListComp:
		return pinnedBuffers(x.Elt)
	case *ast.List, *ast.Tuple:
		items := ast.SeqElts(x)
		for _, it := range items {
			if !pinnedBuffers(it) {
				return false
			}
		}
		return len(items) > 0
	case *ast.Call:
		return hostValue(x)
	}
	return false
}

// initFsAttrs returns the attributes an __init__ sets from a file system
// check (memoized per constructor).
func (l *lowerer) initFsAttrs(init *ast.FunctionDef) []string {
	c := l.memo()
	if v, ok := c.fsAttrs.Load(init); ok {
		return v.([]string)
	}
	var out []string
	if init.Args != nil && len(init.Args.Positional()) > 0 {
		seen := map[string]bool{}
		// The path under self: `self.ok`, or `self.args.resume_path` on a
		// config object the instance keeps (Lumina-mGPT's solver).
		add := func(t ast.Expr, self string) {
			if _, ok := t.(*ast.Attribute); !ok {
				return
			}
			d := dotted(t)
			if path, ok := strings.CutPrefix(d, self+"."); ok && !seen[path] {
				seen[path] = true
				out = append(out, path)
			}
		}
		// visited: the methods walked, 1 from outside any check, 2 from
		// under one.
		visited := map[*rules.Function]int{}
		var visit func(sub *lowerer, body []ast.Stmt, underCheck bool, self string, depth int)
		visit = func(sub *lowerer, body []ast.Stmt, underCheck bool, self string, depth int) {
			for _, st := range body {
				switch st := st.(type) {
				case *ast.Assign:
					probed := sub.fsProbe(st.Value)
					// `self.step = torch.load(step_file)` where the host
					// found a checkpoint (U-ViT's TrainState).
					position := underCheck && sub.loadsStored(st.Value) && positionTargets(st.Targets)
					// Under a check, a flag or a position read from the
					// file it found (`self.startEpoch =
					// torch.load(p)["epoch"]`). In a method the
					// constructor calls, only a position read from what
					// the host found (`self.step = state["step"]`) or
					// what its check sets: a
					// whole configuration reloaded from a checkpoint
					// (ultralytics' check_resume) holds the launch's
					// settings too, which every rank shares.
					if (probed && (depth == 0 || storedScalar(st.Value))) || underCheck && (flagValue(st.Value) || storedScalar(st.Value)) || position {
						for _, t := range st.Targets {
							add(t, self)
						}
					}
					if probed && len(st.Targets) == 1 {
						if n, ok := st.Targets[0].(*ast.Name); ok {
							sub.fsVars[n.Id] = true
						}
					}
					if underCheck && len(st.Targets) == 1 && sub.loadsStored(st.Value) {
						// `self.state = torch.load(found)`: the whole
						// state is not the object's answer (it holds the
						// launch's settings too), but a position read from
						// it next is (`self.last_iter =
						// self.state["last_iter"]`, DeCLIP's solver).
						if a, ok := st.Targets[0].(*ast.Attribute); ok {
							if d := dotted(a); d != "" {
								sub.fsVars[d] = true
							}
						}
					}
				case *ast.ExprStmt:
					// found.append(int(name[5:])) over a listing.
					if v := sub.appendedFs(st); v != "" {
						sub.fsVars[v] = true
					}
					// self.load_checkpoint(): what the instance's own
					// method sets from this host's disk while the object
					// is built is the object's too (TabICL's trainer).
					if c, ok := st.Value.(*ast.Call); ok && depth < 2 {
						want := 1
						if underCheck {
							want = 2
						}
						if fn, mbody, mself := l.ownMethod(c, self); fn != nil && visited[fn] < want {
							// Once, and once more from under a check
							// (OpenPCSeg resumes args.ckp in one arm
							// and the newest file it globbed in the
							// other).
							visited[fn] = want
							msub := *sub
							msub.fsVars, msub.fsLists = map[string]bool{}, nil
							visit(&msub, mbody, underCheck, mself, depth+1)
						}
					}
				case *ast.If:
					probe := sub.fsProbe(st.Test) && !sub.failsWithoutFile(st)
					// (An arm that ends by raising leaves no object
					// behind: what it set is never read.)
					if !failsOnly(st.Body) {
						visit(sub, st.Body, underCheck || probe, self, depth)
					}
					if !failsOnly(st.Orelse) {
						visit(sub, st.Orelse, underCheck || probe, self, depth)
					}
					if probe && len(st.Orelse) == 0 && leavesFunction(st.Body) {
						// `if not os.path.exists(root): return`: what
						// follows runs where the host found it.
						underCheck = true
					}
				case *ast.Try:
					visit(sub, st.Body, underCheck, self, depth)
				case *ast.For:
					if sub.fsProbe(st.Iter) {
						// for name in os.listdir(d): each name is this
						// host's.
						ast.Inspect(st.Target, func(t ast.Node) bool {
							if nm, ok := t.(*ast.Name); ok {
								sub.fsVars[nm.Id] = true
							}
							return true
						})
					}
					visit(sub, st.Body, underCheck, self, depth)
					visit(sub, st.Body, underCheck, self, depth) // what the first pass bound reaches the loop's head
				case *ast.While:
					visit(sub, st.Body, underCheck, self, depth)
					visit(sub, st.Body, underCheck, self, depth)
				case *ast.With:
					visit(sub, st.Body, underCheck, self, depth)
				}
			}
		}
		sub := *l
		sub.fsVars, sub.fsLists = map[string]bool{}, nil
		// Locals are marked in statement order: `self.cfg = conf.x` before
		// `conf = merge(conf, load(found))` keeps the launch config.
		visit(&sub, init.Body, false, init.Args.Positional()[0].Arg, 0)
	}
	v, _ := c.fsAttrs.LoadOrStore(init, out)
	return v.([]string)
}

// positionTargets reports assignment targets named for a training
// position (self.step, self.epoch, self.global_iter).
func positionTargets(targets []ast.Expr) bool {
	for _, t := range targets {
		a, ok := t.(*ast.Attribute)
		if !ok {
			return false
		}
		name := strings.ToLower(a.Attr)
		if !strings.Contains(name, "step") && !strings.Contains(name, "epoch") && !strings.Contains(name, "iter") {
			return false
		}
	}
	return len(targets) > 0
}

// ownMethod resolves self.m(…), a call of the instance's own method on
// the receiver named self, to its function, body and receiver name.
func (l *lowerer) ownMethod(c *ast.Call, self string) (*rules.Function, []ast.Stmt, string) {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return nil, nil, ""
	}
	if recv, ok := a.Value.(*ast.Name); !ok || recv.Id != self {
		return nil, nil, ""
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil, nil, ""
	}
	body, args, ok := l.defOf(fn)
	if !ok || len(args.PositionalNames()) == 0 {
		return nil, nil, ""
	}
	return fn, body, args.PositionalNames()[0]
}

// listing reports whether e lists a directory of this host, or holds a
// list made from one (fsLists): its elements are this host's file names.
// Other values computed from a probe's answer are not (a data loader told
// to skip the batches a resumed run has seen yields batches, not names).
func (l *lowerer) listing(e ast.Expr) bool {
	return dependsOn(e, l.fsLists, func(n ast.Node) (found, descend bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if l.frameworkObject(c) {
			// A framework object configured from a listing
			// (Accelerator(project_config=ProjectConfiguration(iteration=
			// it + 1)), AMPLIFY) holds no file names.
			return false, false
		}
		ext, fn := l.callee(c)
		if fsListings[ext] || fn != nil && fn != l.fn && l.returnsListing(fn) {
			return true, false
		}
		a, ok := c.Func.(*ast.Attribute)
		return ok && fn == nil && (pathListMeths[a.Attr] && (hasAnyPrefix(ext, pathLibs) || ext == "" && pathListing(c, a)) || fsListLibMethods[a.Attr] && hasAnyPrefix(ext, fsProbeLibs)), true
	})
}

// returnsListing reports a program function that returns this host's
// listing of a directory, or a list made from one (`return
// sorted(Path(d).glob("chunk-*.pt"))`, Language-Model-SAEs'
// _get_sorted_chunks): every return hands back such a list, an empty
// one or None, and one at least a listing.
func (l *lowerer) returnsListing(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().fsListRets, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		sub := *l
		sub.fn, sub.fsLists = fn, map[string]bool{}
		markBound(body, sub.fsLists, sub.listing)
		listed, other := false, false
		ast.InspectBody(body, func(n ast.Node) bool {
			r, ok := n.(*ast.Return)
			if !ok {
				return !other
			}
			switch {
			case r.Value == nil || isNone(r.Value) || emptyList(r.Value):
			case sub.listing(r.Value):
				listed = true
			default:
				other = true
			}
			return !other
		})
		return listed && !other
	})
}

// fsProbe reports whether e depends on a file system probe: a call of
// fsProbeCalls, a Path method of fsProbeMethods, or a local holding such
// an answer.
func (l *lowerer) fsProbe(e ast.Expr) bool {
	return dependsOn(e, l.fsVars, func(n ast.Node) (found, descend bool) {
		if a, ok := n.(*ast.Attribute); ok && len(l.fsVars) > 0 && l.fsVars[dotted(a)] {
			return true, false
		}
		if a, ok := n.(*ast.Attribute); ok && len(l.fsVars) > 0 && a.Ctx == ast.Load && l.fsProperty(a) {
			return true, false
		}
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if l.agreedCall(c) {
			// The rank that looked broadcast its answer (Uni-Core's and
			// fairseq's `bexists = broadcast_object(bexists, src_rank=0)`).
			return false, false
		}
		ext, fn := l.callee(c)
		if fsProbeCalls[ext] || ext == "" && fsProbeCalls[dotted(c.Func)] || fsListings[ext] {
			return true, false
		}
		if fn != nil && fn != l.fn && l.returnsFsProbeAt(c, fn) {
			return true, false // def plan_exists(self): return os.path.exists(self.plan)
		}
		if fn == nil && ext != "" && constructs(c) && l.tb.FrameworkClass(ext) {
			// A framework object configured from what this host found
			// (latent diffusion's Trainer(**trainer_opt) with configs
			// globbed on resume) is no file check: its state
			// (trainer.interrupted) is its own.
			return false, false
		}
		a, ok := c.Func.(*ast.Attribute)
		if !ok || fn != nil {
			return false, true
		}
		if (fsProbeLibMethods[a.Attr] || fsListLibMethods[a.Attr]) && hasAnyPrefix(ext, fsProbeLibs) || pathListMeths[a.Attr] && (hasAnyPrefix(ext, pathLibs) || ext == "" && pathListing(c, a)) {
			return true, false
		}
		if ext == "" && (fsProbeLibMethods[a.Attr] || fsListLibMethods[a.Attr]) && l.fsspecLocal(a.Value) {
			return true, false // fs, _ = fsspec.core.url_to_fs(p); fs.exists(p)
		}
		return fsProbeMethods[a.Attr] && len(c.Args) == 0 && len(c.Keywords) == 0 &&
			(ext == "" || hasAnyPrefix(ext, pathLibs)), true
	})
}

// fsspecLocal reports a local that this function binds to what an
// fsspec call returns, or to an element of it (`fs, _ =
// fsspec.core.url_to_fs(filename)`, mdlm's fsspec_exists): a file
// system whose type the call graph does not follow into the tuple.
func (l *lowerer) fsspecLocal(e ast.Expr) bool {
	n, ok := e.(*ast.Name)
	return ok && l.fsspecLocals()[n.Id]
}

// fsspecLocals returns the locals of l.fn that fsspecLocal accepts, found
// once per function in its own body (also when l judges it for a caller).
func (l *lowerer) fsspecLocals() map[string]bool {
	return summarize(&l.memo().fsspecLocals, l.fn, func() map[string]bool {
		body, _, ok := l.defOf(l.fn)
		if !ok {
			body = l.body // a module's own statements
		}
		var out map[string]bool
		ast.InspectBody(body, func(x ast.Node) bool {
			a, ok := x.(*ast.Assign)
			if !ok {
				return true
			}
			c, ok := a.Value.(*ast.Call)
			if !ok {
				return true
			}
			for _, t := range a.Targets {
				if tt, isTuple := t.(*ast.Tuple); isTuple && len(tt.Elts) > 0 {
					t = tt.Elts[0]
				}
				if tn, isName := t.(*ast.Name); isName {
					if ext, _ := l.callee(c); hasAnyPrefix(ext, fsProbeLibs) {
						if out == nil {
							out = map[string]bool{}
						}
						out[tn.Id] = true
					}
				}
			}
			return true
		})
		return out
	})
}

// directFsProbe reports a test that itself asks the file system (a probe
// call in it), not only through a variable that holds an earlier answer:
// the arms of the first set flags from the answer, those of the second
// are that answer's consequences, already reported where it was made.
func (l *lowerer) directFsProbe(test ast.Expr) bool {
	saved := l.fsVars
	l.fsVars = nil
	defer func() { l.fsVars = saved }()
	return l.fsProbe(test)
}

// flagValue reports a value that a check's arm sets as a flag or a choice
// (a constant, or a name or attribute: `stop = True`, `load_from =
// current_path`), not a value it computes.
func flagValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Constant, *ast.Name:
		return true
	case *ast.Attribute:
		return dotted(e) != ""
	}
	return false
}

// storedScalar reports a number read from stored data by key, as a
// resume reads its position from a checkpoint it found
// (`checkpoint["epoch"] + 1`, `int(state.get("step", 0))`): set under a
// host's file check, it is that host's answer, as a flag would be.
func storedScalar(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Subscript:
		_, ok := constStr(e.Slice)
		return ok
	case *ast.BinOp:
		_, lc := e.Left.(*ast.Constant)
		_, rc := e.Right.(*ast.Constant)
		return storedScalar(e.Left) && rc || lc && storedScalar(e.Right)
	case *ast.Call:
		switch f := e.Func.(type) {
		case *ast.Name:
			return (f.Id == "int" || f.Id == "float") && len(e.Args) == 1 && (storedScalar(e.Args[0]) || fileText(e.Args[0]) || nameNumber(e.Args[0]))
		case *ast.Attribute:
			if f.Attr == "get" && len(e.Args) >= 1 {
				_, ok := constStr(e.Args[0])
				return ok
			}
			return f.Attr == "item" && len(e.Args) == 0 && storedScalar(f.Value)
		}
	}
	return false
}

// nameNumber reports the digits of a file name, to be parsed as the
// step it was saved at: a slice of it (`ckpt[-9:-3]`, `name[4:]`) or a
// piece of it split apart (`name.split("_")[-1]`).
func nameNumber(e ast.Expr) bool {
	sub, ok := e.(*ast.Subscript)
	if !ok {
		return false
	}
	if _, ok := sub.Slice.(*ast.Slice); ok {
		return true
	}
	c, ok := sub.Value.(*ast.Call)
	if !ok {
		return false
	}
	a, ok := c.Func.(*ast.Attribute)
	_, index := intConst(sub.Slice)
	return ok && (a.Attr == "split" || a.Attr == "rsplit") && index
}

// fileText reports the text read from an open file (`f.read()`,
// `open(p).readline().strip()`): a number parsed from it is stored data,
// as a step file a resume reads.
func fileText(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	f, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	switch f.Attr {
	case "read", "readline":
		return len(c.Args) <= 1
	case "strip", "rstrip", "lstrip":
		return fileText(f.Value)
	}
	return false
}

// fsProbeOperand returns the operand of an `and` test that makes its
// file system check, a condition the arm needs (nil when the test is no
// conjunction, or none of its operands alone is the check).
func (l *lowerer) fsProbeOperand(test ast.Expr) ast.Expr {
	b, ok := test.(*ast.BoolOp)
	if !ok || b.Op != ast.And {
		return nil
	}
	for _, v := range b.Values {
		if l.fsProbe(v) {
			return v
		}
	}
	return nil
}

// returnsFsProbe reports a program function whose result answers a
// file system check of the host it runs on: one of its returns is such a
// check (`return os.path.exists(p)`, or a local holding one), or its
// returns are constants, not all the same, and one of them is under an if
// that tests such a check (`if os.path.exists(p): return True` /
// `return False`). Any other return (a computed value, a call) and it is
// not: the answer may have been agreed on (broadcast) or be unrelated.
func (l *lowerer) returnsFsProbe(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().fsAnswers, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		sub := *l
		sub.fn, sub.fsVars, sub.fsLists = fn, map[string]bool{}, map[string]bool{}
		return sub.fsAnswer(sub.liveStmts(body))
	})
}

// returnsFsProbeAt is returnsFsProbe for the call c of fn: a parameter
// the call leaves at a None or False default makes an early arm that
// tests it dead at this call (`def load_checkpoint(self, path=None,
// tier=None): if path and tier: return self.load(path)` before the
// listing of this host's directory, called as `load_checkpoint()`,
// elastic-training-harness's resume).
func (l *lowerer) returnsFsProbeAt(c *ast.Call, fn *rules.Function) bool {
	if l.returnsFsProbe(fn) {
		return true
	}
	body, args, ok := l.defOf(fn)
	if !ok {
		return false
	}
	unset := unsetFalsyParams(c, args)
	if len(unset) == 0 {
		return false
	}
	pruned, changed := pruneFalsyArms(body, unset)
	if !changed {
		return false
	}
	names := make([]string, 0, len(unset))
	for p := range unset {
		names = append(names, p)
	}
	slices.Sort(names)
	key := fsAtKey{fn: fn, unset: strings.Join(names, ",")}
	if v, ok := l.memo().fsAnswersAt.Load(key); ok {
		return v.(bool)
	}
	l.memo().fsAnswersAt.Store(key, false) // recursion: not (yet)
	sub := *l
	sub.fn, sub.fsVars, sub.fsLists = fn, map[string]bool{}, map[string]bool{}
	v := sub.fsAnswer(sub.liveStmts(pruned))
	l.memo().fsAnswersAt.Store(key, v)
	return v
}

// fsAtKey keys returnsFsProbeAt's answers: a function and the parameters
// a call leaves at their falsy defaults.
type fsAtKey struct {
	fn    *rules.Function
	unset string
}

// unsetFalsyParams returns the parameters of args whose default is None
// or False and that call c does not pass; nil when c passes *args or
// **kwargs (which could fill any of them).
func unsetFalsyParams(c *ast.Call, args *ast.Arguments) map[string]bool {
	for _, a := range c.Args {
		if _, star := a.(*ast.Starred); star {
			return nil
		}
	}
	passed := map[string]bool{}
	for _, k := range c.Keywords {
		if k.Arg == "" {
			return nil
		}
		passed[k.Arg] = true
	}
	falsy := func(e ast.Expr) bool {
		k, ok := e.(*ast.Constant)
		return ok && (k.Type == ast.ConstNone || k.Type == ast.ConstBool && !k.Bool)
	}
	params := args.Positional()
	shift := 0
	if len(params) > 0 {
		shift = receiverShift(c, params[0].Arg)
	}
	out := map[string]bool{}
	first := len(params) - len(args.Defaults)
	for i, d := range args.Defaults {
		idx := first + i
		if idx < 0 || idx-shift < len(c.Args) || passed[params[idx].Arg] || !falsy(d) {
			continue
		}
		out[params[idx].Arg] = true
	}
	for i, p := range args.KwOnlyArgs {
		if i < len(args.KwDefaults) && args.KwDefaults[i] != nil && falsy(args.KwDefaults[i]) && !passed[p.Arg] {
			out[p.Arg] = true
		}
	}
	return out
}

// pruneFalsyArms returns body with each top-level if whose test is false
// when the unset parameters hold their falsy defaults replaced by its
// else arm.
func pruneFalsyArms(body []ast.Stmt, unset map[string]bool) ([]ast.Stmt, bool) {
	var falsyTest func(e ast.Expr) bool
	falsyTest = func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Name:
			return unset[x.Id]
		case *ast.BoolOp:
			if x.Op != ast.And {
				return false
			}
			for _, v := range x.Values {
				if falsyTest(v) {
					return true
				}
			}
		case *ast.Compare:
			// p is not None
			n, ok := x.Left.(*ast.Name)
			return ok && unset[n.Id] && len(x.Ops) == 1 && x.Ops[0] == ast.IsNot && isNone(x.Comparators[0])
		}
		return false
	}
	out := make([]ast.Stmt, 0, len(body))
	changed := false
	for _, st := range body {
		if i, ok := st.(*ast.If); ok && falsyTest(i.Test) {
			out = append(out, i.Orelse...)
			changed = true
			continue
		}
		out = append(out, st)
	}
	return out, changed
}

// fsReturnedElements returns, for a program function that answers a file
// system check (returnsFsProbe) and returns tuples of one length
// everywhere, the indexes of the elements that hold the answer: `return
// dataloader_state, global_step`, where only the first was read from a
// file this rank found, hands the caller a step every rank agrees on
// (OpenOneRec's load_checkpoint). nil when the function returns anything
// else, or no element alone holds the answer (each element then holds
// it, as before).
func (l *lowerer) fsReturnedElements(fn *rules.Function) map[int]bool {
	return summarizeGuarded(&l.memo().fsElems, fn, func() map[int]bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return nil
		}
		var rets []*ast.Tuple
		for _, r := range tupleReturns(body) {
			rets = append(rets, r.Value.(*ast.Tuple))
		}
		if len(rets) == 0 {
			return nil
		}
		sub := *l
		sub.fn, sub.fsVars, sub.fsLists = fn, map[string]bool{}, map[string]bool{}
		if !sub.fsAnswer(sub.liveStmts(body)) {
			return nil
		}
		// Returns inside an arm of a file check hand back that check's
		// answer in their flags and choices too (`return path, False`
		// against the fall-through `return None, True`, VILA's
		// get_checkpoint_path).
		underCheck := map[*ast.Tuple]bool{}
		ast.InspectBody(body, func(n ast.Node) bool {
			if i, ok := n.(*ast.If); ok && sub.fsProbe(i.Test) {
				for _, arm := range [][]ast.Stmt{i.Body, i.Orelse} {
					ast.InspectBody(arm, func(m ast.Node) bool {
						if r, ok := m.(*ast.Return); ok {
							if t, ok := r.Value.(*ast.Tuple); ok {
								underCheck[t] = true
							}
						}
						return true
					})
				}
			}
			return true
		})
		var out map[int]bool
		for _, t := range rets {
			for i, e := range t.Elts {
				if sub.fsProbe(e) || underCheck[t] && flagValue(e) {
					if out == nil {
						out = map[int]bool{}
					}
					out[i] = true
				}
			}
		}
		return out
	})
}

// liveStmts returns stmts without the else arms that cannot run: those
// of an if whose test holds wherever it is asked (knownTrue), given the
// tests of the ifs around it and the guards before it (`if not path:
// return 0` … `if path is not None and path != "": … else:
// os.scandir(…)`, rank_llm's resume helper). The ifs it changes are
// copies; every other node is the function's own.
func (l *lowerer) liveStmts(stmts []ast.Stmt) []ast.Stmt {
	saved := l.ifTests
	l.ifTests = nil
	defer func() { l.ifTests = saved }()
	return l.live(stmts)
}

func (l *lowerer) live(stmts []ast.Stmt) []ast.Stmt {
	n := len(l.ifTests)
	defer func() { l.ifTests = l.ifTests[:n] }()
	out := make([]ast.Stmt, 0, len(stmts))
	for i, s := range stmts {
		if x, ok := s.(*ast.If); ok {
			c := *x
			dead := l.knownTrue(x.Test)
			l.ifTests = append(l.ifTests, x.Test)
			c.Body = l.live(x.Body)
			l.ifTests = l.ifTests[:len(l.ifTests)-1]
			if dead {
				c.Orelse = nil
			} else {
				c.Orelse = l.live(x.Orelse)
			}
			out = append(out, &c)
		} else {
			out = append(out, s)
		}
		if t := guardedTruthy(s, stmts[i+1:]); t != nil {
			l.ifTests = append(l.ifTests, t)
		}
	}
	return out
}

func (l *lowerer) fsAnswer(body []ast.Stmt) bool {
	// A helper that communicates may hand back an agreed answer (one rank
	// looked and broadcast it): not this host's own. A barrier agrees on
	// nothing: the hosts still look at their own file systems after it;
	// nor does a framework's checkpoint load or save
	// (accelerator.load_state(d) before reading d's metadata.json).
	communicates := false
	ast.InspectBody(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			if s := l.r.Site(c); s != nil && s.Op != "barrier" && !checkpointCall(s) || l.agreedCall(c) {
				communicates = true
			}
		}
		return !communicates
	})
	if communicates {
		return false
	}
	// Locals that hold a check, wherever they are bound (exists =
	// os.path.exists(p); return exists), the targets of a loop over a
	// directory listing, also one kept in a local first (`ckpts =
	// sorted(glob(…))`, ssl-data-curation's get_last_valid_checkpoint),
	// and what is computed from them (`for sub in os.listdir(d): best =
	// sub`).
	if l.fsLists != nil {
		markBound(body, l.fsLists, l.listing)
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		if f, ok := n.(*ast.For); ok && l.listing(f.Iter) {
			ast.Inspect(f.Target, func(t ast.Node) bool {
				if nm, ok := t.(*ast.Name); ok {
					l.fsVars[nm.Id] = true
				}
				return true
			})
		}
		return true
	})
	l.markAppended(body)
	// find_resume_path(args) before `ckpt = torch.load(args.resume_path)`.
	ast.InspectBody(body, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if c, ok := es.Value.(*ast.Call); ok {
				l.paramFsAttrs(c)
			}
		}
		return true
	})
	markBound(body, l.fsVars, l.fsProbe)
	// `last_epoch, _ = utils.find_last_epoch(p)`: the elements a helper
	// returns from its check (obow's Solver.find_last_epoch).
	ast.InspectBody(body, func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok || len(a.Targets) != 1 {
			return true
		}
		c, isCall := a.Value.(*ast.Call)
		elts := ast.SeqElts(a.Targets[0])
		if !isCall || len(elts) == 0 || !l.fsProbe(c) {
			return true
		}
		var only map[int]bool
		if _, fn := l.callee(c); fn != nil && fn != l.fn {
			only = l.fsReturnedElements(fn)
		}
		for i, e := range elts {
			if nm, ok := e.(*ast.Name); ok && (only == nil || only[i]) {
				l.fsVars[nm.Id] = true
			}
		}
		return true
	})
	l.markAppended(body)
	underCheck := map[*ast.Return]bool{}
	// Locals the body first sets to None (`meta = None`): one that a
	// check's arm then fills (`if os.path.exists(p): meta =
	// json.load(f)`) is None or not by this host's answer.
	noneFirst := map[string]bool{}
	for _, st := range body {
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 && isNone(a.Value) {
			if t, ok := a.Targets[0].(*ast.Name); ok {
				noneFirst[t.Id] = true
			}
		}
	}
	ast.InspectBody(body, func(n ast.Node) bool {
		if i, ok := n.(*ast.If); ok && l.fsProbe(i.Test) {
			mark := func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Return:
					underCheck[n] = true
				case *ast.Assign:
					// `if (p / name).is_file(): path = p`: what the arm
					// binds is this host's answer.
					if t, ok := n.Targets[0].(*ast.Name); ok && len(n.Targets) == 1 && (flagValue(n.Value) || noneFirst[t.Id] && !isNone(n.Value)) {
						l.fsVars[t.Id] = true
					}
				}
				return true
			}
			ast.InspectBody(i.Body, mark)
			ast.InspectBody(i.Orelse, mark)
		}
		return true
	})
	// inIf: returns inside an if's arms. A None return that another test
	// guards (`if filename is None: return None` before the check,
	// pirlnav's load_interrupted_state) answers the same on every host
	// that test answers alike; one reached with no test says nothing.
	inIf := map[*ast.Return]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		if i, ok := n.(*ast.If); ok {
			mark := func(n ast.Node) bool {
				if r, ok := n.(*ast.Return); ok {
					inIf[r] = true
				}
				return true
			}
			ast.InspectBody(i.Body, mark)
			ast.InspectBody(i.Orelse, mark)
		}
		return true
	})
	probed, checked, other := false, false, false
	// noneOutside: a None return that no check guards; otherUnder and
	// otherOutside: a computed value returned where a check guards it,
	// and where none does.
	noneOutside, otherUnder, otherOutside := false, false, false
	// plainOthers: every computed value returned is a name, an attribute
	// or a display of those and constants (`return args.init_model_dir,
	// 0`): a fallback the caller passed in, next to a return made from
	// the listing (ANCE's get_latest_checkpoint).
	plainOthers := true
	consts := map[string]bool{}
	ast.InspectBody(body, func(n ast.Node) bool {
		r, ok := n.(*ast.Return)
		if !ok {
			return true
		}
		switch {
		case r.Value != nil && l.fsProbe(r.Value):
			probed = true
		case r.Value == nil:
			consts[noneDump] = true
			noneOutside = noneOutside || !underCheck[r]
		case emptyDisplay(r.Value):
			// `return {}` beside `return torch.load(p)` under the check
			// (cvpods' resume_or_load, read as `.get("iteration", -1)`):
			// an empty answer, like None.
			consts[noneDump] = true
			checked = checked || underCheck[r]
			noneOutside = noneOutside || !underCheck[r]
		default:
			if !constantValue(r.Value) {
				other = true
				plainOthers = plainOthers && plainValue(r.Value)
				otherUnder = otherUnder || underCheck[r]
				otherOutside = otherOutside || !underCheck[r]
				break
			}
			consts[ast.Dump(r.Value, ast.DumpOptions{})] = true
			checked = checked || underCheck[r]
			noneOutside = noneOutside || isNone(r.Value) && !underCheck[r] && !(inIf[r] && checkedLater(body, r, underCheck))
		}
		return false
	})
	if other && probed && (plainOthers || otherUnder && !otherOutside) {
		// Besides the returns made from the check, only fallbacks the
		// caller passed in, or values returned where a check holds
		// (`if os.path.exists(last): return os.path.join(d, last)`
		// before the listing's pick, MoBY's auto_resume_helper).
		return true
	}
	if other {
		// A value, or None when the check fails (`if not
		// os.path.exists(p): return None` / `return torch.load(p)`), or
		// the other way round (`if os.path.exists(d): return d + "/latest"`
		// / `return None`): whether the caller got None is this host's
		// answer.
		noneOnly := len(consts) == 1 && consts[noneDump]
		return noneOnly && (checked && !noneOutside || otherUnder && !otherOutside && noneOutside) || flagElement(body, underCheck)
	}
	return probed || checked && len(consts) > 1
}

// checkedLater reports a return that comes, in source order, before some
// return a file system check guards: a guard in front of the check, not
// the answer after it.
func checkedLater(body []ast.Stmt, r *ast.Return, underCheck map[*ast.Return]bool) bool {
	for u := range underCheck {
		if u.Pos.Lineno > r.Pos.Lineno {
			return true
		}
	}
	return false
}

// checkpointCall: a framework call that loads or saves a checkpoint
// (Accelerator.load_state, the DeepSpeed engine's load_checkpoint).
func checkpointCall(s *rules.Site) bool {
	return s.Kind == rules.OpFramework && (s.Op == "load_checkpoint" || s.Op == "save_checkpoint")
}

// plainValue reports a constant, a name, an attribute of one, or a
// tuple or list display of those: a value no call computes.
func plainValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Constant, *ast.Name:
		return true
	case *ast.Attribute:
		return plainValue(x.Value)
	case *ast.UnaryOp:
		return plainValue(x.Operand) // -1
	case *ast.Tuple, *ast.List:
		for _, el := range ast.SeqElts(x) {
			if !plainValue(el) {
				return false
			}
		}
		return true
	}
	return false
}

// flagElement reports tuple returns of one length, some under a check and
// some not, that hold different constants at one position (`return
// path, False` under the check, `return None, True` after it, VILA's
// get_checkpoint_path): that element tells the caller which way the
// check went.
func flagElement(body []ast.Stmt, underCheck map[*ast.Return]bool) bool {
	rets := tupleReturns(body)
	if len(rets) < 2 {
		return false
	}
	n := len(rets[0].Value.(*ast.Tuple).Elts)
	for i := 0; i < n; i++ {
		seen := map[string]bool{}
		under, outside, consts := false, false, true
		for _, r := range rets {
			k, isConst := r.Value.(*ast.Tuple).Elts[i].(*ast.Constant)
			if !isConst {
				consts = false
				break
			}
			seen[ast.Dump(k, ast.DumpOptions{})] = true
			under = under || underCheck[r]
			outside = outside || !underCheck[r]
		}
		if consts && len(seen) > 1 && under && outside {
			return true
		}
	}
	return false
}

// tupleReturns returns body's return statements when every one returns a
// tuple display of one length (`return path, False` / `return None,
// True`), nil otherwise.
func tupleReturns(body []ast.Stmt) []*ast.Return {
	var rets []*ast.Return
	same := true
	ast.InspectBody(body, func(x ast.Node) bool {
		if r, isRet := x.(*ast.Return); isRet {
			t, isTuple := r.Value.(*ast.Tuple)
			if !isTuple || len(rets) > 0 && len(t.Elts) != len(rets[0].Value.(*ast.Tuple).Elts) {
				same = false
			} else {
				rets = append(rets, r)
			}
		}
		return same
	})
	if !same {
		return nil
	}
	return rets
}

// constantValue: a constant, an empty display, or a tuple of those
// (`return None, 0`): an answer that is the same wherever it is given.
func constantValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Constant:
		return true
	case *ast.Tuple:
		for _, el := range x.Elts {
			if !constantValue(el) {
				return false
			}
		}
		return true
	}
	return emptyDisplay(e)
}

// noneDump is how fsAnswer keys a None return (ast.Dump of the constant).
var noneDump = ast.Dump(&ast.Constant{Type: ast.ConstNone}, ast.DumpOptions{})

// emptyDisplay: [], (), {}: a constant answer ("nothing found").
func emptyDisplay(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.List:
		return len(e.Elts) == 0
	case *ast.Tuple:
		return len(e.Elts) == 0
	case *ast.Dict:
		return len(e.Keys) == 0
	}
	return false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// rankTranslations map a rank of a group to the global rank or back
// (torch.distributed.get_global_rank(group, group_rank)): every rank gets
// the same answer for the same rank passed in, so the result is this
// rank's own only when that argument is (isRank looks inside). A user
// helper named get_global_rank() without arguments is another thing:
// the rank of the process (composer's, OLMo's).
var rankTranslations = map[string]bool{
	"torch.distributed.get_global_rank":                   true,
	"torch.distributed.distributed_c10d.get_global_rank":  true,
	"torch.distributed.distributed_c10d._get_global_rank": true,
	"torch.distributed.get_group_rank":                    true,
	"torch.distributed.distributed_c10d.get_group_rank":   true,
	"torch.distributed.distributed_c10d._get_group_rank":  true,
}

func (l *lowerer) rankCall(c *ast.Call) bool {
	ext, fn := l.callee(c)
	if rankTranslations[ext] {
		return false
	}
	if p := l.tb.RankPredicates[ext]; p != nil && p.Kind == "call" {
		if l.uniformOff > 0 && len(p.UniformIn) > 0 {
			return false // uniformIn asks what else the test depends on
		}
		// A call that returns a tuple holding the rank is no rank: only
		// its rank element is (rankElement, and tuple assignment).
		return p.Element == nil
	}
	// os.environ.get("RANK"), os.getenv("LOCAL_RANK")
	if (ext == "os.environ.get" || ext == "os.getenv" || dotted(c.Func) == "os.environ.get" || dotted(c.Func) == "os.getenv") && len(c.Args) > 0 {
		if l.envKey(c.Args[0]) {
			return true
		}
	}
	name := lastDotted(c.Func)
	if (ext == "" || fn != nil) && strings.HasPrefix(name, "get_") && coordinateArgs(c) {
		// topo.get_rank(pipe=p, data=d), get_rank(**coord): a rank
		// looked up from coordinates, the same number on every process.
		return false
	}
	if ext == "" || fn != nil {
		// get_global_rank(group, 0), a program's own copy of torch's
		// translation, names one rank for everyone; get_global_rank()
		// is this process's.
		if (name == "get_global_rank" || name == "get_group_rank") && len(c.Args)+len(c.Keywords) >= 2 {
			return false
		}
		// A program's own get_rank called with arguments may map
		// them to a rank (DeepSpeed's ProcessTopology.get_rank(pipe=…,
		// data=…) turns coordinates into a rank number): it is this
		// process's rank only when its body returns one.
		if rankHelperNames[name] && (fn == nil || len(c.Args)+len(c.Keywords) == 0 || fn == l.fn || l.returnsRankTest(fn)) {
			return true
		}
	}
	if p := l.predicateByName(name, ext, fn); p != nil {
		if p.Element != nil {
			// get_dist_info() by name: a tuple that holds the rank, not
			// the rank (a program's own copy may return a dict without
			// one, xyfJASON's {"is_dist": …, "world_size": …}).
			return false
		}
		return l.uniformOff == 0 || len(p.UniformIn) == 0
	}
	if fn != nil && fn != l.fn && l.anyRootedSites() && l.returnsRootedResult(fn) {
		return true
	}
	// A getter that returns the rank whatever it is passed (`def
	// get_pp_rank(mesh): return mesh["pp"].get_local_rank()`): its
	// return is judged with no parameter holding a rank. (Only bodies
	// that name a rank at all are judged: most calls pass arguments.)
	return fn != nil && fn != l.fn && (len(c.Args)+len(c.Keywords) == 0 || l.namesRank(fn)) && l.returnsRankTest(fn)
}

// coordinateArgs reports a call passed keywords other than a group (or
// **kwargs): torch's rank getters take a group only, so such a get_rank
// maps the coordinates it is given to a rank.
func coordinateArgs(c *ast.Call) bool {
	for _, k := range c.Keywords {
		switch k.Arg {
		case "group", "process_group", "pg":
		default:
			return true
		}
	}
	return false
}

// namesRank reports a function whose body has a name or attribute that
// says rank, in any case (get_local_rank, _PP_RANK): the cheap test
// before returnsRankTest judges a getter called with arguments.
func (l *lowerer) namesRank(fn *rules.Function) bool {
	body, _, ok := l.defOf(fn)
	if !ok {
		return false
	}
	found := false
	ast.InspectBody(body, func(n ast.Node) bool {
		found = found || rankWordNode(n)
		return !found
	})
	return found
}

// mentionsRankWord reports a name or attribute in e that says rank.
func mentionsRankWord(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		found = found || rankWordNode(n)
		return !found
	})
	return found
}

// rankWordNode reports a name or attribute that says rank, in any case
// (get_local_rank, _PP_RANK, args.local_rank).
func rankWordNode(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Name:
		return containsFoldRank(x.Id)
	case *ast.Attribute:
		return containsFoldRank(x.Attr)
	}
	return false
}

func containsFoldRank(s string) bool {
	return strings.Contains(s, "rank") || strings.Contains(s, "RANK") || strings.Contains(s, "Rank")
}

// rootedInPlace reports a reduction to one rank that writes its result
// over its input (torch's dist.reduce(t, dst)): afterwards the buffer
// holds the result on the destination and the rank's own value elsewhere.
func (l *lowerer) rootedInPlace(site *rules.Site) bool {
	if site.Op != "reduce" || len(site.Outputs) == 0 {
		return false
	}
	e := l.tb.Collectives[site.API]
	return e != nil && e.Root.Present() && len(e.Inputs) == 1 && len(e.Outputs) == 1 && e.Inputs[0] == e.Outputs[0]
}

// anyRootedSites reports whether the program has a reduction to one
// rank that writes over its input anywhere (most have none, and then no
// helper can return one rank's result: returnsRootedResult).
func (l *lowerer) anyRootedSites() bool {
	m := l.memo()
	m.rootedOnce.Do(func() {
		for _, s := range l.r.Prog().Sites {
			if l.rootedInPlace(s) {
				m.rootedSites = true
				return
			}
		}
	})
	return m.rootedSites
}

// returnsRootedResult reports a program function that returns a value
// computed from the buffer of a reduction to one rank (rootedInPlace)
// that nothing broadcasts afterwards: `dist.reduce(t, dst=0); return
// t.item() / world_size` returns the mean on the destination and this
// rank's own share elsewhere.
func (l *lowerer) returnsRootedResult(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().rootedResults, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return false
		}
		vars := map[string]bool{}
		ast.InspectBody(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				if s := l.r.Site(c); s != nil && l.rootedInPlace(s) {
					for _, v := range s.Outputs {
						vars[v] = true
					}
				}
			}
			return true
		})
		if len(vars) == 0 {
			return false
		}
		ast.InspectBody(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				if s := l.r.Site(c); s != nil && uniformOps[s.Op] {
					for _, v := range s.Outputs {
						delete(vars, v) // broadcast from the destination afterwards
					}
				}
			}
			return true
		})
		if len(vars) == 0 {
			return false
		}
		from := func(e ast.Expr) bool {
			return dependsOn(e, vars, func(ast.Node) (bool, bool) { return false, true })
		}
		markBound(body, vars, from)
		found := false
		ast.InspectBody(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.Return); ok && r.Value != nil && from(r.Value) {
				found = true
			}
			return !found
		})
		return found
	})
}

// returnsRankTest reports a program function whose body is one return
// of a rank-dependent value (after asserts and imports), asked of nothing the caller passes: a
// predicate the program writes for itself (`def is_head(self): return
// dist.get_rank(self.group) == 0`), which no table or conventional name
// describes. Longer bodies are left to their names, as before.
func (l *lowerer) returnsRankTest(fn *rules.Function) bool {
	return summarizeGuarded(&l.memo().rankTests, fn, func() bool { return l.rankTestBody(fn) })
}

func (l *lowerer) rankTestBody(fn *rules.Function) bool {
	body, _, ok := l.defOf(fn)
	var ret *ast.Return
	var locals []ast.Stmt
	if ok {
		for i, st := range body {
			if i == 0 && isDocstring(st) {
				continue
			}
			if _, isAssert := st.(*ast.Assert); isAssert && ret == nil {
				continue // assert self.initialized; return self.is_head
			}
			switch x := st.(type) {
			case *ast.Import, *ast.ImportFrom:
				if ret == nil {
					continue // import os; return int(os.environ.get("RANK", 0))
				}
			case *ast.Assign:
				// rank = dist.get_rank(); return rank == 0: locals the
				// return reads (judged below with the body's bindings).
				if _, isName := x.Targets[0].(*ast.Name); ret == nil && len(x.Targets) == 1 && isName {
					locals = append(locals, st)
					continue
				}
			}
			r, isRet := st.(*ast.Return)
			if !isRet || ret != nil || r.Value == nil {
				ret = nil
				break
			}
			ret = r
		}
	}
	if ret == nil {
		return ok && (l.guardedRankBody(fn, body) || l.memoRankBody(fn, body) || l.rankReturnsBody(fn, body))
	}
	// The return value is judged in a lowerer of its own: the caller's
	// rank locals mean nothing in the callee.
	sub := *l
	sub.fn, sub.rankVars = fn, map[string]bool{}
	if fd, ok := l.r.(FuncDefiner); ok {
		sub.seedRankAttrs(fn, fd.FuncDef(fn)) // def is_head(self): return self.head
	}
	if len(locals) > 0 {
		markBound(locals, sub.rankVars, sub.isRank)
	}
	return sub.isRank(ret.Value)
}

// memoRankBody reports a rank getter that keeps its answer in a global
// (dolomite-engine's ProcessGroupManager getters):
//
//	global _PP_RANK
//	if _PP_RANK is None:
//	    _PP_RANK = _MESH["pp"].get_local_rank()
//	return _PP_RANK
func (l *lowerer) memoRankBody(fn *rules.Function, body []ast.Stmt) bool {
	var rest []ast.Stmt
	for i, st := range body {
		if i == 0 && isDocstring(st) {
			continue
		}
		if _, g := st.(*ast.Global); g {
			continue
		}
		rest = append(rest, st)
	}
	if len(rest) != 2 {
		return false
	}
	guard, ok1 := rest[0].(*ast.If)
	ret, ok2 := rest[1].(*ast.Return)
	if !ok1 || !ok2 || ret.Value == nil || len(guard.Orelse) > 0 || len(guard.Body) != 1 {
		return false
	}
	name, ok := ret.Value.(*ast.Name)
	if v, noneInThen, ok2 := noneTest(guard.Test); !ok || !ok2 || !noneInThen || v != name.Id {
		return false
	}
	a, ok := guard.Body[0].(*ast.Assign)
	if !ok || len(a.Targets) != 1 || !isName(a.Targets[0], name.Id) {
		return false
	}
	sub := *l
	sub.fn, sub.rankVars = fn, map[string]bool{}
	return sub.isRank(a.Value)
}

// guardedRankBody reports the rank getter that falls back to a constant
// when torch.distributed is not initialised, written as statements:
//
//	if dist.is_available() and dist.is_initialized():
//	    return dist.get_rank()
//	return 0
//
// (or `if not dist.is_initialized(): return 0`, then `return
// dist.get_rank()`): every return is the rank or an int constant, behind
// tests of whether the job is distributed, and one of them is the rank.
func (l *lowerer) guardedRankBody(fn *rules.Function, body []ast.Stmt) bool {
	var sub *lowerer // made on first need: most bodies fail the shape first
	rank := false
	judge := func(r *ast.Return) bool {
		if r.Value == nil {
			return false
		}
		if k, ok := r.Value.(*ast.Constant); ok && k.Type == ast.ConstInt {
			return true
		}
		if sub == nil {
			s := *l
			s.fn, s.rankVars = fn, map[string]bool{}
			sub = &s
		}
		if sub.isRank(r.Value) {
			rank = true
			return true
		}
		return false
	}
	for i, st := range body {
		if i == 0 && isDocstring(st) {
			continue
		}
		switch st := st.(type) {
		case *ast.If:
			if ok, _ := l.distributedTest(st.Test); !ok || len(st.Body) != 1 || len(st.Orelse) > 1 {
				return false
			}
			r, isRet := st.Body[0].(*ast.Return)
			if !isRet || !judge(r) {
				return false
			}
			if len(st.Orelse) == 1 {
				r, isRet := st.Orelse[0].(*ast.Return)
				if !isRet || !judge(r) || i != len(body)-1 {
					return false
				}
			}
		case *ast.Return:
			if !judge(st) || i != len(body)-1 {
				return false
			}
		default:
			return false
		}
	}
	return rank
}

// rankReturnsBody reports a rank test written as statements: ifs,
// imports and locals around several returns, each of them a test of the
// rank or a constant True or False, one at least a rank test
// (micro-vllm's rank0):
//
//	rank = os.environ.get("RANK")
//	if rank is not None:
//	    return int(rank) == 0
//	return dist.get_rank() == 0
//
// or, with no locals, returns of True and False only, one of them in an
// arm of a rank test (asv-subtools' is_main_training):
//
//	if use_ddp():
//	    if dist.get_rank() == 0:
//	        return True
//	    else:
//	        return False
//	return True
func (l *lowerer) rankReturnsBody(fn *rules.Function, body []ast.Stmt) bool {
	type ret struct {
		r     *ast.Return
		tests []ast.Expr // the tests of the ifs whose arms hold it
	}
	var rets []ret
	locals := false
	var walk func(stmts []ast.Stmt, tests []ast.Expr) bool
	walk = func(stmts []ast.Stmt, tests []ast.Expr) bool {
		for i, st := range stmts {
			switch x := st.(type) {
			case *ast.ExprStmt:
				if i != 0 || !isDocstring(st) {
					return false
				}
			case *ast.Import, *ast.ImportFrom:
			case *ast.Assign:
				if _, isName := x.Targets[0].(*ast.Name); len(x.Targets) != 1 || !isName {
					return false
				}
				locals = true
			case *ast.Return:
				if x.Value == nil {
					return false
				}
				rets = append(rets, ret{x, tests})
			case *ast.If:
				inner := append(slices.Clip(tests), x.Test)
				if !walk(x.Body, inner) || !walk(x.Orelse, inner) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !walk(body, nil) || len(rets) < 2 {
		return false
	}
	sub := *l
	sub.fn, sub.rankVars = fn, map[string]bool{}
	markBound(body, sub.rankVars, sub.isRank)
	rankTest := func(e ast.Expr) bool { return sub.isRank(e) && len(sub.uniformIn(e)) == 0 }
	var vals [2]bool // False, True returned
	flagsOnly, tested, rank := true, false, false
	for _, r := range rets {
		if k, ok := r.r.Value.(*ast.Constant); ok && k.Type == ast.ConstBool {
			if k.Bool {
				vals[1] = true
			} else {
				vals[0] = true
			}
			tested = tested || slices.ContainsFunc(r.tests, rankTest)
			continue
		}
		flagsOnly = false
		if !sub.rankTest(r.r.Value) || !rankTest(r.r.Value) {
			return false
		}
		rank = true
	}
	if flagsOnly {
		return !locals && vals[0] && vals[1] && tested
	}
	return rank
}

// returnedRankElements returns the indexes of the elements that hold the
// rank in the tuples a program function returns (`return rank, world`
// after `rank = int(os.environ["RANK"])`), judged in a lowerer of its own
// with the function's locals bound anywhere in it.
func (l *lowerer) returnedRankElements(fn *rules.Function) map[int]bool {
	return summarizeGuarded(&l.memo().rankElems, fn, func() map[int]bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return nil
		}
		sub := *l
		sub.fn, sub.rankVars, sub.rankLoaded = fn, map[string]bool{}, nil
		// Locals bound to the rank, in source order; one of the
		// function's own straight-line statements that binds an agreed
		// value ends that (`owner = comm.rank`, then `owner =
		// comm.bcast(owner, root=0)`: every rank's value from there on).
		topLevel := map[ast.Stmt]bool{}
		for _, st := range body {
			topLevel[st] = true
		}
		ast.InspectBody(body, func(n ast.Node) bool {
			a, ok := ast.AsAssign(n)
			if !ok || len(a.Targets) != 1 {
				return true
			}
			t, ok := a.Targets[0].(*ast.Name)
			if !ok {
				return true
			}
			if c, isCall := unwrapAwait(a.Value).(*ast.Call); isCall && topLevel[a] && (l.agreedCall(c) || l.uniformCall(c)) {
				delete(sub.rankVars, t.Id)
			} else if sub.isRank(a.Value) {
				sub.rankVars[t.Id] = true
				markVar(&sub.rankLoaded, t.Id, sub.loadsStored(a.Value))
			}
			return true
		})
		var out map[int]bool
		ast.InspectBody(body, func(n ast.Node) bool {
			r, ok := n.(*ast.Return)
			if !ok {
				return true
			}
			if t, ok := r.Value.(*ast.Tuple); ok {
				for i, e := range t.Elts {
					if sub.isRank(e) {
						if out == nil {
							out = map[int]bool{}
						}
						out[i] = true
					}
				}
			}
			return false
		})
		return out
	})
}

// predicateByName is the call rank predicate named like a method called on
// a receiver of unknown type, or of an external object the tables do not
// describe (MPI.COMM_WORLD): trainer.is_world_process_zero(),
// comm.Get_rank(). rank() and local_rank() are too common to match
// without resolution.
func (l *lowerer) predicateByName(name, ext string, fn *rules.Function) *api.RankPredicate {
	if name == "rank" || name == "local_rank" || !(ext == "" || fn == nil && !l.inTables(ext)) {
		return nil
	}
	return l.tb.PredicateByLastName("call", name)
}

// uniformIn returns the group getters within whose groups a rank test has
// one answer: when the test depends on the rank only through predicates
// that declare such groups (Megatron's is_pipeline_last_stage(), the same
// on every rank of a data-parallel group), the getters all of them
// declare; nil otherwise. So are the getters whose members the test
// picks out (memberGroups).
func (l *lowerer) uniformIn(test ast.Expr) []string {
	return append(l.uniformByPredicates(test), l.memberGroups(test)...)
}

// rankVia returns, for a rank test that depends on the rank only
// through one rank variable (`index % k == local_rank`: local_rank, not
// also a call of get_rank()), the forms a communicator split's color
// takes for it (rules.Group.Color): the name, and the expression it was
// last assigned; nil otherwise.
func (l *lowerer) rankVia(test ast.Expr) []string {
	name, ok := l.soleRankVar(test)
	if !ok {
		return l.rankViaAttr(test)
	}
	if name == "" {
		return nil
	}
	keys := []string{ast.Dump(&ast.Name{Id: name, Ctx: ast.Load}, ast.DumpOptions{})}
	if d := l.rankDefs[name]; d != nil {
		keys = append(keys, ast.Dump(d, ast.DumpOptions{}))
	}
	return append(keys, l.testColors(test)...)
}

// rankDefText is the source text of the value assigned to the one rank
// local a test reads (`pp_rank = dist.get_rank(group=pp_group)` for `if
// pp_rank == last:`), when the test reads the rank through nothing else;
// "" otherwise.
// A group's size read beside it (`pp_world_size =
// dist.get_world_size(group=pp_group)`, rank-dependent only through which
// group this rank holds) is no second rank read.
func (l *lowerer) rankDefText(test ast.Expr) string { return l.rankDefTextAt(test, 0) }

func (l *lowerer) rankDefTextAt(test ast.Expr, depth int) string {
	var names, sizes []string
	ast.Inspect(test, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Name:
			if n.Ctx != ast.Load || !l.rankVars[n.Id] || slices.Contains(names, n.Id) || slices.Contains(sizes, n.Id) {
				return true
			}
			if d, ok := l.rankDefs[n.Id].(*ast.Call); ok && lastDotted(d.Func) == "get_world_size" {
				sizes = append(sizes, n.Id)
			} else {
				names = append(names, n.Id)
			}
		}
		return true
	})
	if len(names) != 1 || l.rankDefs[names[0]] == nil {
		return ""
	}
	saved := l.rankVars
	l.rankVars = make(map[string]bool, len(saved))
	for v := range saved {
		if v != names[0] && !slices.Contains(sizes, v) {
			l.rankVars[v] = true
		}
	}
	other := l.isRank(test)
	l.rankVars = saved
	if other {
		return ""
	}
	d := l.rankDefs[names[0]]
	if depth < 3 && !strings.Contains(l.text(d), "get_rank(") {
		// `has_loss = pp_rank == last` … `if has_loss:`: the rank the
		// local's own test reads.
		if inner := l.rankDefTextAt(d, depth+1); inner != "" {
			return inner
		}
	}
	return l.text(d)
}

// soleRankVar returns the one rank local test reads when it depends on
// the rank through that local only; "" when it reads several, or reads
// the rank in another way too. ok is false when it reads no rank local.
func (l *lowerer) soleRankVar(test ast.Expr) (name string, ok bool) {
	var names []string
	ast.Inspect(test, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Name:
			if n.Ctx == ast.Load && l.rankVars[n.Id] && !slices.Contains(names, n.Id) {
				names = append(names, n.Id)
			}
		}
		return true
	})
	if len(names) == 0 {
		return "", false
	}
	if len(names) != 1 {
		return "", true
	}
	saved := l.rankVars
	l.rankVars = make(map[string]bool, len(saved))
	for v := range saved {
		if v != names[0] {
			l.rankVars[v] = true
		}
	}
	other := l.isRank(test)
	l.rankVars = saved
	if other {
		return "", true
	}
	return names[0], true
}

// rankViaAttr is rankVia for a test that depends on the rank only through
// one rank attribute (`node.rank == 0`, a split's color
// `Split(color=node.rank)`): that attribute, as ast.Dump prints it.
func (l *lowerer) rankViaAttr(test ast.Expr) []string {
	var attr ast.Expr
	other := false
	ast.Inspect(test, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Lambda:
			return false
		case *ast.Attribute:
			if l.rankAttr(n) {
				if attr != nil && dotted(attr) != dotted(n) || dotted(n) == "" {
					other = true
				}
				attr = n
				return false
			}
		case *ast.Call:
			if l.rankCall(n) {
				other = true
				return false
			}
		case *ast.Name:
			if n.Ctx == ast.Load && l.rankVars[n.Id] {
				other = true
			}
		}
		return !other
	})
	if other || attr == nil {
		return nil
	}
	return append([]string{ast.Dump(attr, ast.DumpOptions{})}, l.testColors(test)...)
}

// testColors returns the locals whose value is a function of test alone
// (`color = 0 if rank == 0 else 1`, `is_master = rank == 0`), as ast.Dump
// prints them: a communicator split by one has members that all answer
// test alike.
func (l *lowerer) testColors(test ast.Expr) []string {
	var keys []string
	want := ""
	for v, d := range l.rankDefs {
		if i, ok := d.(*ast.IfExp); ok {
			d = i.Test
		}
		if want == "" {
			want = ast.Dump(test, ast.DumpOptions{})
		}
		if ast.Dump(d, ast.DumpOptions{}) == want {
			keys = append(keys, ast.Dump(&ast.Name{Id: v, Ctx: ast.Load}, ast.DumpOptions{}))
		}
	}
	slices.Sort(keys)
	return keys
}

// rankIs returns K for a test `rank == K` (either way round) whose other
// side is a constant rank (rules.RankBranch.RankIs), or "".
func (l *lowerer) rankIs(test ast.Expr) string {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Eq {
		return ""
	}
	for _, pair := range [2][2]ast.Expr{{c.Left, c.Comparators[0]}, {c.Comparators[0], c.Left}} {
		if k, ok := intConst(pair[1]); ok && l.isRank(pair[0]) {
			return strconv.FormatInt(k, 10)
		}
	}
	return ""
}

// rankFrom returns K when test holds for every rank from K on: `rank !=
// 0` (K = 1), `rank >= K`, `rank > K-1`, either way round; "" otherwise.
func (l *lowerer) rankFrom(test ast.Expr) string {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return ""
	}
	op, left, right := c.Ops[0], c.Left, c.Comparators[0]
	if _, ok := intConst(left); ok {
		// 0 != rank, K <= rank, K-1 < rank (K > rank bounds from
		// above: the switch below leaves it out)
		left, right, op = right, left, mirrorCmp(op)
	}
	k, ok := intConst(right)
	if !ok || !l.isRank(left) {
		return ""
	}
	switch {
	case op == ast.NotEq && k == 0:
		return "1"
	case op == ast.GtE && k >= 1:
		return strconv.FormatInt(k, 10)
	case op == ast.Gt && k >= 0:
		return strconv.FormatInt(k+1, 10)
	}
	return ""
}

// rankBelow returns K, as ast.Dump prints it, for a test that holds for
// every rank below K: `rank < K` or `K > rank`; "" otherwise.
func (l *lowerer) rankBelow(test ast.Expr) string {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return ""
	}
	switch {
	case c.Ops[0] == ast.Lt && l.isRank(c.Left):
		return ast.Dump(c.Comparators[0], ast.DumpOptions{})
	case c.Ops[0] == ast.Gt && l.isRank(c.Comparators[0]):
		return ast.Dump(c.Left, ast.DumpOptions{})
	}
	return ""
}

// rankStride returns L, as ast.Dump prints it, for a test that the rank
// is a multiple of L (`rank % L == 0`, `0 == rank % L`); "" otherwise.
func (l *lowerer) rankStride(test ast.Expr) string {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Eq {
		return ""
	}
	mod, zero := c.Left, c.Comparators[0]
	if isIntConst(mod) {
		mod, zero = zero, mod
	}
	b, ok := mod.(*ast.BinOp)
	if k, isK := zero.(*ast.Constant); !isK || k.Type != ast.ConstInt || k.Int != 0 || !ok || b.Op != ast.Mod {
		return ""
	}
	if !l.isRank(b.Left) || l.isRank(b.Right) {
		return ""
	}
	return ast.Dump(b.Right, ast.DumpOptions{})
}

// setRankDef records the expression a rank local was assigned (rankDefs).
func (l *lowerer) setRankDef(v string, value ast.Expr) {
	if l.rankDefs == nil {
		l.rankDefs = map[string]ast.Expr{}
	}
	l.rankDefs[v] = value
}

// uniformByPredicates is uniformIn for the rank predicates' UniformIn.
func (l *lowerer) uniformByPredicates(test ast.Expr) []string {
	var lists [][]string
	ast.Inspect(test, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			if p := l.predicateOf(n); p != nil && len(p.UniformIn) > 0 {
				lists = append(lists, p.UniformIn)
			}
		case *ast.Attribute:
			if u := l.uniformAttrs[dotted(n)]; len(u) > 0 {
				lists = append(lists, u)
				return false
			}
		}
		return true
	})
	if len(lists) == 0 {
		return nil
	}
	l.uniformOff++
	rank := l.isRank(test)
	l.uniformOff--
	if rank {
		return nil
	}
	out := lists[0]
	for _, list := range lists[1:] {
		var keep []string
		for _, g := range out {
			for _, h := range list {
				if g == h {
					keep = append(keep, g)
					break
				}
			}
		}
		out = keep
	}
	return out
}

// memberGroups returns the group getters whose members the test picks
// out: the or of calls of every rank predicate in a getter's MemberTests,
// possibly and-ed with tests that are no rank tests. Megatron's
// `(is_pipeline_first_stage() or is_pipeline_last_stage()) and
// get_pipeline_model_parallel_world_size() > 1` holds on exactly the
// members of the embedding group, so every member all-reduces on it.
func (l *lowerer) memberGroups(test ast.Expr) []string {
	if len(l.tb.MemberGroups) == 0 {
		return nil
	}
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.And {
		var rankPart ast.Expr
		for _, v := range b.Values {
			if l.isRank(v) {
				if rankPart != nil {
					return nil
				}
				rankPart = v
			}
		}
		if rankPart == nil {
			return nil
		}
		test = rankPart
	}
	values := []ast.Expr{test}
	if b, ok := test.(*ast.BoolOp); ok && b.Op == ast.Or {
		values = b.Values
	}
	var tests []string
	for _, v := range values {
		c, ok := v.(*ast.Call)
		if !ok {
			return nil
		}
		p := l.predicateOf(c)
		if p == nil {
			return nil
		}
		tests = append(tests, p.Name)
	}
	var out []string
	for _, g := range l.tb.MemberGroups {
		if sameNames(g.MemberTests, tests) {
			out = append(out, g.Name)
		}
	}
	return out
}

// sameNames reports whether a and b hold the same names, in any order
// and counting repeats once.
func sameNames(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// predicateOf is the call rank predicate c calls: by its resolved name,
// or by its method name on a receiver the analysis cannot resolve.
func (l *lowerer) predicateOf(c *ast.Call) *api.RankPredicate {
	ext, fn := l.callee(c)
	if p := l.tb.RankPredicates[ext]; p != nil && p.Kind == "call" {
		return p
	}
	return l.predicateByName(lastDotted(c.Func), ext, fn)
}

// inTables reports whether the tables describe the external symbol.
func (l *lowerer) inTables(ext string) bool {
	return l.tb.Collectives[ext] != nil || l.tb.Spawners[ext] != nil || l.tb.GroupCreators[ext] != nil ||
		l.tb.Streams[ext] != nil || l.tb.RankPredicates[ext] != nil
}

// rankObjectTest reports a test of whether an object only some ranks
// hold exists (rankObjects): `if storage:`, `if v is not None`, also
// under not, and, or.
func (l *lowerer) rankObjectTest(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Name:
		return l.rankObject(x.Id)
	case *ast.Attribute:
		d := dotted(x)
		return d != "" && l.rankObject(d)
	case *ast.UnaryOp:
		return x.Op == ast.Not && l.rankObjectTest(x.Operand)
	case *ast.BoolOp:
		for _, v := range x.Values {
			if l.rankObjectTest(v) {
				return true
			}
		}
	case *ast.Compare:
		v := dotted(x.Left)
		if v == "" || !l.rankObject(v) || len(x.Comparators) != 1 {
			return false
		}
		// `model is None`, or a value bound on some ranks compared with
		// a constant (`step = -1` / `if rank == 0: step = 5` / `if
		// step >= 0:`).
		_, constant := x.Comparators[0].(*ast.Constant)
		return isNone(x.Comparators[0]) && (x.Ops[0] == ast.Is || x.Ops[0] == ast.IsNot) || constant
	}
	return false
}

// rankObject is where an object only some ranks hold was made: under the
// rank test's if, in its else arm or not (under nil: an if-expression on
// the rank).
type rankObject struct {
	under  *ast.If
	inElse bool
}

// setRankObject records v as held by some ranks only.
func (l *lowerer) setRankObject(v string, under *ast.If, inElse bool) {
	if l.rankObjects == nil {
		l.rankObjects = map[string]rankObject{}
	}
	l.rankObjects[v] = rankObject{under: under, inElse: inElse}
}

// rankObject reports whether v holds an object some ranks lack, seen from
// here: outside the arm of the rank test that made it (inside it, every
// rank that tests it holds it).
func (l *lowerer) rankObject(v string) bool {
	o, ok := l.rankObjects[v]
	if !ok {
		return false
	}
	for _, r := range l.rankIfs {
		if r.s == o.under {
			return false
		}
	}
	return true
}

// rankOrNone reports `X if <rank test> else None` (either way round): an
// object that only the ranks passing the test hold.
func (l *lowerer) rankOrNone(e ast.Expr) bool {
	x, ok := e.(*ast.IfExp)
	return ok && (isNone(x.Orelse) || isNone(x.Body)) && l.isRank(x.Test)
}

// rankFlag reports a True or False assigned inside the arm of a rank
// test whose members do not all answer it alike: the flag then differs
// between ranks.
func (l *lowerer) rankFlag(value ast.Expr) bool {
	k, ok := value.(*ast.Constant)
	return ok && k.Type == ast.ConstBool && l.inRankArm()
}

// inRankArm reports lowering inside an arm of a rank test whose arms
// differ, in a distributed job.
func (l *lowerer) inRankArm() bool {
	return l.rankArms > 0 && l.notDist == 0 && !l.uniformRankArms()
}

// rankCounter reports an integer constant bound in a rank test's arm
// (`if rank == 0: stale_epochs = 0`): a count only those ranks keep.
func (l *lowerer) rankCounter(value ast.Expr) bool {
	return (isIntConst(value) || loadedPosition(value)) && l.inRankArm()
}

// loadedPosition reports a number read from a checkpoint loaded in place
// (`torch.load(p)["iteration"] + 1`): in a rank test's arm, a position
// only those ranks resumed at (microgpt's local rank 0).
func loadedPosition(value ast.Expr) bool {
	if !storedScalar(value) {
		return false
	}
	found := false
	ast.Inspect(value, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found && lastDotted(c.Func) == "load" {
			found = true
		}
		return !found
	})
	return found
}

// promoteCounters makes the counters stepped in rank arms rank values
// once no rank arm encloses the lowering any more.
func (l *lowerer) promoteCounters() {
	if l.rankArms > 0 || len(l.armCounters) == 0 {
		return
	}
	for v := range l.armCounters {
		l.rankVars[v] = true
		delete(l.rankDefs, v)
	}
	clear(l.armCounters)
}

// loopRankFlags marks, before a loop is lowered, the flags and counters
// its body binds to constants or plain names (`first_idx = idx`) in a
// rank test's arm and reads earlier in
// the body or in the loop's test (`if stop: break` at the top, `if rank
// == 0: stop = True` at the bottom, a search loop's rank-0 convergence
// index): from the second pass on they differ between ranks. A name the
// body also binds outside such arms (`stop = broadcast(stop)`) is left
// alone.
func (l *lowerer) loopRankFlags(test ast.Expr, body []ast.Stmt) {
	if l.notDist > 0 {
		return
	}
	inArm := map[string]int{}      // name -> index of the top-level statement binding it in a rank arm
	elsewhere := map[string]bool{} // names bound outside rank arms
	var scan func(stmts []ast.Stmt, top int, rank bool)
	bind := func(t ast.Expr, value ast.Expr, top int, rank bool) {
		if a, ok := t.(*ast.Attribute); ok {
			// self._step += 1 in rank 0's arm, with `while self._step <
			// iterations` (UnstableBaselines' learner): a counter on the
			// instance.
			if d := dotted(a); d != "" && strings.Count(d, ".") == 1 {
				k, isConst := value.(*ast.Constant)
				if rank && isConst && (k.Type == ast.ConstBool || k.Type == ast.ConstInt) {
					if _, seen := inArm[d]; !seen {
						inArm[d] = top
					}
				} else {
					elsewhere[d] = true
				}
			}
			return
		}
		n, ok := t.(*ast.Name)
		if !ok {
			ast.Inspect(t, func(x ast.Node) bool {
				if nm, ok := x.(*ast.Name); ok && nm.Ctx == ast.Store {
					elsewhere[nm.Id] = true
				}
				return true
			})
			return
		}
		k, isConst := value.(*ast.Constant)
		_, isName := value.(*ast.Name)
		if rank && (isConst && (k.Type == ast.ConstBool || k.Type == ast.ConstInt) || isName) {
			if _, seen := inArm[n.Id]; !seen {
				inArm[n.Id] = top
			}
			return
		}
		elsewhere[n.Id] = true
	}
	scan = func(stmts []ast.Stmt, top int, rank bool) {
		for i, st := range stmts {
			at := top
			if at < 0 {
				at = i
			}
			switch s := st.(type) {
			case *ast.Assign:
				for _, t := range s.Targets {
					bind(t, s.Value, at, rank)
				}
			case *ast.AugAssign:
				bind(s.Target, s.Value, at, rank)
			case *ast.AnnAssign:
				if s.Value != nil {
					bind(s.Target, s.Value, at, rank)
				}
			case *ast.If:
				r := rank || l.isRank(s.Test)
				scan(s.Body, at, r)
				scan(s.Orelse, at, r)
			case *ast.For:
				bind(s.Target, nil, at, false)
				scan(s.Body, at, rank)
				scan(s.Orelse, at, rank)
			case *ast.While:
				scan(s.Body, at, rank)
				scan(s.Orelse, at, rank)
			case *ast.With:
				scan(s.Body, at, rank)
			case *ast.Try:
				scan(s.Body, at, rank)
				for _, h := range s.Handlers {
					scan(h.Body, at, rank)
				}
				scan(s.Orelse, at, rank)
				scan(s.Finalbody, at, rank)
			}
		}
	}
	scan(body, -1, false)
	for name, at := range inArm {
		if elsewhere[name] || l.rankVars[name] || l.rankCounterAttrs[name] {
			continue
		}
		read := test != nil && readsName(test, name)
		for i := 0; i < at && !read; i++ {
			read = readsName(body[i], name)
		}
		if read && strings.Contains(name, ".") {
			if l.rankCounterAttrs == nil {
				l.rankCounterAttrs = map[string]bool{}
			}
			l.rankCounterAttrs[name] = true
		} else if read {
			l.rankVars[name] = true
			delete(l.rankDefs, name)
		}
	}
}

// readsName reports a load of name in n (a dotted name: of that
// attribute path).
func readsName(n ast.Node, name string) bool {
	found := false
	dottedName := strings.Contains(name, ".")
	ast.Inspect(n, func(x ast.Node) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *ast.Name:
			found = !dottedName && x.Id == name && x.Ctx == ast.Load
		case *ast.Attribute:
			found = dottedName && x.Ctx == ast.Load && dotted(x) == name
		}
		return !found
	})
	return found
}

// isIntConst reports an integer literal.
func isIntConst(e ast.Expr) bool {
	k, ok := e.(*ast.Constant)
	return ok && k.Type == ast.ConstInt
}

// rankOnlyMethodFlags marks, for a call of the instance's own method in
// a rank test's arm (`if rank == 0: self._log_scores()`), the True or
// False that method sets on the instance (`self.stats.is_min_lr =
// True`): only the ranks that call it set the flag, which then differs
// between ranks where the caller tests it (joeynmt's minimum-learning-rate
// stop).
func (l *lowerer) rankOnlyMethodFlags(s *ast.ExprStmt) {
	c, ok := s.Value.(*ast.Call)
	if !ok || !l.inRankArm() {
		return
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return
	}
	recv, ok := a.Value.(*ast.Name)
	if !ok {
		return
	}
	_, fn := l.callee(c)
	if fn == nil {
		return
	}
	body, args, ok := l.defOf(fn)
	if !ok || len(args.PositionalNames()) == 0 {
		return
	}
	self := args.PositionalNames()[0]
	ast.InspectBody(body, func(n ast.Node) bool {
		as, ok := n.(*ast.Assign)
		if !ok {
			return true
		}
		k, isConst := as.Value.(*ast.Constant)
		if !isConst || k.Type != ast.ConstBool {
			return true
		}
		for _, t := range as.Targets {
			if _, isAttr := t.(*ast.Attribute); !isAttr {
				continue
			}
			if rest, ok := strings.CutPrefix(dotted(t), self+"."); ok {
				l.rankVars[recv.Id+"."+rest] = true
			}
		}
		return true
	})
}

// uniformRankArms reports whether every enclosing rank test is one the
// tables declare uniform within some groups (Megatron's stage tests):
// an object made there is held alike by those groups' members.
func (l *lowerer) uniformRankArms() bool {
	for _, r := range l.rankIfs {
		if len(l.uniformIn(r.s.Test)) == 0 {
			return false
		}
	}
	return len(l.rankIfs) > 0
}

func (l *lowerer) rankAttr(a *ast.Attribute) bool {
	if len(l.rankVars) > 0 && l.rankVars[dotted(a)] {
		// dist_env.RANK: a rank name of a module imported whole; or a
		// rank attribute of self, which uniformIn asks about as it does
		// about the predicates it was assigned from.
		return l.uniformOff == 0 || len(l.uniformAttrs[dotted(a)]) == 0
	}
	if ref := l.r.Ref(a); ref != "" {
		if p := l.tb.RankPredicates[l.tb.Canonical(ref)]; p != nil && p.Kind == "attr" {
			return true
		}
	}
	if a.Attr == "rank" && hyperparamRank(a.Value) {
		return false
	}
	if a.Ctx == ast.Load && rules.RankNameDim(a.Attr) != "" {
		// self.ep_rank, self.expert_parallel_rank: this process's rank
		// in one parallel dimension's group (CV301 reads the dimension
		// from the name, as from a group's).
		return true
	}
	if l.tb.PredicateByLastName("attr", a.Attr) != nil {
		return true
	}
	if ir, ok := l.r.(InstanceRankAttrer); ok && !l.builtLocals[rootName(a)] && ir.InstanceRankAttr(a) {
		// self.distenv.master: the object was built with the rank
		// (rq-vae's DistEnv, handed to the trainer).
		return true
	}
	// env.dp_rank, a property that returns
	// parallel_state.get_data_parallel_rank() (CoLLiE's env).
	if pg, ok := l.r.(PropertyGetterer); ok {
		if fn := pg.PropertyGetter(a); fn != nil && fn != l.fn && l.returnsRankTest(fn) {
			return true
		}
	}
	return false
}

// uncalledGroupRank reports a comparison of a process group's rank
// method, not called (`pg.rank == 0`), with anything: a bound method
// equals no number, whatever the rank.
func (l *lowerer) uncalledGroupRank(c *ast.Compare) bool {
	pg, ok := l.r.(ProcessGroupObjecter)
	if !ok {
		return false
	}
	for _, x := range append([]ast.Expr{c.Left}, c.Comparators...) {
		if a, ok := x.(*ast.Attribute); ok && a.Attr == "rank" && a.Ctx == ast.Load && pg.ProcessGroupObject(a.Value) {
			return true
		}
	}
	return false
}

// rootName is the name an attribute chain starts from (env for
// env.cfg.master), or "".
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Attribute:
			e = x.Value
		case *ast.Name:
			return x.Id
		default:
			return ""
		}
	}
}

// hyperparamRank reports a receiver whose `rank` is a model setting, not
// a process's: LoRA's and adapters' rank (cfg.model.lora.rank).
func hyperparamRank(recv ast.Expr) bool {
	for _, part := range strings.Split(strings.ToLower(dotted(recv)), ".") {
		if strings.Contains(part, "lora") || strings.Contains(part, "adapter") || strings.Contains(part, "peft") {
			return true
		}
	}
	return false
}

// rankKey reads an options dict's entry named as a rank attribute is
// (`opt['rank'], opt['world_size'] = get_dist_info()` then `if
// self.opt['rank'] == 0:`, BasicSR's, KAIR's and NAFNet's idiom), as
// rankAttr reads `args.rank`.
func (l *lowerer) rankKey(n *ast.Subscript) bool {
	k, ok := n.Slice.(*ast.Constant)
	return ok && k.Type == ast.ConstStr && l.tb.PredicateByLastName("attr", k.Str) != nil &&
		!(k.Str == "rank" && hyperparamRank(n.Value))
}

func (l *lowerer) envName(s string) bool {
	p := l.tb.RankPredicates["os.environ."+s]
	return p != nil && p.Kind == "env"
}

// rankElement recognises get_dist_info()[0]: the rank element of a rank
// predicate that returns a tuple.
func (l *lowerer) rankElement(n *ast.Subscript) bool {
	c, ok := n.Value.(*ast.Call)
	if !ok {
		return false
	}
	ext, fn := l.callee(c)
	p := l.tb.RankPredicates[ext]
	if p == nil {
		p = l.predicateByName(lastDotted(c.Func), ext, fn) // a program's own copy
	}
	if p == nil || p.Element == nil {
		return false
	}
	i, ok := intConst(n.Slice)
	return ok && i == int64(*p.Element)
}

// rankFields: for a record built by keyword (`TrainState(step=0,
// acc_step=0, data_loader_state=state_for(dp_rank))`, a dataclass or a
// class named like one), the fields given a rank-dependent value, or nil
// when the value is not such a record or the class itself depends on the
// rank. Only those fields of the record are then rank values: lingua's
// train_state.acc_step counts the same on every rank.
func (l *lowerer) rankFields(value ast.Expr) []string {
	c, ok := value.(*ast.Call)
	if !ok || len(c.Args) > 0 || len(c.Keywords) == 0 {
		return nil
	}
	name := lastDotted(c.Func)
	if name == "" || name[0] < 'A' || name[0] > 'Z' || l.isRank(c.Func) {
		return nil
	}
	var out []string
	for _, k := range c.Keywords {
		if k.Arg == "" {
			return nil // **kwargs: the fields are unknown
		}
		if l.isRank(k.Value) {
			out = append(out, k.Arg)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// forgetRankFields drops the rank fields recorded for v's previous value.
func (l *lowerer) forgetRankFields(v string) {
	prefix := v + "."
	for k := range l.rankVars {
		if strings.HasPrefix(k, prefix) {
			delete(l.rankVars, k)
		}
	}
}

// evenPartitioners split a dataset into one share per rank and, with
// even_divisible=True, give every share the same length (padding the
// short ones).
var evenPartitioners = map[string]bool{"partition_dataset": true, "partition_dataset_classes": true}

// evenShare reports this rank's share of an even partition
// (`partition_dataset(data, num_partitions=world, even_divisible=True)[rank]`,
// MONAI): its items are this rank's, but what ranks decide on is its
// length (epochs, validation intervals, the loader's batches), which is
// the same on every rank.
func evenShare(n *ast.Subscript) bool {
	c, ok := n.Value.(*ast.Call)
	if !ok {
		return false
	}
	// x.split(x.size(0) // n)[rank], torch.split(x, len(x) // n)[rank]:
	// chunks of one size, the remainder in a chunk past the last rank's
	// (GLT's and the MLPerf GNN reference's per-process share).
	if a, isAttr := c.Func.(*ast.Attribute); isAttr && a.Attr == "split" {
		size := c.Args
		if dotted(a.Value) == "torch" && len(size) > 0 {
			size = size[1:]
		}
		if len(size) == 1 {
			if b, ok := size[0].(*ast.BinOp); ok && b.Op == ast.FloorDiv {
				return true
			}
		}
	}
	if !evenPartitioners[lastDotted(c.Func)] {
		return false
	}
	for _, k := range c.Keywords {
		if k.Arg == "even_divisible" {
			return isTrue(k.Value)
		}
	}
	return false
}

func (l *lowerer) envRank(value, slice ast.Expr) bool {
	if dotted(value) != "os.environ" && l.r.Ref(value) != "os.environ" {
		return false
	}
	return l.envKey(slice)
}

// envKey reports an environment key that names the rank: a constant
// (envName), either arm of a conditional one (`"LOCAL_RANK" if local
// else "RANK"`), or a local the function binds only to such a constant.
func (l *lowerer) envKey(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.IfExp:
		return l.envKey(x.Body) && l.envKey(x.Orelse)
	case *ast.Name:
		var val ast.Expr
		n := 0
		ast.InspectBody(l.body, func(m ast.Node) bool {
			if a, ok := m.(*ast.Assign); ok && len(a.Targets) == 1 {
				if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == x.Id {
					val, n = a.Value, n+1
				}
			}
			return true
		})
		if n != 1 {
			return false
		}
		_, isName := val.(*ast.Name)
		return !isName && l.envKey(val)
	}
	s, ok := constStr(e)
	return ok && l.envName(s)
}

// decorators records a rank branch for a function decorated with a
// rank-only decorator (@rank_zero_only, @accelerator.on_main_process): the
// whole body runs on some ranks only.
func (l *lowerer) decorators(decs []ast.Expr, def ast.Pos, body []ast.Stmt) {
	for _, d := range decs {
		target := d
		if c, ok := d.(*ast.Call); ok {
			target = c.Func
		}
		if l.r.Ref(target) == "atexit.register" {
			// @atexit.register def cleanup(): dist.barrier() (RT-DETR).
			l.exitHandlerBranch(d, "@"+l.text(d), barriers(l.ops(body)))
			return
		}
		if l.retryDecorator(target) {
			if ops := l.ops(body); len(ops) > 0 && l.notDist == 0 {
				l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(d.Span()), Cond: "@" + l.text(d), Then: ops, Divergence: rules.LocalRetry})
			}
			return
		}
		if !l.rankDecorator(target) {
			continue
		}
		ops := l.ops(body)
		if len(ops) > 0 {
			l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(d.Span()), Cond: "@" + l.text(d), Then: ops})
		}
		return
	}
}

// exitHandlerBranch records the barriers a function registered to run
// at exit issues (`@atexit.register`, `atexit.register(cleanup)`, at
// guard). Python runs exit handlers after an uncaught exception too: the
// rank whose work raised enters the barrier while the others still wait
// in collectives it never joined, and it never exits, so the launcher,
// which stops the job when a rank dies, never does. A handler that
// finalizes or aborts according to how the process ends (PyFR's MPI
// onexit) issues no barrier and is left alone.
func (l *lowerer) exitHandlerBranch(guard ast.Expr, cond string, ops []*rules.OpRef) {
	if len(ops) == 0 || l.notDist > 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(guard.Span()), Cond: cond, Then: ops, Divergence: rules.LocalExitHandler})
}

// retryDecorators run the decorated function again after an
// out-of-memory error, on the rank that had it.
var retryDecorators = map[string]bool{
	"accelerate.utils.find_executable_batch_size":        true,
	"accelerate.utils.memory.find_executable_batch_size": true,
}

// retryDecorator reports a decorator of retryDecorators.
func (l *lowerer) retryDecorator(e ast.Expr) bool {
	return retryDecorators[l.tb.Canonical(l.r.Ref(e))]
}

func (l *lowerer) rankDecorator(e ast.Expr) bool {
	ref := l.r.Ref(e)
	if ref != "" {
		if p := l.tb.RankPredicates[l.tb.Canonical(ref)]; p != nil && p.Kind == "decorator" {
			return true
		}
	}
	name := lastDotted(e)
	return l.tb.PredicateByLastName("decorator", name) != nil
}

// ops lists the collectives a statement list issues, in order: sites
// directly in it and, for calls of user functions, their summaries. Nested
// function and class bodies are skipped.
func (l *lowerer) ops(stmts []ast.Stmt) []*rules.OpRef {
	var out []*rules.OpRef
	for _, s := range stmts {
		out = append(out, l.nodeOps(s)...)
	}
	return out
}

// pathOps is ops(stmts) up to the first statement that is an exit under
// a rank test of its own (`if rank != 0: barrier(); return`): that arm's
// ops end the sequence. The ranks that take it issue no more; the ones
// that do not are that exit's own branch to compare, so an earlier exit
// compares with one path, not with both laid end to end (sparsify's
// save_sharded, where each rank reaches exactly one of three barriers).
func (l *lowerer) pathOps(stmts []ast.Stmt) []*rules.OpRef {
	var out []*rules.OpRef
	for _, st := range stmts {
		if s, ok := st.(*ast.If); ok && len(s.Orelse) == 0 && exits(s.Body) && !failsOnly(s.Body) && l.rankTest(s.Test) {
			return append(out, l.ops(s.Body)...)
		}
		out = append(out, l.nodeOps(st)...)
	}
	return out
}

// localSync returns the argument that may let only the new group's
// members create it (use_local_synchronization=…, unless a literal
// False), or nil.
func localSync(c *ast.Call, gc *api.GroupCreator) ast.Expr {
	if x := arg(c, gc.Local); x != nil && !isFalse(x) {
		return x
	}
	return nil
}

// groupMembers records a group creation that synchronises the default
// group and is called with a member list depending on the rank
// (new_group(tp_ranks) where tp_ranks holds this rank's subset): every
// rank must pass the same list, so the subsets' creations never match
// (R18).
func (l *lowerer) groupMembers(c *ast.Call, ext string, at rules.Pos) {
	gc := l.tb.GroupCreators[ext]
	if gc == nil || gc.Collective != "world" || !gc.Members.Present() || localSync(c, gc) != nil || l.notDist > 0 {
		return
	}
	x := arg(c, gc.Members)
	if x == nil || !l.isRank(x) {
		return
	}
	if len(ast.SeqElts(x)) == 1 {
		// [dist.get_rank()]: a group of this rank alone connects to
		// nobody (torchft registers its process groups this way).
		return
	}
	op := &rules.OpRef{Op: lastName(ext), Group: worldGroup, Pos: at, Creates: true}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(x.Span()), Cond: l.text(x), Then: []*rules.OpRef{op}, Members: true})
}

// worldGroup is the default group, which group creations synchronise.
var worldGroup = &rules.Group{ID: "WORLD", Kind: rules.GroupWorld}

func (l *lowerer) exprOps(e ast.Expr) []*rules.OpRef { return l.nodeOps(e) }

// syncCallers are library calls that run a function they are handed
// before they return, on the caller's behalf: its argument position and
// keyword.
var syncCallers = map[string]struct {
	pos int
	kw  string
}{
	"wandb.agent":             {1, "function"},
	"wandb.wandb_agent.agent": {1, "function"},
	// Optuna's study runs the objective once per trial on the calling
	// thread (n_jobs=1): the other ranks of its DDP example call it
	// themselves as many times.
	"optuna.study.Study.optimize":       {0, "func"},
	"optuna.study.study.Study.optimize": {0, "func"},
	"optuna.create_study.optimize":      {0, "func"},
}

// syncCallback returns the program function that a call of one of
// syncCallers runs (`wandb.agent(sweep_id, function=train)`), or nil.
func (l *lowerer) syncCallback(c *ast.Call, ext string) *rules.Function {
	sc, ok := syncCallers[ext]
	fo, isObjecter := l.r.(FuncObjecter)
	if !ok || !isObjecter {
		return nil
	}
	var arg ast.Expr
	if sc.pos < len(c.Args) {
		arg = c.Args[sc.pos]
	}
	for _, k := range c.Keywords {
		if k.Arg == sc.kw {
			arg = k.Value
		}
	}
	if arg == nil {
		return nil
	}
	if fn := fo.FuncObject(arg); fn != nil {
		return fn
	}
	if po, ok := l.r.(PartialObjecter); ok {
		return po.PartialTarget(arg) // study.optimize(partial(train, …))
	}
	return nil
}

func (l *lowerer) nodeOps(root ast.Node) []*rules.OpRef {
	var out []*rules.OpRef
	var derived map[string]bool // comprehension targets over a jitted result
	var visit func(n ast.Node)
	comp := func(gens []*ast.Comprehension, n ast.Node) {
		d := l.compDerived(gens)
		if d == nil {
			ast.Children(n, visit)
			return
		}
		saved := derived
		derived = d
		for k := range saved {
			derived[k] = true
		}
		ast.Children(n, visit)
		derived = saved
	}
	visit = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return
		case *ast.ListComp, *ast.SetComp, *ast.GeneratorExp, *ast.DictComp:
			comp(generators(n), n)
			return
		case *ast.With:
			// A collective expected to raise (failure-injection tests) does
			// not take part in the sequence.
			if expectsRaise(n.Items, l.body) {
				return
			}
		case *ast.If:
			// Two arms that issue the same sequence are one path: every
			// rank issues it once, whichever arm it takes (`elif flag:
			// all_reduce(t)` / `else: all_reduce(t)`), not both.
			visit(n.Test)
			then, els := l.ops(n.Body), l.ops(n.Orelse)
			// The arm where DeepSpeed's ZeRO stage is not 3 (`if
			// accelerator.state.deepspeed_plugin.zero_stage != 3:`)
			// holds whole parameters: getting or saving the full state
			// dict gathers nothing there (HuatuoGPT-Vision, Apollo).
			if below, inThen := belowZero3(n.Test); below {
				if inThen {
					then = withoutFullStateGathers(then)
				} else {
					els = withoutFullStateGathers(els)
				}
			}
			// An arm that ends by raising is a failure: the launcher
			// stops the job, whatever the arm issued before (a rank that
			// destroys its group, then raises).
			if failsOnly(n.Body) {
				then = nil
			}
			if failsOnly(n.Orelse) {
				els = nil
			}
			// An arm that runs only in a single-process job (`if
			// local_rank == -1 and evaluate: evaluate(model)`) has no
			// peers to disagree with.
			if ok, thenSingle := l.singleProcessArm(n.Test); ok {
				if thenSingle {
					then = nil
				} else {
					els = nil
				}
			}
			out = append(out, then...)
			if !sameOps(then, els) {
				out = append(out, els...)
			}
			return
		case *ast.For:
			// `for b in ds`: iterating runs the generator __iter__ of ds's
			// class, whose collectives come first (a stream dataset that
			// all-reduces its shard length before yielding).
			visit(n.Iter)
			if ig, ok := l.r.(IterGeneratorer); ok {
				p := l.pos(n.Iter.Span())
				for _, gen := range ig.IterGenerators(n.Iter) {
					if gen == l.fn {
						continue
					}
					for _, o := range l.r.Summary(gen) {
						if o != nil {
							out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: p, Site: o.Site, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad})
						}
					}
				}
			}
			for _, x := range n.Body {
				visit(x)
			}
			for _, x := range n.Orelse {
				visit(x)
			}
			return
		case *ast.ExceptHandler:
			// A handler that raises is the failure path: what it issues
			// before raising tells the peers (TensorRT-LLM's chunked
			// broadcast sends a failure header from the root, matching the
			// header the others receive), and then the process fails and
			// the launcher stops the job.
			if raises(n.Body) {
				return
			}
		case *ast.Call:
			// Arguments are evaluated before the call.
			ast.Children(n, visit)
			if s := l.r.Site(n); s != nil {
				if l.communicates(n, s) && !l.onceIssued[n] {
					o := &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s, Resumed: l.resumes(n, s)}
					if l.heldGroups != nil && l.heldGroups[l.groupArgText(n, s)] {
						if l.heldOps == nil {
							l.heldOps = map[*rules.OpRef]bool{}
						}
						l.heldOps[o] = true
					}
					out = append(out, o)
				}
				return
			}
			if gs, ok := l.r.(GradSyncer); ok {
				if o := gs.ImplicitOp(n); o != nil {
					out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: o.Pos, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad})
					return
				}
			}
			if l.zero3Forward(n) || l.zero3Handed(n) {
				out = append(out, &rules.OpRef{Op: ForwardOp, Group: worldGroup, Pos: l.pos(n.Pos)})
				return
			}
			if l.hostCopy(n, derived) {
				out = append(out, &rules.OpRef{Op: MaterializeOp, Group: worldGroup, Pos: l.pos(n.Pos)})
				return
			}
			if l.jaxProgram() && l.jitCall(n) {
				out = append(out, &rules.OpRef{Op: JitOp, Group: worldGroup, Pos: l.pos(n.Pos)})
				return
			}
			ext, fn := l.callee(n)
			if cb := l.syncCallback(n, ext); fn == nil && cb != nil && cb != l.fn {
				// The callback runs with the library's arguments, not
				// this call's: its whole summary.
				p := l.pos(n.Pos)
				for _, o := range l.r.Summary(cb) {
					if o != nil {
						out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: p, Site: o.Site, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad})
					}
				}
				return
			}
			if gc := l.tb.GroupCreators[ext]; gc != nil && gc.Collective == "world" && localSync(n, gc) == nil {
				// Group creation: every rank of the default group takes part.
				out = append(out, &rules.OpRef{Op: lastName(ext), Group: worldGroup, Pos: l.pos(n.Pos), Creates: true})
				return
			}
			if fn != nil && fn != l.fn && !Dispatch(fn) {
				p := l.pos(n.Pos)
				var sum []*rules.OpRef
				if cs, ok := l.r.(CallSummarizer); ok {
					sum = cs.CallSummary(n, fn)
				} else {
					sum = l.r.Summary(fn)
				}
				if len(sum) > MaxSummary {
					sum = sum[:MaxSummary]
				}
				for _, o := range sum {
					if o != nil {
						out = append(out, &rules.OpRef{Op: o.Op, Group: o.Group, Pos: p, Site: o.Site, GateArg: o.GateArg, BuffersOnly: o.BuffersOnly, NoGrad: o.NoGrad})
					}
				}
			}
			return
		}
		ast.Children(n, visit)
	}
	visit(root)
	return out
}

// sameOps reports two sequences of the same collectives on the same
// groups.
func sameOps(a, b []*rules.OpRef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Op != b[i].Op || a[i].Resumed != b[i].Resumed || a[i].Group != b[i].Group && (a[i].Group == nil || b[i].Group == nil || a[i].Group.ID != b[i].Group.ID) {
			return false
		}
	}
	return true
}

// resumes reports a training loop's call that names a checkpoint to
// resume from (trainer.train(resume_from_checkpoint=True), fit(…,
// ckpt_path=path)): a literal None or False resumes nothing.
func (l *lowerer) resumes(c *ast.Call, s *rules.Site) bool {
	e := l.tb.Collectives[s.API]
	if e == nil || !e.ResumeFrom.Present() {
		return false
	}
	x := arg(c, e.ResumeFrom)
	return x != nil && !isFalse(x) && !isNone(x)
}

// hostResume records, for a training loop's call whose checkpoint to
// resume from is this host's answer (`last = None; if
// os.path.isdir(d): last = d` … `trainer.train(resume_from_checkpoint=
// last)`), the branch between resuming and starting over that the
// argument decides: a host that sees no checkpoint runs every step, the
// others only the remaining ones. Inside an arm of such a check the arms
// themselves are the branch.
func (l *lowerer) hostResume(c *ast.Call, s *rules.Site) {
	if l.notDist > 0 || len(l.hostAnswerTests) > 0 || l.r.Prog().Facts.SingleHost() {
		return
	}
	e := l.tb.Collectives[s.API]
	if e == nil || !e.ResumeFrom.Present() {
		return
	}
	x := arg(c, e.ResumeFrom)
	if x == nil && strings.HasPrefix(s.API, "lightning.pytorch.Trainer.") {
		x = l.trainerResumeKeyword(c)
	}
	if x == nil || isFalse(x) || isNone(x) || !l.probeAnswer(x) && !l.fsProbe(x) || l.setAlikeNonEmpty(dotted(x)) {
		return
	}
	resumed := &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s, Resumed: true}
	fresh := &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s}
	br := &rules.RankBranch{Func: l.fn, Guard: l.pos(x.Span()), Cond: l.text(x),
		Then: []*rules.OpRef{resumed}, Else: []*rules.OpRef{fresh}, Divergence: rules.HostCheck}
	if o := l.fsOriginOf(x); o != nil {
		at := l.pos(o.Span())
		br.Origin = &at
	}
	l.addBranch(br)
}

// setAlikeNonEmpty reports an attribute path that the function (or
// script) binds only to strings that are never empty, and never inside
// a file system check's arm: a check may have picked which path (`ckpt
// = opt.resume` where it is a file, `os.path.join(opt.resume,
// "last.ckpt")` where not), but every host sets it, so every rank
// resumes, each from its pick (Make-An-Audio-2's main).
func (l *lowerer) setAlikeNonEmpty(path string) bool {
	if !strings.Contains(path, ".") || l.boundUnderHostCheck(path) {
		return false
	}
	bound, kept := false, true
	ast.InspectBody(l.body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			for _, t := range a.Targets {
				if dotted(t) == path {
					bound = true
					kept = kept && len(a.Targets) == 1 && (nonEmptyString(a.Value) || neverEmptyLocal(l.body, a.Value))
				}
			}
		}
		return kept
	})
	return bound && kept
}

// boundUnderHostCheck reports a name or attribute path that the
// function (or script) binds inside an arm of a file system check: where
// that host's answer differs, the path is set on some hosts only.
func (l *lowerer) boundUnderHostCheck(path string) bool {
	if path == "" {
		return false
	}
	found := false
	var walk func(stmts []ast.Stmt, under bool)
	walk = func(stmts []ast.Stmt, under bool) {
		for _, st := range stmts {
			if found {
				return
			}
			switch x := st.(type) {
			case *ast.If:
				u := under || l.fsProbe(x.Test)
				walk(x.Body, u)
				walk(x.Orelse, u)
				continue
			case *ast.Assign:
				if under {
					for _, t := range x.Targets {
						found = found || dotted(t) == path
					}
				}
				continue
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				continue
			}
			for _, arm := range ast.ChildBlocks(st) {
				walk(arm, under)
			}
		}
	}
	walk(l.body, false)
	return found
}

// trainerResumeKeyword returns the checkpoint a Lightning 1.x Trainer was
// built to resume from (`trainer = Trainer(…, resume_from_checkpoint=x)`
// in this function, the one binding of the receiver of c), or nil: its
// fit() restores that checkpoint's step like fit(ckpt_path=x).
func (l *lowerer) trainerResumeKeyword(c *ast.Call) ast.Expr {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return nil
	}
	recv, ok := a.Value.(*ast.Name)
	if !ok {
		return nil
	}
	var found ast.Expr
	bindings := 0
	ast.InspectBody(l.body, func(n ast.Node) bool {
		as, ok := n.(*ast.Assign)
		if !ok {
			return true
		}
		for _, t := range as.Targets {
			if !storesTo(t, recv.Id) {
				continue
			}
			bindings++
			if nm, ok := t.(*ast.Name); ok && nm.Id == recv.Id {
				if built, ok := as.Value.(*ast.Call); ok {
					for _, k := range built.Keywords {
						if k.Arg == "resume_from_checkpoint" {
							found = k.Value
						}
					}
				}
			}
		}
		return true
	})
	if bindings != 1 {
		return nil
	}
	return found
}

// communicates applies a table entry's only_if condition (self.log(...,
// sync_dist=True) is collective, plain self.log is not).
func (l *lowerer) communicates(c *ast.Call, s *rules.Site) bool {
	if fullStateGathers[s.API] && len(l.replicated) > 0 {
		// Below ZeRO-3 the engine saves the module's own state dict, on
		// rank 0: nothing to gather.
		if a, ok := c.Func.(*ast.Attribute); ok {
			if n, ok := a.Value.(*ast.Name); ok && l.replicated[n.Id] {
				return false
			}
		}
	}
	e := l.tb.Collectives[s.API]
	if e == nil || !e.OnlyIf.Present() {
		return true
	}
	x := arg(c, e.OnlyIf)
	if x == nil || isFalse(x) || isNone(x) {
		return false
	}
	if opts, built := x.(*ast.Call); built && len(e.OnlyIfKeys) > 0 {
		for _, k := range opts.Keywords {
			if slices.Contains(e.OnlyIfKeys, k.Arg) && !isFalse(k.Value) {
				return true
			}
		}
		return false
	}
	return true
}

func isNone(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	return ok && c.Type == ast.ConstNone
}

// Dispatch reports callees whose summaries fan out over the whole program
// rather than describe this call: Module.__call__ (every forward of every
// module class) and unittest-style assertion helpers. Branches that call
// them are compared on their direct collectives only. On PyTorch's own
// sources these summaries produced all but one of the rank-branch false
// positives (BENCHMARKS.md, "Findings on real code"). The model's
// summaries skip them too (torch.jit.script reaches Module._call_impl).
// A program class's own __call__ with a signature of its own (a
// pipeline object that runs its modules) is no dispatcher: calling an
// instance runs it.
func Dispatch(fn *rules.Function) bool {
	name, cls := fn.Name, ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name, cls = name[i+1:], name[:i]
	}
	if name == "__call__" {
		return fn.Forwarder || strings.HasSuffix(cls, "Module")
	}
	return name == "_call_impl" || strings.HasPrefix(name, "assert")
}

func isMinusOne(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryOp); ok && u.Op == ast.USub {
		c, ok := u.Operand.(*ast.Constant)
		return ok && c.Type == ast.ConstInt && c.Int == 1
	}
	c, ok := e.(*ast.Constant)
	return ok && c.Type == ast.ConstInt && c.Int == -1
}

// openRankBranch is a rank branch that a later one may pair with.
type openRankBranch struct {
	br   *rules.RankBranch
	test ast.Expr
	rest []ast.Stmt // the statements after its if statement
}

// pairRank marks br and the previous rank branch Paired when that one is
// an earlier statement of the same block, its condition is br's negation,
// both issue the same collectives with no else, and no collective runs
// between them: ranks that take the first take only it, the others take
// only the second, and each issues the sequence once.
func (l *lowerer) pairRank(br *rules.RankBranch, test ast.Expr, rest []ast.Stmt) {
	prev := l.lastRank
	l.lastRank = &openRankBranch{br, test, rest}
	if prev == nil || prev.br.Func != br.Func || !SameOps(br.Then, prev.br.Then) || !oppositeRankTests(prev.test, test) || !l.releasedAt(prev.rest, test, br.Then) {
		return
	}
	prev.br.Paired, br.Paired = true, true
	l.lastRank = nil
}

// releasedAt reports whether the if statement whose test is test lies in
// stmts with no collective before it: directly, or in an arm of a
// conditional that is no rank test whose other arm issues the same
// collectives (want) with no collective before them, so every path
// issues the release once (FastChat: `if os.path.exists(cache): load;
// if rank == 0: dist.barrier()` `else: assert rank == 0; build;
// dist.barrier()`).
func (l *lowerer) releasedAt(stmts []ast.Stmt, test ast.Expr, want []*rules.OpRef) bool {
	for i, st := range stmts {
		if t, ok := st.(*ast.Try); ok && holdsTest(t.Finalbody, test) {
			// try: yield / finally: if rank == 0: barrier() — the
			// release runs however the block ends.
			return len(l.ops(stmts[:i])) == 0 && len(l.ops(t.Body)) == 0 && l.releasedAt(t.Finalbody, test, want)
		}
		sp, ok := st.(*ast.If)
		if !ok {
			continue
		}
		if sp.Test == test {
			return len(l.ops(stmts[:i])) == 0
		}
		in, other := sp.Body, sp.Orelse
		if !holdsTest(in, test) {
			in, other = sp.Orelse, sp.Body
			if !holdsTest(in, test) {
				continue
			}
		}
		return len(l.ops(stmts[:i])) == 0 && !l.isRank(sp.Test) &&
			SameOps(l.ops(other), want) && l.releasedAt(in, test, want)
	}
	return false
}

// holdsTest reports whether an if statement with test is among stmts or
// nested in their blocks.
func holdsTest(stmts []ast.Stmt, test ast.Expr) bool {
	return anyStmt(stmts, func(s ast.Stmt) bool {
		sp, ok := s.(*ast.If)
		return ok && sp.Test == test
	})
}

// SameOps reports whether two op sequences issue the same collectives on
// the same groups, in order (the model pairs the halves of a class-based
// main-process-first context manager with it too).
func SameOps(a, b []*rules.OpRef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Op != b[i].Op || a[i].Group != b[i].Group {
			return false
		}
	}
	return true
}

// oppositeRankTests reports whether a and b hold on complementary sets of
// ranks: `x == k` / `x != k`, `c` / `not c`, and the rank-0 forms
// `x > 0`, `x >= 1`, `x not in [-1, 0]` (-1: not distributed) against
// `x == 0` / `x in [-1, 0]`.
func oppositeRankTests(a, b ast.Expr) bool { return OppositeRankTests(a, b) }

// OppositeRankTests is oppositeRankTests for the model, which pairs the
// two halves of a class-based main-process-first context manager.
func OppositeRankTests(a, b ast.Expr) bool {
	// A guard that the job is distributed on one half only (`if not
	// is_master(): barrier()` … `if dist.is_initialized() and
	// is_master(): barrier()`, neuralangelo's master_first): where it
	// fails there is one process, or no group to communicate on, so
	// neither half meets anyone; where it holds, the rest decides.
	if ra, rb := dropMultiProcess(a), dropMultiProcess(b); ra != a || rb != b {
		return ra != nil && rb != nil && OppositeRankTests(ra, rb)
	}
	// `distributed and not is_main` / `distributed and is_main`: the same
	// guard around opposite rank tests.
	if ba, ok := a.(*ast.BoolOp); ok && ba.Op == ast.And {
		bb, ok := b.(*ast.BoolOp)
		if !ok || bb.Op != ast.And || len(ba.Values) != len(bb.Values) {
			return false
		}
		diff := -1
		for i := range ba.Values {
			sa, pa, oka := rankTestForm(ba.Values[i])
			sb, pb, okb := rankTestForm(bb.Values[i])
			if oka && okb && sa == sb && pa == pb || sameExpr(ba.Values[i], bb.Values[i]) {
				// The same guard on both (`num_gpus > 1`).
				continue
			}
			if diff >= 0 {
				return false
			}
			diff = i
		}
		return diff >= 0 && oppositeRankTests(ba.Values[diff], bb.Values[diff])
	}
	sa, pa, oka := rankTestForm(a)
	sb, pb, okb := rankTestForm(b)
	return oka && okb && sa == sb && pa != pb
}

// dropMultiProcess returns an `and` test without its conjuncts that ask
// whether the job is distributed (multiProcess), the one left when one
// is; e itself when it has none of them; nil when nothing else is left.
func dropMultiProcess(e ast.Expr) ast.Expr {
	b, ok := e.(*ast.BoolOp)
	if !ok || b.Op != ast.And || !slices.ContainsFunc(b.Values, multiProcess) {
		return e
	}
	var rest []ast.Expr
	for _, v := range b.Values {
		if !multiProcess(v) {
			rest = append(rest, v)
		}
	}
	switch len(rest) {
	case 0:
		return nil
	case 1:
		return rest[0]
	}
	return &ast.BoolOp{Op: ast.And, Values: rest}
}

// multiProcess reports a test that holds only in a distributed job:
// `dist.is_initialized()`, `dist.is_available()`, `world_size > 1`.
func multiProcess(e ast.Expr) bool {
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 {
		switch lastDotted(c.Func) {
		case "is_initialized", "is_available":
			return true
		}
	}
	return multiWorld(e)
}

// rankTestForm reduces a test to a subject and a polarity: (x==K, true),
// (x!=K, false) with K folded into the subject; a bare expression is
// (text, true), its negation (text, false).
func rankTestForm(e ast.Expr) (subject string, positive, ok bool) {
	switch t := e.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			s, p, ok := rankTestForm(t.Operand)
			return s, !p, ok
		}
	case *ast.Compare:
		if len(t.Ops) != 1 || len(t.Comparators) != 1 {
			return "", false, false
		}
		x := dotted(t.Left)
		if c, ok := t.Left.(*ast.Call); ok && x == "" {
			x = dotted(c.Func) + "()"
		}
		if x == "" {
			return "", false, false
		}
		r := t.Comparators[0]
		switch t.Ops[0] {
		case ast.Eq:
			if k, ok := intConst(r); ok {
				return fmt.Sprintf("%s==%d", x, k), true, true
			}
			if d := dotted(r); d != "" {
				return x + "==" + d, true, true // rank == master_rank
			}
		case ast.NotEq:
			if k, ok := intConst(r); ok {
				return fmt.Sprintf("%s==%d", x, k), false, true
			}
			if d := dotted(r); d != "" {
				return x + "==" + d, false, true
			}
		case ast.Gt:
			if k, ok := intConst(r); ok && k == 0 {
				return x + "==0", false, true
			}
		case ast.GtE:
			if k, ok := intConst(r); ok && k == 1 {
				return x + "==0", false, true
			}
		case ast.In, ast.NotIn:
			if zeroOrUnset(r) {
				return x + "==0", t.Ops[0] == ast.In, true
			}
		}
		return "", false, false
	}
	if s := dotted(e); s != "" {
		return s, true, true
	}
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 && dotted(c.Func) != "" {
		return dotted(c.Func) + "()", true, true
	}
	return "", false, false
}

// intConst returns the value of an integer literal, negative ones too.
func intConst(e ast.Expr) (int64, bool) { return ast.IntLiteral(e) }

// zeroOrUnset: [-1, 0], (-1, 0), {0, -1} or [0]: "rank 0, or not
// distributed at all".
func zeroOrUnset(e ast.Expr) bool {
	elts := ast.SeqElts(e)
	if s, ok := e.(*ast.Set); ok {
		elts = s.Elts
	}
	if elts == nil {
		return false
	}
	zero := false
	for _, el := range elts {
		v, ok := intConst(el)
		if !ok || v != 0 && v != -1 {
			return false
		}
		zero = zero || v == 0
	}
	return zero
}

// distributedTest recognises a test of whether torch.distributed is
// initialised (`dist.is_initialized()`, alone or and-ed with
// `dist.is_available()`, or negated); singleInThen says whether its then
// arm is the single-process one.
func (l *lowerer) distributedTest(test ast.Expr) (ok, singleInThen bool) {
	neg := false
	if u, isNot := test.(*ast.UnaryOp); isNot && u.Op == ast.Not {
		test, neg = u.Operand, true
	}
	isInit := func(e ast.Expr) bool {
		c, ok := e.(*ast.Call)
		if !ok {
			return false
		}
		ext, _ := l.callee(c)
		return ext == "torch.distributed.is_initialized"
	}
	switch t := test.(type) {
	case *ast.Call:
		ok = isInit(t)
	case *ast.BoolOp:
		if t.Op == ast.And {
			for _, v := range t.Values {
				ok = ok || isInit(v)
			}
		}
	}
	return ok, ok && neg
}

// reorderedArms records an if whose arms issue the same collectives, on
// two or more groups, in different orders (torchrec's
// `if lengths.sum().item() > 0:` all_to_all then all_reduce, else the
// reverse; R17). Whatever the condition, the arms agree on what to issue
// and disagree only on the order, which matters only when ranks take
// different arms: the one reason to write it is a condition that can.
// Groups the model does not know are told apart by their argument's text
// (group=self.shard_pg), so only the arms' own calls are compared.
func (l *lowerer) reorderedArms(s *ast.If) {
	then, thenKeys := l.armSites(s.Body)
	els, elseKeys := l.armSites(s.Orelse)
	if len(then) < 2 || len(then) != len(els) {
		return
	}
	count := map[string]int{}
	groups := map[string]bool{}
	same := true
	for i := range thenKeys {
		a, b := thenKeys[i], elseKeys[i]
		if a == "" || b == "" {
			return
		}
		count[a]++
		count[b]--
		groups[a[strings.IndexByte(a, '@')+1:]] = true
		same = same && a == b
	}
	if same || len(groups) < 2 {
		return
	}
	for _, n := range count {
		if n != 0 {
			return
		}
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(s.Test.Span()), Cond: l.text(s.Test), Then: then, Else: els, Reordered: true, Divergence: rules.LocalValue})
}

// armSites lists the collectives an arm calls itself, in order, each with
// a key op@group ("" when its group can be told by neither the model nor
// the argument's text).
func (l *lowerer) armSites(stmts []ast.Stmt) (ops []*rules.OpRef, keys []string) {
	ast.InspectBody(stmts, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			site := l.r.Site(n)
			if site == nil {
				return true
			}
			g := ""
			switch {
			case site.Group != nil && site.Group.Kind != rules.GroupUnknown:
				g = site.Group.ID
			default:
				if e := l.tb.Collectives[site.API]; e != nil {
					if a := arg(n, e.Group); a != nil {
						g = "expr:" + l.text(a)
					}
				}
			}
			key := ""
			group := site.Group
			if g != "" {
				key = site.Op + "@" + g
				if strings.HasPrefix(g, "expr:") {
					// Named by the argument's text for the message.
					group = &rules.Group{ID: g, Kind: rules.GroupUnknown}
				}
			}
			ops = append(ops, &rules.OpRef{Op: site.Op, Group: group, Pos: site.Pos, Site: site})
			keys = append(keys, key)
		}
		return true
	})
	return ops, keys
}

// commandLoop records a follower's command loop: `while True:` whose body
// starts by receiving a broadcast (TensorRT-LLM's worker_main: the
// non-zero ranks take each command rank 0 broadcasts on the control group
// and run it). Rank 0's broadcasts of commands on that group, issued on
// rank 0 alone, are the other half of the loop (CV301).
func (l *lowerer) commandLoop(s *ast.While) {
	if !isTrue(s.Test) && !l.endlessWhenDistributed(s) || l.notDist > 0 {
		return
	}
	// A loop in the then-arm of a test for rank 0 is the leader's own
	// (`if rank == 0: while True: broadcast(buf, src=0)`): no follower
	// runs it.
	if n := len(l.rankIfs); n > 0 && !l.rankIfs[n-1].inElse && l.rankIfs[n-1].s != nil && rankZeroTest(l.rankIfs[n-1].s.Test) {
		return
	}
	ops := l.ops(s.Body)
	// The followers receive a command in every pass: the loop does not
	// open with it under a test that differs between ranks (`if
	// time.time() > deadline: broadcast(…)` in a `while True:` is a
	// collective some ranks skip, not a command).
	first := l.ops(l.commandPrefix(s.Body))
	// A barrier handshake may come first (NeMo-Skills' TensorRT-LLM
	// server: Barrier, then bcast of the request), on the same group.
	lead := 0
	for lead < len(first) && first[lead].Op == "barrier" {
		lead++
	}
	if lead == len(first) || first[lead].Site == nil || !broadcastOp(first[lead].Op) {
		return
	}
	for _, o := range ops[:lead] {
		if o.Group == nil || ops[lead].Group == nil || o.Group.ID != ops[lead].Group.ID {
			return
		}
	}
	var sites []*rules.Site
	for _, o := range ops {
		if o.Site != nil && !slices.Contains(sites, o.Site) {
			sites = append(sites, o.Site)
		}
	}
	f := &l.r.Prog().Facts
	f.CommandLoops = append(f.CommandLoops, &rules.CommandLoop{Pos: l.pos(s.Pos), Func: l.fn, Op: ops[lead].Op, Group: ops[lead].Group, Barriers: lead, Sites: sites})
}

// endlessWhenDistributed reports a while loop whose test holds in every
// distributed job and that its body never changes (`while
// self.world_size > 1:`, `while dist.is_initialized():`): where it
// communicates at all, it loops for good, as `while True:` does (tLLM's
// follower ranks).
func (l *lowerer) endlessWhenDistributed(s *ast.While) bool {
	if !multiProcess(s.Test) {
		return false
	}
	if _, isCall := s.Test.(*ast.Call); isCall {
		return true // is_initialized(): fixed once the group exists
	}
	// The world size is no state a method keeps changing: only an
	// assignment in the body to what the test reads counts (not a
	// method call on self, which loopInvariant must assume may).
	left := s.Test.(*ast.Compare).Left
	if _, isCall := left.(*ast.Call); isCall {
		return true // dist.get_world_size() > 1
	}
	read := dotted(left)
	if read == "" {
		return false
	}
	return !rebindsAny(s.Body, []string{read})
}

// commandPrefix returns the statements of a loop body up to its first if
// whose test can differ between ranks (the rank, the clock, a file's
// presence): a command the followers receive in every pass does not sit
// under one.
func (l *lowerer) commandPrefix(body []ast.Stmt) []ast.Stmt {
	for i, st := range body {
		if s, ok := st.(*ast.If); ok {
			if _, diverges := l.divergence(s.Test); diverges {
				return body[:i]
			}
		}
	}
	return body
}

// broadcastOp reports the ops that hand one rank's value to the others.
func broadcastOp(op string) bool { return op == "broadcast" || op == "broadcast_object" }

// isDocstring reports a statement that is a string literal alone.
func isDocstring(st ast.Stmt) bool {
	e, ok := st.(*ast.ExprStmt)
	if !ok {
		return false
	}
	k, ok := e.Value.(*ast.Constant)
	return ok && k.Type == ast.ConstStr
}

// sameExpr reports two expressions of the same shape (positions aside).
func sameExpr(a, b ast.Expr) bool {
	return ast.Dump(a, ast.DumpOptions{}) == ast.Dump(b, ast.DumpOptions{})
}

// outputSwitches are keyword arguments that only turn a call's logging,
// printing or progress display on or off, or say which process writes.
var outputSwitches = map[string]bool{
	"log_info": true, "verbose": true, "verbosity": true, "log": true, "logging": true, "print_log": true,
	"quiet": true, "silent": true, "disable": true, "show_progress": true, "progress_bar": true,
	"is_main_process": true,
}

// barOutputs are a progress bar's keywords that say where and how it
// prints (s3prl's `tqdm(total=n, file=sys.stderr if leader else
// devnull)`), not what it counts.
var barOutputs = map[string]bool{"file": true, "position": true, "leave": true, "desc": true, "dynamic_ncols": true, "ncols": true}

// outputSwitch reports a keyword of c that only decides what c prints.
func outputSwitch(c *ast.Call, k *ast.Keyword) bool {
	return outputSwitches[k.Arg] || barOutputs[k.Arg] && progressBars[lastDotted(c.Func)]
}

// quietKeywords reports a call that passes one of outputSwitches (or a
// progress bar's barOutputs).
func quietKeywords(c *ast.Call) bool {
	for _, k := range c.Keywords {
		if outputSwitch(c, k) {
			return true
		}
	}
	return false
}

// belowZero3 reports a test of DeepSpeed's ZeRO stage against 3
// (`….zero_stage != 3`, `… == 3`, `… < 3`), and whether the arm where the
// stage is below 3 is the then arm.
func belowZero3(test ast.Expr) (ok, inThen bool) {
	c, isCmp := test.(*ast.Compare)
	if !isCmp || len(c.Ops) != 1 {
		return false, false
	}
	name := lastDotted(c.Left)
	k, isConst := c.Comparators[0].(*ast.Constant)
	if name != "zero_stage" && name != "zero_optimization_stage" || !isConst || k.Type != ast.ConstInt || k.Int != 3 {
		return false, false
	}
	switch c.Ops[0] {
	case ast.NotEq, ast.Lt:
		return true, true
	case ast.Eq, ast.GtE:
		return true, false
	}
	return false, false
}

// fullStateGathers are the calls that gather a full state dict only
// under ZeRO-3 (accelerate's get_state_dict, DeepSpeed's
// save_16bit_model).
var fullStateGathers = map[string]bool{
	"accelerate.Accelerator.get_state_dict": true, "deepspeed.DeepSpeedEngine.save_16bit_model": true,
}

// withoutFullStateGathers drops those calls from ops.
func withoutFullStateGathers(ops []*rules.OpRef) []*rules.OpRef {
	var out []*rules.OpRef
	for _, o := range ops {
		if o.Site != nil && fullStateGathers[o.Site.API] {
			continue
		}
		out = append(out, o)
	}
	return out
}

// rootedIn reports an attribute read of an object vars names, or of an
// attribute of one (`classifier.apply_ddp`, `self.head.apply_ddp`).
func rootedIn(a *ast.Attribute, vars map[string]bool) bool {
	for d := dotted(a.Value); d != ""; {
		if vars[d] {
			return true
		}
		i := strings.LastIndexByte(d, '.')
		if i < 0 {
			return false
		}
		d = d[:i]
	}
	return false
}

// Pair groups held by their members only. terapipe's pipeline stages
// pass activations with broadcasts on two-rank groups: every rank creates
// every neighbouring pair's group, but keeps one only where it is one of
// the pair (Megatron-style, in a module global a getter returns, or on
// the instance):
//
//	for i in range(1, size):
//	    group = dist.new_group([pred, succ])
//	    if rank == pred:
//	        _PRED_GROUP = group
//	    if rank == succ:
//	        _SUCC_GROUP = group
//
// A broadcast on such a group, rooted at one of the two, is a send from
// one to the other: the stage's rank test around it (`if stage > 0:
// broadcast(x, prev, group=succ_group)`) selects the pair's members, as a
// send and a receive split by rank do. Whether it picks them exactly
// cannot be told from the syntax, so a rank test's ops on such a group
// are left out of its branch.

// seedHeldGroups records, in a method, the pair-group attributes its
// class's __init__ keeps (heldGroups).
func (l *lowerer) seedHeldGroups(fn *rules.Function, node ast.Node) {
	init, self := l.classInit(fn, node)
	if init == nil {
		return
	}
	for a := range l.initHeldGroups(init) {
		if l.heldGroups == nil {
			l.heldGroups = map[string]bool{}
		}
		l.heldGroups[self+"."+a] = true
	}
}

// initHeldGroups returns the attributes an __init__ binds to a pair
// group only its members keep: one bound in the arm of `rank == a` to
// new_group([a, b]), or the result of a getter that returns such a
// module global (pairGlobal); bound nowhere else but to None (memoized per
// constructor).
func (l *lowerer) initHeldGroups(init *ast.FunctionDef) map[string]bool {
	c := l.memo()
	if v, ok := c.heldGroups.Load(init); ok {
		return v.(map[string]bool)
	}
	var out map[string]bool
	if init.Args != nil && len(init.Args.Positional()) > 0 && l.src.mentionsAny(init.Span(), []string{"group"}) {
		self := init.Args.Positional()[0].Arg
		held, other := map[string]bool{}, map[string]bool{}
		pairs := l.pairHeld(init.Body, func(t ast.Expr) string { return selfAttr(t, self) })
		ast.InspectBody(init.Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			}
			as, ok := n.(*ast.Assign)
			if !ok || len(as.Targets) != 1 {
				return true
			}
			attr := selfAttr(as.Targets[0], self)
			switch {
			case attr == "", isNone(as.Value):
			case pairs[as], l.pairGetter(as.Value):
				held[attr] = true
			default:
				other[attr] = true
			}
			return true
		})
		for a := range held {
			if !other[a] {
				if out == nil {
					out = map[string]bool{}
				}
				out[a] = true
			}
		}
	}
	v, _ := c.heldGroups.LoadOrStore(init, out)
	return v.(map[string]bool)
}

// pairHeld returns the assignments of body that keep a pair group where
// the rank is one of the pair: `X = group` in the arm of `rank == a` (or
// `a == rank`), group a local bound to new_group([a, b]) or new_group([b,
// a]); key names the target (it returns "" for targets that do not
// count).
func (l *lowerer) pairHeld(body []ast.Stmt, key func(ast.Expr) string) map[*ast.Assign]bool {
	pairs := map[string][2]string{} // local -> the pair's member texts
	var out map[*ast.Assign]bool
	var walk func(stmts []ast.Stmt, member string)
	walk = func(stmts []ast.Stmt, member string) {
		for _, st := range stmts {
			switch st := st.(type) {
			case *ast.Assign:
				if len(st.Targets) != 1 {
					continue
				}
				if n, ok := st.Targets[0].(*ast.Name); ok {
					delete(pairs, n.Id)
					if m, ok := pairMembers(st.Value); ok {
						pairs[n.Id] = m
					}
					if key(st.Targets[0]) == "" {
						continue
					}
				}
				g, ok := st.Value.(*ast.Name)
				if !ok || member == "" || key(st.Targets[0]) == "" {
					continue
				}
				if m, ok := pairs[g.Id]; ok && (m[0] == member || m[1] == member) {
					if out == nil {
						out = map[*ast.Assign]bool{}
					}
					out[st] = true
				}
			case *ast.If:
				walk(st.Body, l.rankEqualTo(st.Test))
				walk(st.Orelse, "")
			case *ast.For:
				walk(st.Body, member)
			case *ast.While:
				walk(st.Body, member)
			case *ast.With:
				walk(st.Body, member)
			case *ast.Try:
				walk(st.Body, member)
			}
		}
	}
	walk(body, "")
	return out
}

// pairMembers returns the two member expressions' texts of
// new_group([a, b]) (or a tuple), as dotted names.
func pairMembers(e ast.Expr) ([2]string, bool) {
	c, ok := e.(*ast.Call)
	if !ok || lastDotted(c.Func) != "new_group" || len(c.Args) == 0 {
		return [2]string{}, false
	}
	elts := ast.SeqElts(c.Args[0])
	if len(elts) != 2 {
		return [2]string{}, false
	}
	a, b := dotted(elts[0]), dotted(elts[1])
	if a == "" || b == "" || a == b {
		return [2]string{}, false
	}
	return [2]string{a, b}, true
}

// rankEqualTo returns X for a test `rank == X` (either way round) of the
// rank, X a plain name or attribute path; "" otherwise.
func (l *lowerer) rankEqualTo(test ast.Expr) string {
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Eq {
		return ""
	}
	for _, pair := range [2][2]ast.Expr{{c.Left, c.Comparators[0]}, {c.Comparators[0], c.Left}} {
		if d := dotted(pair[1]); d != "" && l.isRank(pair[0]) && !l.isRank(pair[1]) {
			return d
		}
	}
	return ""
}

// pairGetter reports a call of a program function that returns a module
// global its module keeps as a pair group only where the rank is one of
// the pair (terapipe's mpu.get_pipeline_parallel_pred_group()).
func (l *lowerer) pairGetter(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) > 0 {
		return false
	}
	_, fn := l.callee(c)
	if fn == nil {
		return false
	}
	return summarize(&l.memo().pairGetters, fn, func() bool {
		body, _, ok := l.defOf(fn)
		if !ok || len(body) == 0 {
			return false
		}
		r, ok := body[len(body)-1].(*ast.Return)
		if !ok {
			return false
		}
		g, ok := r.Value.(*ast.Name)
		return ok && l.pairGlobal(fn.Pos.Path, g.Id)
	})
}

// pairGlobal reports whether the module at path binds the global name,
// in its functions, only to None and to a pair group where the rank is
// one of the pair.
func (l *lowerer) pairGlobal(path, name string) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return false
	}
	held, other := false, false
	for _, f := range l.r.Prog().Funcs {
		if f.Pos.Path != path || f.ModuleBody {
			continue
		}
		body, _, _, isDef := defParts(fd.FuncDef(f))
		if !isDef || !declaresGlobal(body, name) {
			continue
		}
		sub := *l
		sub.fn = f
		sub.rankVars = map[string]bool{}
		markBound(body, sub.rankVars, sub.isRank)
		pairs := sub.pairHeld(body, func(t ast.Expr) string {
			if n, ok := t.(*ast.Name); ok && n.Id == name {
				return name
			}
			return ""
		})
		ast.InspectBody(body, func(n ast.Node) bool {
			as, ok := n.(*ast.Assign)
			if !ok || len(as.Targets) != 1 {
				return true
			}
			if t, ok := as.Targets[0].(*ast.Name); !ok || t.Id != name {
				return true
			}
			switch {
			case isNone(as.Value):
			case pairs[as]:
				held = true
			default:
				other = true
			}
			return true
		})
	}
	return held && !other
}

// selfAttr returns the attribute name of `self.attr` (self the receiver's
// name), "" for any other expression.
func selfAttr(e ast.Expr, self string) string {
	if a, ok := e.(*ast.Attribute); ok {
		if n, ok := a.Value.(*ast.Name); ok && n.Id == self {
			return a.Attr
		}
	}
	return ""
}

// declaresGlobal reports a `global name` statement among a function's
// top-level statements.
func declaresGlobal(body []ast.Stmt, name string) bool {
	for _, st := range body {
		if g, ok := st.(*ast.Global); ok && slices.Contains(g.Names, name) {
			return true
		}
	}
	return false
}

// groupArgText returns the text of a collective call's group argument,
// "" when it passes none.
func (l *lowerer) groupArgText(c *ast.Call, s *rules.Site) string {
	if e := l.tb.Collectives[s.API]; e != nil && e.Group.Present() {
		if a := arg(c, e.Group); a != nil {
			return l.text(a)
		}
	}
	return ""
}

// dropHeldGroupOps leaves out the ops on a group only its members hold
// (heldGroups), in a branch on a rank test.
func (l *lowerer) dropHeldGroupOps(ops []*rules.OpRef) []*rules.OpRef {
	if len(l.heldGroups) == 0 {
		return ops
	}
	var out []*rules.OpRef
	for _, o := range ops {
		if l.heldOps[o] {
			continue
		}
		out = append(out, o)
	}
	return out
}

// rankObjectCall reports a call of a program function that hands back an
// object only some ranks hold: it returns `X if <rank test> else None`,
// or a local it binds to something other than None only inside the arms
// of rank tests (`if data_rank == 0: loader = make() else: loader =
// None`, then `return loader`).
func (l *lowerer) rankObjectCall(e ast.Expr) bool {
	if x, ok := e.(*ast.IfExp); ok {
		// `gather_results(r) if dist.is_initialized() else r`: in a job,
		// the call's answer (nanodet's validation).
		if single, singleInThen := l.distributedTest(x.Test); single {
			if singleInThen {
				return l.rankObjectCall(x.Orelse)
			}
			return l.rankObjectCall(x.Body)
		}
	}
	return l.rankObjectReturns(e)[-1]
}

// rankObjectReturns returns, for a call of a program function, which of
// what it returns is an object only some ranks hold (rankObjectCall):
// -1 for the value itself, i for the i-th element of a returned tuple
// (`return data_type, feats, train_loader, eval_loader`: immunefold's
// setup_dataset).
func (l *lowerer) rankObjectReturns(e ast.Expr) map[int]bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return nil
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return nil
	}
	return summarize(&l.memo().rankObjRets, fn, func() map[int]bool {
		body, _, ok := l.defOf(fn)
		if !ok {
			return nil
		}
		sub := *l
		sub.fn = fn
		sub.rankVars = map[string]bool{}
		markBound(body, sub.rankVars, sub.isRank)
		var rets []ast.Expr
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Return:
				rets = append(rets, n.Value)
			}
			return true
		})
		if len(rets) != 1 || rets[0] == nil {
			return nil
		}
		var out map[int]bool
		add := func(i int) {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
		if t, ok := rets[0].(*ast.Tuple); ok {
			for i, x := range t.Elts {
				if sub.rankOrNone(x) || sub.heldOnlyUnderRank(body, x) {
					add(i)
				}
			}
			return out
		}
		if sub.rankOrNone(rets[0]) || sub.heldOnlyUnderRank(body, rets[0]) {
			add(-1)
		}
		return out
	})
}

// heldOnlyUnderRank reports a local that body binds to something other
// than None only inside the arms of rank tests (not ones the tables call
// uniform within some groups: Megatron's tensor-parallel rank 0 building
// the loader is held alike by those groups' members).
func (l *lowerer) heldOnlyUnderRank(body []ast.Stmt, e ast.Expr) bool {
	name, ok := e.(*ast.Name)
	if !ok {
		return false
	}
	held, other := false, false
	rankTest := func(t ast.Expr) bool { return l.isRank(t) && len(l.uniformIn(t)) == 0 }
	rankArmStmts(body, false, rankTest, func(st ast.Stmt, underRank bool) {
		switch st := st.(type) {
		case *ast.Assign:
			for _, t := range st.Targets {
				if mentionsStore(t, name.Id) {
					switch {
					case isNone(st.Value):
					case underRank:
						held = true
					default:
						other = true
					}
				}
			}
		case *ast.For, *ast.While, *ast.AugAssign, *ast.AnnAssign:
			if mentionsStore(st, name.Id) {
				other = true
			}
		}
	})
	return held && !other
}

// rankArmStmts calls visit on every statement of body, with whether it
// sits in an arm of an if whose test rankTest accepts (at any depth),
// descending into with and try bodies, and into loop bodies when loops is
// set.
func rankArmStmts(body []ast.Stmt, loops bool, rankTest func(ast.Expr) bool, visit func(st ast.Stmt, underRank bool)) {
	var walk func(stmts []ast.Stmt, under bool)
	walk = func(stmts []ast.Stmt, under bool) {
		for _, st := range stmts {
			visit(st, under)
			switch st := st.(type) {
			case *ast.If:
				r := under || rankTest(st.Test)
				walk(st.Body, r)
				walk(st.Orelse, r)
			case *ast.With:
				walk(st.Body, under)
			case *ast.Try:
				walk(st.Body, under)
			case *ast.For:
				if loops {
					walk(st.Body, under)
				}
			case *ast.While:
				if loops {
					walk(st.Body, under)
				}
			}
		}
	}
	walk(body, false)
}

// methodRankFlags marks, for a call of a program method (`trainer.train(step)`),
// the True or False the method sets on its instance inside the arm of a
// rank test of its own (`if dist.get_rank() == 0: … self.should_early_stop
// = True`): after the call the flag differs between ranks where the caller
// tests it (FineGrainedRLHF's PPO trainer stopping on rank 0's KL count).
func (l *lowerer) methodRankFlags(s *ast.ExprStmt) {
	c, ok := s.Value.(*ast.Call)
	if !ok || l.notDist > 0 {
		return
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return
	}
	recv := dotted(a.Value)
	if recv == "" {
		return
	}
	_, fn := l.callee(c)
	if fn == nil || fn == l.fn {
		return
	}
	for _, attr := range l.rankSetFlags(fn) {
		l.rankVars[recv+"."+attr] = true
	}
	for _, attr := range l.agreedSetAttrs(fn) {
		// loader.sync_epoch(): the method sets the attribute from what
		// every rank gathered (qlora-pipe's `self.epoch = max(all
		// gathered epochs)`): every rank holds the same value now, also
		// on an object built with the rank.
		l.agreed(recv + "." + attr)
		markVar(&l.agreedAttrs, recv+"."+attr, true)
	}
}

// agreedSetAttrs returns the attributes a method sets on its instance, in
// a statement of its own body (not under a test), from the result of a
// collective every rank gets alike (a broadcast, an all-reduce, an
// all-gather, what it gathered reduced in a loop): after a call, the
// attribute is the same on every rank whatever it was before (memoized).
func (l *lowerer) agreedSetAttrs(fn *rules.Function) []string {
	return summarize(&l.memo().agreedAttrs, fn, func() []string {
		body, args, ok := l.defOf(fn)
		if !ok || len(args.PositionalNames()) == 0 {
			return nil
		}
		self := args.PositionalNames()[0]
		agreed := map[string]bool{}
		mentions := func(e ast.Expr) bool { return readsAny(e, agreed) }
		var out []string
		var walk func(stmts []ast.Stmt, top bool)
		walk = func(stmts []ast.Stmt, top bool) {
			for _, st := range stmts {
				ast.InspectStmts([]ast.Stmt{st}, func(s ast.Stmt) bool {
					if e, ok := s.(*ast.ExprStmt); ok {
						if c, ok := e.Value.(*ast.Call); ok {
							for _, v := range l.uniformOutputs(c) {
								agreed[v] = true
								if attr, ok := strings.CutPrefix(v, self+"."); ok && top && !strings.Contains(attr, ".") {
									out = append(out, attr) // dist.all_reduce(self.total)
								}
							}
						}
					}
					return true
				})
				switch x := st.(type) {
				case *ast.Assign:
					if len(x.Targets) != 1 || !mentions(x.Value) {
						continue
					}
					if n, ok := x.Targets[0].(*ast.Name); ok {
						agreed[n.Id] = true
					} else if attr := selfAttr(x.Targets[0], self); attr != "" && top {
						out = append(out, attr)
					}
				case *ast.For:
					// for e in gathered: best = max(e, best)
					if mentions(x.Iter) {
						for _, v := range targetNames(x.Target) {
							agreed[v] = true
						}
					}
					walk(x.Body, false)
				}
			}
		}
		walk(body, true)
		slices.Sort(out)
		return slices.Compact(out)
	})
}

// rankSetAttrs reads, in one walk over a method's stores to its
// instance, the attributes it sets only inside the arms of rank tests
// (not ones the tables call uniform within some groups): flags, to True
// or False, and values, to anything but a constant or None; and outside,
// the attributes it sets to such a value outside those arms.
func (l *lowerer) rankSetAttrs(fn *rules.Function) (flags, values, outside []string) {
	heldFlag, heldValue, otherFlag, otherValue := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	l.selfAttrStores(fn, func(attr string, value ast.Expr, underRank bool) {
		if k, isConst := value.(*ast.Constant); underRank && isConst && k.Type == ast.ConstBool {
			heldFlag[attr] = true
		} else {
			otherFlag[attr] = true
		}
		switch {
		case constantLike(value):
			// None, a flag or a starting value.
		case underRank:
			heldValue[attr] = true
		default:
			otherValue[attr] = true
			outside = append(outside, attr)
		}
	})
	only := func(held, other map[string]bool) []string {
		var out []string
		for a := range held {
			if !other[a] {
				out = append(out, a)
			}
		}
		slices.Sort(out)
		return out
	}
	return only(heldFlag, otherFlag), only(heldValue, otherValue), outside
}

// rankSetFlags returns the flags rankSetAttrs finds (memoized: each call
// of the method asks, methodRankFlags).
func (l *lowerer) rankSetFlags(fn *rules.Function) []string {
	return summarize(&l.memo().rankSetFlags, fn, func() []string {
		flags, _, _ := l.rankSetAttrs(fn)
		return flags
	})
}

// selfAttrStores calls visit for each assignment of a method to an
// attribute of its instance, with whether it sits in an arm of a rank
// test (loops entered; tests the tables call uniform within some groups
// do not count). The method's locals bound to rank values count as such.
func (l *lowerer) selfAttrStores(fn *rules.Function, visit func(attr string, value ast.Expr, underRank bool)) {
	body, args, ok := l.defOf(fn)
	if !ok || len(args.PositionalNames()) == 0 {
		return
	}
	self := args.PositionalNames()[0]
	sub := *l
	sub.fn = fn
	sub.rankVars = map[string]bool{}
	markBound(body, sub.rankVars, sub.isRank)
	rankTest := func(t ast.Expr) bool { return sub.isRank(t) && len(sub.uniformIn(t)) == 0 }
	rankArmStmts(body, true, rankTest, func(st ast.Stmt, underRank bool) {
		as, ok := st.(*ast.Assign)
		if !ok {
			return
		}
		for _, t := range as.Targets {
			if attr := selfAttr(t, self); attr != "" {
				visit(attr, as.Value, underRank)
			}
		}
	})
}

// rankShift reports the process's own global rank, or that rank moved
// round the ring by an offset that is not itself rank-dependent:
// `(rank + step) % world`, `(rank - step + world) % world`, a local bound
// to one (shiftVars).
func (l *lowerer) rankShift(e ast.Expr) bool {
	if e == nil {
		return false
	}
	if l.isOwnRank(e) {
		return true
	}
	if n, ok := e.(*ast.Name); ok {
		return l.shiftVars[n.Id]
	}
	b, ok := e.(*ast.BinOp)
	if !ok || b.Op != ast.Mod || l.isRank(b.Right) {
		return false
	}
	var shifted func(x ast.Expr) bool
	shifted = func(x ast.Expr) bool {
		if l.isOwnRank(x) {
			return true
		}
		s, ok := x.(*ast.BinOp)
		if !ok || s.Op != ast.Add && s.Op != ast.Sub {
			return false
		}
		if shifted(s.Left) {
			return !l.isRank(s.Right)
		}
		return s.Op == ast.Add && shifted(s.Right) && !l.isRank(s.Left)
	}
	return shifted(b.Left)
}

// shiftEquality reports an equality test (==, !=) between ring shifts of
// the own rank only (rankShift): (rank + a) % n == (rank + b) % n holds
// when a and b agree modulo n, which every rank answers alike.
func (l *lowerer) shiftEquality(c *ast.Compare) bool {
	for _, op := range c.Ops {
		if op != ast.Eq && op != ast.NotEq {
			return false
		}
	}
	shifts := 0
	for _, x := range append([]ast.Expr{c.Left}, c.Comparators...) {
		if !l.rankShift(x) {
			return false
		}
		if !l.isOwnRank(x) {
			shifts++
		}
	}
	return shifts > 0
}

// failsWithoutFile reports a file check whose failure raises: `if p.is_file():
// load(p) else: raise`, or `if resume and p.is_file(): … elif resume:
// raise FileNotFoundError(p)` (Auden's trainer). A host that does not see
// the file dies, and the launcher ends the job; the hosts that go on all
// loaded it.
func (l *lowerer) failsWithoutFile(st *ast.If) bool {
	if len(st.Orelse) == 0 {
		return false
	}
	if failsOnly(st.Orelse) {
		return true
	}
	elif, ok := st.Orelse[0].(*ast.If)
	if len(st.Orelse) != 1 || !ok || len(elif.Orelse) > 0 || !failsOnly(elif.Body) {
		return false
	}
	and, ok := st.Test.(*ast.BoolOp)
	if !ok || and.Op != ast.And {
		return false
	}
	want := l.text(elif.Test)
	for _, v := range and.Values {
		if !l.fsProbe(v) && l.text(v) == want {
			return true // the elif asks the rest of the test: only the file is missing there
		}
	}
	return false
}

// agreedObjectCall reports len(x) or x.m(…) on a local x that the
// function binds only to constructions of one program class given the
// rank (it = DataIterator(batches, world, rank)), where the method
// (__len__, m) reads none of the attributes the constructor computes from
// the rank (NMTGMinor's iterator length, ceil(n / shards) * shards):
// every rank gets the same answer. A method that calls another of its
// object's methods, or is handed a rank, is not judged.
func (l *lowerer) agreedObjectCall(c *ast.Call) bool {
	var recv *ast.Name
	method, handed := "", false
	if f, ok := c.Func.(*ast.Name); ok && f.Id == "len" && len(c.Args) == 1 {
		recv, _ = c.Args[0].(*ast.Name)
		method = "__len__"
	} else if a, ok := c.Func.(*ast.Attribute); ok {
		recv, _ = a.Value.(*ast.Name)
		method, handed = a.Attr, true
	}
	if recv == nil || !l.rankVars[recv.Id] {
		return false
	}
	// A method handed a rank answers with it, whatever it reads of the
	// object (asked only of a rank object's calls: isRank is not cheap).
	if handed && (slices.ContainsFunc(c.Args, l.isRank) || slices.ContainsFunc(c.Keywords, func(k *ast.Keyword) bool { return l.isRank(k.Value) })) {
		return false
	}
	return l.agreedObjectMember(recv.Id, method, false)
}

// agreedObjectProperty is agreedObjectCall for a property read
// (it.iterations_in_epoch).
func (l *lowerer) agreedObjectProperty(a *ast.Attribute) bool {
	recv, ok := a.Value.(*ast.Name)
	if !ok || !l.rankVars[recv.Id] {
		return false
	}
	return l.agreedObjectMember(recv.Id, a.Attr, true)
}

// agreedObjectMember answers for agreedObjectCall and
// agreedObjectProperty: member of the object local x holds; property
// asks for a @property.
func (l *lowerer) agreedObjectMember(x, member string, property bool) bool {
	md, ok := l.r.(MethodDefiner)
	if !ok {
		return false
	}
	var init *rules.Function
	var built *ast.Call
	only := true
	ast.InspectBody(l.body, func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok || !only {
			return only
		}
		for _, t := range a.Targets {
			if nm, ok := t.(*ast.Name); !ok || nm.Id != x {
				if storesTo(t, x) {
					only = false
				}
				continue
			}
			c, ok := a.Value.(*ast.Call)
			if !ok || !constructs(c) {
				only = false
				return false
			}
			_, fn := l.callee(c)
			if fn == nil || !strings.HasSuffix(fn.Name, ".__init__") || init != nil && fn != init {
				only = false
				return false
			}
			init, built = fn, c
		}
		return true
	})
	if !only || init == nil {
		return false
	}
	body, args, ok := l.defOf(init)
	if !ok {
		return false
	}
	params := args.PositionalNames()
	if len(params) == 0 || params[0] != "self" {
		return false
	}
	// The constructor's parameters handed a rank, and what it computes
	// from them: locals and attributes of self.
	from := map[string]bool{}
	for i := 1; i < len(params); i++ {
		// A construction passes no self: argument i-1 fills parameter i.
		if a := arg(built, api.Arg{Pos: i - 1, Name: params[i]}); a != nil && l.isRank(a) {
			from[params[i]] = true
		}
	}
	if len(from) == 0 {
		return false
	}
	plain := func(ast.Node) (bool, bool) { return false, true }
	handedOn := false
	for pass := 0; pass < 2; pass++ {
		ast.InspectBody(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Assign:
				if dependsOn(n.Value, from, plain) {
					for _, t := range n.Targets {
						if d := dotted(t); d != "" {
							from[d] = true
						}
						for _, e := range ast.SeqElts(t) {
							if d := dotted(e); d != "" {
								from[d] = true
							}
						}
					}
				}
			case *ast.AugAssign:
				if d := dotted(n.Target); d != "" && dependsOn(n.Value, from, plain) {
					from[d] = true
				}
			case *ast.Call:
				// self.setup(shard_id), super().__init__(…, rank): the
				// rank goes where this scan does not follow.
				for _, a := range n.Args {
					handedOn = handedOn || dependsOn(a, from, plain)
				}
				for _, k := range n.Keywords {
					handedOn = handedOn || dependsOn(k.Value, from, plain)
				}
			}
			return true
		})
	}
	if handedOn {
		return false
	}
	def := md.MethodDef(init, member)
	mbody, margs, decos, ok := defParts(def)
	if !ok || margs == nil {
		return false
	}
	isProperty := slices.ContainsFunc(decos, func(d ast.Expr) bool { return dotted(d) == "property" })
	if isProperty != property {
		return false
	}
	mp := margs.PositionalNames()
	if len(mp) == 0 || mp[0] != "self" {
		return false
	}
	reads := false
	ast.InspectBody(mbody, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Attribute:
			d := dotted(n)
			for k := range from {
				if strings.HasPrefix(k, "self.") && (d == k || strings.HasPrefix(d, k+".")) {
					reads = true
				}
			}
		case *ast.Call:
			if a, ok := n.Func.(*ast.Attribute); ok {
				if s, ok := a.Value.(*ast.Name); ok && s.Id == "self" {
					reads = true // another method of the object: not followed
				}
			}
		}
		return !reads
	})
	return !reads
}

// storesTo reports a target that binds or changes x (x = …, x.attr = …,
// x[i] = …, a tuple holding one of those).
func storesTo(t ast.Expr, x string) bool {
	return bindsAny(t, func(e ast.Expr) bool { return rootedAt(e, x) })
}

// fixedWidthRange reports a range (or a list of one) that starts at a
// rank-dependent point but spans the same width on every rank:
// range(start, start + k), range(i * k, (i + 1) * k), with k not
// rank-dependent, directly or through the local bound to it (a rank's
// block of consecutive ranks).
func (l *lowerer) fixedWidthRange(e ast.Expr) bool {
	if n, ok := e.(*ast.Name); ok {
		if d := l.rankDefs[n.Id]; d != nil {
			e = d
		}
	}
	if lc, ok := e.(*ast.ListComp); ok && len(lc.Generators) == 1 && len(lc.Generators[0].Ifs) == 0 {
		// [i for i in range(…)]: one element per pass.
		if t, ok := lc.Generators[0].Target.(*ast.Name); ok {
			if elt, ok := lc.Elt.(*ast.Name); ok && elt.Id == t.Id {
				e = lc.Generators[0].Iter
			}
		}
	}
	c, ok := e.(*ast.Call)
	if ok && lastDotted(c.Func) == "list" && len(c.Args) == 1 {
		c, ok = c.Args[0].(*ast.Call)
	}
	if !ok || lastDotted(c.Func) != "range" || len(c.Args) != 2 || len(c.Keywords) > 0 {
		return false
	}
	lo, hi := c.Args[0], c.Args[1]
	same := func(a, b ast.Expr) bool { t := l.text(a); return t != "" && t == l.text(b) }
	if b, ok := hi.(*ast.BinOp); ok && b.Op == ast.Add {
		// range(start, start + k)
		if same(b.Left, lo) && !l.isRank(b.Right) || same(b.Right, lo) && !l.isRank(b.Left) {
			return true
		}
	}
	// range(i * k, (i + 1) * k)
	m1, ok1 := lo.(*ast.BinOp)
	m2, ok2 := hi.(*ast.BinOp)
	if !ok1 || !ok2 || m1.Op != ast.Mult || m2.Op != ast.Mult || !same(m1.Right, m2.Right) || l.isRank(m1.Right) {
		return false
	}
	inc, ok := m2.Left.(*ast.BinOp)
	if !ok || inc.Op != ast.Add || !same(inc.Left, m1.Left) {
		return false
	}
	one, ok := intConst(inc.Right)
	return ok && one == 1
}

// rankZeroTest reports a test for the first rank by its usual spellings:
// `X == 0` (either way round) with X a rank name or call (rank,
// dist.get_rank(), self.local_rank), or a flag named for it
// (is_main_process, is_master, is_global_zero, rank0()).
func rankZeroTest(test ast.Expr) bool {
	if c, ok := test.(*ast.Compare); ok && len(c.Ops) == 1 && c.Ops[0] == ast.Eq && len(c.Comparators) == 1 {
		for _, pair := range [][2]ast.Expr{{c.Left, c.Comparators[0]}, {c.Comparators[0], c.Left}} {
			if k, ok := pair[1].(*ast.Constant); ok && k.Type == ast.ConstInt && k.Int == 0 {
				name := strings.ToLower(lastDotted(pair[0]))
				if x, isCall := pair[0].(*ast.Call); isCall {
					name = strings.ToLower(lastDotted(x.Func))
				}
				return strings.Contains(name, "rank")
			}
		}
		return false
	}
	e := test
	if c, ok := e.(*ast.Call); ok && len(c.Args) == 0 {
		e = c.Func
	}
	name := strings.ToLower(lastDotted(e))
	return RankZeroFlags[name] || name == "rank0" || name == "is_main" || name == "master"
}

// RankZeroFlags are the usual names of a "this is global rank 0" flag
// (accelerator.is_main_process, trainer.is_global_zero).
var RankZeroFlags = map[string]bool{
	"is_main_process": true, "is_global_zero": true, "is_rank_zero": true, "is_rank_0": true,
	"is_world_process_zero": true, "is_master": true,
}
