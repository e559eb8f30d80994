# Two exits under rank tests, one after the other: the odd ranks leave
# after a barrier, then the even ranks other than 0 leave without one,
# and rank 0 alone reaches the last barrier. Each exit is compared with
# the path of the ranks that take the next one, and the next one with the
# rest.
import torch.distributed as dist


def finish():
    if dist.get_rank() % 2 == 1:
        dist.barrier()  # want CV301 "barrier on .* runs only when `dist.get_rank\(\) % 2 == 1` holds"
        return
    if dist.get_rank() != 0:
        return
    dist.barrier()  # want CV301 "barrier on .* runs only on the ranks that do not leave early .*`dist.get_rank\(\) != 0`"
