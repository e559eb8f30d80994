# A fault handler that can refuse (returns False for some errors) makes
# the handler re-raise: the launcher stops the job.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class FaultHandler:
    def __init__(self):
        self.failures = 0

    def handle_step_failure(self, error, step):
        self.failures += 1
        if self.failures > 3:
            return False
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
                loss.backward()
                self.optimizer.step()
            except Exception as e:
                if not self.fault_handler.handle_step_failure(e, step):
                    raise e
        dist.barrier()
