# A CuPy handle on a torch stream (CocktailSGD's pipeline): making one
# writes no device memory, and passing it on as `stream=` reads none.
import cupy
import torch
import torch.distributed as dist


class Comm:
    def __init__(self, group):
        self.group = group

    def isend(self, tensor, dst, stream=None):
        return dist.isend(tensor.cpu(), dst, group=self.group)


class DP:
    def __init__(self, device, group):
        self.comm = Comm(group)
        self.side = torch.cuda.Stream(device=device)

    def sync(self, x):
        cs = cupy.cuda.ExternalStream(self.side.cuda_stream)
        with torch.cuda.stream(self.side), cs:
            call = self.comm.isend(x, dst=1, stream=cs)
            call.wait()
