"""Hangs on purpose: rank 0 waits in all_reduce, rank 1 in a recv nobody sends.
The witness test runs it to check that a hung run fails with every thread's
stack and a guard record. Not a fixture (it lives outside testdata/witness)."""
import os

import torch
import torch.distributed as dist


def main():
    rank = int(os.environ["RANK"])
    dist.init_process_group("gloo", init_method=os.environ["WITNESS_INIT"], rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
    if rank == 0:
        dist.all_reduce(torch.ones(4))  # never matched; mark: rank0
    else:
        dist.recv(torch.ones(4), src=0)  # never sent; mark: rank1


if __name__ == "__main__":
    main()
