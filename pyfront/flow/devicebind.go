package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Device binding at process group creation. init_process_group on a
// device backend without device_id does not know the rank's device; the
// current device decides, and a set_device that comes only after it is
// too late for what runs in between: a barrier or collective there runs
// on device 0 on every rank, and oneCCL ("xccl") binds the device at
// creation (saforem2/ezpz PR #149, O6: FSDP2's first all-gather hangs).

// setDeviceCall reports whether c binds the current device
// (torch.cuda.set_device(i), torch.xpu.set_device, torch.npu.set_device,
// torch.accelerator.set_device_index, get_accelerator().set_device).
func (l *lowerer) setDeviceCall(c *ast.Call) bool {
	if len(c.Args) != 1 {
		return false
	}
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return false
	}
	switch a.Attr {
	case "set_device_index", "set_device_idx":
		return strings.HasSuffix(dotted(a.Value), "accelerator")
	case "set_device":
		if in, ok := a.Value.(*ast.Call); ok {
			return lastDotted(in.Func) == "get_accelerator"
		}
		switch lastDotted(a.Value) {
		case "cuda", "xpu", "npu", "mlu", "hpu", "musa":
			return true
		}
	}
	return false
}

// deviceBackend returns init_process_group's backend when it is a literal
// naming a device backend ("nccl", "xccl", "hccl", "cpu:gloo,cuda:nccl"),
// the default one when the call names none,
// a parameter of the function (node) whose default is one, a local name
// assigned one once, or the "backend" key of a dict the function builds
// once and passes as **kwargs.
func (l *lowerer) deviceBackend(c *ast.Call, node ast.Node) string {
	var b ast.Expr
	if len(c.Args) > 0 {
		b = c.Args[0]
	}
	for _, k := range c.Keywords {
		switch k.Arg {
		case "backend":
			b = k.Value
		case "device_id":
			return ""
		case "":
			n, isName := k.Value.(*ast.Name)
			if !isName {
				return "" // **something: it may pass device_id
			}
			kw := LocalDict(node, n.Id)
			if kw == nil || kw("device_id") != nil {
				return ""
			}
			if v := kw("backend"); v != nil {
				b = v
			}
		}
	}
	if b == nil {
		// No backend: PyTorch makes NCCL the CUDA backend of the default
		// group (and gloo its CPU one).
		return defaultBackend
	}
	if n, isName := b.(*ast.Name); isName {
		if d := ParamDefault(node, n.Id); d != nil {
			b = d
		} else {
			b = LocalValue(node, n.Id)
		}
	}
	s, ok := constStr(b)
	if !ok {
		return ""
	}
	for _, d := range []string{"nccl", "xccl", "hccl"} {
		if strings.Contains(strings.ToLower(s), d) {
			return s
		}
	}
	return ""
}

// defaultBackend is what init_process_group makes without a backend: NCCL
// for CUDA tensors, gloo for CPU ones.
const defaultBackend = "cpu:gloo,cuda:nccl"

// deviceBinding scans a statement list for init_process_group on a device
// backend, without device_id, followed by a set_device: reported when a
// collective runs between the two, or the backend is oneCCL's.
func (l *lowerer) deviceBinding(stmts []ast.Stmt, node ast.Node) {
	for i, s := range stmts {
		c := stmtCall(s)
		if t, ok := s.(*ast.Try); ok && l.bindsInBlock(t.Body) {
			// try: init_process_group(…); barrier(); set_device(…) except …:
			// the body runs in order on the path that makes the group.
			l.deviceBinding(t.Body, node)
			continue
		}
		if t, ok := s.(*ast.Try); ok && c == nil {
			// try: init_process_group(…) except …: raise — the
			// statements after the try run with the group made.
			for _, in := range t.Body {
				if ic := stmtCall(in); ic != nil {
					if site := l.r.Site(ic); site != nil && site.Op == "init" {
						c, s = ic, in
						break
					}
				}
			}
		}
		guarded := false
		if ifs, ok := s.(*ast.If); ok && c == nil {
			// if args.device == "cuda": init_process_group("nccl") else:
			// init_process_group("gloo") (MatterSim's fine-tuning script).
			c = l.deviceInitIn(ifs, node)
			guarded = c != nil
		}
		if c == nil {
			continue
		}
		if l.bindsInBlock(stmts[:i]) {
			// torch.cuda.set_device(proc_id) before the group: bound in
			// time, whatever binds it again later (OCC-GNN's worker).
			return
		}
		if l.helperInitBinding(c, stmts[i+1:]) {
			return
		}
		site := l.r.Site(c)
		if site == nil || site.Op != "init" {
			continue
		}
		if ext, _ := l.callee(c); ext != "torch.distributed.init_process_group" {
			continue
		}
		backend := l.deviceBackend(c, node)
		if backend == "" {
			continue
		}
		if !l.bindsInBlock(stmts[i+1:]) {
			// `init_process_group(…); main()` with main() binding the
			// device after its own first collective (the script's
			// __main__ block and its entry function).
			l.deviceBindingInCallee(stmts[i+1:], site, backend)
			return
		}
		for j := i + 1; j < len(stmts); j++ {
			bind, bindGuarded := l.bindCallIn(stmts[j])
			if bind == nil {
				continue
			}
			between := l.firstDeviceWork(stmts[i+1:j], bind)
			if between == nil && !bindsAtCreation(backend) {
				break
			}
			line, indent := l.stmtLineIndent(s)
			x := &rules.DeviceBinding{Func: l.fn, Init: site, Backend: backend, Bind: l.pos(bind.Pos),
				BindText: l.text(bind), Between: between, StmtLine: line, Indent: indent}
			_, isExpr := stmts[j].(*ast.ExprStmt)
			alone := isExpr && bind.Span().Lineno == bind.Span().EndLineno && strings.TrimSpace(l.src.line(int(bind.Span().Lineno))) == x.BindText
			x.Movable = alone && !guarded && !bindGuarded && defined(bind.Args[0], stmts[:i], paramNames(node))
			l.addDeviceBinding(x)
			break
		}
		return
	}
}

// firstDeviceWork returns the site of the first op among stmts that runs
// on the rank's device, or nil.
func (l *lowerer) firstDeviceWork(stmts []ast.Stmt, bind *ast.Call) *rules.Site {
	for _, op := range l.ops(stmts) {
		if deviceWork(op) && !(op.Site.Op == "barrier" && rankBinding(bind)) && !(op.Site.Op == "ddp_init" && l.namesDeviceIDs(stmts, op.Site.Pos)) {
			return op.Site
		}
	}
	return nil
}

// namesDeviceIDs reports the DDP construction at pos among stmts when it
// passes device_ids naming a device other than a constant 0
// (`DDP(model, device_ids=[device])`, the module already moved there):
// its collectives run on the parameters' device, not on device 0.
func (l *lowerer) namesDeviceIDs(stmts []ast.Stmt, pos rules.Pos) bool {
	found := false
	ast.InspectBody(stmts, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || found {
			return !found
		}
		if at := l.pos(c.Pos); at.Line != pos.Line || at.Col != pos.Col {
			return true
		}
		for _, k := range c.Keywords {
			if k.Arg != "device_ids" {
				continue
			}
			elts := ast.SeqElts(k.Value)
			if len(elts) != 1 {
				return false
			}
			if z, ok := elts[0].(*ast.Constant); ok && z.Type == ast.ConstInt && z.Int == 0 {
				return false
			}
			found = true
		}
		return false
	})
	return found
}

// rankBinding reports a set_device whose argument is computed from a
// rank (local_rank, LOCAL_RANK, dist.get_rank(), rank % device_count()).
// A barrier before it is no hazard: a barrier that does not know the
// rank's device runs on GPU `global rank % GPUs per node` (PyTorch's
// guess, with a warning), which is the rank's local GPU wherever ranks
// fill the nodes in order, as torchrun numbers them (RT-DETR's and
// Grendel-GS's barrier before set_device).
func rankBinding(bind *ast.Call) bool {
	if bind == nil || len(bind.Args) != 1 {
		return false
	}
	found := false
	ast.Inspect(bind.Args[0], func(n ast.Node) bool {
		found = found || strings.Contains(strings.ToLower(spelledName(n)), "rank")
		return !found
	})
	return found
}

// spelledName is the word a node spells: a name, an attribute's last
// name, a string constant's text; "" for any other node.
func spelledName(n ast.Node) string {
	switch x := n.(type) {
	case *ast.Name:
		return x.Id
	case *ast.Attribute:
		return x.Attr
	case *ast.Constant:
		return x.Str
	}
	return ""
}

// bindsAtCreation reports a backend that binds the group's device when
// the group is created (oneCCL's "xccl"), so a later set_device is too
// late even with no device work between.
func bindsAtCreation(backend string) bool {
	return strings.Contains(strings.ToLower(backend), "xccl")
}

// deviceWork reports an op that runs on the rank's device: a collective,
// not the group's creation, not an MPI call (mpi4py's Barrier for rank
// discovery is host work on another library's communicator).
func deviceWork(op *rules.OpRef) bool {
	return op.Site != nil && op.Site.Kind != rules.OpInit && op.Site.Kind != rules.OpOther && op.Site.Op != "new_group" && op.Site.Library != "mpi4py"
}

// isMainGuard matches `__name__ == "__main__"` (either way round).
func isMainGuard(e ast.Expr) bool {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Comparators) != 1 || len(c.Ops) != 1 || c.Ops[0] != ast.Eq {
		return false
	}
	name := func(x ast.Expr) bool { n, ok := x.(*ast.Name); return ok && n.Id == "__name__" }
	main := func(x ast.Expr) bool { s, ok := constStr(x); return ok && s == "__main__" }
	return name(c.Left) && main(c.Comparators[0]) || main(c.Left) && name(c.Comparators[0])
}

// bindsInBlock reports whether one of stmts is a set_device call, also
// as the first level of an if's arm (`if args.device == "cuda":
// torch.cuda.set_device(local_rank)`).
func (l *lowerer) bindsInBlock(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		if c, _ := l.bindCallIn(st); c != nil {
			return true
		}
	}
	return false
}

// bindCallIn returns the set_device call st makes, itself or as a
// statement of its if's arms (guarded), or nil.
func (l *lowerer) bindCallIn(st ast.Stmt) (c *ast.Call, guarded bool) {
	if c := stmtCall(st); c != nil && l.setDeviceCall(c) {
		return c, false
	}
	if ifs, ok := st.(*ast.If); ok && !isMainGuard(ifs.Test) {
		for _, arm := range [][]ast.Stmt{ifs.Body, ifs.Orelse} {
			for _, in := range arm {
				if c := stmtCall(in); c != nil && l.setDeviceCall(c) {
					return c, true
				}
			}
		}
	}
	return nil, false
}

// deviceInitIn returns an init_process_group on a device backend without
// device_id that a statement of one of the if's arms makes, or nil.
func (l *lowerer) deviceInitIn(ifs *ast.If, node ast.Node) *ast.Call {
	if isMainGuard(ifs.Test) {
		return nil
	}
	for _, arm := range [][]ast.Stmt{ifs.Body, ifs.Orelse} {
		for _, in := range arm {
			c := stmtCall(in)
			if c == nil {
				continue
			}
			if site := l.r.Site(c); site == nil || site.Op != "init" {
				continue
			}
			if ext, _ := l.callee(c); ext == "torch.distributed.init_process_group" && l.deviceBackend(c, node) != "" {
				return c
			}
		}
	}
	return nil
}

// deviceBindingInCallee looks, after an init on a device backend whose
// block binds no device, for the first call of a function of this file
// among stmts (only host work before it) whose own statements run a
// collective before their set_device: reported like the same-block form,
// with no fix (the binding lives in another function). A function that
// binds nothing itself hands the question to the first function of the
// file it calls, a few levels down (mlbench's initialize_backends →
// config_pytorch → assigned_gpu_id, which all-reduces to find the ranks
// on its node before it picks the device).
func (l *lowerer) deviceBindingInCallee(stmts []ast.Stmt, init *rules.Site, backend string) {
	fd, ok := l.r.(FuncDefiner)
	if !ok {
		return
	}
	fn := l.firstLocalCall(stmts)
	for depth := 0; fn != nil && depth < 4; depth++ {
		body := ast.DefBody(fd.FuncDef(fn))
		for k, bst := range body {
			bind := stmtCall(bst)
			if bind == nil || !l.setDeviceCall(bind) {
				continue
			}
			between := l.firstDeviceWork(body[:k], bind)
			if between == nil && !bindsAtCreation(backend) {
				return
			}
			pos, text := l.posIn(fn, bind)
			l.addDeviceBinding(&rules.DeviceBinding{Func: l.fn, Init: init, Backend: backend, Bind: pos,
				BindText: text, Between: between})
			return
		}
		fn = l.firstLocalCall(body) // the first function called decides
	}
}

// firstLocalCall returns the function of this file that the first call
// statement among stmts calls, or nil when a statement communicates
// before it (device work of its own first) or there is none.
func (l *lowerer) firstLocalCall(stmts []ast.Stmt) *rules.Function {
	for _, st := range stmts {
		communicates := len(l.ops([]ast.Stmt{st})) > 0
		c := stmtCall(st)
		if c == nil {
			if communicates {
				return nil
			}
			continue
		}
		_, fn := l.r.Callee(c)
		if fn == nil || fn == l.fn || fn.Pos.Path != l.file.Path {
			if communicates {
				return nil
			}
			continue
		}
		return fn
	}
	return nil
}

// helperInitBinding handles a call of a function of this file that
// creates the group on a device backend without device_id and binds no
// device itself (Grendel-GS's init_distributed()), followed in this block
// by device work and then by the call of another function of the file
// that binds the device (its safe_state(), which calls set_device): the
// same hazard as in one block, reported with no fix. It reports whether
// c was such a call followed by a binding (which ends the block's scan).
func (l *lowerer) helperInitBinding(c *ast.Call, after []ast.Stmt) bool {
	fd, ok := l.r.(FuncDefiner)
	if !ok || l.r.Site(c) != nil {
		return false
	}
	init, backend := l.helperInit(fd, c)
	if init == nil {
		return false
	}
	for j, st := range after {
		bc := stmtCall(st)
		if bc == nil {
			continue
		}
		var bind *ast.Call
		bindPos, bindText := rules.Pos{}, ""
		if l.setDeviceCall(bc) {
			bind = bc
			bindPos, bindText = l.pos(bind.Pos), l.text(bind)
		} else if _, fn := l.r.Callee(bc); fn != nil && fn != l.fn {
			// Its own statement, or one of an if's arms (`if
			// torch.cuda.is_available(): … set_device(…) elif xpu: …`,
			// nekRS-ML's setup_torch).
			for _, bst := range ast.DefBody(fd.FuncDef(fn)) {
				if x, _ := l.bindCallIn(bst); x != nil {
					bind = x
					bindPos, bindText = l.posIn(fn, x)
					break
				}
			}
		}
		if bind == nil {
			continue
		}
		between := l.firstDeviceWork(after[:j], bind)
		if between != nil || bindsAtCreation(backend) {
			l.addDeviceBinding(&rules.DeviceBinding{Func: l.fn, Init: init, Backend: backend, Bind: bindPos,
				BindText: bindText, Between: between})
		}
		return true
	}
	return false
}

// posIn is the position and text of a node of fn's file, which may be
// another module than the one being lowered.
func (l *lowerer) posIn(fn *rules.Function, n ast.Node) (rules.Pos, string) {
	if fn.Pos.Path == l.path {
		return l.pos(n.Span()), l.text(n)
	}
	f := l.r.Prog().File(fn.Pos.Path)
	if f == nil {
		return rules.Pos{}, ""
	}
	p := n.Span()
	return rules.Pos{Path: fn.Pos.Path, Line: int(p.Lineno), Col: int(p.ColOffset) + 1, EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset) + 1},
		nodeText(sourceFor(l.r, f), n)
}

// helperInit returns, for a call of a program function whose own
// statements create the group with init_process_group on a device backend
// without device_id, at its top level or in an arm of an if there (`if
// WORLD_SIZE > 1: init_process_group("nccl")`, Grendel-GS's
// init_distributed in its utils module), and bind no device, the init's
// site and its backend.
func (l *lowerer) helperInit(fd FuncDefiner, c *ast.Call) (*rules.Site, string) {
	_, fn := l.r.Callee(c)
	if fn == nil || fn == l.fn {
		return nil, ""
	}
	if f := l.r.Prog().File(fn.Pos.Path); f == nil || !sourceFor(l.r, f).mentionsInit() {
		return nil, "" // most helpers' files create no group
	}
	node := fd.FuncDef(fn)
	body := ast.DefBody(node)
	for _, st := range body {
		ic := stmtCall(st)
		if ifs, ok := st.(*ast.If); ok && ic == nil {
			ic = l.deviceInitIn(ifs, node)
		}
		if ic == nil {
			continue
		}
		site := l.r.Site(ic)
		if site == nil || site.Op != "init" {
			continue
		}
		if ext, _ := l.callee(ic); ext != "torch.distributed.init_process_group" {
			return nil, ""
		}
		backend := l.deviceBackend(ic, node)
		if backend == "" || l.bindsInBlock(body) {
			return nil, ""
		}
		return site, backend
	}
	return nil, ""
}

// ParamDefault returns the default value of the function's parameter
// name, or nil.
func ParamDefault(node ast.Node, name string) ast.Expr {
	_, args, _, ok := defParts(node)
	if !ok || args == nil {
		return nil
	}
	pos := args.Positional()
	for i, d := range args.Defaults {
		if p := pos[len(pos)-len(args.Defaults)+i]; p.Arg == name {
			return d
		}
	}
	for i, a := range args.KwOnlyArgs {
		if a.Arg == name && i < len(args.KwDefaults) {
			return args.KwDefaults[i]
		}
	}
	return nil
}

// stmtLineIndent is the first line of s and its indentation.
func (l *lowerer) stmtLineIndent(s ast.Stmt) (int, string) {
	line := int(s.Span().Lineno)
	text := l.src.line(line)
	return line, text[:len(text)-len(strings.TrimLeft(text, " \t"))]
}

// defined reports whether every name e reads is a parameter or assigned by
// one of stmts (so e can be evaluated before them).
func defined(e ast.Expr, stmts []ast.Stmt, params map[string]bool) bool {
	assigned := map[string]bool{}
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.Assign:
			for _, t := range s.Targets {
				if n, ok := t.(*ast.Name); ok {
					assigned[n.Id] = true
				}
			}
		case *ast.AnnAssign:
			if n, ok := s.Target.(*ast.Name); ok {
				assigned[n.Id] = true
			}
		}
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Name:
			if !params[n.Id] && !assigned[n.Id] && n.Id != "torch" && n.Id != "int" && n.Id != "os" {
				ok = false
			}
		case *ast.Attribute:
			// os.environ[...], args.local_rank: the root name decides.
			ast.Inspect(n.Value, func(m ast.Node) bool {
				if x, isName := m.(*ast.Name); isName && !params[x.Id] && !assigned[x.Id] && x.Id != "torch" && x.Id != "os" {
					ok = false
				}
				return true
			})
			return false
		}
		return true
	})
	return ok
}

func (l *lowerer) addDeviceBinding(x *rules.DeviceBinding) { addFact(&l.r.Prog().DeviceBindings, x) }
