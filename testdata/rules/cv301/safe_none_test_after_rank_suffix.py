# A path that gets a per-rank suffix only where it is not None: appending
# to a string cannot make it None, so a later `is None` test is answered
# alike on every rank (ORBIT-2's pretrained-weights loader).
import torch
import torch.distributed as dist


def init_weights(t, pretrain_path, tp_size):
    world_rank = dist.get_rank()
    if pretrain_path is not None and world_rank < tp_size:
        pretrain_path = pretrain_path + "_rank_" + str(world_rank)
    if pretrain_path is None and tp_size > 1:
        dist.all_reduce(t)
    dist.barrier()


dist.init_process_group("nccl")
init_weights(torch.ones(1), None, 2)
