# Whether the job was launched distributed at all is the same answer on
# every rank; a device named after the local rank says where tensors
# live, not what they hold.
import os

import torch
import torch.distributed as dist


def setup():
    local_rank = int(os.environ.get("LOCAL_RANK", "-1"))
    distributed = local_rank >= 0
    if distributed:
        torch.cuda.set_device(local_rank)
        dist.init_process_group("nccl")
    return distributed


def setup_env():
    local_rank_str = os.environ.get("LOCAL_RANK")
    if local_rank_str is None:
        return False
    dist.init_process_group("nccl")
    return True


def load_config(path, device):
    return torch.load(path, map_location=device)


def maybe_eval(path):
    local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{local_rank}"
    cfg = load_config(path, device)
    if cfg["eval"]:
        dist.barrier()
