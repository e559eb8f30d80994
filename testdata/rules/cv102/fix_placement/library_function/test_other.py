# Another script: it initialises torch.distributed but never runs the
# Function above.
import torch.distributed as dist


def worker(rank, world_size, x):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    dist.all_reduce(x)


if __name__ == "__main__":
    worker(0, 1, None)
