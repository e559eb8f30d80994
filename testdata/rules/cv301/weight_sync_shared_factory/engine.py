# The inference engine's workers (their own processes) join unconditionally.
import torch.distributed as dist

from groups import make_sync_group


class EngineWorkerExtension:
    def init_sync_group(self, store, n_engine_workers, rank_offset):
        self.sync_group = make_sync_group(n_engine_workers + 1, dist.get_rank() + rank_offset, store)

    def update_weight(self, bufs):
        for b in bufs:
            dist.broadcast(b, 0, group=self.sync_group)
