# The global generator reseeded with the step index, which every rank
# holds alike, right before the permutation that picks this step's
# groups: every rank draws the same permutation and creates the same
# groups in the same order (asynchronous PowerSGD's setup_groups).
import torch
import torch.distributed as dist


def setup_groups(step, cache):
    world_size = dist.get_world_size()
    torch.manual_seed(step)
    perm = torch.randperm(world_size).tolist()
    half = world_size // 2
    g1_ranks, g2_ranks = sorted(perm[:half]), sorted(perm[half:])
    key = "_".join(map(str, g1_ranks))
    if key not in cache:
        cache[key] = (dist.new_group(g1_ranks), dist.new_group(g2_ranks))
    g1, g2 = cache[key]
    return g1 if dist.get_rank() in g1_ranks else g2


def main():
    dist.init_process_group("gloo")
    cache = {}
    for step in range(10):
        grp = setup_groups(step, cache)
        t = torch.ones(4)
        dist.all_reduce(t, group=grp)
