# destroy_process_group in a finally clause (or a handler) around
# collectives also runs on the rank whose work raised, while the others
# wait in the collective it never joined: that rank hangs in the teardown
# instead of exiting (torchtitan#1342 moved it out of the finally).
import torch
import torch.distributed as dist


def train(model, loader):
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)


def main(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    finally:
        dist.destroy_process_group()  # want CV301 "runs at .* \(`finally`\), also on a rank whose work above raised"


def main_handler(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except RuntimeError:
        dist.destroy_process_group()  # want CV301 "`except RuntimeError`"
        raise


def worker_late_del(rank, world, population, out):
    # The finally first deletes a local bound only after the last
    # collective: a rank that raised before it never gets past the del
    # (UnboundLocalError), so the destroy runs only once the barrier is
    # done everywhere (GAPA's fitness workers).
    try:
        dist.init_process_group("nccl", rank=rank, world_size=world)
        dist.barrier()
        share = population[rank::world]
        fitness = share.float().sum(dim=1)
        out.put(fitness.cpu())
    finally:
        del share, fitness
        dist.destroy_process_group()


def worker_early_del(rank, world, population, out):
    # Bound before the barrier: a rank that raised in it reaches the
    # destroy while the others still wait.
    try:
        dist.init_process_group("nccl", rank=rank, world_size=world)
        fitness = population[rank::world].float().sum(dim=1)
        dist.barrier()
        out.put(fitness.cpu())
    finally:
        del fitness
        dist.destroy_process_group()  # want CV301 "runs at .* \(`finally`\), also on a rank whose work above raised"
