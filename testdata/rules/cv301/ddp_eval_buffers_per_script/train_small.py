# A buffer-free module's no-grad forward on rank 0 issues nothing (DDP has
# no buffers to broadcast), whatever another script of the tree wraps:
# the two scripts never share a process (azureml-examples' cifar job
# beside its SwinUNETR one).
import os
import torch
import torch.nn as nn
import torch.distributed as dist


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def main():
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="nccl")
    device = torch.device("cuda", local_rank)
    model = nn.parallel.DistributedDataParallel(Net().to(device), device_ids=[local_rank])
    x = torch.randn(4, 8, device=device)
    model(x).sum().backward()
    if rank == 0:
        evaluate(model, x)   # Net holds no buffers: DDP's forward issues nothing


if __name__ == "__main__":
    main()
