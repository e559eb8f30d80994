# The module is moved to the rank's device and DDP is told that device
# (device_ids=[device]) before set_device binds it: DDP's construction
# collectives run on the parameters' device, not on device 0
# (DeepDriveMD's AAE trainer).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main(gpu):
    dist.init_process_group(backend="nccl", init_method="env://")
    device = torch.device(f"cuda:{gpu}")
    model = torch.nn.Linear(8, 8).to(device)
    model = DDP(model, device_ids=[device], output_device=device)
    torch.cuda.set_device(device.index)
    model(torch.randn(4, 8, device=device)).sum().backward()
