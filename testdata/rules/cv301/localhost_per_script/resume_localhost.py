# This script's job meets on localhost: every rank asks one file system,
# so its file check is answered alike everywhere. The other script in the
# tree starts a multi-host job of its own, which says nothing of this one.
import os

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def main():
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    dist.init_process_group("nccl", rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]))
    state = {"step": 0}
    if os.path.isdir("ckpt/step=100"):
        dcp.load(state_dict=state, checkpoint_id="ckpt/step=100")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
