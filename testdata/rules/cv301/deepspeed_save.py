# R7 (deepspeedai/DeepSpeed#797)
import torch.distributed as dist


def save(engine, ckpt_dir):
    if dist.get_rank() == 0:
        engine.save_checkpoint(ckpt_dir)  # want CV301 "save_checkpoint"
