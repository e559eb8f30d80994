# O1 (NVIDIA CUDA-graph troubleshooting, "Process Hang"): a graph that
# captured collectives keeps the communicator referenced, and from NCCL
# 2.26 destroying the communicator waits for the graph.
import torch
import torch.distributed as dist


def allreduce_step(x):
    dist.all_reduce(x)


def main(steps):
    dist.init_process_group("nccl")
    x = torch.ones(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        allreduce_step(x)
    for _ in range(steps):
        g.replay()
    torch.cuda.synchronize()
    dist.destroy_process_group()  # want CV402 "while the CUDA graph `g`, which captured collectives at .*:16, is still alive"


class Runner:
    def run(self, x):
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph, pool=None):
            dist.all_reduce(x)
        self.graph.replay()
        dist.destroy_process_group()  # want CV402 "self.graph.reset\(\)"
