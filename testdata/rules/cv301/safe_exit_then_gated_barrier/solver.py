# audiocraft's save_checkpoints: the non-zero ranks return only when the
# checkpoint is not sharded, and the checkpoint helper's barriers (in a
# closure reading its is_sharded parameter) run only when it is: no rank
# has left whenever a barrier is issued.
import torch.distributed as dist

import ck


class Solver:
    def save(self, cfg):
        is_sharded = cfg.use
        if not dist.get_rank() == 0 and not is_sharded:
            return
        state = {}
        ck.save_checkpoint(state, "p", is_sharded)
