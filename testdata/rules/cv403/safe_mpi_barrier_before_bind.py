# An mpi4py Barrier between init_process_group("nccl") and set_device is
# host work on MPI's communicator: nothing touches a device or NCCL's
# communicator before the device is bound (ALCF's DDP-over-MPI scripts).
import torch
import torch.distributed as dist
from mpi4py import MPI

rank = MPI.COMM_WORLD.Get_rank()
size = MPI.COMM_WORLD.Get_size()
dist.init_process_group(backend="nccl", init_method="env://", world_size=size, rank=rank)
MPI.COMM_WORLD.Barrier()
torch.cuda.set_device(rank % torch.cuda.device_count())
x = torch.ones(4, device="cuda")
dist.all_reduce(x)
