# The hazardous neighbour of safe_none_test_after_rank_suffix.py: the
# path is given only on some ranks, where it was None before, so whether
# it is None differs between ranks.
import torch
import torch.distributed as dist


def init_weights(t, base, tp_size):
    world_rank = dist.get_rank()
    pretrain_path = None
    if world_rank < tp_size:
        pretrain_path = base + "_rank_" + str(world_rank)
    if pretrain_path is None:
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group \(WORLD\) runs only when `pretrain_path is None` holds"
    dist.barrier()


dist.init_process_group("nccl")
init_weights(torch.ones(1), "ckpt", 2)
