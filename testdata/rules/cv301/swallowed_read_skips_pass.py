# A per-sample read in a try whose handler swallows the error and goes on
# to the next batch (LatentSync's audio features): the rank whose file is
# missing or corrupt skips the rest of the pass, its forward, backward
# and all-reduce, and meets the others' with its next pass's.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main(loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.BatchNorm1d(16)).cuda(), device_ids=[local_rank])
    for batch in loader:
        if batch["audio"]:
            try:
                feat = torch.load(batch["feat_path"][0])
            except Exception as e:
                print(f"skip: {e}")
                continue
        loss = model(feat.cuda()).sum()  # want CV301 "skipped on a rank whose work before it raises"
        loss.backward()
        logged = loss.detach().clone()
        dist.all_reduce(logged)
