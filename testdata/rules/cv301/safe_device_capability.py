# What model this rank's GPU is asks what every rank of a homogeneous job
# answers alike (TransformerEngine's FP8 gate), although the device index
# differs between the processes of a node.
import torch
import torch.distributed as dist


def setup(t):
    if torch.cuda.get_device_properties(torch.cuda.current_device()).major >= 9:
        dist.all_reduce(t)
    if torch.cuda.get_device_capability(torch.cuda.current_device()) >= (9, 0):
        dist.barrier()
