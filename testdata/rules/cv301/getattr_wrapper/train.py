# instructlab's training loop drives accelerate through a wrapper whose
# __getattr__ forwards: load_state is accelerate's, collective, and a
# host that finds no checkpoint directory returns before it. A save after
# the wrapper's get_state_dict is replaced by a local copy gathers
# nothing.
from pathlib import Path

import torch.distributed as dist

from accel import Accelerator


def load_latest(output_dir, accelerator):
    out = Path(output_dir) / "full_state"
    if not out.is_dir():
        return
    ckpts = sorted(out.iterdir(), reverse=True)
    accelerator.load_state(ckpts[0])  # want CV301 "Accelerator.load_state"


def copy_state(model, unwrap=False):
    return dict(model)


def save_copy(accelerator, state, path):
    accelerator.get_state_dict = copy_state
    accelerator.save_model(state, save_directory=path)


def main():
    accelerator = Accelerator()
    load_latest("/ckpt", accelerator)
    if accelerator.is_main_process:
        save_copy(accelerator, {}, "/out")
    dist.barrier()


main()
