# The same split with a fixed number of examples on every rank
# (.take(n) after the split), and a split loader looped over without
# collectives.
import os

import torch
import torch.distributed as dist
from datasets import load_dataset
from datasets.distributed import split_dataset_by_node
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader


def main(steps):
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("nccl")
    ds = load_dataset("parquet", data_files="train_*.parquet", streaming=True)["train"]
    ds = split_dataset_by_node(ds, rank=rank, world_size=world_size).take(steps * 64)
    loader = DataLoader(ds, batch_size=64, drop_last=True)
    model = DDP(torch.nn.Linear(16, 1).cuda())
    for batch in loader:
        model(batch["x"].cuda()).sum().backward()


def count(world_size, rank):
    ds = load_dataset("parquet", data_files="val_*.parquet", streaming=True)["train"]
    n = 0
    for batch in DataLoader(split_dataset_by_node(ds, rank=rank, world_size=world_size), batch_size=64):
        n += len(batch["x"])
    return n
