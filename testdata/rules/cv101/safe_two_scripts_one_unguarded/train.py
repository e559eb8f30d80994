# Another script, with no __main__ guard: nothing imports it and it sets
# up torch.distributed at the top, so `python train.py` runs it in a
# process of its own, apart from saver.py's.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
x = torch.ones(1)
for step in range(10):
    dist.all_reduce(x)
