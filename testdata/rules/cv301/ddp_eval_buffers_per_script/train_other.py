# resnet18 holds BatchNorm buffers: its DDP forward, run on rank 0 only,
# broadcasts them alone.
import os

import torch
import torch.distributed as dist
from torchvision.models import resnet18


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(local_rank)
    model = torch.nn.parallel.DistributedDataParallel(resnet18().cuda(), device_ids=[local_rank])
    x = torch.randn(2, 3, 224, 224).cuda()
    model(x).sum().backward()
    if dist.get_rank() == 0:
        model.eval()
        with torch.no_grad():
            model(x)  # want CV301 "rank"


if __name__ == "__main__":
    main()
