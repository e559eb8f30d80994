# Flags the setup stores on the options object that every rank answers
# alike (a multi-GPU job or not), and the master flag used only to gate
# logging: nothing rank-dependent gates a collective.
import argparse

import torch.distributed as dist


def init_distributed_mode(params):
    dist.init_process_group("nccl")
    params.multi_gpu = dist.get_world_size() > 1
    params.is_master = dist.get_rank() == 0


class Trainer:
    def __init__(self, params):
        self.params = params

    def save(self):
        if self.params.multi_gpu:
            dist.barrier()
        if self.params.is_master:
            print("saved")


def main():
    params = argparse.ArgumentParser().parse_args()
    init_distributed_mode(params)
    Trainer(params).save()
