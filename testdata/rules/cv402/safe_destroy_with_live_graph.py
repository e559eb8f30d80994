# The graph is reset, deleted or rebound before the destroy; or it
# captured no collective.
import torch
import torch.distributed as dist


def reset_first(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    g.replay()
    torch.cuda.synchronize()
    g.reset()
    dist.destroy_process_group()


def deleted_first(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    g.replay()
    del g
    dist.destroy_process_group()


def no_collective(x, model):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    g.replay()
    dist.all_reduce(y)
    dist.destroy_process_group()


def rebound(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    g.replay()
    g = None
    dist.destroy_process_group()
