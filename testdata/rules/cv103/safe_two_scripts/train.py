import torch.distributed as dist


def main(t):
    dist.init_process_group("nccl")
    dist.all_reduce(t)


if __name__ == "__main__":
    main(None)
