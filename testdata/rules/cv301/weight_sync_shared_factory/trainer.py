# Trainer rank 0 alone joins, and alone broadcasts: its attribute holds
# only the group its gated call made (silent).
import torch.distributed as dist

from groups import make_sync_group


class TrainerWorker:
    def setup_weight_sync_group(self, store, n_engine_workers):
        self.sync_group = None
        if dist.get_rank() == 0:
            self.sync_group = make_sync_group(n_engine_workers + 1, 0, store)

    def sync_weight(self, params):
        if dist.get_rank() == 0:
            for p in params:
                dist.broadcast(p, 0, group=self.sync_group)
        dist.barrier()
