# Megatron-DeepSpeed's parallel state, reduced: the embedding group holds the
# first and the last rank of each pipeline.
import torch

_EMBEDDING_GROUP = None
_PIPELINE_GROUP = None


def initialize_model_parallel(pp):
    global _EMBEDDING_GROUP
    world = torch.distributed.get_world_size()
    for i in range(world // pp):
        ranks = range(i, world, world // pp)
        embedding_ranks = [ranks[0], ranks[-1]]
        group = torch.distributed.new_group(embedding_ranks)
        if torch.distributed.get_rank() in embedding_ranks:
            _EMBEDDING_GROUP = group


def get_embedding_group():
    return _EMBEDDING_GROUP


def get_pipeline_model_parallel_world_size():
    return torch.distributed.get_world_size(group=_PIPELINE_GROUP)


def get_pipeline_model_parallel_rank():
    return torch.distributed.get_rank(group=_PIPELINE_GROUP)


def is_pipeline_first_stage(ignore_virtual=False):
    return get_pipeline_model_parallel_rank() == 0


def is_pipeline_last_stage(ignore_virtual=False):
    return get_pipeline_model_parallel_rank() == get_pipeline_model_parallel_world_size() - 1
