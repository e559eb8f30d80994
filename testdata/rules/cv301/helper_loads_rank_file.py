# Each rank loads its own file (the path names the rank): the resumed step
# can differ, and a rank that stops early strands the others in the next
# backward's all-reduce.
import os

import torch
import torch.distributed as dist


def load_step(path, device):
    meta = torch.load(path, map_location=device)
    return meta["global_step"]


def train(cfg, model, loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = torch.nn.parallel.DistributedDataParallel(model.cuda())
    global_step = load_step(f"{cfg.ckpt}/rank{dist.get_rank()}.pt", f"cuda:{local_rank}")
    while global_step < cfg.num_train_steps:
        for batch in loader:
            if global_step >= cfg.num_train_steps:
                break
            loss = model(batch)  # want CV301 "the model's forward"
            loss.backward()
            global_step += 1
