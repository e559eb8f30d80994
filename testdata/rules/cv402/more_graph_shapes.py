# More shapes: an async collective captured, two graphs alive at once, a
# graph captured in a loop of warm-up iterations, and a script body.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
x = torch.ones(8, device="cuda")
script_graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(script_graph):
    dist.all_gather_into_tensor(torch.empty(16, device="cuda"), x)
script_graph.replay()


def async_captured(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        work = dist.all_reduce(x, async_op=True)
        work.wait()
    g.replay()
    dist.destroy_process_group()  # want CV402 "`g`"


def two_graphs(x, y):
    fwd, bwd = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
    with torch.cuda.graph(fwd):
        dist.all_reduce(x)
    with torch.cuda.graph(bwd):
        dist.all_reduce(y)
    fwd.replay()
    bwd.replay()
    fwd.reset()
    dist.destroy_process_group()  # want CV402 "`bwd`"


def warmed_up(x, steps):
    g = torch.cuda.CUDAGraph()
    for _ in range(3):
        dist.all_reduce(x)
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    for _ in range(steps):
        g.replay()
    torch.cuda.synchronize()
    dist.destroy_process_group()  # want CV402 "captured collectives at"


dist.destroy_process_group()  # want CV402 "`script_graph`"
