# Under ZeRO-3 getting the full state dict gathers the partitioned
# parameters: the main process alone waits for the others.
from accelerate import Accelerator


def save(model, accelerator, out_dir):
    if accelerator.is_main_process:
        if accelerator.state.deepspeed_plugin.zero_stage == 3:
            model.save_pretrained(out_dir, state_dict=accelerator.get_state_dict(model))  # want CV301 "get_state_dict on .* only when `accelerator.is_main_process` holds"


def main(model, optimizer):
    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    save(model, accelerator, "out")
