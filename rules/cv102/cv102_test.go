package cv102_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv102"
	"github.com/collvet/collvet/rules/ruletest"
)

const src = `import torch
import torch.distributed as dist
dist.init_process_group("nccl")

def hook(grad):
    dist.all_reduce(grad)
    return grad

p.register_hook(hook)
loss.backward()
`

func build() (*ruletest.Builder, *rules.Context) {
	b := ruletest.NewBuilder("t.py", src)
	mod := b.Func("t", 1)
	h := b.Func("t.hook", 5)
	ag := b.Context(rules.Autograd, h, 9, "torch.Tensor.register_hook", nil)
	b.Site(h, 6, "torch.distributed.all_reduce", rules.OpCollective, nil, ag)
	b.Site(mod, 3, "torch.distributed.init_process_group", rules.OpInit, nil, b.Main())
	b.Prog.Facts.Inits = []*rules.InitSite{{Pos: b.At(3), Backend: "nccl", AfterLine: 3}}
	return b, ag
}

func TestHookFiresWithFix(t *testing.T) {
	b, _ := build()
	ds := b.Run(cv102.Rule)
	if len(ds) != 1 {
		t.Fatalf("want 1 finding:\n%s", ruletest.Lines(ds))
	}
	d := ds[0]
	if d.Pos.Line != 6 || !strings.Contains(d.Message, "register_hook") || !strings.Contains(d.Message, "torch >= 2.1") {
		t.Errorf("finding:\n%s", ruletest.Lines(ds))
	}
	if len(d.Related) == 0 || d.Related[0].Pos.Line != 9 {
		t.Errorf("related should name the registration at line 9:\n%s", ruletest.Lines(ds))
	}
	if len(d.Fixes) != 1 {
		t.Fatalf("want a fix")
	}
	out, err := ruletest.Apply([]byte(src), d.Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "dist.init_process_group(\"nccl\")\ntorch.autograd.set_multithreading_enabled(False)"
	if !strings.Contains(string(out), want) {
		t.Errorf("fixed text:\n%s", out)
	}
	if strings.Contains(string(out), "import torch.autograd") {
		t.Errorf("torch already imported, no import expected:\n%s", out)
	}
}

func TestSingleThreadedIsSilent(t *testing.T) {
	b, ag := build()
	ag.SingleThreadedAutograd = true
	if ds := b.Run(cv102.Rule); len(ds) != 0 {
		t.Fatalf("context manager around backward: want silence:\n%s", ruletest.Lines(ds))
	}
	b, _ = build()
	b.Prog.Facts.AutogradSingleThreaded = []rules.Pos{b.At(4)}
	if ds := b.Run(cv102.Rule); len(ds) != 0 {
		t.Fatalf("global set_multithreading_enabled(False): want silence:\n%s", ruletest.Lines(ds))
	}
}

func TestDDPOwnHooksAreSilent(t *testing.T) {
	b, ag := build()
	ag.Framework = "ddp"
	if ds := b.Run(cv102.Rule); len(ds) != 0 {
		t.Fatalf("DDP hook on one group: want silence:\n%s", ruletest.Lines(ds))
	}
	// A framework hook that drives two groups is reported.
	g := b.Group(2, "nccl")
	b.Site(ag.Entry, 7, "torch.distributed.all_reduce", rules.OpCollective, g, ag)
	ds := b.Run(cv102.Rule)
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "2 groups") {
		t.Fatalf("framework hook on two groups: want findings:\n%s", ruletest.Lines(ds))
	}
}

func TestOldTorchPinWarns(t *testing.T) {
	b, _ := build()
	b.Prog.Facts.TorchRequirement = "torch==1.13.1"
	b.Prog.Facts.TorchRequirementPos = rules.Pos{Path: "requirements.txt", Line: 1, Col: 1}
	ds := b.Run(cv102.Rule)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "warning") || !strings.Contains(ds[0].Message, "torch==1.13.1") {
		t.Fatalf("want a warning about the pin:\n%s", ruletest.Lines(ds))
	}
	b, _ = build()
	b.Prog.Facts.TorchRequirement = "torch>=2.4"
	if ds := b.Run(cv102.Rule); len(ds) != 1 || strings.Contains(ds[0].Message, "warning") {
		t.Fatalf("torch>=2.4: no warning expected:\n%s", ruletest.Lines(ds))
	}
}

func TestImportAddedWhenTorchNotImported(t *testing.T) {
	s := "import torch.distributed as dist\ndist.init_process_group('nccl')"
	prog := &rules.Program{Files: []*rules.File{{Path: "a.py", Src: []byte(s)}}}
	prog.Facts.Inits = []*rules.InitSite{{Pos: rules.Pos{Path: "a.py", Line: 2, Col: 1}, AfterLine: 2}}
	fix, _ := cv102.Fix(prog, "a.py")
	if fix == nil {
		t.Fatal("no fix")
	}
	out, err := ruletest.Apply([]byte(s), fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "dist.init_process_group('nccl')\nimport torch.autograd\ntorch.autograd.set_multithreading_enabled(False)"
	if !strings.HasPrefix(string(out)[len("import torch.distributed as dist\n"):], want) {
		t.Errorf("fixed text:\n%s", out)
	}
}

// A hook on the one communicator the main thread uses is a warning; on a
// group of its own (a second communicator driven from a second thread)
// it is an error.
func TestOneCommunicatorIsWarning(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ownGroup  bool
		severity  rules.Severity
		mentioned string
	}{
		{"same group", false, rules.Warning, "one communicator"},
		{"own group", true, rules.Error, "two communicators are driven from two threads"},
	} {
		b := ruletest.NewBuilder("t.py", src)
		mod := b.Func("t", 1)
		h := b.Func("t.hook", 5)
		ag := b.Context(rules.Autograd, h, 9, "torch.Tensor.register_hook", nil)
		g := b.World()
		if tc.ownGroup {
			g = b.Group(4, "nccl")
		}
		b.Site(h, 6, "torch.distributed.all_reduce", rules.OpCollective, g, ag)
		b.Site(mod, 10, "torch.distributed.barrier", rules.OpBarrier, b.World(), b.Main())
		ds := b.Run(cv102.Rule)
		if len(ds) != 1 {
			t.Fatalf("%s: want 1 finding:\n%s", tc.name, ruletest.Lines(ds))
		}
		if ds[0].Severity != tc.severity || !strings.Contains(ds[0].Message, tc.mentioned) {
			t.Errorf("%s: severity %v, want %v, message mentioning %q:\n%s", tc.name, ds[0].Severity, tc.severity, tc.mentioned, ruletest.Lines(ds))
		}
	}
}
