# The handler re-raises only on a second error in a row (LUKE's
# pretraining loop): the first error on one rank is swallowed, and that
# rank skips its gradient all-reduce while the others wait in theirs.
import logging

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logger = logging.getLogger(__name__)


def train(batches, local_rank):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(8, 8).cuda(), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    prev_error = False
    for batch in batches:
        try:
            loss = model(batch.cuda()).sum()
            loss.backward()  # want CV301 "is skipped on a rank whose work before it raises"
        except RuntimeError:
            if prev_error:
                raise
            logger.exception("skipping a batch")
            prev_error = True
            torch.cuda.empty_cache()
            continue
        prev_error = False
        optimizer.step()
        optimizer.zero_grad()
