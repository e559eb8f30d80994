# A LoRA or adapter configuration's "rank" is a model setting, the same on
# every process, whether read as an attribute or as a dict entry.
import torch.distributed as dist


def merge(lora_cfg, adapter_args, t):
    if lora_cfg["rank"] > 8:
        dist.all_reduce(t)
    if adapter_args.rank == 4:
        dist.all_reduce(t)
