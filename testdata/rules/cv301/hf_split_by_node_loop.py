# A Hugging Face streaming dataset split between the ranks with
# split_dataset_by_node: each rank gets its shards (or every
# world_size-th example), none evened out, so a rank with one more batch
# waits in DDP's gradient all-reduce for ranks that have finished.
import os

import torch
import torch.distributed as dist
from datasets import load_dataset
from datasets.distributed import split_dataset_by_node
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader


def main():
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("nccl")
    ds = load_dataset("parquet", data_files="train_*.parquet", streaming=True)["train"]
    ds = split_dataset_by_node(ds, rank=rank, world_size=world_size)
    loader = DataLoader(ds, batch_size=64)
    model = DDP(torch.nn.Linear(16, 1).cuda())
    for batch in loader:
        model(batch["x"].cuda()).sum().backward()  # want CV301 "once per element of `loader`"
