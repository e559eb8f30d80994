import os
import torch
import torch.distributed as link
from dist_module import DistModule


def main():
    rank = int(os.environ["RANK"])
    torch.cuda.set_device(rank % torch.cuda.device_count())
    link.init_process_group(backend="nccl")
    model = DistModule(torch.nn.Linear(8, 8).cuda(), sync=False)  # hooks reduce on the autograd thread
    opt = torch.optim.SGD(model.module.parameters(), lr=0.1)
    for _ in range(10):
        opt.zero_grad()
        loss = model.module(torch.randn(4, 8).cuda()).sum()
        loss.backward()
        model.sync_gradients()
        opt.step()


if __name__ == "__main__":
    main()
