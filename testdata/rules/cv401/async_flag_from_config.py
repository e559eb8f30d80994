# The async flag comes from the configuration (diloco-training's outer
# step): when the run sets it, the call returns a work handle that nobody
# holds, and the next step reads the gradient while the reduction runs.
import torch
import torch.distributed as dist


def outer_step(params, offloaded, outer_optimizer, async_communication=False):
    for p, old in zip(params, offloaded):
        p.grad = old - p.data
        dist.all_reduce(p.grad, op=dist.ReduceOp.AVG, async_op=async_communication)  # want CV401 "the work handle all_reduce returns is discarded"
        p.data = old
    outer_optimizer.step()


class Trainer:
    def __init__(self, config, params, offloaded, opt):
        self.config = config
        self.params, self.offloaded, self.opt = params, offloaded, opt

    def sync(self):
        outer_step(self.params, self.offloaded, self.opt, async_communication=self.config.async_communication)

    def average(self, t):
        dist.all_reduce(t, async_op=self.config.overlap_comm)  # want CV401 "the work handle all_reduce returns is discarded"
        return t / dist.get_world_size()


def reduce_grads(grads, async_op=False):
    for g in grads:
        dist.all_reduce(g, async_op=async_op)  # want CV401 "the work handle all_reduce returns is discarded"


def forward_flag(grads, async_op=False):
    reduce_grads(grads, async_op=async_op)


def run(args, grads):
    forward_flag(grads, async_op=args["async_comm"])
