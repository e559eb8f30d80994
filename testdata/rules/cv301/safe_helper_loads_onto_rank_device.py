# The helper is handed the local rank only to place what it loads: the
# step it reads from the one shared checkpoint is the same on every rank.
import os

import torch
import torch.distributed as dist


def load_step(path, local_rank):
    meta = torch.load(path, map_location=f"cuda:{local_rank}")
    return meta["global_step"]


def train(cfg, model, loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = torch.nn.parallel.DistributedDataParallel(model.cuda())
    global_step = load_step(cfg.ckpt, local_rank)
    while global_step < cfg.num_train_steps:
        for batch in loader:
            if global_step >= cfg.num_train_steps:
                break
            loss = model(batch)
            loss.backward()
            global_step += 1


def maybe_resume(model, path, device, rank):
    # Handed the device as a keyword (which names no placement of the
    # helper's own result) and the rank only to decide who prints.
    if not path:
        return 0
    ckpt = torch.load(path, map_location=device)
    model.module.load_state_dict(ckpt["model"])
    start_step = int(ckpt.get("step", 0)) + 1
    if rank == 0:
        print(f"Resumed at step {start_step}")
    return start_step


def train_resumed(resume, steps):
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    device = torch.device("cuda", rank % torch.cuda.device_count())
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
    start_step = maybe_resume(model=model, path=resume, device=device, rank=rank)
    for _ in range(start_step, steps):
        model(torch.ones(2, 4, device="cuda")).sum().backward()
