# DDP's answer to uneven inputs: each rank runs its own number of
# iterations inside the model's join(), which shadows the model's
# forward broadcasts and gradient all-reduces for the ranks that
# finished (torch's own uneven-inputs tests), also over a dataset split
# unevenly between the ranks.
import torch
import torch.distributed as dist
import torch.nn as nn
from datasets.distributed import split_dataset_by_node
from torch.utils.data import DataLoader


def run(ds):
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = nn.Linear(4, 4).cuda(rank)
    num_iters = {r: 2 * (r + 1) for r in range(dist.get_world_size())}[rank]
    net = torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    inp = torch.rand(8, 4, device=rank)
    with net.join():
        for i in range(num_iters):
            opt.zero_grad()
            out = net(inp)
            loss = out.sum()
            loss.backward()
            opt.step()
    loader = DataLoader(split_dataset_by_node(ds, rank=rank, world_size=dist.get_world_size()), batch_size=8)
    with net.join():
        for batch in loader:
            net(batch["x"].cuda(rank)).sum().backward()
