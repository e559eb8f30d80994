# The later test overlaps the condition the handle was made under: on the
# ranks in both (cp_rank == 1 here) the handle is left unwaited.
import torch
import torch.distributed as dist


def pass_from_previous_rank(x, group, cp_size):
    rank = dist.get_rank()
    cp_rank = rank % cp_size
    recv_buffer = torch.empty_like(x[-1:])
    if cp_rank > 0:
        req_recv = dist.irecv(recv_buffer, rank - 1, group=group)  # want CV401 "is not waited on the path that leaves the function"
    if cp_rank <= 1:
        return x
    req_recv.wait()
    return torch.cat([recv_buffer, x], dim=0)


def other_subject(x, rank, stage):
    if stage > 0:
        req = dist.irecv(x, rank - 1)  # want CV401 "is not waited on the path that leaves the function"
    if rank == 0:
        return x
    req.wait()
    return x
