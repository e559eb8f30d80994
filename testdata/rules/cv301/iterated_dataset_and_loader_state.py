# Two collectives a for loop hides: a stream dataset whose __iter__
# all-reduces its shard length, iterated on rank 0 only; and a stateful
# loader resumed from its rank's file where that file exists, whose
# epoch then yields fewer batches on the ranks that found one.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import IterableDataset
from torchdata.stateful_dataloader import StatefulDataLoader


class ShardedStream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        count = torch.tensor([self.n], device="cuda")
        dist.all_reduce(count, op=dist.ReduceOp.MIN)
        for i in range(int(count.item())):
            yield torch.randn(8)


def preview(rank):
    ds = ShardedStream(100 + rank)
    if rank == 0:
        for batch in ds:  # want CV301 "all_reduce .* runs only when `rank == 0` holds"
            print(batch.mean())


def train(rank, ds):
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8)).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = StatefulDataLoader(ds, batch_size=4)
    dl_path = f"ckpt/dataloader_rank{rank}.pt"
    if os.path.exists(dl_path):
        loader.load_state_dict(torch.load(dl_path))
    for batch in loader:
        loss = model(batch.cuda()).sum()  # want CV301 "is issued once per element of `loader`, whose bounds depend on a file system check"
        loss.backward()
        opt.step()
    torch.save(loader.state_dict(), dl_path)


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    preview(rank)
    train(rank, torch.randn(1000, 8))
