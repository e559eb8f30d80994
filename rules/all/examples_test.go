package all_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
)

// TestExamples checks that `collvet examples/` shows each example's
// finding (examples/README.md lists them) and nothing else.
func TestExamples(t *testing.T) {
	prog, err := load([]string{filepath.Join("..", "..", "examples")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, d := range rules.Run(prog, rules.All()) {
		f := filepath.Base(d.Pos.Path)
		got[f] = append(got[f], d.Rule)
	}
	want := map[string][]string{
		"autograd_hook_reproducer.py": {"CV102"},
		"hybrid_shard_train.py":       {"CV103"},
		"background_barrier.py":       {"CV101", "CV301"},
		"async_checkpoint.py":         {"CV101"},
		"rank_guarded_save.py":        {"CV301"},
		"fsdp_checkpoint.py":          {"CV301"},
		"nan_loss_skip.py":            {"CV301"},
		"pair_exchange.py":            {"CV302"},
		"graph_teardown.py":           {"CV402"},
		"adapter_head_finetune.py":    {"CV304"},
		"xpu_setup.py":                {"CV403"},
	}
	for f, codes := range want {
		g := append([]string(nil), got[f]...)
		sort.Strings(g)
		if strings.Join(g, ",") != strings.Join(codes, ",") {
			t.Errorf("%s: findings %v, want %v", f, g, codes)
		}
	}
	for f, codes := range got {
		if _, ok := want[f]; !ok {
			t.Errorf("%s: unexpected findings %v", f, codes)
		}
	}
}
