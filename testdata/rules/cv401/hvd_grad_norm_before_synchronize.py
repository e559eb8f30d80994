# A trainer logs the gradients' global norm right after backward, through
# a helper of its own and inline, before Horovod's synchronize() (GENA_LM's
# trainer): the norm reads gradients the allreduces are still writing.
# The synchronize() of the clipping arm does not cover the other arm's
# step.
import torch
import horovod.torch as hvd


class Trainer:
    def __init__(self, model, clip):
        self.model = model
        self.clip = clip
        self.norms = []
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.optimizer = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters())

    def _grad_norm(self):
        params = [p for p in self.model.parameters() if p.grad is not None]
        return torch.linalg.norm(torch.stack([torch.linalg.norm(p.grad.detach()) for p in params])).item()

    def step(self, x):
        self.optimizer.zero_grad()
        self.model(x).sum().backward()
        self.norms += [self._grad_norm()]  # want CV401 "self._grad_norm reads the gradients"
        if self.clip:
            self.optimizer.synchronize()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            with self.optimizer.skip_synchronize():
                self.optimizer.step()
        else:
            self.optimizer.step()

    def step_inline(self, x):
        self.optimizer.zero_grad()
        self.model(x).sum().backward()
        norm = torch.linalg.norm(torch.stack([p.grad.norm() for p in self.model.parameters()]))  # want CV401 "reads the gradients"
        self.optimizer.step()
        return norm
