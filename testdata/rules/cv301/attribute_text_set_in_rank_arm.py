# Rank 0 records the best checkpoint's name on the configuration it was
# handed; a later test of that attribute picks which checkpoints every
# rank evaluates, a different number on rank 0 (pandallm's trainer).
import torch.distributed as dist


def evaluate(cfg, ckpt):
    dist.barrier()


def main(cfg):
    dist.init_process_group("nccl")
    for step in range(cfg.steps):
        evaluate(cfg, None)
        if cfg.local_rank in [-1, 0]:
            cfg.best_checkpoint = f"checkpoint-{step}"
    checkpoints = cfg.all_ckpts
    if cfg.best_checkpoint:
        checkpoints = [cfg.best_checkpoint]
    for ckpt in checkpoints:
        evaluate(cfg, ckpt)  # want CV301 "once per element of `checkpoints`"


def flagged(cfg):
    if dist.get_rank() == 0:
        cfg.note = "rank zero"
    if cfg.note:
        dist.barrier()  # want CV301 "`cfg.note`"
