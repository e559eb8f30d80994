# A stop flag that only rank 0 sets, then every rank tests to leave the
# loop: rank 0 leaves and the others run the next pass's collective
# (joeynmt's minimum-learning-rate stop, in its simplest form).
import torch.distributed as dist


class State:
    def __init__(self):
        self.stop = False


def fit(batches, opt):
    rank = dist.get_rank()
    stop = False
    for b in batches:
        dist.all_reduce(b)  # want CV301 "all_reduce .*runs only on the ranks that do not leave early at .*\(`stop`\)"
        if rank == 0 and opt.param_groups[0]["lr"] < 1e-6:
            stop = True
        if stop:
            break
    dist.barrier()


def fit_on_object(batches):
    rank = dist.get_rank()
    s = State()
    for b in batches:
        dist.all_reduce(b)  # want CV301 "all_reduce .*runs only on the ranks that do not leave early at .*\(`s.stop`\)"
        if rank == 0:
            s.stop = True
        if s.stop:
            break
