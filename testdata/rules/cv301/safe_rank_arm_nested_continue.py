# continue inside a loop that rank 0 runs on its own: it leaves a pass of
# rank 0's own loop, which no other rank runs.
import torch.distributed as dist


def report(names, x):
    if dist.get_rank() == 0:
        for name in names:
            if name.endswith(".tmp"):
                continue
            print(name)
    dist.all_reduce(x)


def skip_logging(names, x):
    for name in names:
        if dist.get_rank() == 0:
            if name.endswith(".tmp"):
                continue
            print(name)
