# DeepSpeed's init_inference makes its tensor-parallel group (new_group
# over the default group) when asked for more than one rank per model:
# behind a file check of this host, or on rank 0 only, the ranks that
# skip it leave the others waiting.
import os

import deepspeed
import torch
import torch.distributed as dist

world_size = int(os.getenv("WORLD_SIZE", "1"))


def evaluate(model):
    if os.path.exists(os.path.join("data", "dev.json")):
        engine = deepspeed.init_inference(model, mp_size=world_size, replace_with_kernel_inject=True)  # want CV301 "init_inference.*file system check"
        return engine.module


def evaluate_on_rank0(model):
    if dist.get_rank() == 0:
        return deepspeed.init_inference(model, tensor_parallel={"tp_size": world_size})  # want CV301 "init_inference.*get_rank"
