# Task lists that are the same on every rank: a helper that filters by
# something other than the rank, and one that returns every task.
import torch.distributed as dist


def even_task_ids(n_tasks):
    world = dist.get_world_size()
    return [i for i in range(n_tasks) if i % 2 == 0 and world > 0]


def all_task_ids(n_tasks):
    return list(range(n_tasks))


def gather_per_task():
    for task_id in even_task_ids(10):
        out = [None] * dist.get_world_size()
        dist.all_gather_object(out, {"task": task_id})
    for task_id in all_task_ids(10):
        dist.barrier()
