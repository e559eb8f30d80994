package model

import (
	"strconv"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Values is the model's side of the value analysis: it gives the calls
// that create process groups, device meshes and streams their abstract
// results (opaque values carrying a *rules.Group, *mesh or *rules.Stream),
// so that they flow through variables, attributes, parameters and returns
// like any other value. It implements callgraph.Hooks.
type Values struct {
	tables *api.Tables
	world  *rules.Group
	// groups lists the groups in creation order (deterministic: the
	// builder is sequential).
	groups []*rules.Group
	// streams lists the streams in creation order.
	streams []*rules.Stream
	worldID callgraph.ValueID
	// spawnerMethods: the last names of the method spawners, to find the
	// spawner a method call on an external instance is
	// (FullyShardedDataParallel().register_comm_hook) without a table
	// look-up on every external call.
	spawnerMethods map[string]bool
	// cpuGroups: the gloo group of each group coordinator (cpuGroup).
	cpuGroups map[*rules.Group]*rules.Group
	// streamCols: the column of the first stream created on each line
	// (streamID).
	streamCols map[string]int
	// quietForwards: the wrapped modules of constructions that turn the
	// forward's communication off (DDP(..., broadcast_buffers=False)),
	// a value of their own apart from the wrapper's other constructions.
	quietForwards map[callgraph.ValueID]bool
}

// mesh is the payload of a device-mesh value.
type mesh struct {
	pos   rules.Pos
	api   string
	dims  []string // mesh_dim_names, when constant
	ndims int      // number of dimensions when known (0 unknown)
	back  string
}

// Group types for method look-ups on opaque values.
const (
	groupType  = "torch.distributed.ProcessGroup"
	meshType   = "torch.distributed.device_mesh.DeviceMesh"
	streamType = "torch.cuda.Stream"
)

// NewValues returns the hooks for one analysis run.
func NewValues(t *api.Tables) *Values {
	v := &Values{tables: t, world: &rules.Group{ID: "WORLD", Kind: rules.GroupWorld}, spawnerMethods: map[string]bool{}}
	for name, sp := range t.Spawners {
		if sp.Method {
			v.spawnerMethods[name[strings.LastIndexByte(name, '.')+1:]] = true
		}
	}
	return v
}

// spawner returns the spawner an external call is: by its name, or, for
// a method called on an instance of an external class, by the class's
// method (the instance's name ends in "().method").
func (v *Values) spawner(name string) *api.Spawner {
	if sp := v.tables.Spawners[name]; sp != nil {
		return sp
	}
	cls, meth, ok := instanceCall(name)
	if !ok || !v.spawnerMethods[meth] {
		return nil
	}
	if m := v.tables.ClassMethod(cls, meth); m != "" {
		if sp := v.tables.Spawners[m]; sp != nil && sp.Method {
			return sp
		}
	}
	return nil
}

// World returns the default group.
func (v *Values) World() *rules.Group { return v.world }

func callPos(cs *callgraph.CallSite) rules.Pos {
	p := rules.Pos{}
	if cs.Caller != nil && cs.Caller.Module != nil {
		p.Path = cs.Caller.Module.Path
	}
	if cs.At != nil {
		sp := cs.At.Span()
		p.Line, p.Col, p.EndLine, p.EndCol = int(sp.Lineno), int(sp.ColOffset)+1, int(sp.EndLineno), int(sp.EndColOffset)+1
	}
	return p
}

func shortName(api string) string {
	if i := strings.LastIndexByte(api, '.'); i >= 0 {
		return api[i+1:]
	}
	return api
}

// groupValue returns the opaque value of a group allocated at pos.
func (v *Values) groupValue(g *callgraph.Graph, id, apiName, backend string, pos rules.Pos) callgraph.ValueID {
	key := "group:" + id
	typ := groupType
	if gc := v.tables.GroupCreators[apiName]; gc != nil {
		switch {
		case gc.Type != "":
			typ = gc.Type
		case gc.Returns == "comm" && isClassName(apiName):
			// A communicator class (cupy's NcclCommunicator, vLLM's
			// CustomAllreduce): its methods are that class's.
			typ = apiName
		}
	}
	val := g.Opaque(key, typ, nil)
	if g.Value(val).Data == nil {
		grp := &rules.Group{ID: id, Kind: rules.GroupAlloc, API: apiName, Backend: backend, Pos: pos}
		g.Value(val).Data = grp
		v.groups = append(v.groups, grp)
	}
	return val
}

// cpuGroup is the gloo communicator a vLLM or SGLang group coordinator
// keeps beside its device group (coordinator.cpu_group): the same ranks,
// another group, so its collectives are ordered among themselves and not
// with the coordinator's.
func (v *Values) cpuGroup(coord *rules.Group) *rules.Group {
	if g := v.cpuGroups[coord]; g != nil {
		return g
	}
	if v.cpuGroups == nil {
		v.cpuGroups = map[*rules.Group]*rules.Group{}
	}
	g := &rules.Group{ID: coord.ID + ".cpu_group", Kind: coord.Kind, API: coord.API, Backend: "gloo", Pos: coord.Pos, PerIteration: coord.PerIteration}
	v.cpuGroups[coord] = g
	v.groups = append(v.groups, g)
	return g
}

// streamID names the stream a creation call at p makes: "stream@path:line",
// with the column after it for a second stream created on the same line
// (`s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()`).
func (v *Values) streamID(p rules.Pos) string {
	id := "stream@" + p.Short()
	if v.streamCols == nil {
		v.streamCols = map[string]int{}
	}
	if col, ok := v.streamCols[id]; ok && col != p.Col {
		return id + ":" + strconv.Itoa(p.Col)
	}
	v.streamCols[id] = p.Col
	return id
}

// plumbing reports a call of creator gc inside the package it names as
// its plumbing (api.GroupCreator.Plumbing).
func plumbing(gc *api.GroupCreator, cs *callgraph.CallSite) bool {
	if gc.Plumbing == "" || cs.Caller == nil || cs.Caller.Module == nil {
		return false
	}
	m := cs.Caller.Module.Name
	return m == gc.Plumbing || strings.HasPrefix(m, gc.Plumbing+".")
}

// WorldValue is the opaque value of the default group.
func (v *Values) worldValue(g *callgraph.Graph) callgraph.ValueID {
	val := g.Opaque("group:WORLD", groupType, nil)
	if g.Value(val).Data == nil {
		g.Value(val).Data = v.world
	}
	v.worldID = val
	return val
}

// ExternalCall implements callgraph.Hooks.
func (v *Values) ExternalCall(g *callgraph.Graph, cs *callgraph.CallSite, name string, recv callgraph.ValueID) ([]callgraph.ValueID, bool) {
	if sp := v.spawner(name); sp != nil && sp.Target.Present() {
		g.Spawn(cs, sp.Target.Pos, sp.Target.Name, sp.Args.Pos, sp.Args.Name, sp.State.Pos, sp.State.Name)
	} else if processSpawners[name] {
		// mp.spawn(fn, args=(a, b)): each process runs fn(i, a, b); the
		// arguments reach fn's parameters (a callable among them is called
		// there), though no thread of this process runs it.
		g.SpawnIndexed(cs, 0, "fn", 1, "args")
	} else if processConstructors[name] {
		// Process(target=f, args=(rank, size, run)): the new process runs
		// f(*args), so run reaches f's parameter and is called there (the
		// PyTorch tutorial's init_process(rank, size, fn)).
		g.Spawn(cs, 1, "target", 3, "args", -1, "")
	}
	if gc := v.tables.GroupCreators[name]; gc != nil && !plumbing(gc, cs) {
		pos := callPos(cs)
		backend := backendArg(cs.Node, gc.Backend)
		if backend == "" {
			backend = gc.BackendIs
		}
		if backend == "" && gc.Library == "mpi4py" {
			backend = "mpi" // a host-side communicator, whatever its transport
		}
		switch gc.Returns {
		case "group", "comm", "":
			if strings.HasSuffix(name, ".get_group") && recv != 0 {
				if m, ok := g.Value(recv).Data.(*mesh); ok {
					dim := constArg(cs.Node, api.Arg{Pos: 0, Name: "mesh_dim"})
					return []callgraph.ValueID{v.meshGroup(g, m, dim)}, true
				}
			}
			if strings.HasPrefix(shortName(name), "get_") {
				// A getter (Megatron's parallel_state): every call returns the same group.
				return []callgraph.ValueID{v.groupValue(g, shortName(name)+"()", name, backend, rules.Pos{})}, true
			}
			val := v.groupValue(g, shortName(name)+"@"+pos.Short(), name, backend, pos)
			if gc.Color.Present() && cs.Node != nil {
				if c := argExpr(cs.Node, gc.Color); c != nil {
					g.Value(val).Data.(*rules.Group).Color = ast.Dump(c, ast.DumpOptions{})
				}
			}
			if gc.Members.Present() && cs.Node != nil {
				g.Value(val).Data.(*rules.Group).Sole = soleMember(argExpr(cs.Node, gc.Members))
				g.Value(val).Data.(*rules.Group).FromRank = fromRank(argExpr(cs.Node, gc.Members))
				g.Value(val).Data.(*rules.Group).BelowRank = belowRank(argExpr(cs.Node, gc.Members))
				g.Value(val).Data.(*rules.Group).Stride = strideMembers(localValue(cs, argExpr(cs.Node, gc.Members)))
			}
			return []callgraph.ValueID{val}, true
		case "world":
			return []callgraph.ValueID{v.worldValue(g)}, true
		case "group_or_tuple":
			// `pg = helper(…)` (older versions) and `pg, _ = helper(…)`
			// (newer ones) both find the group.
			grp := v.groupValue(g, shortName(name)+"@"+pos.Short(), name, backend, pos)
			if cs.Node == nil {
				return []callgraph.ValueID{grp}, true
			}
			c := g.Container(cs.Node, "tuple")
			g.AddElement(c, 0, grp)
			return []callgraph.ValueID{grp, c}, true
		case "groups":
			grp := v.groupValue(g, shortName(name)+"@"+pos.Short(), name, backend, pos)
			if cs.Node == nil {
				return []callgraph.ValueID{grp}, true
			}
			c := g.Container(cs.Node, "tuple")
			g.AddElement(c, -1, grp)
			// new_subgroups returns (this rank's subgroup, all subgroups).
			g.AddElement(c, 0, grp)
			inner := g.Container(cs.Node.Func, "list")
			g.AddElement(inner, -1, grp)
			g.AddElement(c, 1, inner)
			return []callgraph.ValueID{c}, true
		case "pair":
			if cs.Node == nil {
				return nil, true
			}
			c := g.Container(cs.Node, "tuple")
			intra := v.groupValue(g, shortName(name)+"@"+pos.Short()+"[intra]", name, backend, pos)
			inter := v.groupValue(g, shortName(name)+"@"+pos.Short()+"[inter]", name, backend, pos)
			g.AddElement(c, 0, intra)
			g.AddElement(c, 1, inter)
			return []callgraph.ValueID{c}, true
		case "mesh":
			m := &mesh{pos: pos, api: name, back: backend}
			if cs.Node != nil {
				for _, k := range cs.Node.Keywords {
					if k.Arg == "mesh_dim_names" {
						m.dims = ast.ConstStrings(k.Value)
					}
					if k.Arg == "mesh_shape" {
						m.ndims = len(ast.SeqElts(k.Value))
					}
				}
				if strings.HasSuffix(name, ".from_group") {
					// DeviceMesh.from_group(group or [g1, g2], device_type, …):
					// one dimension per group.
					m.ndims = 1
					if len(cs.Node.Args) > 0 {
						if elts := ast.SeqElts(cs.Node.Args[0]); len(elts) > 0 {
							m.ndims = len(elts)
						}
					}
				} else if len(cs.Node.Args) > 1 && m.ndims == 0 {
					m.ndims = len(ast.SeqElts(cs.Node.Args[1]))
				}
				if len(m.dims) > m.ndims {
					m.ndims = len(m.dims)
				}
			}
			return []callgraph.ValueID{g.Opaque("mesh:"+pos.Short(), meshType, m)}, true
		case "none":
			return nil, false
		}
	}
	if s := v.tables.Streams[name]; s != nil {
		switch s.Role {
		case "new_stream":
			pos := callPos(cs)
			id := v.streamID(pos)
			val := g.Opaque("stream:"+id, streamType, nil)
			if g.Value(val).Data == nil {
				st := &rules.Stream{ID: id, Pos: pos, Blocking: blockingStream(cs, s)}
				g.Value(val).Data = st
				v.streams = append(v.streams, st)
			}
			return []callgraph.ValueID{val}, true
		case "current_stream", "default_stream":
			id := "current"
			if s.Role == "default_stream" {
				id = "default"
			}
			val := g.Opaque("stream:"+id, streamType, nil)
			if g.Value(val).Data == nil {
				st := &rules.Stream{ID: id, Default: id == "default"}
				g.Value(val).Data = st
				v.streams = append(v.streams, st)
			}
			return []callgraph.ValueID{val}, true
		}
	}
	if c := v.tables.Collectives[name]; c != nil {
		// What a collective returns is its work handle (or None), not
		// the collective: calling a value that may hold the handle (a
		// dict of handles and callables) is no call of the collective.
		if cs.Node != nil && (c.GradSync || c.ForwardSync) && localOnly(cs.Node, c) {
			// A wrapper told to wrap nothing (prepare_model(m,
			// parallel_strategy=None)) hands back a module whose
			// forward and backward communicate nothing.
			return []callgraph.ValueID{g.Opaque("result:"+name+"#local", "unwrapped:"+name+"()", nil)}, true
		}
		var data any
		if c.GradSync {
			data = callgraph.ModuleWrapper{} // DDP(model).module is model
		}
		key := "result:" + name
		quiet := cs.Node != nil && forwardTurnedOff(cs, c)
		if quiet {
			key += "#quiet-forward"
		}
		res := g.Opaque(key, name+"()", data)
		if quiet {
			if v.quietForwards == nil {
				v.quietForwards = map[callgraph.ValueID]bool{}
			}
			v.quietForwards[res] = true
		}
		if c.GradSync && !isClassName(name) && cs.Node != nil {
			// deepspeed.initialize(…) returns (engine, optimizer, …):
			// `engine, *_ = deepspeed.initialize(…)` holds the engine.
			tuple := g.Container(cs.Node, "tuple")
			g.AddElement(tuple, -1, res)
			return []callgraph.ValueID{res, tuple}, true
		}
		return []callgraph.ValueID{res}, true
	}
	if m := v.tables.Canonical(strings.Replace(name, "().", ".", 1)); m != name {
		if c := v.tables.Collectives[m]; c != nil && c.GradSync && c.Method && cs.Node != nil {
			// accelerator.prepare(model, optimizer, loader) hands back
			// what it was given, the model wrapped: each name of `model,
			// opt, dl = accelerator.prepare(…)` holds the wrapped model
			// (which the gradient-sync analysis looks for in calls).
			res := g.Opaque("result:"+m, m+"()", callgraph.ModuleWrapper{})
			tuple := g.Container(cs.Node, "tuple")
			g.AddElement(tuple, -1, res)
			return []callgraph.ValueID{res, tuple}, true
		}
	}
	return nil, false
}

// forwardTurnedOff reports whether a construction of a wrapper whose
// forward communicates unless told otherwise (ForwardSyncUnless: DDP's
// broadcast_buffers) tells it otherwise: the argument is anything but a
// literal True, or **kwargs may pass it.
func forwardTurnedOff(cs *callgraph.CallSite, c *api.Collective) bool {
	call := cs.Node
	if call == nil || !c.ForwardSync || !c.ForwardSyncUnless.Present() {
		return false
	}
	if e := argExpr(call, c.ForwardSyncUnless); e != nil {
		k, ok := e.(*ast.Constant)
		return !ok || k.Type != ast.ConstBool || !k.Bool
	}
	for _, a := range call.Args {
		if _, ok := a.(*ast.Starred); ok {
			return true // *args may reach the argument's position
		}
	}
	for _, k := range call.Keywords {
		if k.Arg != "" {
			continue
		}
		// **ddp_args: a dict the caller builds without the key leaves the
		// default (EVA-CLIP's static_graph-only ddp_args).
		n, ok := k.Value.(*ast.Name)
		if !ok || cs.Caller == nil || flow.MayHoldKey(cs.Caller.Node, n.Id, c.ForwardSyncUnless.Name) {
			return true
		}
	}
	return false
}

// Index implements callgraph.Hooks: mesh["dp"] is the group of one mesh
// dimension.
func (v *Values) Index(g *callgraph.Graph, val callgraph.ValueID, key string) []callgraph.ValueID {
	m, ok := g.Value(val).Data.(*mesh)
	if !ok {
		return nil
	}
	if strings.Contains(key, ",") {
		// mesh["dp_replicate", "dp_shard"]: a mesh of those dimensions.
		sub := &mesh{pos: m.pos, api: m.api, back: m.back, dims: strings.Split(key, ",")}
		sub.ndims = len(sub.dims)
		return []callgraph.ValueID{g.Opaque("mesh:"+m.pos.Short()+"["+key+"]", meshType, sub)}
	}
	return []callgraph.ValueID{v.meshGroup(g, m, key)}
}

func (v *Values) meshGroup(g *callgraph.Graph, m *mesh, dim string) callgraph.ValueID {
	if dim == "" {
		dim = "?"
	}
	if i, err := strconv.Atoi(dim); err == nil && i >= 0 && i < len(m.dims) {
		dim = m.dims[i]
	}
	return v.groupValue(g, "mesh@"+m.pos.Short()+"["+dim+"]", m.api, m.back, m.pos)
}

// constArg returns the constant string (or attribute name, for
// enum-like arguments) passed for a, or "".
// backendArg is constArg for a backend argument: a string, or an
// attribute that names a backend (dist.Backend.NCCL); not the attribute a
// configuration holds it in (args.backend), which says nothing of its
// value.
func backendArg(call *ast.Call, a api.Arg) string {
	s := constArg(call, a)
	if _, attr := argExpr(call, a).(*ast.Attribute); attr && !knownBackends[strings.ToLower(s)] {
		return ""
	}
	return s
}

// knownBackends are the process-group backends torch and its device
// plugins register, in lower case.
var knownBackends = map[string]bool{
	"nccl": true, "gloo": true, "mpi": true, "ucc": true, "xccl": true, "hccl": true,
	"cncl": true, "mccl": true, "rccl": true, "ccl": true, "fake": true,
}

func constArg(call *ast.Call, a api.Arg) string {
	e := argExpr(call, a)
	if e == nil {
		return ""
	}
	switch e := e.(type) {
	case *ast.Constant:
		switch e.Type {
		case ast.ConstStr:
			return e.Str
		case ast.ConstInt:
			return strconv.FormatInt(e.Int, 10)
		}
	case *ast.Attribute:
		return e.Attr
	}
	return ""
}

// argExpr finds the expression passed for a (positions exclude the
// receiver of method calls: they are the call's own positions).
func argExpr(call *ast.Call, a api.Arg) ast.Expr {
	if call == nil {
		return nil
	}
	if a.Name != "" {
		for _, k := range call.Keywords {
			if k.Arg == a.Name {
				return k.Value
			}
		}
	}
	if a.Pos >= 0 && a.Pos < len(call.Args) {
		for _, x := range call.Args[:a.Pos+1] {
			if _, star := x.(*ast.Starred); star {
				return nil
			}
		}
		return call.Args[a.Pos]
	}
	return nil
}

func argSpec(pos int, name string) api.Arg { return api.Arg{Pos: pos, Name: name} }

// isClassName reports a qualified name whose last component is
// capitalised (a class: cupy.cuda.nccl.NcclCommunicator).
func isClassName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// blockingStream reports a stream creation that makes a blocking stream:
// the API has a non_blocking argument and the call does not pass it true.
func blockingStream(cs *callgraph.CallSite, s *api.StreamAPI) bool {
	if !s.NonBlocking.Present() || cs.Node == nil {
		return false
	}
	a := argExpr(cs.Node, s.NonBlocking)
	if a == nil {
		return true
	}
	k, ok := a.(*ast.Constant)
	return ok && (k.Type == ast.ConstBool && !k.Bool || k.Type == ast.ConstInt && k.Int == 0)
}

// getterGroup is the group a getter of the tables returns
// (vllm.distributed.parallel_state.get_tp_group), as a call of the getter
// would make it: every call of a getter returns the same group.
func (v *Values) getterGroup(g *callgraph.Graph, getter string, t *api.Tables) *rules.Group {
	gc := t.GroupCreators[getter]
	if gc == nil {
		return v.world
	}
	backend := gc.BackendIs
	val := v.groupValue(g, shortName(getter)+"()", getter, backend, rules.Pos{})
	if grp, ok := g.Value(val).Data.(*rules.Group); ok {
		return grp
	}
	return v.world
}

// soleMember returns the rank a member list literal of one constant
// names (`[0]`, `(3,)`), or "".
// fromRank returns K for a member list of every rank from K on:
// range(K, world_size) or list(range(K, dist.get_world_size())), the stop
// a world size by its name; "" otherwise.
func fromRank(x ast.Expr) string {
	c := memberRange(x)
	if c == nil || len(c.Args) != 2 {
		return ""
	}
	k, ok := c.Args[0].(*ast.Constant)
	if !ok || k.Type != ast.ConstInt || k.Big != nil || k.Int < 1 {
		return ""
	}
	if !worldSizeExpr(c.Args[1]) {
		return ""
	}
	return strconv.FormatInt(k.Int, 10)
}

// belowRank returns K, as ast.Dump prints it, for a member list of every
// rank below K: range(K), range(0, K), list(range(K)); "" otherwise.
func belowRank(x ast.Expr) string {
	c := memberRange(x)
	if c == nil || len(c.Keywords) > 0 {
		return ""
	}
	switch len(c.Args) {
	case 1:
	case 2:
		if k, ok := c.Args[0].(*ast.Constant); !ok || k.Type != ast.ConstInt || k.Big != nil || k.Int != 0 {
			return ""
		}
	default:
		return ""
	}
	return ast.Dump(c.Args[len(c.Args)-1], ast.DumpOptions{})
}

// strideMembers returns L, as ast.Dump prints it, for a member list of
// every L-th rank from 0: range(0, world_size, L), also in list(…) or a
// list comprehension that keeps each element (`[i for i in range(0,
// world, L)]`); "" otherwise.
func strideMembers(x ast.Expr) string {
	if l := filteredStride(x); l != "" {
		return l
	}
	if lc, ok := x.(*ast.ListComp); ok && len(lc.Generators) == 1 && len(lc.Generators[0].Ifs) == 0 {
		g := lc.Generators[0]
		elt, ok1 := lc.Elt.(*ast.Name)
		tgt, ok2 := g.Target.(*ast.Name)
		if !ok1 || !ok2 || elt.Id != tgt.Id {
			return ""
		}
		x = g.Iter
	}
	c := memberRange(x)
	if c == nil || len(c.Args) != 3 || len(c.Keywords) > 0 {
		return ""
	}
	if k, ok := c.Args[0].(*ast.Constant); !ok || k.Type != ast.ConstInt || k.Int != 0 || !worldSizeExpr(c.Args[1]) {
		return ""
	}
	return ast.Dump(c.Args[2], ast.DumpOptions{})
}

// filteredStride is strideMembers for the ranks of the job that a
// comprehension's filter keeps, `[r for r in range(world) if r % L ==
// 0]` (gpt-neox's io group of the model-parallel rank-0 ranks): L as
// ast.Dump prints it, or "".
func filteredStride(x ast.Expr) string {
	lc, ok := x.(*ast.ListComp)
	if !ok || len(lc.Generators) != 1 || len(lc.Generators[0].Ifs) != 1 {
		return ""
	}
	g := lc.Generators[0]
	elt, ok1 := lc.Elt.(*ast.Name)
	tgt, ok2 := g.Target.(*ast.Name)
	if !ok1 || !ok2 || elt.Id != tgt.Id {
		return ""
	}
	c := memberRange(g.Iter)
	if c == nil || len(c.Keywords) > 0 {
		return ""
	}
	switch len(c.Args) {
	case 1:
		if !worldSizeExpr(c.Args[0]) {
			return ""
		}
	case 2:
		if k, ok := c.Args[0].(*ast.Constant); !ok || k.Type != ast.ConstInt || k.Int != 0 || !worldSizeExpr(c.Args[1]) {
			return ""
		}
	default:
		return ""
	}
	cmp, ok := g.Ifs[0].(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != ast.Eq {
		return ""
	}
	zero, ok := cmp.Comparators[0].(*ast.Constant)
	mod, ok2 := cmp.Left.(*ast.BinOp)
	if !ok || !ok2 || zero.Type != ast.ConstInt || zero.Int != 0 || zero.Big != nil || mod.Op != ast.Mod {
		return ""
	}
	if n, ok := mod.Left.(*ast.Name); !ok || n.Id != tgt.Id {
		return ""
	}
	return ast.Dump(mod.Right, ast.DumpOptions{})
}

// localValue returns what the one assignment in the calling function
// binds to the local x names (`head_ranks = [...]` before
// `new_group(head_ranks)`); x itself when it is no such local.
func localValue(cs *callgraph.CallSite, x ast.Expr) ast.Expr {
	n, ok := x.(*ast.Name)
	if !ok || cs.Caller == nil {
		return x
	}
	body := ast.DefBody(cs.Caller.Node)
	if body == nil {
		return x
	}
	var found ast.Expr
	count := 0
	ast.InspectStmts(body, func(st ast.Stmt) bool {
		switch st := st.(type) {
		case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
			return false
		case *ast.Assign:
			for _, t := range st.Targets {
				if tn, ok := t.(*ast.Name); ok && tn.Id == n.Id {
					found, count = st.Value, count+1
				}
			}
		}
		return true
	})
	if count != 1 {
		return x
	}
	return found
}

// memberRange returns the range(…) call a member list is, also wrapped
// in list(…) or tuple(…); nil for any other list.
func memberRange(x ast.Expr) *ast.Call {
	c, ok := x.(*ast.Call)
	if !ok {
		return nil
	}
	if n, isName := c.Func.(*ast.Name); isName && (n.Id == "list" || n.Id == "tuple") && len(c.Args) == 1 {
		return memberRange(c.Args[0])
	}
	if n, isName := c.Func.(*ast.Name); !isName || n.Id != "range" {
		return nil
	}
	return c
}

// worldSizeExpr reports an expression named as the job's size:
// dist.get_world_size(), comm.Get_size(), world_size, self.world_size, world.
func worldSizeExpr(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Call:
		if len(x.Args) > 0 {
			return false
		}
		switch f := x.Func.(type) {
		case *ast.Attribute:
			return f.Attr == "get_world_size" || f.Attr == "Get_size"
		case *ast.Name:
			return f.Id == "get_world_size"
		}
	case *ast.Name:
		return x.Id == "world_size" || x.Id == "world" || x.Id == "ws"
	case *ast.Attribute:
		return x.Attr == "world_size"
	}
	return false
}

func soleMember(x ast.Expr) string {
	elts := ast.SeqElts(x)
	if len(elts) != 1 {
		return ""
	}
	if c, ok := elts[0].(*ast.Constant); ok && c.Type == ast.ConstInt && c.Big == nil {
		return strconv.FormatInt(c.Int, 10)
	}
	return ""
}
