# A rank that is the same on every member of the group the collective
# runs on: the tensor-parallel rank across a data-parallel group, and the
# data-parallel rank across a tensor-parallel one.
import torch.distributed as dist
from fairscale.nn.model_parallel import get_data_parallel_group, get_data_parallel_rank, get_model_parallel_group, get_model_parallel_rank
from megatron import mpu


def sync_dp(t):
    if get_model_parallel_rank() == 0:
        dist.all_reduce(t, group=get_data_parallel_group())


def sync_tp(t):
    if get_data_parallel_rank() == 0:
        dist.all_reduce(t, group=get_model_parallel_group())


def megatron_tp(t):
    if mpu.get_data_parallel_rank() == 0:
        dist.broadcast(t, mpu.get_tensor_model_parallel_src_rank(), group=mpu.get_tensor_model_parallel_group())
