# A barrier before a set_device of the rank's own GPU is no hazard: not
# knowing the device, ProcessGroupNCCL runs the barrier on GPU `global
# rank % GPUs per node`, the rank's local GPU wherever ranks fill the
# nodes in order (torchrun's numbering). These are the projects' own
# shapes; the unsafe CV403 fixtures of the same names issue an object
# collective (device 0 on every rank) where these have the barrier.
# Grendel-GS's init_distributed(), barrier, safe_state().
import os

import torch
import torch.distributed as dist

LOCAL_RANK = 0


def init_distributed():
    global LOCAL_RANK
    LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))
    dist.init_process_group("nccl")


def safe_state():
    torch.manual_seed(0)
    torch.cuda.set_device(torch.device("cuda", LOCAL_RANK))


if __name__ == "__main__":
    init_distributed()
    if dist.get_world_size() > 1:
        dist.barrier()
    safe_state()
    dist.all_reduce(torch.ones(1, device="cuda"))
