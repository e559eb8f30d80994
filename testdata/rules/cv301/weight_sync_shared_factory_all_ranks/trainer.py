# Every trainer rank joins the group, but only rank 0 broadcasts: the
# other trainer ranks never issue their side.
import torch.distributed as dist

from groups import make_sync_group


class TrainerWorker:
    def setup_weight_sync_group(self, store, n_engine_workers):
        self.sync_group = make_sync_group(n_engine_workers + dist.get_world_size(), dist.get_rank(), store)

    def sync_weight(self, params):
        if dist.get_rank() == 0:
            for p in params:
                dist.broadcast(p, 0, group=self.sync_group)  # want CV301 "broadcast on group _new_process_group_helper@"
        dist.barrier()
