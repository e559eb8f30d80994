# Each rank evaluates its own share of the episodes and counts successes
# per environment, adding a key for each environment it meets; one
# all_reduce per key then runs as many times as this rank's share had
# environments (dit_policy_vla's closed-loop evaluation). The list a
# share's loop appends to is as long as the share.
import torch
import torch.distributed as dist


def run_episodes(episodes, rank, world):
    success = {"PickCube-v0": 0.0}
    for ep in episodes[rank::world]:
        env_id = ep.split("/")[0]
        if env_id not in success:
            success[env_id] = 0.0
        success[env_id] += 1.0
    return success


def my_episodes(episodes, rank, world):
    return episodes[rank::world]


def main(episodes):
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    success = run_episodes(episodes, rank, world)
    for k in success:
        dist.all_reduce(torch.tensor(success[k]))  # want CV301 "whose length depends on the rank"
    for ep in my_episodes(episodes, rank, world):
        dist.barrier()  # want CV301 "whose length depends on the rank"
    found = []
    for ep in episodes[rank::world]:
        found.append(ep)
    for ep in found:
        dist.barrier()  # want CV301 "whose length depends on the rank"
