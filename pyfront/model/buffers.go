package model

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Modules without buffers. DDP's forward broadcasts the wrapped module's
// buffers (BatchNorm's running statistics, register_buffer's tensors)
// from rank 0; a module that registers none has nothing to broadcast,
// and its no-grad forward issues no collective at all (MP-SENet's
// generator of convolutions, InstanceNorm without running statistics,
// LayerNorm and PReLU, validated on rank 0 alone).

// bufferModules are torch.nn classes whose instances hold buffers, by
// the last name of their canonical name (InstanceNorm only with
// track_running_stats=True, see bufferConstruction).
var bufferModules = []string{"BatchNorm", "SyncBatchNorm", "spectral_norm", "RunningStat", "EMA"}

// wrappedWithoutBuffers reports whether every construction of a wrapper
// whose forward broadcasts buffers (DDP with broadcast_buffers) wraps an
// instance of program classes that hold no buffers, so that no such
// forward has anything to broadcast. The analysis has one value for all
// wrappers of a kind, so one construction of another module is enough
// to keep the broadcast; but only the constructions that can run in the
// caller's process count (rules.Processes): another script's DDP around
// a model with buffers leaves this script's buffer-free one as it is.
func (b *builder) wrappedWithoutBuffers(caller *callgraph.Func) bool {
	here := b.fn(caller)
	if free, ok := b.bufferFree[here]; ok {
		return free
	}
	free := false
	defer func() {
		if b.bufferFree == nil {
			b.bufferFree = map[*rules.Function]bool{}
		}
		b.bufferFree[here] = free
	}()
	if b.procs == nil {
		b.procs = rules.NewProcesses(b.prog)
	}
	buffers := func(c *api.Collective) bool { return c.ForwardSync && c.ForwardSyncUnless.Present() }
	seen := false
	for _, s := range b.prog.Sites {
		c := b.t.Collectives[s.API]
		if c == nil || !buffers(c) {
			continue
		}
		src := b.siteSrc[s]
		if src.cs == nil || forwardTurnedOff(src.cs, c) || !b.procs.MayShare(s.Func, here) {
			continue
		}
		vals := b.wrappedValues(src.cs)
		kept := b.externalModulesLeftOut(vals)
		classes := b.instanceClasses(kept)
		if len(vals) == 0 || len(classes) != len(kept) {
			return false // an external module with buffers, or one the analysis does not know
		}
		for _, cl := range classes {
			if !b.classWithoutBuffers(cl, 0) {
				return false
			}
		}
		seen = true
	}
	free = seen
	return free
}

// wrappedValues are the values of the module a wrapper construction
// wraps, less wrappers: a name rebound to its own wrapper (`model =
// Net().cuda(); model = DDP(model)`, disttgl) holds both, for an analysis
// that does not tell the bindings apart, and DDP wraps the module.
func (b *builder) wrappedValues(cs *callgraph.CallSite) []callgraph.ValueID {
	vals, _ := b.g.ArgValues(cs, 0, "module")
	if slices.ContainsFunc(vals, b.wrapperValueID) {
		vals = slices.DeleteFunc(slices.Clone(vals), b.wrapperValueID)
	}
	return vals
}

// localWrapperWithoutBuffers reports a forward called through a local
// name of the function that every assignment binds to a wrapper
// construction wrapping instances of buffer-free program classes, or to
// no wrapper at all (MP-SENet's `generator = MPNet(h).to(device)` then
// `generator = DistributedDataParallel(generator, …)`, validated on rank
// 0 while its discriminator, another DDP, holds spectral_norm buffers).
func (b *builder) localWrapperWithoutBuffers(caller *callgraph.Func, module ast.Expr) bool {
	n, ok := module.(*ast.Name)
	if !ok || caller == nil || isParam(funcArgs(caller.Node), n.Id) {
		return false
	}
	buffers := func(c *api.Collective) bool { return c.ForwardSync && c.ForwardSyncUnless.Present() }
	wrapped, free := false, true
	ast.InspectBody(ast.DefBody(caller.Node), func(x ast.Node) bool {
		a, ok := x.(*ast.Assign)
		if !free || !ok {
			return free
		}
		bound := false
		for _, t := range a.Targets {
			if tn, ok := t.(*ast.Name); ok && tn.Id == n.Id {
				bound = true
			}
		}
		if !bound {
			return true
		}
		call, _ := a.Value.(*ast.Call)
		// DistributedDataParallel(g, …).to(device): the construction.
		for call != nil && b.sites[call] == nil {
			at, ok := call.Func.(*ast.Attribute)
			if !ok || !callgraph.ReturnsModule(at.Attr) {
				break
			}
			inner, ok := at.Value.(*ast.Call)
			if !ok {
				break
			}
			call = inner
		}
		if s := b.sites[call]; call != nil && s != nil {
			if c := b.t.Collectives[s.API]; c != nil && buffers(c) {
				src := b.siteSrc[s]
				if src.cs == nil {
					free = false
					return false
				}
				wrapped = true
				if forwardTurnedOff(src.cs, c) {
					return true
				}
				vals := b.wrappedValues(src.cs)
				kept := b.externalModulesLeftOut(vals)
				classes := b.instanceClasses(kept)
				if len(vals) == 0 || len(classes) != len(kept) {
					free = false
					return false
				}
				for _, cl := range classes {
					free = free && b.classWithoutBuffers(cl, 0)
				}
				return true
			}
		}
		for _, v := range b.g.ExprValues(a.Value) {
			if b.wrapperValueID(v) {
				free = false // a wrapper made elsewhere
			}
		}
		return true
	})
	return wrapped && free
}

// externalModulesLeftOut returns the wrapped values less instances of
// torch.nn's own layers that register no buffer (bufferFreeLayers:
// nn.Linear, a linear probe's classifier, gives DDP nothing to
// broadcast). Containers (nn.Sequential) hold what they are given, and
// batch norms keep statistics: those stay.
func (b *builder) externalModulesLeftOut(vals []callgraph.ValueID) []callgraph.ValueID {
	var out []callgraph.ValueID
	for _, v := range vals {
		if val := b.g.Value(v); val != nil && val.Kind == callgraph.KExternal && b.bufferFreeLayer(val.Name) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// bufferFreeLayer reports an external value's name that is an instance
// of one of bufferFreeLayers: nn.Linear, nn.Linear(…), nn.Linear(…).cuda.
func (b *builder) bufferFreeLayer(name string) bool {
	cls := strings.TrimSuffix(name, "()")
	if i := strings.LastIndexByte(cls, '.'); i > 0 && callgraph.ReturnsModule(cls[i+1:]) {
		cls = strings.TrimSuffix(cls[:i], "()")
	}
	cls = b.t.Canonical(cls)
	return strings.HasPrefix(cls, "torch.nn.") && bufferFreeLayers[cls[strings.LastIndexByte(cls, '.')+1:]]
}

// bufferFreeLayers are torch.nn layers, by class name, that register no
// buffer whatever their arguments (their state is parameters only).
var bufferFreeLayers = map[string]bool{
	"Linear": true, "Bilinear": true, "LazyLinear": true, "Identity": true,
	"Conv1d": true, "Conv2d": true, "Conv3d": true, "ConvTranspose1d": true, "ConvTranspose2d": true, "ConvTranspose3d": true,
	"Embedding": true, "EmbeddingBag": true, "LayerNorm": true, "GroupNorm": true, "RMSNorm": true,
	"Dropout": true, "Dropout1d": true, "Dropout2d": true, "Dropout3d": true,
	"ReLU": true, "GELU": true, "SiLU": true, "Tanh": true, "Sigmoid": true, "Softmax": true, "LeakyReLU": true, "PReLU": true, "ELU": true,
	"MultiheadAttention": true, "RNN": true, "LSTM": true, "GRU": true,
	"TransformerEncoderLayer": true, "TransformerDecoderLayer": true,
	"Flatten": true, "Unflatten": true,
}

// classWithoutBuffers reports a program module class whose construction
// registers no buffer: its MRO names no external base but torch.nn.Module,
// and every call its methods make is a torch.nn module without buffers, a
// program class without buffers (depth-bounded), or a plain function of
// torch, math or the builtins; no register_buffer.
func (b *builder) classWithoutBuffers(c *callgraph.Class, depth int) bool {
	if depth > 8 || c == nil || c.Node == nil {
		return false
	}
	if r, ok := b.bufferless[c]; ok {
		return r
	}
	if b.bufferless == nil {
		b.bufferless = map[*callgraph.Class]bool{}
	}
	b.bufferless[c] = false // recursion: not known to be free
	classes, externals := b.g.MRO(c)
	for _, e := range externals {
		if e := b.t.Canonical(e); e != "torch.nn.Module" && e != "<builtin>.object" && e != "object" {
			return false
		}
	}
	for _, cl := range classes {
		if cl != c && !b.classWithoutBuffers(cl, depth+1) {
			return false
		}
	}
	// The attributes the class binds to a call's result (`self.bn =
	// norm_layer(c, …)`) hold what the call made: calling one later
	// (`self.bn(x)` in forward) runs that module, it makes none, and the
	// construction is what is judged.
	made := map[string]bool{}
	stored := map[*ast.Call]bool{}
	ast.Inspect(c.Node, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			if call, isCall := a.Value.(*ast.Call); isCall {
				for _, t := range a.Targets {
					if at, ok := t.(*ast.Attribute); ok && isName(at.Value, "self") {
						made[at.Attr] = true
						stored[call] = true
					}
				}
			}
		}
		return true
	})
	// Attributes bound to what the constructor was handed (`self.backbone
	// = backbone`, VICRegL's ModelWrapper): submodules made elsewhere,
	// whose buffers are the instance's too.
	handed := map[string]bool{}
	for _, st := range c.Node.Body {
		if fd, ok := st.(*ast.FunctionDef); ok && fd.Name == "__init__" && fd.Args != nil {
			params := map[string]bool{}
			for _, a := range fd.Args.PositionalNames() {
				params[a] = true
			}
			ast.InspectBody(fd.Body, func(n ast.Node) bool {
				if a, ok := n.(*ast.Assign); ok {
					if v, isNm := a.Value.(*ast.Name); isNm && params[v.Id] && v.Id != "self" {
						for _, t := range a.Targets {
							if at, ok := t.(*ast.Attribute); ok && isName(at.Value, "self") {
								handed[at.Attr] = true
							}
						}
					}
				}
				return true
			})
		}
	}
	free := true
	// In forward, what the batch's own objects do (a DGL graph's
	// `b.num_dst_nodes()`) makes no submodule; only a module stored on
	// the instance there (a lazily built layer) could hold buffers.
	inForward := false
	inspect := func(n ast.Node) bool {
		call, ok := n.(*ast.Call)
		if !free || !ok {
			return free
		}
		if at, ok := call.Func.(*ast.Attribute); ok && made[at.Attr] && isName(at.Value, "self") {
			return true
		}
		if registersModule(call) {
			free = false
			return false
		}
		cs := b.g.CallOf(call)
		if (cs == nil || len(cs.Targets) == 0) && stored[call] {
			// `self.encoder = base_encoder(num_classes=dim)` with the
			// class handed in (MoCo's family): a module of any kind.
			free = false
			return false
		}
		if cs == nil {
			return true
		}
		if at, ok := call.Func.(*ast.Attribute); ok && handed[at.Attr] && isName(at.Value, "self") {
			// A handed submodule run: free only if all it may be is
			// (nothing known: it may hold buffers, as an external
			// module wrapped directly may).
			free = len(cs.Targets) > 0
			for _, t := range cs.Targets {
				switch {
				case t.Fn != nil && t.Fn.Class != nil:
					free = free && (t.Fn.Class == c || b.classWithoutBuffers(t.Fn.Class, depth+1))
				case t.Fn != nil:
					free = false
				default:
					free = free && b.bufferFreeLayer(t.External)
				}
			}
			return free
		}
		// A method of the class itself (self._build()) is scanned with
		// the class.
		free = b.targetsWithoutBuffers(cs, call, depth, inForward, inForward && !stored[call], func(f *callgraph.Func) bool { return f.Class == c })
		return free
	}
	for _, st := range c.Node.Body {
		fd, isDef := st.(*ast.FunctionDef)
		inForward = isDef && fd.Name == "forward"
		ast.Inspect(st, inspect)
	}
	b.bufferless[c] = free
	return free
}

// helperWithoutBuffers reports a program function (no method) that makes
// no module with buffers and registers none: each call in it is a torch
// module without buffers, a program class without buffers, another such
// helper (depth-bounded), or, run from a forward (inForward), any
// external function (tensor math, whose results are no submodules).
func (b *builder) helperWithoutBuffers(f *callgraph.Func, depth int, inForward bool) bool {
	if depth > 8 || f == nil || f.Class != nil || f.Node == nil {
		return false
	}
	free := true
	ast.InspectBody(ast.DefBody(f.Node), func(n ast.Node) bool {
		call, ok := n.(*ast.Call)
		if !free || !ok {
			return free
		}
		if registersModule(call) {
			free = false
			return false
		}
		cs := b.g.CallOf(call)
		if cs == nil {
			return true
		}
		free = b.targetsWithoutBuffers(cs, call, depth, inForward, inForward, func(g *callgraph.Func) bool { return g == f })
		return free
	})
	return free
}

// registersModule reports a call that registers a buffer or a submodule
// by name (register_buffer, register_module, add_module).
func registersModule(call *ast.Call) bool {
	a, ok := call.Func.(*ast.Attribute)
	return ok && (a.Attr == "register_buffer" || a.Attr == "register_module" || a.Attr == "add_module")
}

// targetsWithoutBuffers reports whether every target of call makes no
// module with buffers: another module class without buffers (Block(16),
// or its forward called from this one), a helper function whose own
// calls are such (IBRNet's conv3x3 making an nn.Conv2d, or its
// fused_mean_variance of tensor math in forward), an external that makes
// none. A target own accepts is scanned with the caller; an external is
// not judged where anyExternal (tensor math in a forward).
func (b *builder) targetsWithoutBuffers(cs *callgraph.CallSite, call *ast.Call, depth int, inForward, anyExternal bool, own func(*callgraph.Func) bool) bool {
	for _, t := range cs.Targets {
		switch {
		case t.Fn != nil && own(t.Fn):
		case t.Fn != nil && t.Fn.Class != nil:
			if !b.classWithoutBuffers(t.Fn.Class, depth+1) {
				return false
			}
		case t.Fn != nil:
			if !b.helperWithoutBuffers(t.Fn, depth+1, inForward) {
				return false
			}
		case anyExternal:
		default:
			if !bufferFreeExternal(b.t.Canonical(t.External), call) {
				return false
			}
		}
	}
	return true
}

// bufferFreeExternal reports an external call that makes no module with
// buffers: a torch.nn class other than bufferModules (InstanceNorm unless
// it tracks running statistics; any norm built with
// track_running_stats=False), or a function of torch, numpy, math or the
// builtins.
func bufferFreeExternal(name string, call *ast.Call) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.Contains(last, "Norm") && strings.HasPrefix(name, "torch.nn.") {
		// A batch or instance norm built with track_running_stats=False
		// registers its statistics as None, which buffers() leaves out
		// (dbarf's `norm_layer(c, track_running_stats=False)`, whichever
		// norm class norm_layer names).
		for _, k := range call.Keywords {
			if k.Arg == "track_running_stats" {
				if c, ok := k.Value.(*ast.Constant); ok && c.Type == ast.ConstBool && !c.Bool {
					return true
				}
			}
		}
	}
	for _, m := range bufferModules {
		if strings.Contains(last, m) {
			return false
		}
	}
	if strings.Contains(last, "InstanceNorm") {
		for _, k := range call.Keywords {
			if k.Arg == "track_running_stats" {
				c, ok := k.Value.(*ast.Constant)
				return ok && c.Type == ast.ConstBool && !c.Bool
			}
		}
		return true // InstanceNorm's default keeps no running statistics
	}
	switch {
	case strings.HasPrefix(name, "torch.nn."), strings.HasPrefix(name, "<builtin>."), strings.HasPrefix(name, "math."),
		strings.HasPrefix(name, "numpy."), // arrays for initial values (disttgl's TimeEncode)
		strings.HasPrefix(name, "<**Py"):  // a list's or dict's own methods
		return true
	case strings.HasPrefix(name, "torch.") && !strings.Contains(name, ".hub.") && !strings.HasPrefix(name, "torch.load"):
		return true
	}
	return false
}
