# The weight-update group comes from the project's own helper module,
# which is not among the analysed files (OpenRLHF's distributed_util). It
# is made and kept only where rank 0 runs: its members are rank 0 and the
# inference engines, so rank 0 alone broadcasts on it.
import torch.distributed as dist
from mypkg.distributed_util import init_process_group


class Actor:
    def __init__(self, model, master, port, engines, use_ray):
        self.model = model
        self.use_ray = use_ray
        if self.use_ray is not None and dist.get_rank() == 0:
            group_name = "openrlhf"
            if use_ray:
                # ray.util.collective names its groups: the attribute
                # holds the name.
                self._model_update_group = group_name
            else:
                self._model_update_group = init_process_group(
                    backend="nccl",
                    init_method=f"tcp://{master}:{port}",
                    world_size=engines + 1,
                    rank=0,
                    group_name=group_name,
                )
        dist.barrier()

    def broadcast_to_engines(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                dist.broadcast(p.data, 0, group=self._model_update_group)
