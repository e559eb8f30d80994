# Every rank saves; only the file-system housekeeping is the main
# process's (diffusers' scripts after huggingface/diffusers#9891, with
# FSDP in the condition as well).
import os
import shutil

from accelerate import Accelerator
from accelerate.utils import DistributedType


def train(args, model, loader):
    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    global_step = 0
    for batch in loader:
        accelerator.backward(model(batch).sum())
        global_step += 1
        if global_step % args.checkpointing_steps == 0:
            if accelerator.is_main_process and args.checkpoints_total_limit is not None:
                for old in sorted(os.listdir(args.output_dir))[: -args.checkpoints_total_limit]:
                    shutil.rmtree(os.path.join(args.output_dir, old))
            accelerator.save_state(os.path.join(args.output_dir, f"checkpoint-{global_step}"))
        if accelerator.is_main_process and global_step % 100 == 0:
            print("step", global_step)
    accelerator.wait_for_everyone()
