# Desync tests: ranks diverge on purpose and the collective must raise.
import unittest

import torch.distributed as dist


class DesyncTest(unittest.TestCase):
    def test_monitored_barrier_reports_rank(self, rank, timeout):
        if rank == 0:
            with self.assertRaisesRegex(RuntimeError, "failed to pass monitoredBarrier"):
                dist.monitored_barrier(timeout=timeout)


class BarrierTimeoutTest(unittest.TestCase):
    def _test_barrier_timeout(self, group_id):
        # torch's own test: the context manager is bound to a name first.
        if dist.get_rank(group_id) == 0:
            exception_ctx = self.assertRaisesRegex(Exception, " (Timed out|closed|timeout) ")
            with exception_ctx:
                dist.barrier(group_id)
