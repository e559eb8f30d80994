# A script beside geo/utils/torch.py: run from here, `import torch` finds
# that file first, which has no DistributedDataParallel, so nothing here
# is a collective.
import torch
import torch.distributed as dist


def main(model):
    model = torch.nn.parallel.DistributedDataParallel(model)
    if dist.get_rank() == 0:
        model(torch.randn(2, 4))
