# The subclasses' step communicates nothing, or the template method
# calls it on every rank.
from abc import ABC, abstractmethod

import torch.distributed as dist


class Trainer(ABC):
    @abstractmethod
    def log_step(self):
        raise NotImplementedError

    @abstractmethod
    def sync_step(self):
        ...

    def run(self):
        if dist.get_rank() == 0:
            self.log_step()
        self.sync_step()


class Concrete(Trainer):
    def log_step(self):
        print("step done")

    def sync_step(self):
        dist.barrier()
