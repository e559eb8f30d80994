# A barrier before a set_device of the rank's own GPU is no hazard: not
# knowing the device, ProcessGroupNCCL runs the barrier on GPU `global
# rank % GPUs per node`, the rank's local GPU wherever ranks fill the
# nodes in order (torchrun's numbering). These are the projects' own
# shapes; the unsafe CV403 fixtures of the same names issue an object
# collective (device 0 on every rank) where these have the barrier.
# RT-DETR's init with the default backend.
import torch
import torch.distributed as dist


def init_distributed():
    dist.init_process_group(init_method="env://")
    dist.barrier()
    torch.cuda.set_device(dist.get_rank())
