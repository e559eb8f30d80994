package lower

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/collvet/collvet/rules"
)

// value is an abstract communicator or stream.
type value struct {
	kind    string // world | alloc | var | stream | nil | unknown | param
	name    string // creator's short name, variable or field name
	api     string
	backend string
	abs     PosSum    // absolute position: stable across packages
	pos     rules.Pos // display position
	param   int       // kind param: the operand index (summaries)
	path    string    // kind param: field path below the operand (".comm")
	indexed bool      // an element of an array/slice/map at a non-constant index
	// unbound: a parameter or receiver no call chain bound (a library's
	// entry point); its fields get instance-insensitive identities.
	unbound bool
}

// withPath is the value of a field below v.
func (v value) withPath(p string) value {
	if p == "" {
		return v
	}
	switch v.kind {
	case "var", "alloc":
		v.kind, v.name, v.api = "var", v.name+p, ""
		return v
	case "param":
		v.path += p
		return v
	}
	return unknownV
}

// id is the value's identity in the model.
func (v value) id() string {
	switch v.kind {
	case "world":
		return "WORLD"
	case "alloc", "var", "stream":
		if v.pos.IsValid() {
			return v.name + "@" + v.pos.Short()
		}
		return v.name
	case "nil":
		return "default"
	case "param":
		return fmt.Sprintf("param#%d%s", v.param, v.path)
	}
	return "unknown"
}

var unknownV = value{kind: "unknown"}

func (b *builder) absPos(p token.Pos) PosSum {
	if !p.IsValid() {
		return PosSum{}
	}
	ps := b.pass.Fset.Position(p)
	return PosSum{File: ps.Filename, Line: ps.Line, Col: ps.Column}
}

// display converts a fact position to a model position.
func (b *builder) display(p PosSum) rules.Pos {
	if p.File == "" {
		return rules.Pos{}
	}
	return rules.Pos{Path: relPath(b.base, p.File), Line: p.Line, Col: p.Col}
}

func (b *builder) mkValue(kind, name, api, backend string, p token.Pos) value {
	v := value{kind: kind, name: name, api: api, backend: backend}
	if p.IsValid() {
		v.abs = b.absPos(p)
		v.pos = b.display(v.abs)
	}
	return v
}

func (b *builder) allocValue(name, lib string, call *ast.CallExpr) value {
	short := name[strings.LastIndexByte(name, '.')+1:]
	return b.mkValue("alloc", short, name, lib, call.Pos())
}

// strip removes what does not change which communicator an expression
// denotes: parentheses, & and *, conversions (C.ncclComm_t(c),
// unsafe.Pointer(s)) and cgo's argument temporaries.
func (b *builder) strip(e ast.Expr) ast.Expr {
	info := b.pass.TypesInfo
	for range 32 {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return e
			}
			e = x.X
		case *ast.CallExpr:
			if len(x.Args) != 1 {
				return e
			}
			if tv, ok := info.Types[ast.Unparen(x.Fun)]; ok && tv.IsType() {
				e = x.Args[0]
				continue
			}
			if c := rawCName(info, x.Fun); c != "" && rawCType(c) {
				e = x.Args[0]
				continue
			}
			return e
		case *ast.Ident:
			s, ok := b.subst[info.ObjectOf(x)]
			if !ok {
				return e
			}
			e = s
		default:
			return e
		}
	}
	return e
}

// rawCType reports whether C.name, in a file cgo did not process (see
// rawCName), names a C type, so that C.name(x) is a conversion: C's
// arithmetic types, struct_/union_/enum_ names, typedefs ending in _t
// (cudaStream_t, ncclComm_t) and MPI's handle types.
func rawCType(c string) bool {
	name := strings.TrimPrefix(c, "C.")
	switch name {
	case "char", "schar", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
		"longlong", "ulonglong", "float", "double", "complexfloat", "complexdouble", "size_t",
		"MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Request", "MPI_Group", "MPI_Win", "MPI_Info", "MPI_Fint",
		"CUstream", "CUevent", "CUcontext":
		return true
	}
	return strings.HasSuffix(name, "_t") || strings.HasPrefix(name, "struct_") ||
		strings.HasPrefix(name, "union_") || strings.HasPrefix(name, "enum_")
}

// env binds parameters to the values of a call chain's arguments.
type env map[*types.Var]value

// valueOf is the abstract value of a communicator or stream expression.
func (b *builder) valueOf(e ast.Expr, en env) value {
	if e == nil {
		return unknownV
	}
	e = b.strip(e)
	info := b.pass.TypesInfo
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "nil" && info.ObjectOf(x) == types.Universe.Lookup("nil") {
			return value{kind: "nil"}
		}
		if c := cName(x.Name); c != "" {
			return b.cValue(c)
		}
		return b.objValue(info.ObjectOf(x), en)
	case *ast.BasicLit:
		if x.Value == "0" {
			return value{kind: "nil"}
		}
		return unknownV
	case *ast.SelectorExpr:
		if c := rawCName(info, x); c != "" {
			return b.cValue(c)
		}
		if sel := info.Selections[x]; sel != nil {
			if sel.Kind() != types.FieldVal {
				return unknownV
			}
			// A field of a bound operand (the caller's variable) or of a
			// summarised parameter is instance-sensitive: intra.comm and
			// inter.comm differ. Otherwise the field is its own identity
			// (or the allocation stored into it).
			base := b.valueOf(x.X, en)
			local := false
			if id, ok := b.strip(x.X).(*ast.Ident); ok {
				if v, ok := info.ObjectOf(id).(*types.Var); ok && v.Kind() == types.LocalVar {
					local = true
				}
			}
			switch {
			case base.kind == "param":
				return base.withPath("." + x.Sel.Name)
			case (base.kind == "var" || base.kind == "alloc") && !base.unbound && !local:
				return base.withPath("." + x.Sel.Name)
			}
			if v, ok := b.creator[sel.Obj()]; ok {
				return v
			}
			if base.kind == "var" && !base.unbound && local {
				return base.withPath("." + x.Sel.Name)
			}
			return b.mkValue("var", typeName(sel.Recv())+"."+x.Sel.Name, "", "", sel.Obj().Pos())
		}
		return b.objValue(info.Uses[x.Sel], en)
	case *ast.IndexExpr:
		v := b.valueOf(x.X, en)
		if tv, ok := info.Types[x.Index]; !ok || tv.Value == nil {
			v.indexed = true
		}
		return v
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && strings.HasPrefix(id.Name, "_Cmacro_") {
			return b.cValue(cName(id.Name))
		}
		name, _ := b.calleeName(x)
		if gc := b.tables.GroupCreators[name]; gc != nil && !gc.Out.Present() {
			if gc.Returns == "world" {
				return value{kind: "world", backend: gc.Library}
			}
			return b.allocValue(name, gc.Library, x)
		}
	}
	return unknownV
}

// cValue is the value of a C name: the world communicator, or a C global.
func (b *builder) cValue(c string) value {
	if gc := b.tables.GroupCreators[c]; gc != nil && gc.Returns == "world" {
		return value{kind: "world", backend: gc.Library}
	}
	if strings.HasPrefix(c, "C.MPI_COMM_") || strings.HasSuffix(c, "_NULL") {
		return unknownV
	}
	return value{kind: "var", name: c}
}

func (b *builder) objValue(obj types.Object, en env) value {
	v, ok := obj.(*types.Var)
	if !ok {
		return unknownV
	}
	if bv, ok := en[v]; ok {
		return bv
	}
	if cv, ok := b.creator[v]; ok {
		return cv
	}
	name := v.Name()
	if v.Pkg() != nil && v.Pkg() != b.pass.Pkg && v.Parent() == v.Pkg().Scope() {
		name = v.Pkg().Name() + "." + name
	}
	val := b.mkValue("var", name, "", "", v.Pos())
	val.unbound = v.Kind() == types.ParamVar || v.Kind() == types.RecvVar
	return val
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// bind makes the environment a callee runs with: its parameters bound to
// the operands' values. Literals also see their creator's bindings.
func (b *builder) bind(callee *fn, ops []ast.Expr, en env) env {
	out := env{}
	if callee.obj == nil {
		for k, v := range en {
			out[k] = v
		}
	}
	for i, p := range callee.params {
		if i < len(ops) && p != nil {
			out[p] = b.valueOf(ops[i], en)
		}
	}
	return out
}

// envKey identifies a function walked under an environment.
func envKey(f *fn, en env) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%p", f)
	for _, p := range f.params {
		if v, ok := en[p]; ok {
			sb.WriteString("|" + v.id())
		}
	}
	return sb.String()
}

// threadLevel reads an MPI thread level from an init call's argument.
func (b *builder) threadLevel(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		if constant.BoolVal(tv.Value) {
			return "multiple"
		}
		return "single"
	}
	var name string
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			name = strings.ToUpper(id.Name)
		}
		return true
	})
	for _, l := range []string{"SINGLE", "FUNNELED", "SERIALIZED", "MULTIPLE"} {
		if strings.Contains(name, l) {
			return strings.ToLower(l)
		}
	}
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		if n, ok := constant.Int64Val(tv.Value); ok && n >= 0 && n <= 3 {
			return []string{"single", "funneled", "serialized", "multiple"}[n]
		}
	}
	return ""
}

// rootObj is the variable an expression (a request, &reqs[i]) is stored in.
func (b *builder) rootObj(e ast.Expr) types.Object {
	if e == nil {
		return nil
	}
	e = b.strip(e)
	for {
		switch x := e.(type) {
		case *ast.IndexExpr:
			e = b.strip(x.X)
			continue
		case *ast.SliceExpr:
			e = b.strip(x.X)
			continue
		}
		break
	}
	return b.lhsObj(e)
}
