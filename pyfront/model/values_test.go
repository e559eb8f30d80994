package model

import (
	"testing"

	"github.com/collvet/collvet/pyfront/callgraph"
	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/rules/api"
)

// TestPlumbing: torch's own calls of the ProcessGroupNCCL constructor
// (c10d builds every group with it) make no group when torch itself is
// analysed; a program's calls do.
func TestPlumbing(t *testing.T) {
	gc := &api.GroupCreator{Name: "torch.distributed.ProcessGroupNCCL", Plumbing: "torch"}
	call := func(mod string) *callgraph.CallSite {
		return &callgraph.CallSite{Caller: &callgraph.Func{Module: &resolve.Module{Name: mod}}}
	}
	for mod, want := range map[string]bool{
		"torch":                              true,
		"torch.distributed.distributed_c10d": true,
		"torchrl._comm.distributed":          false,
		"train":                              false,
	} {
		if got := plumbing(gc, call(mod)); got != want {
			t.Errorf("plumbing(%q) = %v, want %v", mod, got, want)
		}
	}
	if plumbing(&api.GroupCreator{Name: "torch.distributed.new_group"}, call("torch.distributed")) {
		t.Error("a creator without a plumbing package is never plumbing")
	}
}
