# The list is given where the global rank is the root.
import torch
import torch.distributed as dist


def collect(excess_loss, world_size):
    if dist.get_rank() == 0:
        gathered = [torch.zeros_like(excess_loss) for _ in range(world_size)]
        dist.gather(excess_loss, gathered, dst=0)
        return torch.cat(gathered, dim=0)
    dist.gather(excess_loss, dst=0)
    return None


def collect_local(excess_loss, world_size, local_rank):
    # The local test leaves the list out: every rank passes None but the root.
    gathered = None
    if local_rank == 0 and dist.get_rank() == 0:
        gathered = [torch.zeros_like(excess_loss) for _ in range(world_size)]
    dist.gather(excess_loss, gathered, dst=0)
    return gathered
