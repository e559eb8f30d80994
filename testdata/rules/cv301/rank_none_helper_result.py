# A helper returns None when this rank's rows hold none of the shared
# sample; the caller skips the training step on None, so only the ranks
# with rows issue the step's collectives (plexus's compact minibatch,
# reduced).
import torch
import torch.distributed as dist


def prepare_minibatch(sample_idx, row_start, row_stop, features):
    local_rows = sample_idx[(sample_idx >= row_start) & (sample_idx < row_stop)] - row_start
    if local_rows.numel() == 0:
        return None
    return features.index_select(0, local_rows)


def train_step(x, group):
    out = x.sum(0)
    dist.all_reduce(out, group=group)
    return out


def main(features, n, group):
    rank, world = dist.get_rank(), dist.get_world_size()
    rows = n // world
    for step in range(100):
        sample_idx = torch.arange(step, n, 97)
        minibatch = prepare_minibatch(sample_idx, rank * rows, (rank + 1) * rows, features)
        if minibatch is None:
            continue
        train_step(minibatch, group)  # want CV301 "do not leave early"
