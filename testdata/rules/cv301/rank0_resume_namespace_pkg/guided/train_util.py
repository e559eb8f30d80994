# The resume path loads the checkpoint on rank 0 only, through the loader
# above: its broadcast waits for ranks that never call it, and training
# hangs at "loading model from checkpoint" (guided-diffusion#23). The
# package has no __init__.py (a namespace package): `from . import` still
# resolves relative to it.
import torch.distributed as dist

from . import dist_util


class TrainLoop:
    def __init__(self, model, resume_checkpoint):
        self.model = model
        self.resume_checkpoint = resume_checkpoint

    def _load_and_sync_parameters(self):
        if self.resume_checkpoint:
            if dist.get_rank() == 0:
                self.model.load_state_dict(
                    dist_util.load_state_dict(self.resume_checkpoint)  # want CV301 "bcast .* runs only when `dist.get_rank\(\) == 0`"
                )
        for p in self.model.parameters():
            dist.broadcast(p, 0)
