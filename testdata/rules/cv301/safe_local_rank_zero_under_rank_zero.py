# The main process first: ranks other than 0 wait in a barrier while
# rank 0 saves, then rank 0 joins them. Its own barrier sits under
# `local_rank == 0`, which global rank 0 always is when there is a job
# (TextBrewer's saver): every rank issues one barrier.
import torch
import torch.distributed as dist


class Saver:
    def __init__(self, local_rank):
        self.local_rank = local_rank
        self.rank = 0
        if self.local_rank != -1:
            self.rank = dist.get_rank()

    def save(self, model, path):
        if self.rank != 0:
            dist.barrier()
        else:
            torch.save(model.state_dict(), path)
            if self.local_rank == 0:
                dist.barrier()


def save_first(model, path, local_rank):
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), path)
        if local_rank == 0:
            dist.barrier()
    else:
        dist.barrier()
