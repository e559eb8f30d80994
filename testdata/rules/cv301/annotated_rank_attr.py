# A rank flag the constructor stores with an annotated assignment
# (`self._is_orchestrator: bool = …`, l2hmc-qcd's trainer) is a rank test
# in the other methods, as the plain assignment is.
import torch
import horovod.torch as hvd


class Trainer:
    def __init__(self, model):
        hvd.init()
        self.rank = hvd.rank()
        self.local_rank = hvd.local_rank()
        self._is_orchestrator: bool = self.local_rank == 0 and self.rank == 0
        self._name: str = "trainer"
        opt = torch.optim.Adam(model.parameters())
        self.optimizer = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters())

    def reset_optimizer(self):
        if self._is_orchestrator:
            hvd.broadcast_optimizer_state(self.optimizer, root_rank=0)  # want CV301 "runs only when `self._is_orchestrator` holds"

    def announce(self):
        if self._name:
            hvd.broadcast_optimizer_state(self.optimizer, root_rank=0)
