# Rank 0 picks the step to resume from; a method of every rank then
# takes the broadcast answer into the same attribute, so the tests that
# read it agree.
import torch.distributed as dist


class Trainer:
    def __init__(self):
        self.rank = dist.get_rank()
        self.resume_step = None

    def pick(self, steps):
        if self.rank == 0:
            self.resume_step = max(steps)

    def agree(self):
        box = [self.resume_step]
        dist.broadcast_object_list(box, src=0)
        self.resume_step = box[0]

    def run(self):
        if self.resume_step is not None:
            dist.barrier()


def main():
    dist.init_process_group("gloo")
    t = Trainer()
    t.pick([1, 2])
    t.agree()
    t.run()
