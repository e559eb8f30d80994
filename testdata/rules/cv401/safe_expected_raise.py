# Failure-injection tests: the call is expected to raise, so there is no
# handle to wait (torch's distributed_test.py).
import unittest

import torch.distributed as dist


class P2PTest(unittest.TestCase):
    def test_cpu_tensor_rejected(self, t):
        with self.assertRaisesRegex(RuntimeError, "Tensors must be CUDA"):
            dist.batch_isend_irecv([dist.P2POp(dist.isend, t, 1)])
