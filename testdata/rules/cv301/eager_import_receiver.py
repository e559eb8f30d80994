# A script that imports DeepSpeed when it is loaded: an untyped receiver
# of save_checkpoint may well be the engine, which gathers on every rank.
import deepspeed
import torch.distributed as dist


def setup(model, config):
    deepspeed.init_distributed()
    return model, config


def save(model, out_dir):
    if dist.get_rank() == 0:
        model.save_checkpoint(out_dir)  # want CV301 "save_checkpoint"
