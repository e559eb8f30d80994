package model_test

import (
	"path/filepath"
	"testing"

	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/model"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Input.Stop ends Build between phases with no Program; a Build that is
// never stopped finds the collective.
func TestBuildStop(t *testing.T) {
	src := []byte("import torch.distributed as dist\n\ndef f(t):\n    dist.all_reduce(t)\n")
	root := t.TempDir()
	m := resolve.NewNamer().Name(resolve.SourceFile{Path: filepath.Join(root, "m.py"), Root: root})
	tree, errs := parser.ParseFile(m.Path, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in := &callgraph.ModuleInput{Mod: m, AST: tree, Scopes: resolve.BuildScopes(m.Name, tree)}
	for _, stop := range []bool{false, true} {
		tables := api.Default()
		vals := model.NewValues(tables)
		g := callgraph.Build([]*callgraph.ModuleInput{in}, resolve.NewTable([]*resolve.Module{m}), callgraph.Options{Canonical: tables.Canonical, Hooks: vals})
		prog := model.Build(model.Input{
			Graph: g, Modules: []*callgraph.ModuleInput{in}, Values: vals, Tables: tables,
			Files: []*rules.File{{Path: m.Path, Lang: rules.Python, Src: src}},
			Stop:  func() bool { return stop },
		})
		if stop && prog != nil {
			t.Errorf("stopped: got a Program")
		}
		if !stop && (prog == nil || len(prog.Sites) != 1) {
			t.Errorf("not stopped: want a Program with the all_reduce site, got %v", prog)
		}
	}
}
