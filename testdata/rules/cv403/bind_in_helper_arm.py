# One method makes the group on oneCCL, another binds the device in an
# arm of its accelerator test afterwards (nekRS-ML's dist-gnn trainer):
# oneCCL binds the device when the group is made, so the later binding
# comes too late.
import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, local_rank):
        self.local_rank = local_rank
        self.init_process_group()
        self.setup_torch()
        dist.all_reduce(torch.ones(4, device=self.device))

    def init_process_group(self):
        dist.init_process_group("xccl", init_method="env://")  # want CV403 "created on \"xccl\" without device_id"

    def setup_torch(self):
        if torch.xpu.is_available():
            self.device = torch.device("xpu")
            torch.xpu.set_device(self.local_rank)
        else:
            self.device = torch.device("cpu")
