# The step of the last save is recorded on every rank; only the log line
# is rank 0's: every rank answers the final comparison alike.
import torch.distributed as dist


class Trainer:
    def __init__(self, rank):
        self.is_main_process = rank == 0
        self.iteration = 0
        self.last_checkpoint_step = None
        self.best = float("inf")

    def save_checkpoint(self, loss):
        dist.barrier()
        if self.is_main_process:
            self.last_checkpoint_step = self.iteration
            print("saved", self.iteration)
        self.last_checkpoint_step = self.iteration
        if self.is_main_process:
            self.best = loss  # tracked on rank 0 and read there only
        if self.is_main_process and self.best < 1.0:
            print("best so far")

    def train(self, steps, every):
        for _ in range(steps):
            self.iteration += 1
            if self.iteration % every == 0:
                self.save_checkpoint(1.0)


def save_final_checkpoint(trainer):
    if trainer.last_checkpoint_step != trainer.iteration:
        trainer.save_checkpoint(0.5)


def main():
    dist.init_process_group("nccl")
    trainer = Trainer(dist.get_rank())
    trainer.train(steps=100, every=50)
    save_final_checkpoint(trainer)
    dist.barrier()
