# Below ZeRO-3 the full state dict is this rank's own copy: the main
# process may get it alone; under ZeRO-3 every rank takes part
# (HuatuoGPT-Vision's save).
from accelerate import Accelerator


def save(model, accelerator, out_dir):
    if accelerator.is_main_process:
        if accelerator.state.deepspeed_plugin.zero_stage != 3:
            model.save_pretrained(out_dir, state_dict=accelerator.get_state_dict(model))
    if accelerator.state.deepspeed_plugin.zero_stage == 3:
        accelerator.unwrap_model(model).save_pretrained(out_dir, state_dict=accelerator.get_state_dict(model))
    accelerator.wait_for_everyone()


def main(model, optimizer):
    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    save(model, accelerator, "out")
