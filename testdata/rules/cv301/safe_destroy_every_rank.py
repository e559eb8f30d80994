# Every rank destroys the group; rank 0 alone logs it.
import os

import torch.distributed as dist

RANK = int(os.getenv("RANK", -1))
WORLD_SIZE = int(os.getenv("WORLD_SIZE", 1))


def main():
    if WORLD_SIZE > 1:
        dist.init_process_group(backend="nccl")
    if WORLD_SIZE > 1:
        if RANK == 0:
            print("Destroying process group... ")
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
