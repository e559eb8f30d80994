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


class AgreedTrainer:
    def __init__(self):
        self.should_stop = False

    def step(self, kl):
        dist.all_reduce(kl)
        if dist.get_rank() == 0 and kl.item() > 0.5:
            self.should_stop = True
        # Rank 0's decision is broadcast into the flag every rank holds.
        box = [self.should_stop]
        dist.broadcast_object_list(box, src=0)
        self.should_stop = box[0]


def drive_agreed(kls):
    trainer = AgreedTrainer()
    for kl in kls:
        trainer.step(kl)
        if trainer.should_stop:
            break


def log_below_guard(t, epochs):
    # Below the guard rank 0 only logs; its exits leave nothing the
    # others issue (the loop's next pass is every rank's).
    for epoch in range(epochs):
        dist.all_reduce(t)
        if dist.get_rank() != 0:
            continue
        if epoch % 10:
            continue
        print(epoch, t.item())
