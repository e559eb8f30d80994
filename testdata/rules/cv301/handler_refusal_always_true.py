# The handler re-raises only if the fault handler refuses the failure,
# and that handler accepts every failure (it returns True wherever it
# returns): the handler swallows the error, and the failed rank skips the
# backward's all-reduce that the others run.
import logging

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class FaultHandler:
    def handle_step_failure(self, error, step):
        logging.warning("step %d failed: %s", step, error)
        return True


class Trainer:
    def __init__(self, model, optimizer, local_rank):
        self.model = DDP(model.cuda(), device_ids=[local_rank])
        self.optimizer = optimizer
        self.fault_handler = FaultHandler()

    def train_epoch(self, loader):
        for step, batch in enumerate(loader):
            try:
                loss = self.model(batch.cuda())
                self.optimizer.zero_grad()
                loss.backward()  # want CV301 "swallows the error"
                self.optimizer.step()
            except Exception as e:
                if self.fault_handler:
                    if not self.fault_handler.handle_step_failure(e, step):
                        raise e
        dist.barrier()
