package callgraph_test

import (
	"slices"
	"testing"
)

// Calls after a return, raise, break, continue or `assert False` in the
// same block never run: they are no edges. A condition that may hold
// (assert x) leaves the rest live, as does a terminator in a nested block.
func TestDeadAfterTerminator(t *testing.T) {
	src := `def dead_return(): pass
def dead_raise(): pass
def dead_assert(): pass
def dead_loop(): pass
def live_assert(): pass
def live_nested(): pass
def live_after_loop(): pass


def f(x):
    if x:
        return 1
        dead_return()
    if x > 1:
        raise ValueError(x)
        dead_raise()
    if x > 2:
        assert False, "unsupported"
        dead_assert()
    for i in range(x):
        continue
        dead_loop()
    assert x
    live_assert()
    if x > 3:
        return 2
    live_nested()
    while x:
        break
    live_after_loop()
`
	g := streamed(t, map[string]string{"m": src}, []string{"m"}, nil)
	got := g["m.f"]
	for _, want := range []string{"m.live_assert", "m.live_nested", "m.live_after_loop"} {
		if !slices.Contains(got, want) {
			t.Errorf("m.f does not call %s: %v", want, got)
		}
	}
	for _, dead := range []string{"m.dead_return", "m.dead_raise", "m.dead_assert", "m.dead_loop"} {
		if slices.Contains(got, dead) {
			t.Errorf("m.f calls %s, which follows a terminator: %v", dead, got)
		}
	}
}

// A framework calls the hooks of the module the program builds: they get
// its instance as receiver, so self.<method> in them resolves, while a
// method of a plain class that nothing calls gets none.
func TestFrameworkHookReceivers(t *testing.T) {
	src := `import lightning.pytorch as pl


class Model(pl.LightningModule):
    def helper(self):
        pass

    def training_step(self, batch, batch_idx):
        self.helper()


class Plain:
    def helper(self):
        pass

    def unused(self):
        self.helper()


def main():
    model = Model()
    pl.Trainer().fit(model)
    Plain()
`
	g := streamed(t, map[string]string{"m": src}, []string{"m"}, nil)
	if !slices.Contains(g["m.Model.training_step"], "m.Model.helper") {
		t.Errorf("training_step calls %v, want m.Model.helper", g["m.Model.training_step"])
	}
	if slices.Contains(g["m.Plain.unused"], "m.Plain.helper") {
		t.Errorf("an uncalled method of a plain instantiated class resolves self: %v", g["m.Plain.unused"])
	}
}
