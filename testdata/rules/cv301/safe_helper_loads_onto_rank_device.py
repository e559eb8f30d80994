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
