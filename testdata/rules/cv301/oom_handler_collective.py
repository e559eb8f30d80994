# The out-of-memory handler fences on the failed rank only: the others
# never reach that barrier, and the failed rank's barrier pairs with their
# next collective.
import torch
import torch.distributed as dist


def make_input(n):
    try:
        return torch.ones(n).cuda()
    except RuntimeError as e:
        if "out of memory" in str(e):
            dist.barrier()  # want CV301 "runs in the handler"
            return None
        raise e
