# vLLM's tensor_model_parallel_all_reduce runs on the tensor-parallel
# group, not on the default one: ranks 0 and 1 form one such group, 2 and
# 3 another, so each side may issue its own number of them (vLLM's own
# pynccl test with two TP groups of two).
import torch
from vllm.distributed.communication_op import tensor_model_parallel_all_reduce
from vllm.distributed.parallel_state import ensure_model_parallel_initialized


def two_tp_groups():
    ensure_model_parallel_initialized(2, 2)
    tensor = torch.ones(16, device="cuda")
    if torch.distributed.get_rank() in [0, 1]:
        tensor = tensor_model_parallel_all_reduce(tensor)
        tensor = tensor_model_parallel_all_reduce(tensor)
    else:
        tensor = tensor_model_parallel_all_reduce(tensor)
    return tensor
