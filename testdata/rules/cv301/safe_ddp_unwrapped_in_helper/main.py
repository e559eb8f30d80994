# The master-only evaluation unwraps the DDP model (`model = model.module`)
# and runs the forward in a helper it hands the plain module to: that
# forward issues no collective.
import os

import torch
import torch.distributed as dist

from evalmod import evaluate_cls


class Args:
    pass


def main():
    args = Args()
    args.local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(args.local_rank)
    dist.init_process_group(backend="nccl")
    args.rank = dist.get_rank()

    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8)).cuda()
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    for epoch in range(3):
        model.train()
        for _ in range(10):
            loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        evaluate_cls(model, epoch, args)


if __name__ == "__main__":
    main()
