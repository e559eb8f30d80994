# The tensor-parallel all-reduce under a test of the global rank: the
# other ranks of rank 0's tensor-parallel group never join it.
import torch
from vllm.distributed.communication_op import tensor_model_parallel_all_reduce


def log_norm(x):
    if torch.distributed.get_rank() == 0:
        x = tensor_model_parallel_all_reduce(x)  # want CV301 "tensor_model_parallel_all_reduce on group get_tp_group\(\)"
    return x
