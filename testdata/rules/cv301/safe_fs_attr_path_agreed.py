# The newest checkpoint is looked for on rank 0 and its answer broadcast
# before it is kept on the config object; a path set from the command
# line is the same everywhere.
import os

import torch.distributed as dist


class Solver:
    def __init__(self, args):
        self.args = args
        found = [None]
        if dist.get_rank() == 0:
            ckpts = [c for c in os.listdir(self.args.output_dir) if "epoch" in c]
            if len(ckpts) > 0:
                found[0] = os.path.join(self.args.output_dir, sorted(ckpts)[-1])
        dist.broadcast_object_list(found, src=0)
        self.args.resume_path = found[0]
        self.args.init_from = args.init_from
        self.build_model()

    def build_model(self):
        init_from = self.args.resume_path or self.args.init_from
        if init_from is None:
            dist.barrier()
        return init_from
