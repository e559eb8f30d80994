# __init__ lists the output directory on each host and keeps the newest
# checkpoint on the config object the solver holds (self.args.resume_path);
# another method runs a barrier only when none was found (Lumina-mGPT's
# finetune solver).
import os
import torch.distributed as dist


class Solver:
    def __init__(self, args):
        self.args = args
        if self.args.auto_resume and self.args.resume_path is None:
            ckpts = [c for c in os.listdir(self.args.output_dir) if "epoch" in c]
            if len(ckpts) > 0:
                self.args.resume_path = os.path.join(self.args.output_dir, sorted(ckpts)[-1])
        self.build_model()

    def build_model(self):
        init_from = self.args.resume_path or self.args.init_from
        if init_from is None:
            if dist.get_rank() == 0:
                print("creating starting point")
            dist.barrier()  # want CV301 "runs only when `init_from is None` holds, which depends on a file system check"
            init_from = "starting_point"
        return init_from
