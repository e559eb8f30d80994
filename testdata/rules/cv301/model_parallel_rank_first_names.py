# The tensor-parallel rank under its first names: fairscale's
# model_parallel (LLaMA v1) and Megatron-LM v1's mpu.get_model_parallel_rank
# (YaLM's generation loop: tensor-parallel rank 0 skips a too-long prompt
# while the other ranks enter the broadcast).
import torch
import torch.distributed as dist
from fairscale.nn.model_parallel import get_model_parallel_group, get_model_parallel_rank
from megatron import mpu


def sync(t):
    if get_model_parallel_rank() == 0:
        dist.broadcast(t, 0, group=get_model_parallel_group())  # want CV301 "get_model_parallel_rank\(\) == 0"


def token_stream(ctx):
    t = torch.cuda.LongTensor(ctx)
    dist.broadcast(t, mpu.get_model_parallel_src_rank(), group=mpu.get_model_parallel_group())
    return t


def generate_from_file(items, limit):
    for i in range(len(items)):
        dist.barrier(group=mpu.get_model_parallel_group())
        if mpu.get_model_parallel_rank() == 0:
            ctx = items[i]
            if len(ctx) >= limit:
                continue
        else:
            ctx = [0]
        token_stream([ctx])  # want CV301 "do not leave early"
