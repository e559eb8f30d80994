# A base class's template method calls a step that only a subclass
# overrides (declared in the base as an abstract stub) or only a sibling
# mixin defines; no subclass is built here (a configuration picks it),
# and the one that communicates is called on rank 0 only (SpeeQ's
# trainers).
from abc import ABC, abstractmethod

import torch.distributed as dist


class Trainer(ABC):
    @abstractmethod
    def evaluate_step(self):
        pass

    def run(self):
        if dist.get_rank() == 0:
            self.evaluate_step()  # want CV301 "barrier on .* runs only when `dist.get_rank\(\) == 0` holds"
        dist.barrier()


class DistTrainer(Trainer):
    def evaluate_step(self):
        dist.barrier()


class BaseLoop:
    def run(self):
        if dist.get_rank() == 0:
            self.forward_pass()  # want CV301 "all_reduce on .* runs only when `dist.get_rank\(\) == 0` holds"


class ReduceMixin:
    def forward_pass(self):
        dist.all_reduce(self.loss)


class DistLoop(BaseLoop, ReduceMixin):
    pass
