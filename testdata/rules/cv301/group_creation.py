# Creating a group is collective over the default group: every rank calls
# new_group, in the same order, whether or not it is a member (R18: each
# tensor-parallel subset created only its own group and timed out).
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


def tp_group(tp_ranks):
    if dist.get_rank() in tp_ranks:
        return dist.new_group(tp_ranks)  # want CV301 "new_group is collective over the default group"
    return None


def members_only(ranks, backend):
    if dist.get_rank() not in ranks:
        return None
    return dist.new_group(ranks, backend=backend)  # want CV301 "the ranks that leave early at"


def mesh_on_rank_zero():
    if dist.get_rank() == 0:
        return init_device_mesh("cuda", (2, 4))  # want CV301 "init_device_mesh is collective over the default group"
    return None
