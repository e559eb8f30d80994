# The same dataset iterated by every rank, and the loader state restored
# from the checkpoint every rank was handed.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import IterableDataset
from torchdata.stateful_dataloader import StatefulDataLoader


class AgreedStream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        count = torch.tensor([self.n], device="cuda")
        dist.all_reduce(count, op=dist.ReduceOp.MIN)
        for i in range(int(count.item())):
            yield torch.randn(8)


def preview_all(rank):
    for batch in AgreedStream(100 + rank):
        if rank == 0:
            print(batch.mean())


def train_restored(ds, state):
    model = DDP(torch.nn.Linear(8, 8).cuda())
    loader = StatefulDataLoader(ds, batch_size=4)
    loader.load_state_dict(state["loader"])
    for batch in loader:
        model(batch.cuda()).sum().backward()


def main(state):
    dist.init_process_group("nccl")
    preview_all(dist.get_rank())
    train_restored(torch.randn(1000, 8), state)
