# The rank test reads a property (or a classproperty) whose getter returns
# Megatron's data-parallel rank: only data-parallel rank 0 leaves, and the
# others wait in the barrier / the gathered parameters' collectives.
import deepspeed
import torch
import torch.distributed as dist
from megatron.core import parallel_state


class classproperty:
    def __init__(self, fget):
        self.fget = fget

    def __get__(self, obj, owner):
        return self.fget(owner)


class env:
    @classproperty
    def dp_rank(cls):
        return parallel_state.get_data_parallel_rank()


class Env:
    @property
    def dp_rank(self):
        return parallel_state.get_data_parallel_rank()

    @property
    def name(self):
        return "env"


state = Env()


def save(model, path):
    if state.dp_rank != 0:
        return
    torch.save(model.state_dict(), path)
    dist.barrier()  # want CV301 "do not leave early at .*state.dp_rank != 0"


def load_weights(model, state_dict):
    for name, param in model.named_parameters():
        if name not in state_dict and env.dp_rank == 0:
            continue
        with deepspeed.zero.GatheredParameters(param, modifier_rank=0):  # want CV301 "do not leave early"
            param.data.copy_(state_dict.get(name, param.data))


def tagged(model):
    if state.name != "env":
        return
    dist.barrier()
