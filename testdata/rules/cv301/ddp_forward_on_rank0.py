# DDP's forward broadcasts the module's buffers (BatchNorm statistics)
# from rank 0 unless broadcast_buffers=False: a forward that rank 0 alone
# runs (SlowFast's model-info pass, an evaluation on the master) waits for
# ranks that never join it.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def log_model_info(model):
    x = torch.randn(1, 3, 8, 8, device="cuda")
    model.eval()
    model(x)
    model.train()


def main():
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).cuda()
    model = DistributedDataParallel(net, device_ids=[torch.cuda.current_device()])
    if dist.get_rank() == 0:
        log_model_info(model)  # want CV301 "DDP broadcasts the module's buffers"
    for _ in range(3):
        loss = model(torch.randn(2, 3, 8, 8, device="cuda")).sum()
        loss.backward()


def eval_moved_wrapper(device):
    # .to() returns the wrapper itself: the model is still DDP.
    net = torch.nn.Sequential(torch.nn.Conv1d(1, 8, 3), torch.nn.BatchNorm1d(8)).to(device)
    model = DistributedDataParallel(net, device_ids=[device]).to(device)
    loss = model(torch.randn(4, 1, 64, device=device)).mean()
    loss.backward()
    if dist.get_rank() == 0:
        with torch.no_grad():
            model(torch.randn(1, 1, 64, device=device))  # want CV301 "DDP broadcasts the module's buffers"
