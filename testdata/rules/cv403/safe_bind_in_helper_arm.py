# The accelerator is bound first, in an arm of the same test, and the
# group made after it.
import torch
import torch.distributed as dist


class BoundFirst:
    def __init__(self, local_rank):
        self.local_rank = local_rank
        self.setup_torch()
        self.init_process_group()
        dist.all_reduce(torch.ones(4, device=self.device))

    def init_process_group(self):
        dist.init_process_group("xccl", init_method="env://")

    def setup_torch(self):
        if torch.xpu.is_available():
            self.device = torch.device("xpu")
            torch.xpu.set_device(self.local_rank)
        else:
            self.device = torch.device("cpu")
