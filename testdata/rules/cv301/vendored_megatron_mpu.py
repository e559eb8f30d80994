# A project's own copy of Megatron's mpu (CodeGeeX imports it as
# codegeex.megatron.mpu, from files not analysed here) names Megatron's
# parallel-state getters: a tensor-parallel rank test guards a broadcast
# on the pipeline group alike on all its members, and one on the
# tensor-parallel group does not.
import torch
import torch.distributed as dist
from codegeex.megatron import mpu


def send_context(args, context_tokens, context_length):
    if mpu.get_tensor_model_parallel_rank() == 0 and args.pipeline_model_parallel_size > 1:
        if mpu.is_pipeline_first_stage():
            src = mpu.get_pipeline_model_parallel_first_rank()
            group = mpu.get_pipeline_model_parallel_group()
            t = torch.cuda.LongTensor(context_tokens)
            dist.broadcast(t, src, group)
        else:
            src = mpu.get_pipeline_model_parallel_first_rank()
            group = mpu.get_pipeline_model_parallel_group()
            t = torch.empty(context_length, dtype=torch.int64, device="cuda")
            dist.broadcast(t, src, group)
            context_tokens = t.cpu().numpy().tolist()
    return context_tokens


def tensor_parallel_only_on_first(t):
    if mpu.get_tensor_model_parallel_rank() == 0:
        dist.all_reduce(t, group=mpu.get_tensor_model_parallel_group())  # want CV301 "get_tensor_model_parallel_rank\(\) == 0"
    return t
