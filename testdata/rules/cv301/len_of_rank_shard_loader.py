# A shard cut by the rank can be one element longer on some ranks: the
# last-step test on its loader's length differs between ranks.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader


def main(ds, accum):
    rank, world = dist.get_rank(), dist.get_world_size()
    shard = ds.shard(num_shards=world, index=rank)
    loader = DataLoader(shard, batch_size=4, drop_last=True)
    for i, batch in enumerate(loader):
        is_update_step = (i + 1) % accum == 0 or i + 1 == len(loader)
        loss = torch.tensor(float(len(batch)), device="cuda")
        if is_update_step:
            dist.all_reduce(loss)  # want CV301 "is_update_step"
