# The distributed setup stores "am I the master" on the options object
# (XLM's init_distributed_mode: params.is_master = …); the trainer keeps
# the options and gates a barrier on the flag: rank 0 alone enters it.
import argparse

import torch.distributed as dist


def init_distributed_mode(params):
    dist.init_process_group("nccl")
    params.is_master = params.local_rank == 0 and dist.get_rank() == 0


class Trainer:
    def __init__(self, params):
        self.params = params

    def save(self):
        if self.params.is_master:
            dist.barrier()  # want CV301 "runs only when `self.params.is_master` holds"


def main():
    params = argparse.ArgumentParser().parse_args()
    init_distributed_mode(params)
    trainer = Trainer(params)
    trainer.save()
