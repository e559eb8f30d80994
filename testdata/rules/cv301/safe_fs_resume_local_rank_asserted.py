# The program asserts that its local rank is its global rank (PoinTr's
# main): on a second host the local ranks restart at 0, so a job that
# gets past the assertion runs on one host, and the resume's file check
# is answered alike on every rank.
import os

import torch
import torch.distributed as dist


def resume(path):
    if not os.path.exists(path):
        return 0
    return torch.load(path, map_location="cpu")["epoch"] + 1


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    assert local_rank == dist.get_rank()
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), device_ids=[local_rank])
    start_epoch = resume("exp/ckpt-last.pth")
    for epoch in range(start_epoch, 10):
        model(torch.randn(2, 4, device="cuda")).sum().backward()
        if local_rank == 0:
            torch.save({"epoch": epoch}, "exp/ckpt-last.pth")


if __name__ == "__main__":
    main()
