# Loops over a rank's round-robin share of tasks, made by a helper or
# kept in a dict (OpenTau's per-rank evaluation envs): 10 tasks on 4
# ranks give ranks 0-1 three passes and ranks 2-3 two, so the third
# collective of ranks 0-1 has no partner.
import torch.distributed as dist


def my_task_ids(n_tasks):
    rank, world = dist.get_rank(), dist.get_world_size()
    return [i for i in range(n_tasks) if i % world == rank]


def gather_per_task():
    for task_id in my_task_ids(10):
        out = [None] * dist.get_world_size()
        dist.all_gather_object(out, {"task": task_id})  # want CV301 "rank"


def envs_per_rank(make_env):
    rank, world = dist.get_rank(), dist.get_world_size()
    envs = {tid: make_env(tid) for tid in range(10) if tid % world == rank}
    for tid, env in envs.items():
        dist.barrier()  # want CV301 "rank"
