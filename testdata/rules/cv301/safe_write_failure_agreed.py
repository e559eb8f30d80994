# The write is alone in the try body, and every rank joins the collectives
# after it whatever happened; or the handler re-raises; or the collective
# ran before the write; or the write is torch.distributed.checkpoint's,
# whose ranks agree on a failure.
import logging

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

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


def save_sharded(model, step):
    # torch.distributed.checkpoint's save agrees on a failed write: the
    # coordinator gathers every rank's write result and raises the same
    # CheckpointException on all ranks, so they leave the try together.
    sd = model.state_dict()
    try:
        dcp.save(sd, checkpoint_id=f"ckpt/step_{step}")
        dcp.save(sd, checkpoint_id="ckpt/latest")
    except Exception as e:
        print(f"rank {dist.get_rank()}: save failed: {e}")
    dist.barrier()
