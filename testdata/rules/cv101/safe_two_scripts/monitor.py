import threading

import torch
import torch.distributed as dist


def report(x):
    dist.all_reduce(x)


def main():
    dist.init_process_group("nccl")
    t = threading.Thread(target=report, args=(torch.ones(1),))
    t.start()
    print("monitoring")
    t.join()


if __name__ == "__main__":
    main()
