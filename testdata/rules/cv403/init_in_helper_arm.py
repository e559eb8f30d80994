# The helper creates the group only in a multi-process job (an arm of its
# if), and the device is bound by another helper after an object
# collective (Grendel-GS's init_distributed() as it is in the project,
# with a broadcast where it has a barrier).
import os

import torch
import torch.distributed as dist

LOCAL_RANK = 0
WORLD_SIZE = 1


def init_distributed():
    global LOCAL_RANK, WORLD_SIZE
    LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))
    WORLD_SIZE = int(os.environ.get("WORLD_SIZE", 1))
    if WORLD_SIZE > 1:
        dist.init_process_group("nccl", rank=int(os.environ["RANK"]), world_size=WORLD_SIZE)  # want CV403 "broadcast_object_list at .* runs before it"


def safe_state():
    torch.cuda.set_device(torch.device("cuda", LOCAL_RANK))


if __name__ == "__main__":
    init_distributed()
    if WORLD_SIZE > 1:
        dist.broadcast_object_list([None], src=0)
    safe_state()
