# A trainer records the step of its last save on rank 0 only; the final
# save compares it with the current step (minllm's pretraining setup):
# rank 0 skips the final save after one at the last step, the other
# ranks still hold None and enter the save's barrier alone.
import torch.distributed as dist


class Trainer:
    def __init__(self, rank):
        self.is_main_process = rank == 0
        self.iteration = 0
        self.last_checkpoint_step = None

    def save_checkpoint(self):
        dist.barrier()
        if self.is_main_process:
            self.last_checkpoint_step = self.iteration

    def train(self, steps, every):
        for _ in range(steps):
            self.iteration += 1
            if self.iteration % every == 0:
                self.save_checkpoint()


def save_final_checkpoint(trainer):
    if trainer.last_checkpoint_step != trainer.iteration:
        trainer.save_checkpoint()  # want CV301 "runs only when `trainer.last_checkpoint_step != trainer.iteration` holds"


def main():
    dist.init_process_group("nccl")
    trainer = Trainer(dist.get_rank())
    trainer.train(steps=100, every=50)
    save_final_checkpoint(trainer)
    dist.barrier()
