# CodeBERT's rank-0 evaluation unwraps the DDP model first (`if
# hasattr(model, "module"): model = model.module`) and runs only the
# inner module: DDP's forward, and its buffer broadcast, never run there.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def eval_epoch(model, batches):
    model.eval()
    if hasattr(model, "module"):
        model = model.module
    return [model(x) for x in batches]


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda()
    model = DDP(net, device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 100):
        model(torch.randn(2, 4, device="cuda")).sum().backward()
        opt.step()
        if rank == 0 and step % 10 == 0:
            eval_epoch(model, [torch.randn(2, 4, device="cuda")])
