# Desync tests: ranks diverge on purpose and the collective must raise.
import unittest

import torch.distributed as dist


class DesyncTest(unittest.TestCase):
    def test_monitored_barrier_reports_rank(self, rank, timeout):
        if rank == 0:
            with self.assertRaisesRegex(RuntimeError, "failed to pass monitoredBarrier"):
                dist.monitored_barrier(timeout=timeout)
