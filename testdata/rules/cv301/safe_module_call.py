# Seen on PyTorch's own tests: a rank-0-only evaluation of a plain module
# and a unittest assertion. Module.__call__ and assertion helpers are not
# followed: their call-graph summaries fan out over every forward in the
# program, including ones that communicate.
import unittest

import torch.distributed as dist
from torch import nn


class Synced(nn.Module):
    def forward(self, x):
        dist.all_reduce(x)
        return x


class Plain(nn.Module):
    def forward(self, x):
        return x * 2


class EvalTest(unittest.TestCase):
    def test_eval_on_rank0(self, rank, x):
        model = Plain()
        if rank == 0:
            self.assertEqual(model(x), x * 2)
