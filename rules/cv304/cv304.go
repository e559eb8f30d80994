// Package cv304 implements CV304 ddp-forward-bypassed: a backward on a
// loss that the module inside a DistributedDataParallel computed without
// the wrapper's forward, so the gradients are never all-reduced.
package cv304

import (
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Rule is CV304.
var Rule = rules.Register(&rules.Rule{
	Code:     "CV304",
	Name:     "ddp-forward-bypassed",
	Severity: rules.Warning,
	HasFix:   true,
	Run:      run,
	Doc: rules.Doc{
		Title: "a backward runs on a loss the wrapped module computed without DistributedDataParallel's forward",
		What: "Reports loss.backward() (also scaler.scale(loss).backward(), accelerator.backward(loss)) on a loss computed " +
			"by the module a torch DistributedDataParallel wraps, called past the wrapper: `ddp.module(x)`, a method of it " +
			"(`action_head.module.predict_action(…)`) or a submodule (`model.module.encoder(x)`), the module unwrapped into a " +
			"local first (`raw = unwrap(ddp)`), handed to a helper that runs its forward (`loss_fn(ddp.module, z)`), or a helper " +
			"that bypasses a wrapper passed to it (`run_forward_pass(vla, action_head, batch)`), or a name or attribute rebound to " +
			"the module right after the wrapper was made (`model = DDP(model)` then `model = model.module`, which throws the " +
			"wrapper away), or the module called by its own name after the function wrapped it under another (`ddp_model = DDP(model)` " +
			"then `model(x)`; `model = accelerator.prepare(net)` then `net(x)`; `trainable = pipeline.unet` wrapped in place, then " +
			"`pipeline.unet(x)`), or an attribute another method of the class " +
			"rebinds to its module between two calls of the training method (`self.model = accelerator.unwrap_model(self.model)` " +
			"in the epoch loop), in a function where no forward " +
			"of the wrapper itself feeds a backward (gradient accumulation that bypasses DDP on the steps between two synchronised " +
			"ones is fine, like no_sync()) and that all-reduces nothing by hand. Also a plain `loss.backward()` on a loss from a DeepSpeed " +
			"engine's forward (`engine, *_ = deepspeed.initialize(…)`, `loss = f(engine(x))`) where `engine.backward(loss)` belongs: " +
			"the engine reduces the gradients in its own backward only. And an override of a transformers (or TRL) Trainer's " +
			"compute_loss(self, model, inputs, …) that runs the forward on `self.model` (or `model.module`) and never calls the `model` it " +
			"is handed: under torchrun, without DeepSpeed or FSDP, that `model` is the Trainer's DistributedDataParallel wrapper and " +
			"`self.model` the module inside it, and the Trainer's own training_step runs the backward.",
		Why: "DDP arms its gradient all-reduce in its own forward: the reducer's hooks on the parameters do nothing in a backward " +
			"that no wrapper forward prepared. A loss computed past the wrapper therefore trains each rank on its own gradients; " +
			"the replicas drift apart step after step with no error, and the checkpoint rank 0 saves is one rank's model " +
			"(openvla-oft's action head). The forward also skips DDP's buffer broadcast.",
		Example: `model = DDP(net, device_ids=[local_rank])
loss = model.module(batch).loss        # past the wrapper
loss.backward()                        # gradients stay this rank's own`,
		UseInstead: `model = DDP(net, device_ids=[local_rank])
loss = model(batch).loss               # DDP's forward arms the all-reduce
loss.backward()`,
		FixSafety: "The fix calls the wrapper instead of the module it wraps (`model(batch)` for `model.module(batch)`, " +
			"`ddp_model(x)` for `model(x)`); " +
			"DDP's forward hands the arguments to the module unchanged. It is offered only when the module itself is called; " +
			"a method or submodule of it has to be reached through the wrapper's forward by hand (make it part of forward(), " +
			"or all-reduce the gradients before the optimizer step). `collvet guard` does not check this one; at run time, " +
			"comparing a parameter's checksum across ranks after a few steps (all_gather of p.sum()) shows the drift.",
		References: []string{
			"https://github.com/moojink/openvla-oft/issues/160 — the action head is called through .module, so its gradients are never all-reduced",
			"https://pytorch.org/docs/stable/notes/ddp.html — the reducer is prepared for backward in DDP's forward",
		},
		Since: "0.1.0",
	},
})

func run(p *rules.Pass) {
	for _, x := range p.Prog.Bypasses {
		if x == nil {
			continue
		}
		if x.Engine {
			engineBypass(p, x)
			continue
		}
		if x.TrainerHook != "" {
			trainerBypass(p, x)
			continue
		}
		past, call := "past its DistributedDataParallel wrapper", "the wrapper"
		if x.Wrapper != "" {
			past, call = fmt.Sprintf("past the DistributedDataParallel wrapper `%s`", x.Wrapper), fmt.Sprintf("the wrapper (`%s(…)`)", x.Wrapper)
		}
		if x.WrappedAt != nil {
			past = fmt.Sprintf("the module that line %d wraps as `%s`, called by its own name past that wrapper", x.WrappedAt.Line, x.Wrapper)
		}
		if x.Discarded != nil {
			past = fmt.Sprintf("past the DistributedDataParallel wrapper that line %d throws away by rebinding `%s` to its module", x.Discarded.Line, x.Callee)
			call = "the wrapper (keep `" + x.Callee + "` bound to it and reach the module as `" + x.Callee + ".module` only to save or inspect it)"
		}
		d := rules.Diagnostic{Pos: x.Backward, Message: fmt.Sprintf(
			"this backward runs on a loss computed by `%s` (%s), %s: DDP all-reduces gradients only in a backward its own "+
				"forward prepared, so these gradients stay this rank's own and the replicas drift apart silently; call %s, "+
				"or all-reduce the gradients before the optimizer step",
			x.Callee, x.Forward.Short(), past, call)}
		d.Related = append(d.Related, rulekit.Related(x.Forward, "the forward that bypasses the wrapper"))
		if x.Discarded != nil {
			d.Related = append(d.Related, rulekit.Related(*x.Discarded, "the wrapper is thrown away here"))
		}
		if x.WrappedAt != nil {
			d.Related = append(d.Related, rulekit.Related(*x.WrappedAt, "the module is wrapped here"))
		}
		if x.Direct {
			if e, ok := calleeEdit(p, x); ok {
				d.Fixes = append(d.Fixes, rules.Fix{Title: "Call the DistributedDataParallel wrapper", Edits: []rules.Edit{e}})
			}
		}
		p.Report(d)
	}
}

// trainerBypass reports a trainer hook's forward on the unwrapped module,
// with the fix that calls the model the hook is handed.
func trainerBypass(p *rules.Pass, x *rules.Bypass) {
	d := rules.Diagnostic{Pos: x.Forward, Message: fmt.Sprintf(
		"this compute_loss runs the forward on `%s` instead of the `%s` it is handed: under a multi-process launch "+
			"(torchrun, without DeepSpeed or FSDP) the Trainer passes its DistributedDataParallel wrapper as `%s` and keeps `self.model` "+
			"the module inside, and DDP all-reduces gradients only in a backward its own forward prepared, so the backward the "+
			"Trainer's training_step runs on this loss leaves each rank's gradients its own and the replicas drift apart silently; "+
			"call `%s(…)`", x.Callee, x.Wrapper, x.Wrapper, x.Wrapper)}
	if e, ok := calleeEdit(p, x); ok {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Call the model the Trainer hands compute_loss", Edits: []rules.Edit{e}})
	}
	p.Report(d)
}

// engineBypass reports a plain backward on a loss from a DeepSpeed
// engine's forward, with the fix that hands the loss to the engine.
func engineBypass(p *rules.Pass, x *rules.Bypass) {
	d := rules.Diagnostic{Pos: x.Backward, Message: fmt.Sprintf(
		"this backward runs on a loss from the DeepSpeed engine `%s`'s forward (%s) but not through the engine: "+
			"the engine reduces the gradients over the data-parallel group (and scales the loss, and partitions the gradients under ZeRO) "+
			"in its own backward, so `%s.backward()` leaves each rank's gradients its own and the replicas drift apart silently; "+
			"call `%s.backward(%s)` and `%s.step()`",
		x.Wrapper, x.Forward.Short(), x.Loss, x.Wrapper, x.Loss, x.Wrapper)}
	d.Related = append(d.Related, rulekit.Related(x.Forward, "the engine's forward"))
	if e, ok := engineEdit(p, x); ok {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Run the backward through the DeepSpeed engine", Edits: []rules.Edit{e}})
	}
	p.Report(d)
}

// engineEdit rewrites `loss.backward()` at the backward's position as
// `engine.backward(loss)`, when the source there reads so.
func engineEdit(p *rules.Pass, x *rules.Bypass) (rules.Edit, bool) {
	f := p.Prog.File(x.Backward.Path)
	if f == nil || x.Backward.EndLine != x.Backward.Line {
		return rules.Edit{}, false
	}
	line := rulekit.Line(f, x.Backward.Line)
	start, end := x.Backward.Col-1, x.Backward.EndCol-1
	if start < 0 || end > len(line) || end <= start || line[start:end] != x.Loss+".backward()" {
		return rules.Edit{}, false
	}
	return rules.Edit{Pos: x.Backward, NewText: x.Wrapper + ".backward(" + x.Loss + ")"}, true
}

// calleeEdit replaces `wrapper.module` at the start of the forward call
// with `wrapper`, when the source there reads so.
func calleeEdit(p *rules.Pass, x *rules.Bypass) (rules.Edit, bool) {
	f := p.Prog.File(x.Forward.Path)
	if f == nil {
		return rules.Edit{}, false
	}
	line := rulekit.Line(f, x.Forward.Line)
	start := x.Forward.Col - 1
	if start < 0 || start+len(x.Callee) > len(line) || !strings.HasPrefix(line[start:], x.Callee) {
		return rules.Edit{}, false
	}
	pos := rules.Pos{Path: x.Forward.Path, Line: x.Forward.Line, Col: x.Forward.Col, EndLine: x.Forward.Line, EndCol: x.Forward.Col + len(x.Callee)}
	return rules.Edit{Pos: pos, NewText: x.Wrapper}, true
}
