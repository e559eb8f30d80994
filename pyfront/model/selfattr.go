package model

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/rules"
)

// selfAttrTargets resolves "self.X(…)" calls that the call graph gives no
// function target (the receiver's points-to set lost the instance) from
// the class's own stores "self.X = e": the functions e may hold. FSDP's
// post-backward hook calls self._communication_hook, set in __init__ from
// self._get_default_comm_hook() (allreduce_hook / reduce_scatter_hook).
func (b *builder) selfAttrTargets(f *callgraph.Func, cs *callgraph.CallSite) []*callgraph.Func {
	if cs.Node == nil || f.Class == nil || f.Static || f.Scope == nil || len(f.Scope.Params) == 0 {
		return nil
	}
	for _, t := range cs.Targets {
		if t.Fn != nil {
			return nil
		}
	}
	attr, ok := cs.Node.Func.(*ast.Attribute)
	if !ok {
		return nil
	}
	if n, ok := attr.Value.(*ast.Name); !ok || n.Id != f.Scope.Params[0] {
		return nil
	}
	stores := b.selfStores(f.Class)
	var out []*callgraph.Func
	seen := map[*callgraph.Func]bool{}
	for _, e := range stores[attr.Attr] {
		for _, v := range b.g.ExprValues(e) {
			if val := b.g.Value(v); val != nil && (val.Kind == callgraph.KFunc || val.Kind == callgraph.KBound) && val.Fn != nil && !seen[val.Fn] {
				seen[val.Fn] = true
				out = append(out, val.Fn)
			}
		}
	}
	return out
}

// selfStores indexes a class's "self.X = e" assignments in its methods by X
// (computed once per class). The statement walk and the lowering of the
// functions, which run side by side, both ask for it: selfMu guards the
// indexes.
func (b *builder) selfStores(c *callgraph.Class) map[string][]ast.Expr {
	b.selfMu.Lock()
	defer b.selfMu.Unlock()
	return b.selfStoresLocked(c)
}

func (b *builder) selfStoresLocked(c *callgraph.Class) map[string][]ast.Expr {
	if m, ok := b.selfStoreIdx[c]; ok {
		return m
	}
	if b.methodsOf == nil {
		// One pass over the functions for all classes: a pass per class
		// is quadratic on large programs.
		b.methodsOf = map[*callgraph.Class][]*callgraph.Func{}
		for _, f := range b.g.Funcs {
			if f.Class != nil {
				b.methodsOf[f.Class] = append(b.methodsOf[f.Class], f)
			}
		}
	}
	m := map[string][]ast.Expr{}
	ann := newSelfAnnotations()
	path := c.Module.Path
	if c.Node != nil {
		for _, st := range c.Node.Body {
			if aa, ok := st.(*ast.AnnAssign); ok {
				if t, ok := aa.Target.(*ast.Name); ok {
					ann.set(t.Id, b.annotationClass(path, aa.Annotation))
				}
			}
		}
	}
	for _, f := range b.methodsOf[c] {
		if f.Static || f.Scope == nil || len(f.Scope.Params) == 0 {
			continue
		}
		def, ok := f.Node.(*ast.FunctionDef)
		if !ok {
			continue
		}
		self := f.Scope.Params[0]
		var annotated map[string]ast.Expr // the method's annotated parameters
		for _, p := range allParams(def.Args) {
			if p.Annotation != nil {
				if annotated == nil {
					annotated = map[string]ast.Expr{}
				}
				annotated[p.Arg] = p.Annotation
			}
		}
		selfAttr := func(t ast.Expr) (string, bool) {
			if a, ok := t.(*ast.Attribute); ok {
				if nm, ok := a.Value.(*ast.Name); ok && nm.Id == self {
					return a.Attr, true
				}
			}
			return "", false
		}
		for _, s := range def.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
					return false
				case *ast.Assign:
					for _, t := range n.Targets {
						if attr, ok := selfAttr(t); ok {
							m[attr] = append(m[attr], n.Value)
							if v, ok := n.Value.(*ast.Name); ok && annotated[v.Id] != nil {
								ann.set(attr, b.annotationClass(path, annotated[v.Id]))
							}
						}
					}
				case *ast.AnnAssign:
					if attr, ok := selfAttr(n.Target); ok {
						ann.set(attr, b.annotationClass(path, n.Annotation))
						if n.Value != nil {
							// self.stream: torch.cuda.Stream = Stream(): a
							// store, as without the annotation.
							m[attr] = append(m[attr], n.Value)
						}
					}
				}
				return true
			})
		}
	}
	b.selfStoreIdx[c] = m
	if b.selfAnnIdx == nil {
		b.selfAnnIdx = map[*callgraph.Class]map[string]string{}
	}
	b.selfAnnIdx[c] = ann.classes
	return m
}

// selfAnnotations collects what a class declares its attributes to hold
// (see selfAttrClass); an attribute declared with two different classes
// holds none.
type selfAnnotations struct {
	classes  map[string]string
	conflict map[string]bool
}

func newSelfAnnotations() *selfAnnotations {
	return &selfAnnotations{classes: map[string]string{}, conflict: map[string]bool{}}
}

func (s *selfAnnotations) set(attr, cls string) {
	if cls == "" || s.conflict[attr] {
		return
	}
	if old, ok := s.classes[attr]; ok && old != cls {
		delete(s.classes, attr)
		s.conflict[attr] = true
		return
	}
	s.classes[attr] = cls
}

// selfAttrClass returns the class that recv, self.X in a method (or in a
// function nested in one), is declared to hold, or "": from an annotation
// of X in the class body (X: T), of a store in a method (self.X: T = …),
// or of the method parameter a store copies (def __init__(self, a: T):
// self.X = a). Trainer classes keep their accelerator or engine so.
func (b *builder) selfAttrClass(f *callgraph.Func, recv ast.Expr) string {
	a, ok := recv.(*ast.Attribute)
	if !ok {
		return ""
	}
	n, ok := a.Value.(*ast.Name)
	if !ok {
		return ""
	}
	for ; f != nil && f.Class == nil; f = f.Parent {
	}
	if f == nil || f.Static || f.Scope == nil || len(f.Scope.Params) == 0 || f.Scope.Params[0] != n.Id {
		return ""
	}
	b.selfMu.Lock()
	b.selfStoresLocked(f.Class) // indexes the declarations too
	cls := b.selfAnnIdx[f.Class][a.Attr]
	b.selfMu.Unlock()
	if cls == "" && a.Attr == "trainer" && b.lightningModule(f.Class) {
		// LightningModule.trainer: the Trainer that runs the module
		// (`self.trainer.save_checkpoint(p)` in a hook).
		cls = "lightning.pytorch.Trainer"
	}
	return cls
}

// lightningModule reports a class of the program that derives from
// Lightning's LightningModule.
func (b *builder) lightningModule(c *callgraph.Class) bool {
	_, externals := b.g.MRO(c)
	for _, e := range externals {
		e = b.t.Canonical(e)
		if strings.HasSuffix(e, ".LightningModule") && (strings.HasPrefix(e, "lightning.") || strings.HasPrefix(e, "pytorch_lightning.")) {
			return true
		}
	}
	return false
}

// SelfStream implements flow.SelfStreamer: the stream every store
// "self.attr = e" of fn's class makes, or nil.
func (r *resolver) SelfStream(fn *rules.Function, attr string) *rules.Stream {
	f := r.b.fnOf(fn)
	if f == nil || f.Class == nil || f.Static {
		return nil
	}
	var out *rules.Stream
	for _, e := range r.b.selfStores(f.Class)[attr] {
		s := r.b.streamOf(e)
		if s == nil || out != nil && out.ID != s.ID {
			return nil
		}
		out = s
	}
	return out
}

// selfAttrOf returns attr when e is "self.attr" in method f (self being
// f's first parameter).
func (b *builder) selfAttrOf(f *callgraph.Func, e ast.Expr) (string, bool) {
	if f == nil || f.Class == nil || f.Static || f.Scope == nil || len(f.Scope.Params) == 0 {
		return "", false
	}
	a, ok := e.(*ast.Attribute)
	if !ok {
		return "", false
	}
	if n, ok := a.Value.(*ast.Name); !ok || n.Id != f.Scope.Params[0] {
		return "", false
	}
	return a.Attr, true
}

// classMethods returns the functions defined in class c's body.
func (b *builder) classMethods(c *callgraph.Class) []*callgraph.Func {
	b.selfMu.Lock()
	defer b.selfMu.Unlock()
	b.selfStoresLocked(c) // builds methodsOf
	return b.methodsOf[c]
}

// selfStoreGroups returns the groups that "self.attr" (e, in method f)
// holds according to the class's own stores, for a method no receiver
// value reaches (one the program never calls on an instance it makes:
// a pool's close()). Nil when a store holds no known group.
func (b *builder) selfStoreGroups(f *callgraph.Func, e ast.Expr) []*rules.Group {
	attr, ok := b.selfAttrOf(f, e)
	if !ok || len(b.g.ExprValues(e)) > 0 {
		return nil
	}
	var out []*rules.Group
	seen := map[*rules.Group]bool{}
	for _, st := range b.selfStores(f.Class)[attr] {
		gs := b.groupsOf(b.g.ExprValues(st), st)
		if len(gs) == 0 {
			return nil
		}
		for _, g := range gs {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// PropertyGetter implements flow.PropertyGetterer: the getter of the
// attribute a reads on the instances or classes its object may be, when
// their classes (through the MRO) define it as a property, or with a
// decorator named like one (classproperty, cached_property).
func (r *resolver) PropertyGetter(a *ast.Attribute) *rules.Function {
	var out *callgraph.Func
	for _, v := range r.b.g.ExprValues(a.Value) {
		val := r.b.g.Value(v)
		if val == nil || val.Class == nil || val.Kind != callgraph.KInstance && val.Kind != callgraph.KClass {
			continue
		}
		classes, _ := r.b.g.MRO(val.Class)
		for _, c := range classes {
			f := r.b.propertyDef(c, a.Attr)
			if f == nil {
				continue
			}
			if out != nil && out != f {
				return nil
			}
			out = f
			break
		}
	}
	if out == nil {
		return nil
	}
	return r.b.fn(out)
}

// propertyDef returns the function c's body defines as attribute name
// with a property-like decorator, or nil. Each class's body is read once.
func (b *builder) propertyDef(c *callgraph.Class, name string) *callgraph.Func {
	b.selfMu.Lock()
	defer b.selfMu.Unlock()
	props, ok := b.propertyIdx[c]
	if !ok {
		if b.propertyIdx == nil {
			b.propertyIdx = map[*callgraph.Class]map[string]*callgraph.Func{}
		}
		if c.Node != nil {
			for _, st := range c.Node.Body {
				def, ok := st.(*ast.FunctionDef)
				if !ok {
					continue
				}
				for _, d := range def.DecoratorList {
					if strings.HasSuffix(strings.ToLower(lastDotted(d)), "property") {
						if props == nil {
							props = map[string]*callgraph.Func{}
						}
						props[def.Name] = b.g.FuncOf(def)
						break
					}
				}
			}
		}
		b.propertyIdx[c] = props
	}
	return props[name]
}

// lastDotted is the last part of a dotted name expression ("" otherwise).
func lastDotted(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		return e.Attr
	}
	return ""
}
