# An assertion that the local rank fits the host's devices says nothing
# of how many hosts run the job: a node-local checkpoint found on one
# host and not another gives the hosts different epoch counts.
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
    assert local_rank < torch.cuda.device_count()
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), device_ids=[local_rank])
    start_epoch = resume("exp/ckpt-last.pth")
    for epoch in range(start_epoch, 10):
        model(torch.randn(2, 4, device="cuda")).sum().backward()  # want CV301 "depend"
        if local_rank == 0:
            torch.save({"epoch": epoch}, "exp/ckpt-last.pth")


if __name__ == "__main__":
    main()
