# Loops that run the same number of passes on every rank, or whose
# collectives are on the groups the loop variable names (each rank on the
# groups it belongs to), or point-to-point.
import torch.distributed as dist


class Trainer:
    def __init__(self, local_rank, start_epoch=0, max_epoch=10):
        self.local_rank = local_rank
        self.start_epoch = start_epoch
        self.max_epoch = max_epoch


def every_share(partitions):
    world = dist.get_world_size()
    for r in range(world):
        for p in partitions[r]:
            dist.broadcast(p, src=r)


def my_groups(groups_of, t):
    rank = dist.get_rank()
    for g in groups_of[rank]:
        dist.all_reduce(t, group=g)


def sends(chunks, t):
    rank = dist.get_rank()
    for c in chunks[rank]:
        dist.send(c, dst=(rank + 1) % dist.get_world_size())


def epochs(local_rank, t):
    trainer = Trainer(local_rank=local_rank)
    for epoch in range(trainer.start_epoch, trainer.max_epoch):
        dist.barrier()


class EvenRunner:
    # The stage size comes from the configuration alone: every rank runs
    # the same number of layers.
    def __init__(self, n_layers, pp, group):
        self.group = group
        self.n_layers = n_layers // pp + int(n_layers % pp > 0)

    def forward(self, x):
        for _ in range(self.n_layers):
            dist.all_reduce(x, group=self.group)
        return x


def run_steps(t, start, n):
    for _ in range(start, n):
        dist.all_reduce(t)


def hand_same_constant(t, resume):
    # The choice is the configuration's, not the rank's.
    start = 5 if resume else 0
    run_steps(t, start, 10)
