# A wrapper handed its submodules (VICRegL's ModelWrapper around a
# ResNet with BatchNorm buffers): the DDP forward that rank 0 alone runs
# broadcasts the backbone's buffers.
import torch
import torch.distributed as dist
from torch import nn
import torchvision


class ModelWrapper(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone
        self.head = head

    def forward(self, x):
        return self.head(self.backbone(x))


def main_worker(gpu, world_size, loader):
    dist.init_process_group("nccl", world_size=world_size, rank=gpu)
    model = ModelWrapper(torchvision.models.resnet50(), nn.Linear(1000, 10)).cuda(gpu)
    model = nn.parallel.DistributedDataParallel(model, device_ids=[gpu])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if gpu == 0:
        with torch.no_grad():
            model(next(iter(loader)))  # want CV301 "the model's forward"
