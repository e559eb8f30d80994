// Package cv403 implements CV403 device-bound-after-group: a process
// group created on a device backend before the rank's device is bound,
// with device work in between or on a backend that binds at creation.
package cv403

import (
	"fmt"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV403.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV403",
	Name:     "device-bound-after-group",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "the process group is created before the rank's device is bound",
		What: "Reports init_process_group on a device backend (\"nccl\", \"xccl\", \"hccl\", or none named: PyTorch then makes " +
			"NCCL the CUDA backend) without device_id, followed in the same function (also inside one try body, and either of the two directly in an arm of an if: `if args.device == \"cuda\": init_process_group(\"nccl\")`) by set_device (torch.cuda/xpu/npu.set_device, torch.accelerator.set_device_index, " +
			"get_accelerator().set_device), when a collective, barrier or DDP construction (not one given device_ids naming a device other than 0, `DDP(model, device_ids=[device])`, whose collectives run on the parameters' device) runs between the two, or the " +
			"backend is oneCCL's \"xccl\". The init and the set_device may also each sit in a helper the function calls, " +
			"in this module or another (`init_distributed()`, a barrier, then `safe_state()` binding the device), the init " +
			"also in an arm of an if there (`if world_size > 1:`). A set_device before the init, or device_id=, binds the device in time.",
		Why: "Without device_id the group does not know the rank's device: the current device decides, and until set_device " +
			"runs it is device 0 on every rank. A collective issued in between (an object collective, DDP's construction, " +
			"a tensor made on \"cuda\") runs every rank's NCCL work on GPU 0 (a duplicate-GPU error or a hang), and oneCCL " +
			"binds the group's device when it is created, so later collectives on some ranks go to device 0 and FSDP2's " +
			"first all-gather hangs (saforem2/ezpz PR #149). A barrier is different: not knowing the device, ProcessGroupNCCL " +
			"runs it on GPU `global rank % GPUs per node` (with a warning), which is the rank's own GPU wherever ranks fill " +
			"the nodes in order, as torchrun numbers them; so a barrier before a set_device of the local rank (or of the " +
			"rank) is not reported, and one before another binding is (the two devices need not agree).",
		Example: `dist.init_process_group(backend="xccl")
torch.xpu.set_device(local_rank)`,
		UseInstead: `torch.xpu.set_device(local_rank)
dist.init_process_group(backend="xccl", device_id=torch.device("xpu", local_rank))`,
		FixSafety: "The fix moves the set_device call to just before init_process_group (offered when its argument is " +
			"computed before the init). Binding the device earlier changes nothing else the process does. " +
			"`collvet guard` does not check this one; at run time, PyTorch's warning that it is \"using GPU 0 to perform " +
			"barrier as devices used by this process are currently unknown\" is the symptom.",
		References: []string{
			"https://github.com/saforem2/ezpz/pull/149 — init_process_group before torch.xpu.set_device, no device_id: FSDP2 hangs (O6)",
			"https://pytorch.org/docs/stable/distributed.html#torch.distributed.init_process_group — device_id binds the process group to a device",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	for _, x := range p.Prog.DeviceBindings {
		if x == nil || x.Init == nil {
			continue
		}
		why := fmt.Sprintf("oneCCL (%q) binds the group's device when it is created, so some ranks' collectives go to device 0 (a hang)", x.Backend)
		switch {
		case x.Between != nil && x.Between.Op == "barrier":
			why = fmt.Sprintf("%s at %s runs before it, on the GPU PyTorch guesses (global rank modulo the GPUs per node), "+
				"which need not be the device bound later (a duplicate-GPU error or a hang where the two differ)",
				rulekit.OpName(x.Between), x.Between.Pos.Short())
		case x.Between != nil:
			why = fmt.Sprintf("%s at %s runs before it, on device 0 on every rank (a duplicate-GPU error or a hang)",
				rulekit.OpName(x.Between), x.Between.Pos.Short())
		}
		d := rules.Diagnostic{Pos: x.Init.Pos, Message: fmt.Sprintf(
			"the process group is created on %q without device_id, and the device is bound only at %s (%s): %s; "+
				"call set_device before init_process_group, or pass device_id",
			x.Backend, x.Bind.Short(), x.BindText, why)}
		d.Related = append(d.Related, rulekit.Related(x.Bind, "the device is bound here, after the group exists"))
		if x.Between != nil {
			d.Related = append(d.Related, rulekit.Related(x.Between.Pos, "device work before the device is bound"))
		}
		if x.Movable && x.StmtLine > 0 {
			d.Fixes = append(d.Fixes, rules.Fix{Title: "Bind the device before creating the process group",
				Edits: []rules.Edit{
					rulekit.InsertBefore(x.Init.Pos.Path, x.StmtLine, x.Indent+x.BindText+"\n"),
					rulekit.DeleteLine(x.Bind.Path, x.Bind.Line),
				}})
		}
		p.Report(d)
	}
}
