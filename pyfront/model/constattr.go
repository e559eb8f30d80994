package model

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
)

// Class constants. An object built with the rank (`classifier =
// get_classifier(rank=fabric.local_rank)`) holds rank-dependent state,
// but not every attribute of it is: `if classifier.apply_ddp:` reads a
// flag its class sets to a literal (CVLface's partial-FC classifier), the
// same on every rank.

// ConstAttr implements flow.ConstAttrer: a's receiver holds instances of
// program classes, and each one's MRO stores the attribute, only as
// literals (`self.apply_ddp = False` in a method, or `apply_ddp = False`
// in a class body).
func (r *resolver) ConstAttr(a *ast.Attribute) bool {
	found := false
	for _, v := range r.b.g.ExprValues(a.Value) {
		val := r.b.g.Value(v)
		if val == nil {
			continue
		}
		switch val.Kind {
		case callgraph.KOpaque, callgraph.KContainer, callgraph.KExternal:
			// A library object the name may also hold (the same local
			// rebound to `fabric.setup(classifier)` later): a wrapper
			// forwards the attribute to the module it wraps.
			continue
		case callgraph.KInstance:
		default:
			return false
		}
		if val.Class == nil {
			return false
		}
		classes, _ := r.b.g.MRO(val.Class)
		stored := false
		for _, c := range classes {
			switch r.b.classConst(c, a.Attr) {
			case constStored:
				stored = true
			case otherStored:
				return false
			}
		}
		if !stored {
			return false
		}
		found = true
	}
	return found
}

// attrKind is what a class does with one attribute name.
type attrKind uint8

const (
	notStored   attrKind = iota
	constStored          // only literals
	otherStored          // something else, or it cannot tell (setattr)
)

// classConst reads how class c stores attribute name, through any object
// (self.name, other.name, a class-body assignment), memoized per class.
func (b *builder) classConst(c *callgraph.Class, name string) attrKind {
	b.selfMu.Lock()
	defer b.selfMu.Unlock()
	if b.classConsts == nil {
		b.classConsts = map[*callgraph.Class]map[string]attrKind{}
	}
	m, ok := b.classConsts[c]
	if !ok {
		m = classStores(c.Node)
		b.classConsts[c] = m
	}
	if m[""] == otherStored {
		return otherStored
	}
	return m[name]
}

// classStores maps each attribute name a class body stores to how; a
// name the class passes to setattr, or a setattr with a computed name,
// counts as stored otherwise ("" stands for every name).
func classStores(c *ast.ClassDef) map[string]attrKind {
	out := map[string]attrKind{}
	if c == nil {
		return out
	}
	note := func(name string, value ast.Expr) {
		k := otherStored
		if lit, ok := value.(*ast.Constant); ok && lit.Type != ast.ConstEllipsis {
			k = constStored
		}
		if out[name] != otherStored {
			out[name] = max(out[name], k)
		}
	}
	for _, st := range c.Body {
		if as, ok := st.(*ast.Assign); ok {
			for _, t := range as.Targets {
				if n, ok := t.(*ast.Name); ok {
					note(n.Id, as.Value)
				}
			}
		}
	}
	ast.Inspect(c, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			for _, t := range n.Targets {
				if at, ok := t.(*ast.Attribute); ok {
					note(at.Attr, n.Value)
				}
				for _, e := range ast.SeqElts(t) {
					if at, ok := e.(*ast.Attribute); ok {
						out[at.Attr] = otherStored
					}
				}
			}
		case *ast.AugAssign:
			if at, ok := n.Target.(*ast.Attribute); ok {
				out[at.Attr] = otherStored
			}
		case *ast.AnnAssign:
			if at, ok := n.Target.(*ast.Attribute); ok && n.Value != nil {
				note(at.Attr, n.Value)
			}
		case *ast.Call:
			if f, ok := n.Func.(*ast.Name); ok && f.Id == "setattr" && len(n.Args) >= 2 {
				if s, ok := n.Args[1].(*ast.Constant); ok && s.Type == ast.ConstStr {
					out[s.Str] = otherStored
				} else {
					out[""] = otherStored
				}
			}
		}
		return true
	})
	return out
}
