# `--use-ema` is store_true with default=True: always true, so the arm
# that would evaluate the DDP model never runs, and rank 0 evaluates the
# EMA copy made before the wrap, whose forward issues nothing
# (FixMatch-pytorch's test model).
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
    # store_true with default=True: args.use_ema is always True
    parser.add_argument("--use-ema", action="store_true", default=True)
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
            test(test_model, x)


if __name__ == "__main__":
    main()
