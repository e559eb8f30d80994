# FSDP2 checkpointing: DTensor.full_tensor() all-gathers the shards over
# the mesh. Gathered on rank 0 only, it waits for the other ranks.
import torch
import torch.distributed as dist


def save_full(model, path):
    if dist.get_rank() == 0:
        full = {k: v.full_tensor() for k, v in model.state_dict().items()}  # want CV301 "full_tensor"
        torch.save(full, path)
