package callgraph

import (
	"bytes"
	"encoding/json"
	"sort"
)

// PyCG returns the call graph in PyCG's shape: every function (module
// bodies included) and every external callee is a key; values are the
// sorted, de-duplicated qualified names of the callees. Functions with
// the same qualified name (conditional redefinitions) are merged.
func (g *Graph) PyCG() map[string][]string {
	sets := map[string]map[string]bool{}
	key := func(n string) map[string]bool {
		s := sets[n]
		if s == nil {
			s = map[string]bool{}
			sets[n] = s
		}
		return s
	}
	for _, f := range g.Funcs {
		key(f.Name)
	}
	for _, cs := range g.Calls {
		if cs.Caller == nil || cs.Kind == CallWith {
			continue // PyCG has no edges for a with statement's protocol
		}
		from := key(cs.Caller.Name)
		for _, t := range cs.Targets {
			name := t.Name()
			from[name] = true
			key(name)
		}
	}
	out := make(map[string][]string, len(sets))
	for k, s := range sets {
		list := make([]string, 0, len(s))
		for n := range s {
			list = append(list, n)
		}
		sort.Strings(list)
		out[k] = list
	}
	return out
}

// PyCGJSON encodes PyCG() deterministically (keys sorted, two-space
// indentation, trailing newline).
func (g *Graph) PyCGJSON() []byte {
	m := g.PyCG()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n  ")
		buf.Write(marshal(k))
		buf.WriteString(": ")
		buf.Write(marshal(m[k]))
	}
	if len(keys) > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("}\n")
	return buf.Bytes()
}

// marshal encodes v without HTML escaping ("<builtin>" stays readable).
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func sortStrings(s []string) { sort.Strings(s) }
