# diffusers' training scripts (huggingface/diffusers#2606): the checkpoint
# is saved by the main process only. Accelerator.save_state is a collective
# under DeepSpeed (save_checkpoint ends in a barrier) and under FSDP (the
# full state dict is all-gathered, huggingface/accelerate#2000), so the
# main process waits for ranks that never come.
#
# The fix upstream adopted, `is_main_process or distributed_type ==
# DEEPSPEED`, lets every rank in under DeepSpeed only: under FSDP the main
# process still saves alone, so it stays reported.
import os

from accelerate import Accelerator
from accelerate.utils import DistributedType


def train(args, model, loader):
    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    global_step = 0
    for batch in loader:
        accelerator.backward(model(batch).sum())
        global_step += 1
        if accelerator.is_main_process:
            if global_step % args.checkpointing_steps == 0:
                save_path = os.path.join(args.output_dir, f"checkpoint-{global_step}")
                accelerator.save_state(save_path)  # want CV301 "save_state .* only when `accelerator.is_main_process` holds"
        if accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED:
            if global_step % args.checkpointing_steps == 0:
                accelerator.save_state(args.output_dir)  # want CV301 "save_state .* only when `accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED` holds"
