# The trainer inherits run() from a parametrised generic base: the
# inherited run() calls the subclass's setup(), whose all-reduce the other
# ranks reach while local rank 0 has returned (microgpt's ModelTrainer).
import abc
import os
from typing import Generic, TypeVar

import torch
import torch.distributed as dist

T = TypeVar("T")


class Base(Generic[T], abc.ABC):
    @abc.abstractmethod
    def setup(self):
        raise NotImplementedError

    def run(self):
        self.setup()


class Impl(Base[int]):
    def setup(self):
        dist.all_reduce(torch.zeros(1).cuda())


def main():
    dist.init_process_group("nccl")
    if int(os.environ["LOCAL_RANK"]) == 0:
        return
    Impl().run()  # want CV301 "all_reduce"
