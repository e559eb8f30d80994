package resolve

import (
	"strconv"

	"github.com/collvet/collvet/pyfront/ast"
)

// ScopeKind classifies a Scope.
type ScopeKind uint8

// Scope kinds.
const (
	ModuleScope ScopeKind = iota
	ClassScope
	FunctionScope
	LambdaScope
	ComprehensionScope
)

// Scope is one Python namespace.
type Scope struct {
	Kind   ScopeKind
	Node   ast.Node // *ast.Module, *ast.ClassDef, *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda, or a comprehension expression
	Parent *Scope
	// Name is the qualified name in PyCG's convention: mod, mod.f, mod.f.g,
	// mod.Cls.meth, mod.<lambda1> (lambdas numbered per enclosing named
	// scope in source order). A comprehension has its enclosing named
	// scope's name (its calls belong to that function).
	Name     string
	Bound    map[string]bool // names bound in this scope
	Global   map[string]bool // declared global
	Nonlocal map[string]bool // declared nonlocal
	Params   []string        // function parameters, in order (positional-only, positional, *args, keyword-only, **kwargs)
	// Rebound: names that an assignment to the bare name binds after an
	// earlier binding in the same scope (a parameter or another such
	// assignment). Pinned: names bound in some other way as well (import,
	// def, class, except-as, a match capture, :=, del, an augmented
	// assignment). The call graph gives a rebound name that is not pinned
	// one slot per assignment in function scopes (see callgraph's
	// locals.go); both maps are nil until a name is entered.
	Rebound  map[string]bool
	Pinned   map[string]bool
	Children []*Scope
	// Generator: the body yields.
	Generator bool
	// SelfAttrs (class scopes): attribute names assigned on the first
	// parameter of the class's methods (self.x = …), in first-seen order.
	SelfAttrs []string
	selfSeen  map[string]bool
	lambdas   int
	// Index is the scope's position in Scopes.All (creation order).
	Index int
}

// Scopes are the scopes of one module.
type Scopes struct {
	Module *Scope
	ByNode map[ast.Node]*Scope
	All    []*Scope
}

// Named returns the nearest enclosing scope that is not a comprehension.
func (s *Scope) Named() *Scope {
	for s != nil && s.Kind == ComprehensionScope {
		s = s.Parent
	}
	return s
}

// Lookup returns the scope whose binding a use of name in s refers to,
// following Python's rules: declared global → module; nonlocal or free →
// the nearest enclosing function scope that binds it (class scopes are
// skipped); otherwise the module scope (which may not bind it: a builtin
// or a name from a star import).
func (s *Scope) Lookup(name string) *Scope {
	if s.Global[name] {
		return s.module()
	}
	if s.Bound[name] && !s.Nonlocal[name] {
		return s
	}
	for p := s.Parent; p != nil; p = p.Parent {
		if p.Kind == ClassScope {
			continue
		}
		if p.Kind == ModuleScope {
			return p
		}
		if p.Global[name] {
			return p.module()
		}
		if p.Bound[name] && !p.Nonlocal[name] {
			return p
		}
	}
	return s.module()
}

// BindingScope returns the scope a binding of name in s writes to (the
// module for global names, the enclosing function for nonlocal ones).
func (s *Scope) BindingScope(name string) *Scope {
	if s.Global[name] {
		return s.module()
	}
	if s.Nonlocal[name] {
		return s.Lookup(name)
	}
	return s
}

func (s *Scope) module() *Scope {
	for s.Parent != nil {
		s = s.Parent
	}
	return s
}

// BuildScopes computes the scopes of module m named modName.
func BuildScopes(modName string, m *ast.Module) *Scopes {
	b := &scopeBuilder{out: &Scopes{ByNode: map[ast.Node]*Scope{}}}
	ms := b.newScope(ModuleScope, m, nil, modName)
	b.out.Module = ms
	if m != nil {
		b.stmts(ms, m.Body)
	}
	// A name a function declares global and binds (`global dist; import
	// torch.distributed as dist` in an init function) is a module
	// attribute once that function has run.
	for _, s := range b.out.All[1:] {
		for name := range s.Global {
			if s.Bound[name] {
				ms.Bound[name] = true
			}
		}
	}
	return b.out
}

type scopeBuilder struct {
	out *Scopes
}

func (b *scopeBuilder) newScope(k ScopeKind, n ast.Node, parent *Scope, name string) *Scope {
	s := &Scope{Kind: k, Node: n, Parent: parent, Name: name, Bound: map[string]bool{}, Index: len(b.out.All)}
	if parent != nil {
		parent.Children = append(parent.Children, s)
	}
	b.out.All = append(b.out.All, s)
	if n != nil {
		b.out.ByNode[n] = s
	}
	return s
}

func (b *scopeBuilder) bind(s *Scope, name string) {
	if name != "" {
		s.Bound[name] = true
	}
}

// store binds name by an assignment to the bare name.
func (b *scopeBuilder) store(s *Scope, name string) {
	if s.Bound[name] {
		if s.Rebound == nil {
			s.Rebound = map[string]bool{}
		}
		s.Rebound[name] = true
		return
	}
	s.Bound[name] = true
}

// pin binds name in a way other than an assignment to the bare name.
func (b *scopeBuilder) pin(s *Scope, name string) {
	if name == "" {
		return
	}
	if s.Pinned == nil {
		s.Pinned = map[string]bool{}
	}
	s.Pinned[name] = true
	s.Bound[name] = true
}

func (b *scopeBuilder) stmts(s *Scope, list []ast.Stmt) {
	for _, st := range list {
		b.stmt(s, st)
	}
}

func (b *scopeBuilder) function(s *Scope, n ast.Node, name string, args *ast.Arguments, body []ast.Stmt, decos []ast.Expr, returns ast.Expr) {
	for _, d := range decos {
		b.expr(s, d)
	}
	b.argDefaults(s, args)
	if returns != nil {
		b.expr(s, returns)
	}
	b.pin(s, name)
	fs := b.newScope(FunctionScope, n, s, s.Named().Name+"."+name)
	b.params(fs, args)
	b.stmts(fs, body)
}

func (b *scopeBuilder) argDefaults(s *Scope, a *ast.Arguments) {
	if a == nil {
		return
	}
	for _, d := range a.Defaults {
		b.expr(s, d)
	}
	for _, d := range a.KwDefaults {
		if d != nil {
			b.expr(s, d)
		}
	}
	for _, list := range [][]*ast.Arg{a.PosOnlyArgs, a.Args, a.KwOnlyArgs} {
		for _, p := range list {
			if p.Annotation != nil {
				b.expr(s, p.Annotation)
			}
		}
	}
}

func (b *scopeBuilder) params(fs *Scope, a *ast.Arguments) {
	if a == nil {
		return
	}
	add := func(p *ast.Arg) {
		if p != nil {
			fs.Params = append(fs.Params, p.Arg)
			b.bind(fs, p.Arg)
		}
	}
	for _, p := range a.PosOnlyArgs {
		add(p)
	}
	for _, p := range a.Args {
		add(p)
	}
	add(a.Vararg)
	for _, p := range a.KwOnlyArgs {
		add(p)
	}
	add(a.Kwarg)
}

func (b *scopeBuilder) stmt(s *Scope, st ast.Stmt) {
	switch n := st.(type) {
	case *ast.FunctionDef:
		b.function(s, n, n.Name, n.Args, n.Body, n.DecoratorList, n.Returns)
	case *ast.AsyncFunctionDef:
		b.function(s, n, n.Name, n.Args, n.Body, n.DecoratorList, n.Returns)
	case *ast.ClassDef:
		for _, d := range n.DecoratorList {
			b.expr(s, d)
		}
		for _, e := range n.Bases {
			b.expr(s, e)
		}
		for _, k := range n.Keywords {
			b.expr(s, k.Value)
		}
		b.pin(s, n.Name)
		cs := b.newScope(ClassScope, n, s, s.Named().Name+"."+n.Name)
		b.stmts(cs, n.Body)
	case *ast.Global:
		if s.Global == nil {
			s.Global = map[string]bool{}
		}
		for _, name := range n.Names {
			s.Global[name] = true
		}
	case *ast.Nonlocal:
		if s.Nonlocal == nil {
			s.Nonlocal = map[string]bool{}
		}
		for _, name := range n.Names {
			s.Nonlocal[name] = true
		}
	case *ast.Import:
		for _, a := range n.Names {
			if a.Asname != "" {
				b.pin(s, a.Asname)
			} else {
				name := a.Name
				for i := 0; i < len(name); i++ {
					if name[i] == '.' {
						name = name[:i]
						break
					}
				}
				b.pin(s, name)
			}
		}
	case *ast.ImportFrom:
		for _, a := range n.Names {
			if a.Name == "*" {
				continue
			}
			if a.Asname != "" {
				b.pin(s, a.Asname)
			} else {
				b.pin(s, a.Name)
			}
		}
	case *ast.AugAssign:
		if t, ok := n.Target.(*ast.Name); ok {
			b.pin(s, t.Id)
		}
		ast.Children(st, func(c ast.Node) { b.node(s, c) })
	default:
		ast.Children(st, func(c ast.Node) { b.node(s, c) })
	}
}

// node dispatches a child of a statement or expression.
func (b *scopeBuilder) node(s *Scope, n ast.Node) {
	switch n := n.(type) {
	case ast.Stmt:
		b.stmt(s, n)
	case ast.Expr:
		b.expr(s, n)
	case *ast.ExceptHandler:
		b.pin(s, n.Name)
		ast.Children(n, func(c ast.Node) { b.node(s, c) })
	case *ast.MatchAs:
		b.pin(s, n.Name)
		ast.Children(n, func(c ast.Node) { b.node(s, c) })
	case *ast.MatchStar:
		b.pin(s, n.Name)
	case *ast.MatchMapping:
		b.pin(s, n.Rest)
		ast.Children(n, func(c ast.Node) { b.node(s, c) })
	case nil:
	default:
		ast.Children(n, func(c ast.Node) { b.node(s, c) })
	}
}

func (b *scopeBuilder) expr(s *Scope, e ast.Expr) {
	switch n := e.(type) {
	case nil:
	case *ast.Name:
		switch n.Ctx {
		case ast.Store:
			b.store(s, n.Id)
		case ast.Del:
			b.pin(s, n.Id)
		}
	case *ast.Attribute:
		if n.Ctx == ast.Store {
			b.selfAttr(s, n)
		}
		b.expr(s, n.Value)
	case *ast.NamedExpr:
		// The target binds in the nearest non-comprehension scope.
		if t, ok := n.Target.(*ast.Name); ok {
			b.pin(s.Named(), t.Id)
		}
		b.expr(s, n.Value)
	case *ast.Lambda:
		b.argDefaults(s, n.Args)
		named := s.Named()
		named.lambdas++
		ls := b.newScope(LambdaScope, n, s, named.Name+".<lambda"+strconv.Itoa(named.lambdas)+">")
		b.params(ls, n.Args)
		b.expr(ls, n.Body)
	case *ast.ListComp:
		b.comp(s, n, n.Generators, n.Elt, nil)
	case *ast.SetComp:
		b.comp(s, n, n.Generators, n.Elt, nil)
	case *ast.GeneratorExp:
		b.comp(s, n, n.Generators, n.Elt, nil)
	case *ast.DictComp:
		b.comp(s, n, n.Generators, n.Key, n.Value)
	case *ast.Yield, *ast.YieldFrom:
		if f := s.Named(); f.Kind == FunctionScope || f.Kind == LambdaScope {
			f.Generator = true
		}
		ast.Children(e, func(c ast.Node) { b.node(s, c) })
	default:
		ast.Children(e, func(c ast.Node) { b.node(s, c) })
	}
}

func (b *scopeBuilder) comp(s *Scope, n ast.Expr, gens []*ast.Comprehension, elt, val ast.Expr) {
	if len(gens) > 0 {
		b.expr(s, gens[0].Iter)
	}
	cs := b.newScope(ComprehensionScope, n, s, s.Named().Name)
	for i, g := range gens {
		if i > 0 {
			b.expr(cs, g.Iter)
		}
		b.expr(cs, g.Target)
		for _, c := range g.Ifs {
			b.expr(cs, c)
		}
	}
	b.expr(cs, elt)
	b.expr(cs, val)
}

// selfAttr records "self.x = …" inside a method as an attribute of the class.
func (b *scopeBuilder) selfAttr(s *Scope, a *ast.Attribute) {
	base, ok := a.Value.(*ast.Name)
	if !ok {
		return
	}
	f := s.Named()
	if f.Kind != FunctionScope || len(f.Params) == 0 || f.Params[0] != base.Id || f.Parent == nil || f.Parent.Kind != ClassScope {
		return
	}
	c := f.Parent
	if c.selfSeen == nil {
		c.selfSeen = map[string]bool{}
	}
	if !c.selfSeen[a.Attr] {
		c.selfSeen[a.Attr] = true
		c.SelfAttrs = append(c.SelfAttrs, a.Attr)
	}
}
