# The torchrun entry point: main() on the main thread.
import torch
import torch.distributed as dist


def main():
    if not dist.is_initialized():
        dist.init_process_group("nccl")
    x = torch.ones(1).cuda()
    for _ in range(10):
        dist.all_reduce(x)


if __name__ == "__main__":
    main()
