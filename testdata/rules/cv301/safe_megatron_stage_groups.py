# Megatron's pipeline-stage tests are the same on every rank of a data-,
# tensor- or context-parallel group (those groups lie within one stage),
# and the tensor-parallel rank is the same on every rank of a
# data-parallel group: collectives on those groups under such a test are
# issued by all of the group's members or by none (ms-swift's evaluation
# loop, Megatron's own loss averaging).
import torch
from megatron.core import mpu
from megatron.core import parallel_state


def evaluate(loss_dicts, total):
    if mpu.is_pipeline_last_stage(ignore_virtual=True):
        for key in loss_dicts[0]:
            val = torch.vstack([x[key].view(-1) for x in loss_dicts]).sum(dim=0)
            torch.distributed.all_reduce(val, group=mpu.get_data_parallel_group(with_context_parallel=True))
            total[key] += val


def embedding_grads(grad):
    if parallel_state.is_pipeline_first_stage():
        torch.distributed.all_reduce(grad, group=parallel_state.get_tensor_model_parallel_group())


def log_on_first_tp_rank(metric):
    if parallel_state.get_tensor_model_parallel_rank() == 0:
        torch.distributed.all_reduce(metric, group=parallel_state.get_data_parallel_group())


def word_embedding_grads(args, grad):
    # Megatron-DeepSpeed's train_step: the first and the last stage are
    # the embedding group's members, and both all-reduce on it.
    if not args.deepspeed:
        if (mpu.is_pipeline_first_stage(ignore_virtual=True) or
                mpu.is_pipeline_last_stage(ignore_virtual=True)) and \
                mpu.get_pipeline_model_parallel_world_size() > 1:
            torch.distributed.all_reduce(grad, group=mpu.get_embedding_group())
