package flow

import "github.com/collvet/collvet/pyfront/ast"

// Values a function builds for itself: a name assigned once, every value
// a name is assigned, a dict of keyword arguments. The flow rules and the
// model read through them what reaches a call as a local name or as
// **kwargs (init_process_group(**kwargs), FSDP(m, sharding_strategy=s)).

// LocalValue is the value of the one assignment `name = value` in the
// function (or module) node, or nil when there is none, several, or the
// name is bound otherwise too (a loop, a with, an augmented assignment).
func LocalValue(node ast.Node, name string) ast.Expr {
	if vals := LocalValues(node, name); len(vals) == 1 {
		return vals[0]
	}
	return nil
}

// LocalDict looks a constant key up in the dict the function (or module)
// node assigns to name once — a display or dict(key=…) — or returns nil
// when name is not such a dict or is changed after (a subscript store, a
// method call on it).
func LocalDict(node ast.Node, name string) func(key string) ast.Expr {
	changed := false
	ast.InspectBody(ast.ScopeBody(node), func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Subscript:
			if nm, ok := x.Value.(*ast.Name); ok && nm.Id == name && x.Ctx != ast.Load {
				changed = true
			}
		case *ast.Attribute:
			if nm, ok := x.Value.(*ast.Name); ok && nm.Id == name {
				changed = true // kw.update(…), kw.setdefault(…)
			}
		}
		return true
	})
	if changed {
		return nil
	}
	switch v := LocalValue(node, name).(type) {
	case *ast.Dict:
		for _, k := range v.Keys {
			if k == nil {
				return nil // {**other}: it may hold any key
			}
		}
		return func(key string) ast.Expr { return dictValue(v, key) }
	case *ast.Call:
		if fn, ok := v.Func.(*ast.Name); !ok || fn.Id != "dict" || len(v.Args) > 0 {
			return nil
		}
		for _, k := range v.Keywords {
			if k.Arg == "" {
				return nil
			}
		}
		return func(key string) ast.Expr {
			for _, k := range v.Keywords {
				if k.Arg == key {
					return k.Value
				}
			}
			return nil
		}
	}
	return nil
}

// MayHoldKey reports whether the dict the function (or module) node binds
// to name may hold the constant key: its display or dict(…) call names
// it, a store `name["key"] = …` adds it, or something the analysis cannot
// read may (a computed key, update(), setdefault(), `**other`, a value
// that is not a display, several assignments).
func MayHoldKey(node ast.Node, name, key string) bool {
	unknown := false
	keys := map[string]bool{}
	ast.InspectBody(ast.ScopeBody(node), func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Subscript:
			if nm, ok := x.Value.(*ast.Name); ok && nm.Id == name && x.Ctx != ast.Load {
				if k, ok := constStr(x.Slice); ok {
					keys[k] = true
				} else {
					unknown = true
				}
			}
		case *ast.Attribute:
			if nm, ok := x.Value.(*ast.Name); ok && nm.Id == name {
				switch x.Attr {
				case "get", "items", "keys", "values", "copy":
				default:
					unknown = true // update(), setdefault(), pop() …
				}
			}
		}
		return !unknown
	})
	if unknown {
		return true
	}
	switch v := LocalValue(node, name).(type) {
	case *ast.Dict:
		for _, k := range v.Keys {
			ks, ok := constStr(k)
			if k == nil || !ok {
				return true
			}
			keys[ks] = true
		}
	case *ast.Call:
		if fn, ok := v.Func.(*ast.Name); !ok || fn.Id != "dict" || len(v.Args) > 0 {
			return true
		}
		for _, k := range v.Keywords {
			if k.Arg == "" {
				return true
			}
			keys[k.Arg] = true
		}
	default:
		return true
	}
	return keys[key]
}

// LocalValues returns every value the function (or module) node assigns
// to name with a plain assignment, or nil when it binds name some other
// way too (a loop, a with, an augmented assignment, unpacking).
func LocalValues(node ast.Node, name string) []ast.Expr {
	var values []ast.Expr
	stores := 0
	ast.InspectBody(ast.ScopeBody(node), func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Assign:
			for _, t := range x.Targets {
				if nm, ok := t.(*ast.Name); ok && nm.Id == name {
					values = append(values, x.Value)
				}
			}
		case *ast.Name:
			// Every binding counts: assignments, unpacking, loops,
			// with targets, walrus, del, augmented assignments.
			if x.Id == name && x.Ctx != ast.Load {
				stores++
			}
		}
		return true
	})
	if stores != len(values) {
		return nil
	}
	return values
}
