"""An all-reduce captured in a CUDA graph, then the process group destroyed.

The graph keeps the NCCL communicator referenced; from NCCL 2.26,
destroying the communicator waits until every graph that uses it is gone,
so the job finishes its work and then hangs in destroy_process_group().
collvet reports CV402 there and offers the fix: `g.reset()` first.

    torchrun --nproc-per-node 2 examples/graph_teardown.py
"""

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    x = torch.ones(1 << 20, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        dist.all_reduce(x)  # warm-up before the capture
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    for _ in range(10):
        g.replay()
    torch.cuda.synchronize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
