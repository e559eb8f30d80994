# torch.cuda.device_count() is how many GPUs this process sees on its
# host, not the size of the job (llama-recipes' epoch loss reduction,
# SLAM-LLM, rtfm): nodes with other GPU counts disagree, and with one GPU
# bound per process every rank skips the reduction.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def epoch_loss(total_loss, enable_fsdp):
    if torch.cuda.device_count() > 1 and enable_fsdp:
        dist.all_reduce(total_loss)  # want CV301 "device_count\(\) > 1 and enable_fsdp.*GPUs this process sees"
    return total_loss


def wrap(model, local_rank, dist_train):
    n_gpus = torch.cuda.device_count()
    if n_gpus > 1 and dist_train:
        model = DDP(model, device_ids=[local_rank])  # want CV301 "n_gpus > 1 and dist_train"
    return model


def npu_eval_loss(loss):
    # Ascend's torch_npu counts the NPUs this process sees, the same way.
    if torch.npu.device_count() > 1:
        dist.all_reduce(loss)  # want CV301 "depends on the device count"
    return loss
