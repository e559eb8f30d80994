# Pipeline-stage and tensor-parallel-rank tests around collectives on
# groups that span the answer: the default group, the pipeline group, the
# tensor-parallel group under a tensor-parallel rank test.
import torch
from megatron.core import parallel_state


def report(loss):
    if parallel_state.is_pipeline_last_stage():
        torch.distributed.all_reduce(loss)  # want CV301 "is_pipeline_last_stage"


def tied_embeddings(grad):
    if parallel_state.is_pipeline_first_stage():
        torch.distributed.all_reduce(grad, group=parallel_state.get_pipeline_model_parallel_group())  # want CV301 "all_reduce"


def tp_sum(t):
    if parallel_state.get_tensor_model_parallel_rank() == 0:
        torch.distributed.all_reduce(t, group=parallel_state.get_tensor_model_parallel_group())  # want CV301 "get_tensor_model_parallel_rank"


def mixed(t):
    # The test depends on the global rank too: not uniform within the
    # data-parallel group.
    if parallel_state.is_pipeline_last_stage() and torch.distributed.get_rank() == 0:
        torch.distributed.all_reduce(t, group=parallel_state.get_data_parallel_group())  # want CV301 "get_rank\(\) == 0"


def first_stage_embeddings(grad):
    # The embedding group holds the first and the last stage: the first
    # stage alone leaves the last one waiting.
    if parallel_state.is_pipeline_first_stage(ignore_virtual=True):
        torch.distributed.all_reduce(grad, group=parallel_state.get_embedding_group())  # want CV301 "is_pipeline_first_stage"
