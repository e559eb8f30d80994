# The attribute handed to init_process_group as the rank is the rank,
# whatever its name (scaling_marl's trainer: only replicate rank 0 reads
# the task queue, and on TERMINATE it leaves the loop while the others go
# on to the barrier).
import torch.distributed as dist


class Trainer:
    def __init__(self, replicate_rank, num_trainers, queue):
        self.replicate_rank = replicate_rank
        self.replicate_count = num_trainers
        self.num_trainers = num_trainers
        self.queue = queue
        self.terminate = False

    def process_task(self, task):
        if task == 1:
            self.terminate = True

    def run(self):
        dist.init_process_group("nccl", rank=self.replicate_rank, world_size=self.num_trainers)
        while not self.terminate:
            if self.replicate_rank == 0:
                self.process_task(self.queue.get())
                if self.terminate:
                    break
            dist.barrier()  # want CV301 "self.terminate"
        dist.destroy_process_group()

    def sync(self):
        # The world size handed beside it is no rank.
        if self.replicate_count > 1:
            dist.barrier()
