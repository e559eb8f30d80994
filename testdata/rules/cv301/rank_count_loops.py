# Collectives in loops whose number of passes depends on the rank: the
# ranks issue them different numbers of times.
import torch.distributed as dist


def warmup(t):
    rank = dist.get_rank()
    for _ in range(rank):
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group \(WORLD\) is issued once per element of `range\(rank\)`, whose length depends on the rank"


def own_partition(partitions):
    rank = dist.get_rank()
    for p in partitions[rank]:
        dist.broadcast(p, src=rank)  # want CV301 "broadcast on the default group \(WORLD\) is issued once per element of `partitions\[rank\]`"


def strided(files, model, load):
    rank, world = dist.get_rank(), dist.get_world_size()
    mine = files[rank::world]
    for i, f in enumerate(mine):
        dist.all_reduce(load(f))  # want CV301 "is issued once per element of `enumerate\(mine\)`"


def resume_epochs(t, epochs):
    # The bounds are evaluated before the target rebinds the name
    # (UniMatch's `for epoch in range(epoch + 1, cfg["epochs"])`).
    epoch = -1
    if dist.get_rank() == 0:
        epoch = 8
    for epoch in range(epoch + 1, epochs):
        dist.all_reduce(t)  # want CV301 "whose length depends on the rank"


class LayerRunner:
    # The stage size is computed from the global rank: the first ranks
    # get one more layer, and each layer all-reduces on a group of ranks
    # with different counts (terapipe's test runner).
    def __init__(self, n_layers, pp, group):
        self.group = group
        self.n_layers = n_layers // pp + int(dist.get_rank() < n_layers % pp)

    def forward(self, x):
        for _ in range(self.n_layers):
            dist.all_reduce(x, group=self.group)  # want CV301 "range\(self.n_layers\)`, whose length depends on the rank"
        return x


def run_from(t, start, n):
    for _ in range(start, n):
        dist.all_reduce(t)  # want CV301 "range\(start, n\)`, whose length depends on the rank"


def hand_rank_ternary(t):
    # Two constants picked by a rank test, handed to a helper that loops
    # from them (llm-baselines' resume, narrowed).
    start = 5 if dist.get_rank() == 0 else 0
    run_from(t, start, 10)


def arange_share(t, n_items):
    # numpy's and torch's arange count as range does: the rank's stride
    # of the items.
    import numpy as np
    import torch

    for _ in np.arange(dist.get_rank(), n_items, dist.get_world_size()):
        dist.all_reduce(t)  # want CV301 "is issued once per element of `np.arange"
    for _ in torch.arange(0, n_items):
        dist.all_reduce(t)


def loader_over_share(data, t):
    # A DataLoader batches the rank's stride of the data: as many batches
    # as that share's length makes (a course's hand-made data parallelism,
    # the last rank taking the remainder). A loader over the whole
    # dataset, split by a sampler, pads every rank to one length.
    from torch.utils.data import DataLoader, DistributedSampler

    rank, world = dist.get_rank(), dist.get_world_size()
    for batch in DataLoader(data[rank::world], batch_size=4):
        dist.all_reduce(t)  # want CV301 "is issued once per element of `DataLoader\(data\[rank::world\]"
    share = data[rank::world]
    loader = DataLoader(share, batch_size=4, shuffle=True)
    for batch in loader:
        dist.all_reduce(t)  # want CV301 "is issued once per element of `loader`"
    for batch in DataLoader(data, batch_size=4, sampler=DistributedSampler(data)):
        dist.all_reduce(t)
