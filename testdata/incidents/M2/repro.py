import threading

import torch
import torch.distributed as dist

dist.init_process_group("nccl", init_method="env://")
rank = dist.get_rank()
world = dist.get_world_size()
torch.cuda.set_device(rank)

num_threads = 4
groups = [dist.new_group(list(range(world))) for _ in range(num_threads)]


def worker(i):
    torch.cuda.set_device(rank)
    t = torch.full((1024,), float(rank), device="cuda")
    for _ in range(100):
        dist.broadcast(t, src=0, group=groups[i])


threads = [threading.Thread(target=worker, args=(i,)) for i in range(num_threads)]
for th in threads:
    th.start()
for th in threads:
    th.join()
