# Autograd is off at import, but the program turns it back on to train:
# the Function's backward runs on the engine's thread.
import torch
import torch.distributed as dist

torch.set_grad_enabled(False)


class ReduceGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)  # want CV102 "runs in a callback registered with Function.backward"
        return grad


def train_step(model, x):
    with torch.enable_grad():
        loss = ReduceGrad.apply(model(x)).sum()
        loss.backward()
    dist.all_reduce(loss)
