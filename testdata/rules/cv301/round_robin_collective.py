# A round robin whose passes issue a collective of their own: ranks run
# different numbers of passes, and so of all-reduces.
import torch
import torch.distributed as dist


def score(items):
    rank, world_size = dist.get_rank(), dist.get_world_size()
    for idx, item in enumerate(items):
        if idx % world_size != rank:
            continue
        t = torch.tensor([item], device="cuda")
        dist.all_reduce(t)  # want CV301 "all_reduce"


class Model:
    def __init__(self, net):
        self.net = torch.nn.parallel.DistributedDataParallel(net.cuda())

    def step(self, batch):
        # A training forward in the helper: every one of them broadcasts.
        loss = self.net(batch.cuda()).sum()
        return loss

    def validation(self, loader):
        rank, world_size = dist.get_rank(), dist.get_world_size()
        for idx, batch in enumerate(loader):
            if idx % world_size != rank:
                continue
            self.step(batch)  # want CV301 "the model's forward"
