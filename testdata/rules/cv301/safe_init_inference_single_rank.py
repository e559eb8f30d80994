# init_inference without tensor parallelism (mp_size=1, tp_size 1, or
# neither given) makes no group: a rank may call it alone.
import os

import deepspeed
import torch.distributed as dist


def evaluate(model):
    if os.path.exists(os.path.join("data", "dev.json")):
        return deepspeed.init_inference(model, mp_size=1, replace_with_kernel_inject=True)


def evaluate_on_rank0(model):
    if dist.get_rank() == 0:
        deepspeed.init_inference(model, tensor_parallel={"tp_size": 1})
        return deepspeed.init_inference(model, dtype=None)
