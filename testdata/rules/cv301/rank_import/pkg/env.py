import torch.distributed as dist

dist.init_process_group("nccl")
is_master = dist.get_rank() == 0
world = dist.get_world_size()
