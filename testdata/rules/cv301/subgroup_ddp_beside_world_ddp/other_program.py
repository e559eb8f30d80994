# Another program of the same run: a plain DDP model on the default group.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    model = DDP(torch.nn.Linear(8, 8).cuda(), device_ids=[rank])
    for _ in range(10):
        model(torch.randn(4, 8, device="cuda")).sum().backward()


if __name__ == "__main__":
    main()
