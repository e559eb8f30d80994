import torch.distributed as dist


def exchange(pg, out, inp):
    pg.alltoall_base(out, inp, [], [])  # want CV401 "alltoall_base returns is discarded"
