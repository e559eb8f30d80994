# Another script of the repository: it never starts the reporter.
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    dist.barrier()


if __name__ == "__main__":
    main()
