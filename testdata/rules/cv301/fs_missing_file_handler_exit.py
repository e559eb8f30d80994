# A handler for a missing checkpoint that leaves the function is a file
# check each host answers for itself: the rank whose host lacks the file
# returns, and the others wait for it in DDP's construction (mlcommons'
# R-GAT trainer). A handler that raises ends the job through the launcher
# instead, and one that carries on with a fresh model skips nothing.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def run(local_rank, rank, world, master_addr, ckpt_path):
    dist.init_process_group("nccl", init_method=f"tcp://{master_addr}:29500", rank=rank, world_size=world)
    try:
        ckpt = torch.load(ckpt_path)
    except FileNotFoundError:
        print("checkpoint not found")
        return -1
    model = torch.nn.Linear(8, 8).cuda()
    model.load_state_dict(ckpt["model"])
    model = DistributedDataParallel(model, device_ids=[local_rank])  # want CV301 "except FileNotFoundError"
    model(torch.randn(4, 8, device="cuda")).sum().backward()


def run_or_fail(local_rank, rank, world, master_addr, ckpt_path):
    dist.init_process_group("nccl", init_method=f"tcp://{master_addr}:29500", rank=rank, world_size=world)
    try:
        ckpt = torch.load(ckpt_path)
    except FileNotFoundError:
        raise SystemExit(f"missing {ckpt_path}")
    model = torch.nn.Linear(8, 8).cuda()
    model.load_state_dict(ckpt["model"])
    model = DistributedDataParallel(model, device_ids=[local_rank])
    model(torch.randn(4, 8, device="cuda")).sum().backward()
