# The same norms after synchronize(), a helper that only asks whether each
# gradient exists, and a clip whose arm synchronizes before the step of
# that same arm.
import torch
import horovod.torch as hvd


class Trainer:
    def __init__(self, model, clip):
        self.model = model
        self.clip = clip
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.optimizer = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters())

    def _grad_norm(self):
        return torch.linalg.norm(torch.stack([p.grad.norm() for p in self.model.parameters()])).item()

    def _has_grads(self):
        return all(p.grad is not None for p in self.model.parameters())

    def step(self, x):
        self.optimizer.zero_grad()
        self.model(x).sum().backward()
        ok = self._has_grads()
        self.optimizer.synchronize()
        norm = self._grad_norm()
        with self.optimizer.skip_synchronize():
            self.optimizer.step()
        return ok, norm

    def step_clipped(self, x):
        self.optimizer.zero_grad()
        self.model(x).sum().backward()
        if self.clip:
            self.optimizer.synchronize()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            with self.optimizer.skip_synchronize():
                self.optimizer.step()
        else:
            self.optimizer.step()
