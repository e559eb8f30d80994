# A type test of a value each rank computed from its own share: the value
# differs between ranks, its type does not (NeMo-Aligner's distributed
# inference returns a tuple on every rank or on none).
import torch
import torch.distributed as dist


def run_distributed_inference(inputs, infer_fn, group):
    dp_rank = dist.get_rank(group)
    dp_size = dist.get_world_size(group)
    tokens = inputs.chunk(dp_size)[dp_rank]
    outputs = infer_fn(tokens)
    if isinstance(outputs, tuple):
        rewards, values = outputs
        dist.all_reduce(rewards, group=group)
        dist.all_reduce(values, group=group)
        return rewards, values
    dist.all_reduce(outputs, group=group)
    return outputs
