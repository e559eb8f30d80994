# The loop's bound is stepped on rank 0 only: the other ranks never leave
# the loop and wait in its reduce once rank 0 has finished.
import torch.distributed as dist


class Learner:
    def __init__(self):
        self.rank = dist.get_rank()
        self._step = 1

    def train(self, iterations, make_batch):
        while self._step < iterations:
            t = make_batch()
            dist.reduce(t, dst=0)  # want CV301 "self._step < iterations"
            if self.rank == 0:
                print(t.tolist())
                self._step += 1

    def train_everyone(self, iterations, make_batch):
        while self._step < iterations:
            t = make_batch()
            dist.reduce(t, dst=0)
            if self.rank == 0:
                print(t.tolist())
            self._step += 1
