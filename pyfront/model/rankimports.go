package model

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/flow"
	"github.com/collvet/collvet/pyfront/resolve"
)

// Module-level rank names across imports.
//
// A package often binds the rank once (RANK = int(os.environ["RANK"]) in
// dist_env.py) and its other modules import it: `from dist_env import
// RANK`, `from .env import is_master as master`, or `import dist_env`
// then `dist_env.RANK`. Lowering a module body records its rank names
// (flow.RankGlobaler); lowerRankModules lowers module bodies in import
// order, the imported module first, and hands each module the names it
// imports from those already lowered, so that its body and its functions
// see them as rank values. A chain (IS_MAIN = RANK == 0 in a second
// module, tested in a third) is followed; an import cycle is cut where it
// closes, as Python's own partially initialised module would be.

// rankImport is one module-level import a module may take rank names
// through: from module import name as local (name "" for `import
// module as local`, whose names are read as local.NAME; name "*" for a
// star import, which takes the public names or those of __all__).
type rankImport struct {
	module, name, local string
}

// lowerRankModules lowers, in import order, the module bodies that bind a
// rank name or import one, and returns the module Funcs it lowered.
func (b *builder) lowerRankModules(r *resolver) map[*callgraph.Func]bool {
	byName := map[string]*callgraph.ModuleInput{}
	for _, m := range b.in.Modules {
		byName[m.Mod.Name] = m
	}
	for _, m := range b.in.Modules {
		for _, a := range m.Mod.Aliases {
			if byName[a] == nil {
				byName[a] = m
			}
		}
	}
	const (
		unvisited = iota
		visiting
		visited
	)
	state := map[*callgraph.ModuleInput]int{}
	lowered := map[*callgraph.Func]bool{}
	imports := map[*callgraph.ModuleInput][]rankImport{}
	// taken adds to seeds the names m's imports take from the modules
	// lowered so far.
	taken := func(m *callgraph.ModuleInput, seeds map[string]bool) {
		for _, im := range imports[m] {
			names := r.rankGlobals[byName[im.module].Mod.Path]
			switch {
			case im.name == "":
				for n := range names {
					seeds[im.local+"."+n] = true
				}
			case im.name == "*":
				listed, hasAll := b.g.AllNames(byName[im.module].Mod)
				for n := range names {
					top, _, _ := strings.Cut(n, ".")
					if hasAll && slices.Contains(listed, top) || !hasAll && top[0] != '_' {
						seeds[n] = true
					}
				}
			case names[im.name]:
				seeds[im.local] = true
			}
		}
	}
	var visit func(m *callgraph.ModuleInput)
	visit = func(m *callgraph.ModuleInput) {
		if state[m] != unvisited {
			return
		}
		state[m] = visiting
		for _, im := range moduleImports(m.Mod, m.AST) {
			if from := byName[im.module]; from != nil {
				imports[m] = append(imports[m], im)
				visit(from)
			}
		}
		seeds := map[string]bool{}
		taken(m, seeds)
		state[m] = visited
		f := b.g.FuncOf(m.AST)
		if f == nil || len(seeds) == 0 && !mayBindRank(m.AST) {
			return
		}
		if len(seeds) > 0 {
			r.SetRankGlobals(m.Mod.Path, seeds)
		}
		r.file = b.files[m.Mod.Path]
		r.mod = m.Mod.Path
		flow.Lower(b.fn(f), m.AST, r)
		lowered[f] = true
	}
	for _, m := range b.in.Modules {
		visit(m)
	}
	// In an import cycle, the module visited first was lowered before the
	// names of the one it imports were known. Its functions run later,
	// when both are loaded: they get every name their module imports.
	for changed := true; changed; {
		changed = false
		for _, m := range b.in.Modules {
			if len(imports[m]) == 0 {
				continue
			}
			names := map[string]bool{}
			taken(m, names)
			have, grew := r.rankGlobals[m.Mod.Path], false
			for n := range names {
				if !have[n] {
					if have == nil {
						have = map[string]bool{}
					}
					have[n], grew = true, true
				}
			}
			if grew {
				r.SetRankGlobals(m.Mod.Path, have)
				changed = true
			}
		}
	}
	return lowered
}

// moduleImports returns the imports of a module's own statements (at its
// top level, or under an if or try there) that can carry a rank name.
func moduleImports(mod *resolve.Module, m *ast.Module) []rankImport {
	var out []rankImport
	var stmts func([]ast.Stmt)
	stmts = func(body []ast.Stmt) {
		for _, s := range body {
			switch s := s.(type) {
			case *ast.ImportFrom:
				base, ok := resolve.Absolute(mod, s.Level, s.Module)
				if !ok {
					continue
				}
				for _, a := range s.Names {
					if a.Name == "*" {
						// Every public name, or those __all__ lists.
						out = append(out, rankImport{module: base, name: "*"})
						continue
					}
					local := a.Name
					if a.Asname != "" {
						local = a.Asname
					}
					out = append(out, rankImport{module: base, name: a.Name, local: local})
				}
			case *ast.Import:
				for _, a := range s.Names {
					local := a.Name
					if a.Asname != "" {
						local = a.Asname
					}
					out = append(out, rankImport{module: a.Name, local: local})
				}
			case *ast.If:
				stmts(s.Body)
				stmts(s.Orelse)
			case *ast.Try:
				stmts(s.Body)
				for _, h := range s.Handlers {
					stmts(h.Body)
				}
			}
		}
	}
	stmts(m.Body)
	return out
}
