# The same uneven loop inside join(), with a collective join() does not
# shadow: a metric all-reduce each iteration, which the ranks still in
# the loop issue alone.
import torch
import torch.distributed as dist
import torch.nn as nn


def run():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = nn.Linear(4, 4).cuda(rank)
    num_iters = {r: 2 * (r + 1) for r in range(dist.get_world_size())}[rank]
    net = torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    inp = torch.rand(8, 4, device=rank)
    with net.join():
        for i in range(num_iters):
            loss = net(inp).sum()
            loss.backward()
            dist.all_reduce(loss)  # want CV301 "all_reduce"
