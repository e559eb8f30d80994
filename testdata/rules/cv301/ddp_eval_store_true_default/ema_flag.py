# The same shape with a plain store_true flag: without --use-ema rank 0
# evaluates the DDP model alone, and its forward broadcasts the
# BatchNorm buffers the other ranks never join.
import argparse
from copy import deepcopy

import torch
import torch.distributed as dist
import torch.nn as nn


class ModelEMA(object):
    def __init__(self, model, decay):
        self.ema = deepcopy(model)
        self.ema.eval()
        self.decay = decay


def test(model, x):
    with torch.no_grad():
        model.eval()
        return model(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    # store_true, default False: the DDP arm runs without the flag
    parser.add_argument("--use-ema", action="store_true")
    args = parser.parse_args()

    torch.cuda.set_device(args.local_rank)
    dist.init_process_group(backend="nccl")

    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)).cuda()
    if args.use_ema:
        ema_model = ModelEMA(model, 0.999)  # plain module, made before DDP
    model = nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])

    for epoch in range(3):
        x = torch.randn(8, 4).cuda()
        model(x).sum().backward()
        if args.use_ema:
            test_model = ema_model.ema
        else:
            test_model = model
        if args.local_rank in [-1, 0]:
            test(test_model, x)  # want CV301 "local_rank in \[-1, 0\]"


if __name__ == "__main__":
    main()
