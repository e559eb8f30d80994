package rulekit

import (
	"testing"

	"github.com/collvet/collvet/rules"
)

// TestMayShareProcess builds a program of two scripts, a library module
// both import, a thread one of them starts, and an API function nothing
// calls, and checks which pairs may share a process.
func TestMayShareProcess(t *testing.T) {
	prog := &rules.Program{}
	fn := func(name string, body, script bool) *rules.Function {
		f := &rules.Function{ID: len(prog.Funcs), Name: name, Lang: rules.Python, ModuleBody: body, Script: script}
		prog.Funcs = append(prog.Funcs, f)
		return f
	}
	call := func(from, to *rules.Function) {
		from.Calls = append(from.Calls, &rules.Call{Caller: from, Callee: to})
	}
	train := fn("train", true, true)
	trainMain := fn("train.main", false, false)
	eval := fn("eval", true, true)
	evalMain := fn("eval.main", false, false)
	lib := fn("lib", true, false)
	helper := fn("lib.helper", false, false)
	worker := fn("lib.worker", false, false)
	api := fn("lib.api", false, false)
	apiHelper := fn("lib.api_helper", false, false)
	call(train, trainMain)
	call(eval, evalMain)
	call(trainMain, helper)
	call(evalMain, helper)
	call(api, apiHelper)
	prog.Facts.Imports = []*rules.Import{{Importer: train, Module: lib}, {Importer: eval, Module: lib}}
	ctx := &rules.Context{Kind: rules.Thread, Entry: worker, SpawnIn: trainMain}
	prog.Contexts = []*rules.Context{{Kind: rules.Main}, ctx}

	for _, c := range []struct {
		a, b *rules.Function
		want bool
	}{
		{trainMain, evalMain, false}, // two scripts
		{worker, evalMain, false},    // the thread runs in train's process only
		{worker, trainMain, true},
		{helper, evalMain, true}, // both scripts call it
		{helper, trainMain, true},
		{lib, evalMain, true},       // imported by both
		{apiHelper, evalMain, true}, // reached from an API nothing calls: any process
		{nil, evalMain, true},
	} {
		if got := MayShareProcess(prog, c.a, c.b); got != c.want {
			t.Errorf("MayShareProcess(%v, %v) = %v, want %v", name(c.a), name(c.b), got, c.want)
		}
	}
	if got := RunsIn(&rules.Site{Func: worker}, ctx); got != trainMain {
		t.Errorf("RunsIn(thread site) = %v, want the spawning function", name(got))
	}
}

func name(f *rules.Function) string {
	if f == nil {
		return "<nil>"
	}
	return f.Name
}
