# The group is made by one helper and the device bound by another, with a
# collective between the two calls (Grendel-GS's init_distributed() and
# safe_state(), with an object broadcast where it has a barrier).
import os

import torch
import torch.distributed as dist

LOCAL_RANK = 0


def init_distributed():
    global LOCAL_RANK
    LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))
    dist.init_process_group("nccl")  # want CV403 "broadcast_object_list at .* runs before it"


def safe_state():
    torch.manual_seed(0)
    torch.cuda.set_device(torch.device("cuda", LOCAL_RANK))


if __name__ == "__main__":
    init_distributed()
    if dist.get_world_size() > 1:
        dist.broadcast_object_list([None], src=0)
    safe_state()
    dist.all_reduce(torch.ones(1, device="cuda"))
