# A stop flag rank 0 sets and broadcasts before any rank tests it, or a
# flag every rank sets alike again.
import torch
import torch.distributed as dist


def fit(batches, opt):
    rank = dist.get_rank()
    stop = False
    for b in batches:
        dist.all_reduce(b)
        if rank == 0 and opt.param_groups[0]["lr"] < 1e-6:
            stop = True
        flag = torch.tensor([int(stop)], device="cuda")
        dist.broadcast(flag, src=0)
        stop = bool(flag.item())
        if stop:
            break
    dist.barrier()


def reset(batches):
    rank = dist.get_rank()
    stop = False
    for b in batches:
        if rank == 0:
            stop = True
        stop = False
        if stop:
            break
        dist.all_reduce(b)


class Trainer:
    def __init__(self):
        self.stop = False
        self.rank = dist.get_rank()

    def _check(self):
        self.stop = True

    def train(self, batches):
        for b in batches:
            dist.all_reduce(b)
            # Every rank runs the check: the flag is set alike.
            self._check()
            if self.stop:
                break
