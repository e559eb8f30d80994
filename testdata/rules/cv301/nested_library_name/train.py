# A file named like an installed library, in a directory below the root
# that is not a package (geo/utils/torch.py, GeoTransformer's helpers
# copied without their __init__.py): it is importable as `torch` only by
# scripts run from geo/utils. Here `import torch` is PyTorch.
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda())
    if dist.get_rank() == 0:
        model(torch.randn(2, 4, device="cuda"))  # want CV301 "get_rank\(\) == 0"
    dist.barrier()
