# The training script of the same repository initialises NCCL: a rank
# whose step raised destroys its group while the others wait in the
# all-reduce (the daemon's gloo init, read first, does not make this gloo).
import torch.distributed as dist


def train(steps, t):
    dist.init_process_group("nccl")
    try:
        for _ in range(steps):
            dist.all_reduce(t)
    finally:
        dist.destroy_process_group()  # want CV301 "destroy_process_group on the default group"
