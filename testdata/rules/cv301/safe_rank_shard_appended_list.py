# The list a loop over this rank's shard fills is gathered whatever its
# length, and a list filled from every rank's rows is the same everywhere.
import torch.distributed as dist


def run_eval(model, rows):
    rank, world = dist.get_rank(), dist.get_world_size()
    local = []
    for r in rows[rank::world]:
        local.append(model.sample(r))
    gathered = [None] * world
    dist.all_gather_object(gathered, local)
    everyone = []
    for r in rows:
        everyone.append(r)
    if len(everyone) > 0:
        dist.barrier()
