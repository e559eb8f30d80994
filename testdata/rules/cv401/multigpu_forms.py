# The deprecated one-tensor-per-GPU forms return work handles too.
import torch
import torch.distributed as dist


def sync_replicas(replicas, root_copies):
    work = dist.all_reduce_multigpu(replicas, async_op=True)  # want CV401 "never waited"
    dist.broadcast_multigpu(root_copies, src=0)
    return replicas


def sync_replicas_waited(replicas):
    work = dist.all_reduce_multigpu(replicas, async_op=True)
    work.wait()
    torch.cuda.synchronize()
    return replicas
