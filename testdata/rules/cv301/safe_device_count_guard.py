# device_count() where ranks cannot disagree: a launcher that counts the
# GPUs once, before there are ranks, and spawns one worker per GPU or runs
# the worker itself; a device index computed from the rank; the world
# size; a flag the script set from it (args.n_gpu, which HF-style scripts
# set to 1 under DDP).
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank % torch.cuda.device_count())
    t = torch.ones(1, device=rank % torch.cuda.device_count())
    if rank % torch.cuda.device_count() == 0:
        print("local leader")
    dist.all_reduce(t)


def launch():
    world_size = torch.cuda.device_count()
    if world_size > 1:
        mp.spawn(worker, args=(world_size,), nprocs=world_size)
    else:
        worker(0, 1)


def reduce_loss(loss, args):
    if dist.get_world_size() > 1:
        dist.all_reduce(loss)
    if args.n_gpu > 1:
        loss = loss.mean()
    return loss
