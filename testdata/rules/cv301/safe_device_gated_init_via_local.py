# The device-count test is kept in a local that gates both the group's
# creation and its collectives (itwinai's scaling tests): every member
# of the group passed it.
import torch
import torch.distributed as dist
import torch.nn as nn


def main():
    is_distributed = torch.cuda.is_available() and torch.cuda.device_count() > 0
    if is_distributed:
        dist.init_process_group(backend="nccl")
        local_rank = dist.get_rank() % torch.cuda.device_count()
    else:
        local_rank = 0
    device = torch.device(f"cuda:{local_rank}" if is_distributed else "cpu")
    model = nn.Linear(4, 4).to(device)
    if is_distributed:
        model = nn.parallel.DistributedDataParallel(model, device_ids=[device])
    model(torch.ones(2, 4, device=device)).sum().backward()
    if is_distributed:
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
