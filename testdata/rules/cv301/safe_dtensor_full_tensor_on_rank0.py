# Every rank gathers; rank 0 writes.
import torch
import torch.distributed as dist


def save_full(model, path):
    full = {k: v.full_tensor() for k, v in model.state_dict().items()}
    if dist.get_rank() == 0:
        torch.save(full, path)
