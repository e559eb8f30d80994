# The write is alone in the try body, and every rank joins the collectives
# after it whatever happened; or the handler re-raises; or the collective
# ran before the write.
import logging

import torch
import torch.distributed as dist

logger = logging.getLogger(__name__)


def save_agreed(engine, ckpt_dir, step, loss):
    ok = torch.ones(1, device="cuda")
    try:
        torch.save(engine.state_dict(), f"{ckpt_dir}/{step}_rank{dist.get_rank()}.pt")
    except Exception:
        logger.error("save failed")
        ok.zero_()
    dist.all_reduce(ok)
    dist.barrier()


def save_reraised(engine, path):
    try:
        torch.save(engine.state_dict(), path)
        dist.barrier()
    except Exception:
        logger.error("save failed")
        raise


def gather_then_write(t, path):
    try:
        dist.all_reduce(t)
        torch.save(t, path)
    except Exception:
        logger.error("save failed")
    dist.barrier()
