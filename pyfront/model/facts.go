package model

import (
	"bufio"
	"bytes"
	"github.com/collvet/collvet/pyfront/flow"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// facts fills Program.Facts: init_process_group statements (and the WORLD
// backend they set), global set_multithreading_enabled(False) calls, the
// MPI thread level and the torch requirement.
func (b *builder) facts() {
	f := &b.prog.Facts
	b.moduleImports()
	// The backends the program's init_process_group calls name. Several
	// programs analysed together (a directory of scripts) can each start
	// their own job: the default group's backend is known only when they
	// agree, not taken from whichever init comes first in path order.
	worldBackends := map[string]bool{}
	for _, s := range b.prog.Sites {
		src := b.siteSrc[s]
		if s.Kind != rules.OpInit {
			continue
		}
		info := b.info[src.cs.Node]
		switch {
		case strings.HasSuffix(s.API, "init_process_group"):
			backend := ""
			if gc := b.t.GroupCreators[s.API]; gc != nil {
				backend = backendArg(src.cs.Node, gc.Backend)
			} else {
				backend = backendArg(src.cs.Node, argSpec(0, "backend"))
			}
			if backend == "" && src.cs.Caller != nil {
				// init_process_group(backend) in a setup(rank, world,
				// backend="gloo") helper: the one string every call of
				// the helper passes or leaves at its default.
				if n, ok := argExpr(src.cs.Node, argSpec(0, "backend")).(*ast.Name); ok {
					backend = b.paramString(src.cs.Caller, n.Id)
				}
			}
			is := &rules.InitSite{Pos: s.Pos, Func: s.Func, Backend: backend, AfterLine: s.Pos.EndLine, LocalRendezvous: b.localRendezvous(src.cs),
				DeviceGated: b.deviceGated(src.cs)}
			if info != nil && info.stmt != nil {
				sp := info.stmt.Span()
				is.Pos = b.pos(s.Pos.Path, info.stmt)
				is.AfterLine = int(sp.EndLineno)
				is.Indent = info.indent
			}
			f.Inits = append(f.Inits, is)
			if backend != "" {
				worldBackends[normBackend(backend)] = true
			}
		case strings.HasSuffix(s.API, "Init_thread"):
			if lvl := constArg(src.cs.Node, argSpec(0, "required")); lvl != "" {
				f.RequestMPIThreadLevel(strings.ToLower(strings.TrimPrefix(lvl, "THREAD_")), s.Pos, s.Func)
			}
		}
	}
	f.Accelerated = b.prepared.accelerated
	f.ForwardOnly = !b.prepared.trains
	b.trainerNodes(f)
	b.localRankAsserts(f)
	if len(worldBackends) == 1 && b.in.Values.world.Backend == "" {
		for be := range worldBackends {
			b.in.Values.world.Backend = be
		}
	}
	// Global autograd switch: set_multithreading_enabled(False) as a statement.
	for _, fn := range b.g.Funcs {
		// The switch is per thread and not inherited by the processes a
		// launcher starts (mp.spawn runs its target in a fresh
		// interpreter): a switch beside such a start covers no worker.
		launcher := false
		for _, cs := range fn.Calls {
			if cs.Node != nil && b.callsExternal(cs, flow.ProcessLaunchers) {
				launcher = true
				break
			}
		}
		for _, cs := range fn.Calls {
			if cs.Node == nil {
				continue
			}
			for _, name := range b.apis(cs) {
				if lib := worldCommInits[name]; lib != "" {
					b.worldComm(lib, fn, cs)
				}
				sa := b.t.Streams[name]
				if sa == nil || sa.Role != "disable_autograd_threads" {
					continue
				}
				info := b.info[cs.Node]
				if info != nil && info.inWith {
					continue
				}
				if e := argExpr(cs.Node, sa.Arg); e != nil {
					if k, ok := e.(*ast.Constant); ok && k.Type == ast.ConstBool && !k.Bool && !launcher {
						f.AutogradSingleThreaded = append(f.AutogradSingleThreaded, b.pos(fn.Module.Path, cs.Node))
					}
				}
			}
		}
	}
	b.torchRequirement()
	b.inheritedBackends()
}

// paramString returns the string constant f's parameter param holds on
// every call: the one every caller passes, or leaves at its constant
// default; "" when callers differ, pass something else, or f is no
// function with such a parameter.
func (b *builder) paramString(f *callgraph.Func, param string) string {
	if !isParam(funcArgs(f.Node), param) {
		return ""
	}
	value := ""
	agree := func(e ast.Expr) bool {
		k, ok := e.(*ast.Constant)
		if !ok || k.Type != ast.ConstStr || value != "" && k.Str != value {
			return false
		}
		value = k.Str
		return true
	}
	callers := b.callersOf(f)
	if len(callers) == 0 {
		_, dflt, _ := boundArg(f, &ast.Call{}, param)
		if dflt == nil || !agree(dflt) {
			return ""
		}
		return value
	}
	for _, cs := range callers {
		x, dflt, known := boundArg(f, cs.Node, param)
		if !known {
			return ""
		}
		if x == nil {
			x = dflt
		}
		if x == nil || !agree(x) {
			return ""
		}
	}
	return value
}

// inheritedBackends gives the groups torch.distributed.new_group makes
// without a backend the backend of the default group, when every
// init_process_group of the program names the same one: new_group
// inherits it (a job that is gloo throughout drives no device
// communicator, whatever its threads do).
func (b *builder) inheritedBackends() {
	inherited := ""
	for _, is := range b.prog.Facts.Inits {
		be := normBackend(is.Backend)
		if be == "" || inherited != "" && be != inherited {
			return
		}
		inherited = be
	}
	if inherited == "" {
		return
	}
	set := func(g *rules.Group) {
		if g != nil && g.Kind == rules.GroupAlloc && g.Backend == "" && strings.HasPrefix(g.API, "torch.distributed.") && strings.HasSuffix(g.API, ".new_group") {
			g.Backend = inherited
		}
	}
	for _, s := range b.prog.Sites {
		set(s.Group)
		for _, g := range s.Groups {
			set(g)
		}
	}
}

// worldCommInits are library inits that may be given the communicator
// their default group stands for (hvd.init(comm=…), its first
// parameter), by library.
var worldCommInits = map[string]string{
	"horovod.torch.init": "horovod", "horovod.tensorflow.init": "horovod",
	"horovod.tensorflow.keras.init": "horovod", "horovod.keras.init": "horovod",
}

// worldComm records the communicator an init call passes
// (Facts.WorldComms), when it is one communicator the analysis made.
func (b *builder) worldComm(lib string, fn *callgraph.Func, cs *callgraph.CallSite) {
	vals, found := b.g.ArgValues(cs, 0, "comm")
	if !found {
		return
	}
	groups := b.groupsOf(vals, argExpr(cs.Node, argSpec(0, "comm")))
	if len(groups) != 1 || groups[0].Kind != rules.GroupAlloc {
		return
	}
	f := &b.prog.Facts
	f.WorldComms = append(f.WorldComms, &rules.WorldComm{Library: lib, Group: groups[0], Pos: b.pos(fn.Module.Path, cs.Node), Func: b.fn(fn)})
}

func normBackend(s string) string {
	s = strings.ToLower(s)
	if i := strings.IndexByte(s, ':'); i >= 0 { // "cpu:gloo,cuda:nccl"
		if strings.Contains(s, "nccl") {
			return "nccl"
		}
		return s[i+1:]
	}
	return s
}

// torchReqRE finds a torch requirement in a requirements line, a
// pyproject dependency string or a setup.cfg install_requires entry:
// "torch==1.13.1", "torch >= 2.1, < 3", "torch[cuda]~=2.2".
var torchReqRE = regexp.MustCompile(`(?:^|[\s"'\[,=])(torch(?:\[[^\]]*\])?\s*(?:===|[<>=!~]=?)\s*[\w.*+!-]+(?:\s*,\s*(?:===|[<>=!~]=?)\s*[\w.*+!-]+)*)`)

// torchRequirement looks for the torch requirement in the roots'
// pyproject.toml, requirements*.txt and setup.cfg.
func (b *builder) torchRequirement() {
	f := &b.prog.Facts
	for _, root := range b.in.Roots {
		var cands []string
		for _, name := range []string{"pyproject.toml", "setup.cfg"} {
			cands = append(cands, filepath.Join(root, name))
		}
		if m, err := filepath.Glob(filepath.Join(root, "requirements*.txt")); err == nil {
			sort.Strings(m)
			cands = append(cands, m...)
		}
		for _, p := range cands {
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 4<<20 {
				continue
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
			line := 0
			for sc.Scan() {
				line++
				text := sc.Text()
				if i := strings.IndexByte(text, '#'); i >= 0 {
					text = text[:i]
				}
				if m := torchReqRE.FindStringSubmatch(text); m != nil {
					f.TorchRequirement = strings.Join(strings.Fields(m[1]), "")
					f.TorchRequirementPos = rules.Pos{Path: p, Line: line, Col: 1}
					return
				}
			}
		}
	}
}

// moduleImports lowers the call graph's imports of the program's own modules
// (Facts.Imports), one per importing function and module.
func (b *builder) moduleImports() {
	type edge struct{ from, mod *rules.Function }
	seen := map[edge]bool{}
	for _, im := range b.g.Imports {
		e := edge{b.fn(im.From), b.fn(b.g.ModuleFunc(im.Module))}
		if e.from == nil || e.mod == nil || e.from == e.mod || seen[e] {
			continue
		}
		seen[e] = true
		b.prog.Facts.Imports = append(b.prog.Facts.Imports, &rules.Import{Importer: e.from, Module: e.mod})
	}
}

// deviceGated reports an init_process_group call in the then arm of an if
// that tests torch.cuda.device_count() (OpenOCR's trainer: distributed
// only when the process sees several GPUs).
func (b *builder) deviceGated(cs *callgraph.CallSite) bool {
	if cs == nil || cs.Node == nil || cs.Caller == nil || cs.Caller.Node == nil || cs.Caller.Module == nil {
		return false
	}
	path := cs.Caller.Module.Path
	// counted: locals of the caller bound (every time) to a value that
	// reads the device count (`is_distributed = torch.cuda.is_available()
	// and torch.cuda.device_count() > 0`, itwinai's scaling tests).
	counted := map[string]bool{}
	var counts func(test ast.Expr) bool
	counts = func(test ast.Expr) bool {
		found := false
		ast.Inspect(test, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Call:
				found = found || b.ref(path, n.Func) == "torch.cuda.device_count"
			case *ast.Name:
				found = found || n.Ctx == ast.Load && counted[n.Id]
			}
			return !found
		})
		return found
	}
	other := map[string]bool{}
	ast.InspectBody(ast.ScopeBody(cs.Caller.Node), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			if t, ok := n.Targets[0].(*ast.Name); ok && len(n.Targets) == 1 {
				if counts(n.Value) {
					counted[t.Id] = true
				} else {
					other[t.Id] = true
				}
				return false
			}
		case *ast.Name:
			if n.Ctx == ast.Store {
				other[n.Id] = true
			}
		}
		return true
	})
	for v := range other {
		delete(counted, v)
	}
	var find func(stmts []ast.Stmt, gated bool) (found, gatedAt bool)
	find = func(stmts []ast.Stmt, gated bool) (bool, bool) {
		for _, st := range stmts {
			if !within(cs.Node.Span(), st.Span()) {
				continue
			}
			if x, ok := st.(*ast.If); ok {
				if f, g := find(x.Body, gated || counts(x.Test)); f {
					return true, g
				}
				return find(x.Orelse, gated)
			}
			var inner []ast.Stmt
			switch x := st.(type) {
			case *ast.With:
				inner = x.Body
			case *ast.Try:
				inner = x.Body
			default:
				return true, gated
			}
			if f, g := find(inner, gated); f {
				return true, g
			}
			return true, gated
		}
		return false, false
	}
	var body []ast.Stmt
	switch fn := cs.Caller.Node.(type) {
	case *ast.FunctionDef:
		body = fn.Body
	case *ast.Module:
		body = fn.Body
	default:
		return false
	}
	_, gated := find(body, false)
	return gated
}

// localURL reports a literal TCP rendezvous on this machine:
// "tcp://127.0.0.1:23456", f"tcp://localhost:{port}".
func localURL(e ast.Expr) bool {
	var text string
	cut := false // an f-string: its literal part must end past the host
	switch v := e.(type) {
	case *ast.Constant:
		if v.Type != ast.ConstStr {
			return false
		}
		text = v.Str
	case *ast.JoinedStr:
		cut = true
		if len(v.Values) == 0 {
			return false
		}
		k, ok := v.Values[0].(*ast.Constant)
		if !ok || k.Type != ast.ConstStr {
			return false
		}
		text = k.Str
	default:
		return false
	}
	host, _, found := strings.Cut(strings.TrimPrefix(text, "tcp://"), ":")
	return strings.HasPrefix(text, "tcp://") && localHosts[host] && (found || !cut)
}

// localURLVar reports a local of fn whose every assignment is a
// localURL.
func localURLVar(fn ast.Node, name string) bool {
	return fn != nil && onlyLocalURLs(fn, func(t ast.Expr) bool {
		x, ok := t.(*ast.Name)
		return ok && x.Id == name
	})
}

// paramElsewhere reports whether a function of mod other than except
// has a parameter named name.
func paramElsewhere(mod, except ast.Node, name string) bool {
	found := false
	ast.Inspect(mod, func(n ast.Node) bool {
		if found {
			return false
		}
		if d, ok := n.(*ast.FunctionDef); ok && ast.Node(d) != except && isParam(d.Args, name) {
			found = true
		}
		return !found
	})
	return found
}

// localURLAttr reports whether a module binds attributes named attr
// (args.dist_url = …) and only ever to a URL on this host.
func localURLAttr(mod ast.Node, attr string) bool {
	return onlyLocalURLs(mod, func(t ast.Expr) bool {
		x, ok := t.(*ast.Attribute)
		return ok && x.Attr == attr
	})
}

// onlyLocalURLs reports whether n assigns to some target that matches
// and, at each such assignment, a localURL alone.
func onlyLocalURLs(n ast.Node, match func(ast.Expr) bool) bool {
	seen, all := false, true
	ast.Inspect(n, func(n ast.Node) bool {
		as, ok := n.(*ast.Assign)
		if !ok || !all {
			return all
		}
		for _, t := range as.Targets {
			if match(t) {
				seen = true
				all = all && len(as.Targets) == 1 && localURL(as.Value)
			}
		}
		return true
	})
	return seen && all
}

// localHosts are the rendezvous addresses that name this machine.
var localHosts = map[string]bool{"localhost": true, "127.0.0.1": true}

// localRendezvous reports an init_process_group call whose job meets on
// this host: init_method="tcp://localhost:…", or a module that sets
// os.environ["MASTER_ADDR"] to "localhost" or "127.0.0.1" (voxceleb_trainer's
// mp.spawn workers).
func (b *builder) localRendezvous(cs *callgraph.CallSite) bool {
	if cs == nil || cs.Node == nil || cs.Caller == nil {
		return false
	}
	if b.localRankArg(cs) {
		return true
	}
	if c := cs.Node; c != nil {
		for _, k := range c.Keywords {
			if k.Arg != "init_method" {
				continue
			}
			if v, ok := k.Value.(*ast.Constant); ok && v.Type == ast.ConstStr && v.Str == "env://" {
				// The default rendezvous, spelt out: MASTER_ADDR says
				// where (glow-tts's mp.spawn workers).
				break
			}
			if n, ok := k.Value.(*ast.Name); ok {
				if isParam(funcArgs(cs.Caller.Node), n.Id) {
					// dist_url = f"tcp://localhost:{port}" in the module's
					// launcher, handed to the spawned worker's parameter of
					// the same name (VICRegL's and Barlow Twins'
					// evaluate.py).
					// The launcher's variable must be its own, not a
					// parameter too (SoundStorm's launch(dist_url=…)
					// makes a local URL only for "auto").
					mod := b.g.ModuleFunc(cs.Caller.Module)
					return mod != nil && localURLVar(mod.Node, n.Id) && !paramElsewhere(mod.Node, cs.Caller.Node, n.Id)
				}
				// url = "tcp://127.0.0.1:23456"; init_process_group(init_method=url)
				return localURLVar(cs.Caller.Node, n.Id)
			}
			if a, ok := k.Value.(*ast.Attribute); ok {
				// args.dist_url = f"tcp://localhost:{port}" in the
				// module's launcher, then init_method=args.dist_url in
				// the spawned worker (VICRegL's evaluate.py).
				if mod := b.g.ModuleFunc(cs.Caller.Module); mod != nil {
					return localURLAttr(mod.Node, a.Attr)
				}
				return false
			}
			return localURL(k.Value)
		}
	}
	mod := b.g.ModuleFunc(cs.Caller.Module)
	if mod == nil {
		return false
	}
	// An assignment in the arm where env://'s variables are unset (`if
	// "RANK" in os.environ: … elif torch.cuda.is_available():
	// os.environ["MASTER_ADDR"] = "127.0.0.1"`, DINO's
	// init_distributed_mode) sets up a one-process run; the launcher's
	// arm can meet across hosts.
	found := false
	var stmts func(body []ast.Stmt)
	stmts = func(body []ast.Stmt) {
		for _, st := range body {
			if found {
				return
			}
			if x, ok := st.(*ast.If); ok && flow.RendezvousEnvTest(x.Test) {
				stmts(x.Body)
				continue
			}
			if x, ok := st.(*ast.If); ok && unsetEnvTest(x.Test) {
				stmts(x.Orelse) // `if "RANK" not in os.environ:` is the one-process arm
				continue
			}
			if as, ok := st.(*ast.Assign); ok && len(as.Targets) == 1 && setsLocalMaster(as) {
				found = true
				return
			}
			switch d := st.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef:
				stmts(ast.DefBody(d))
			case *ast.ClassDef:
				stmts(d.Body)
			}
			for _, arm := range ast.ChildBlocks(st) {
				stmts(arm)
			}
		}
	}
	if m, ok := mod.Node.(*ast.Module); ok {
		stmts(m.Body)
	}
	return found
}

// unsetEnvTest reports the negation of a test of env://'s variables
// (`"RANK" not in os.environ`, `not ("RANK" in os.environ and …)`): true
// only where the launcher did not set them.
func unsetEnvTest(test ast.Expr) bool {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		return flow.RendezvousEnvTest(u.Operand)
	}
	c, ok := test.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.NotIn || pathText(c.Comparators[0]) != "os.environ" {
		return false
	}
	k, ok := c.Left.(*ast.Constant)
	return ok && k.Type == ast.ConstStr && (k.Str == "RANK" || k.Str == "WORLD_SIZE")
}

// setsLocalMaster reports `os.environ["MASTER_ADDR"] = "localhost"` (or
// "127.0.0.1").
func setsLocalMaster(as *ast.Assign) bool {
	sub, ok := as.Targets[0].(*ast.Subscript)
	if !ok {
		return false
	}
	env, ok := sub.Value.(*ast.Attribute)
	if !ok || env.Attr != "environ" {
		return false
	}
	if os, ok := env.Value.(*ast.Name); !ok || os.Id != "os" {
		return false
	}
	key, ok := sub.Slice.(*ast.Constant)
	if !ok || key.Type != ast.ConstStr || key.Str != "MASTER_ADDR" {
		return false
	}
	v, ok := as.Value.(*ast.Constant)
	return ok && v.Type == ast.ConstStr && localHosts[v.Str]
}

// localRankArg reports an init_process_group whose rank is this host's
// local rank (`rank=args.local_rank`, `rank=int(os.environ["LOCAL_RANK"])`,
// or a parameter every call of the function passes one to, as
// speech-resynthesis's train(a.local_rank, a) does): local ranks are
// unique on one host only, so the ranks of a job that meets at all are
// all on this host.
func (b *builder) localRankArg(cs *callgraph.CallSite) bool {
	e := argExpr(cs.Node, argSpec(4, "rank"))
	if e == nil {
		return false
	}
	if localRankValue(e) {
		return true
	}
	n, ok := e.(*ast.Name)
	if !ok || !isParam(funcArgs(cs.Caller.Node), n.Id) {
		return false
	}
	callers := b.callersOf(cs.Caller)
	for _, c := range callers {
		x, dflt, known := boundArg(cs.Caller, c.Node, n.Id)
		if x == nil {
			x = dflt
		}
		if !known || x == nil || !localRankValue(x) && !boundToLocalRank(c.Caller, x) {
			return false
		}
	}
	return len(callers) > 0
}

// boundToLocalRank reports a name that fn binds only to the local rank
// or to a constant (`rank = a.local_rank` under a distributed launch,
// `rank = 0` otherwise), each time by a plain assignment.
func boundToLocalRank(fn *callgraph.Func, e ast.Expr) bool {
	n, ok := e.(*ast.Name)
	if !ok || fn == nil || fn.Node == nil || isParam(funcArgs(fn.Node), n.Id) {
		return false
	}
	stores, accepted := 0, 0
	ast.InspectBody(defBody(fn.Node), func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
			return false
		case *ast.Name:
			if x.Id == n.Id && x.Ctx == ast.Store {
				stores++
			}
		case *ast.Assign:
			if len(x.Targets) == 1 {
				if tn, ok := x.Targets[0].(*ast.Name); ok && tn.Id == n.Id {
					if _, isConst := x.Value.(*ast.Constant); isConst || localRankValue(x.Value) {
						accepted++
					}
				}
			}
		}
		return true
	})
	return stores > 0 && stores == accepted
}

// localRankValue reports an expression that reads the local rank: a
// name or attribute called local_rank, or the LOCAL_RANK variable of
// the environment.
func localRankValue(e ast.Expr) bool {
	if d := pathText(e); d != "" {
		return strings.EqualFold(d[strings.LastIndexByte(d, '.')+1:], "local_rank")
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if k, ok := n.(*ast.Constant); ok && k.Type == ast.ConstStr && k.Str == "LOCAL_RANK" {
			found = true
		}
		return !found
	})
	return found
}

// localRankAsserts collects the functions that assert the local rank is
// the global rank (Facts.LocalRankAsserts): `assert args.local_rank ==
// torch.distributed.get_rank()` (PoinTr's main), either way round.
func (b *builder) localRankAsserts(f *rules.Facts) {
	for _, fn := range b.g.Funcs {
		var body []ast.Stmt
		switch n := fn.Node.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef:
			body = defBody(n)
		case *ast.Module:
			body = n.Body
		}
		found := false
		ast.InspectStmts(body, func(st ast.Stmt) bool {
			switch st := st.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
				return false
			case *ast.Assert:
				c, ok := st.Test.(*ast.Compare)
				if ok && len(c.Ops) == 1 && c.Ops[0] == ast.Eq {
					l, r := c.Left, c.Comparators[0]
					found = found || localRankValue(l) && b.globalRankValue(r) || localRankValue(r) && b.globalRankValue(l)
				}
			}
			return !found
		})
		if found {
			f.LocalRankAsserts = append(f.LocalRankAsserts, b.fn(fn))
		}
	}
}

// globalRankValue reports torch.distributed.get_rank() (however
// imported) or the RANK environment variable read as a number.
func (b *builder) globalRankValue(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	if !ok {
		return false
	}
	if f, ok := c.Func.(*ast.Name); ok && f.Id == "int" && len(c.Args) == 1 {
		return envKey(c.Args[0]) == "RANK"
	}
	if cs := b.g.CallOf(c); cs != nil && len(c.Args) == 0 {
		for _, t := range cs.Targets {
			if t.Fn == nil && b.t.Canonical(t.External) == "torch.distributed.get_rank" {
				return true
			}
		}
	}
	return false
}

// trainerNodes counts the program's Lightning Trainer constructions and
// notes whether one may span several nodes (Facts.Trainers).
func (b *builder) trainerNodes(f *rules.Facts) {
	const trainer = "lightning.pytorch.Trainer"
	names := map[string]bool{trainer: true}
	for _, lib := range b.t.Libraries {
		for pkg, mods := range lib.Reexports {
			if slices.Contains(mods, trainer) {
				names[pkg] = true // pytorch_lightning.Trainer, from_argparse_args
			}
		}
	}
	for _, cs := range b.g.Calls {
		if cs.Node == nil {
			continue
		}
		for _, t := range cs.Targets {
			name := strings.TrimSuffix(b.t.Canonical(t.External), ".__init__")
			if t.Fn != nil || !names[name] {
				continue
			}
			f.Trainers++
			if !oneNodeTrainer(cs.Node) {
				f.MultiNodeTrainer = true
			}
			break
		}
	}
}

// oneNodeTrainer reports a Trainer(...) call that leaves num_nodes at its
// default of 1 (or passes 1), with every argument readable: no **kwargs,
// and not Trainer.from_argparse_args, which takes it from the command
// line.
func oneNodeTrainer(c *ast.Call) bool {
	if a, ok := c.Func.(*ast.Attribute); ok && a.Attr == "from_argparse_args" {
		return false
	}
	for _, k := range c.Keywords {
		switch k.Arg {
		case "":
			return false // **config
		case "num_nodes":
			v, ok := k.Value.(*ast.Constant)
			if !ok || v.Type != ast.ConstInt || v.Int != 1 {
				return false
			}
		}
	}
	for _, a := range c.Args {
		if _, star := a.(*ast.Starred); star {
			return false
		}
	}
	return true
}

// envKey returns the variable an environment read names:
// os.environ["RANK"], os.environ.get("RANK", …), os.getenv("RANK"); ""
// for anything else.
func envKey(e ast.Expr) string {
	var key ast.Expr
	switch x := e.(type) {
	case *ast.Subscript:
		if pathText(x.Value) == "os.environ" {
			key = x.Slice
		}
	case *ast.Call:
		if d := pathText(x.Func); (d == "os.environ.get" || d == "os.getenv") && len(x.Args) > 0 {
			key = x.Args[0]
		}
	}
	if k, ok := key.(*ast.Constant); ok && k.Type == ast.ConstStr {
		return k.Str
	}
	return ""
}
