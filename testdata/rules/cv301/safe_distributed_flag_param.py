# "Is the job distributed?" (local_rank != -1, > -1, >= 0) handed to a
# helper's flag: every rank of a distributed job answers it alike
# (RepCONC's eval_balance(codes, local_rank > -1)).
import torch
import torch.distributed as dist


def gather_codes(codes, distributed):
    if distributed:
        out = [torch.empty_like(codes) for _ in range(dist.get_world_size())]
        dist.all_gather(out, codes)
        return torch.cat(out)
    return codes


def run(codes, args):
    a = gather_codes(codes, args.local_rank != -1)
    b = gather_codes(codes, args.local_rank > -1)
    c = gather_codes(codes, args.local_rank >= 0)
    return a, b, c
