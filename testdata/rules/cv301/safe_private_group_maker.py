# The weight-update group made by a private copy of the project's group
# maker (`_init_process_group`, turbo-alignment's), only where rank 0
# runs: its members are rank 0 and the inference engines.
import torch.distributed as dist
from mypkg.distributed import _init_process_group


class Trainer:
    def __init__(self, engines, addr, port):
        self.engines = engines
        if self.engines is not None and dist.get_rank() == 0:
            self._model_update_group = _init_process_group(
                backend="nccl",
                init_method=f"tcp://{addr}:{port}",
                world_size=len(engines) + 1,
                rank=0,
                group_name="sync",
            )
        dist.barrier()

    def broadcast_to_vllm(self, model):
        for name, param in model.named_parameters():
            if dist.get_rank() == 0:
                dist.broadcast(param.data, 0, group=self._model_update_group)
