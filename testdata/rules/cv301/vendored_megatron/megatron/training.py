# A program's own copy of Megatron (Megatron-DeepSpeed's megatron/mpu):
# the embedding group is made by the copy's new_group, and its getter's
# name says which group it is. The first and the last stage are its
# members and both all-reduce on it; the first stage alone is not.
import torch
from megatron import mpu


def train_step(args, grad):
    if (mpu.is_pipeline_first_stage(ignore_virtual=True) or
            mpu.is_pipeline_last_stage(ignore_virtual=True)) and \
            mpu.get_pipeline_model_parallel_world_size() > 1:
        torch.distributed.all_reduce(grad, group=mpu.get_embedding_group())


def first_stage_only(grad):
    if mpu.is_pipeline_first_stage(ignore_virtual=True):
        torch.distributed.all_reduce(grad, group=mpu.get_embedding_group())  # want CV301 "is_pipeline_first_stage"
