# A validation loss reduced to rank 0 (dist.reduce(t, dst=0)) and read on
# every rank: only rank 0 holds the sum, the others keep their own share,
# so an early stop decided from it differs between ranks (thuml's
# OpenLTM/Timer-XL trainers). The ranks that stop wait in the final
# barrier while the others all-reduce the next epoch's gradients.
import torch
import torch.distributed as dist


def validate(local_loss, device):
    t = torch.tensor(local_loss, device=device)
    dist.reduce(t, dst=0, op=dist.ReduceOp.SUM)
    return t.item() / dist.get_world_size()


class EarlyStopping:
    def __init__(self):
        self.best_score = None
        self.counter = 0

    def __call__(self, val_loss):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
        elif score < self.best_score:
            self.counter += 1
        else:
            self.best_score = score
            dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `not \(score < self.best_score\)` holds"


def train(epochs, device, losses):
    stopper = EarlyStopping()
    best = float("inf")
    bad = 0
    for epoch in range(epochs):
        g = torch.ones(4, device=device)
        dist.all_reduce(g)  # want CV301 "all_reduce on the default group \(WORLD\) runs only on the ranks that do not leave early"
        val_loss = validate(losses[epoch], device)
        stopper(val_loss)
        if val_loss < best:
            best, bad = val_loss, 0
        else:
            bad += 1
        if bad >= 3:
            break
    dist.barrier()


def local(t):
    # In the function that reduces: the buffer is rank 0's result on rank
    # 0 only.
    dist.reduce(t, dst=0)
    if t.item() > 1.0:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `t.item\(\) > 1.0` holds"
