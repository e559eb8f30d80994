# An object built with the rank keeps a position of its own (the epoch
# its shard has reached); a method sets it to the largest over every rank
# (an all_gather_object, then max), after which every rank holds the
# same and leaves the loop at the same pass (qlora-pipe's sync_epoch).
# Read before the sync, the position is still each rank's own.
import torch.distributed as dist


class Loader:
    def __init__(self, rank):
        self.rank = rank
        self.epoch = 1

    def advance(self):
        if self.rank == 0:
            self.epoch += 1

    def sync_epoch(self):
        result = [None] * dist.get_world_size()
        dist.all_gather_object(result, self.epoch)
        max_epoch = -1
        for e in result:
            max_epoch = max(e, max_epoch)
        self.epoch = max_epoch


def synced():
    loader = Loader(dist.get_rank())
    while True:
        loader.advance()
        loader.sync_epoch()
        epoch = loader.epoch
        if epoch > 3:
            break
        dist.barrier()


def unsynced():
    loader = Loader(dist.get_rank())
    while True:
        loader.advance()
        if loader.epoch > 3:
            break
        dist.barrier()  # want CV301 "runs only on the ranks that do not leave early"


def main():
    dist.init_process_group("nccl")
    synced()
    unsynced()
