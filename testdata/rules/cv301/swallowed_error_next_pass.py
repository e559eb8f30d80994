# A training step in a try whose handler catches RuntimeError (what
# running out of memory raises) and goes on to the next batch: the rank
# that failed skips its gradient all-reduce while the others wait in it
# (cassnat_asr's trainer).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(rank, world_size, loader):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    model = DDP(torch.nn.Linear(8, 8).cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        try:
            loss = model(x.cuda(rank)).sum()
            loss.backward()  # want CV301 "skipped on a rank whose work before it raises"
            opt.step()
            opt.zero_grad()
        except RuntimeError as err:
            print("{}!, Skip batch, cuda out of memory".format(err))
            continue
