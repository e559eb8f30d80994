# A checkpoint write fails on one host (a full disk) and the handler
# swallows the error: that rank skips the collectives the try body had
# left, and the others wait in them.
import logging

import deepspeed
from accelerate import Accelerator
import torch
import torch.distributed as dist

logger = logging.getLogger(__name__)


def save_shards(engine, ckpt_dir, step, loss):
    try:
        torch.save(engine.state_dict(), f"{ckpt_dir}/{step}_rank{dist.get_rank()}.pt")
        dist.barrier()  # want CV301 "barrier on the default group .* skipped on a rank whose file write fails"
    except Exception:
        logger.error("save failed")
    dist.all_reduce(loss)


def save_engine(model, cfg, ckpt_dir, step):
    engine, _, _, _ = deepspeed.initialize(model=model, config_params=cfg)
    try:
        engine.save_checkpoint(ckpt_dir, tag=f"{step}")  # want CV301 "save_checkpoint on the default group .* skipped on a rank whose file write fails"
    except OSError:
        print("save failed")
    dist.barrier()


def save_state_swallowed(model, loader, n_epochs):
    # accelerate's save_state writes on every rank and, under DeepSpeed,
    # reaches barriers after its writes (HuatuoGPT-Vision's epoch save).
    accelerator = Accelerator()
    for epoch in range(n_epochs):
        try:
            accelerator.save_state(f"ckpt-{epoch}")  # want CV301 "save_state on .* is skipped on a rank whose file write fails"
        except Exception as e:
            logger.info(f"Failed to save state: {e}")
        dist.all_reduce(torch.ones(1, device=accelerator.device))
