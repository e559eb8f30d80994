# A helper that computes ring neighbours returns Python ints (rank
# arithmetic), whatever stream block they are used in next.
import torch
import torch.distributed as dist


def neighbors(rank, world, step):
    if world <= 1:
        return rank, rank
    if step % 2 == 0:
        prev_rank = (rank - 1 + world) % world
        next_rank = (rank + 1) % world
    else:
        prev_rank = (rank + 1) % world
        next_rank = (rank - 1 + world) % world
    return prev_rank, next_rank


def post_irecv(t, src):
    return dist.irecv(t, src=src)


def exchange(x, step):
    rank, world = dist.get_rank(), dist.get_world_size()
    comm = torch.cuda.Stream()
    buf = torch.empty_like(x)
    comm.wait_stream(torch.cuda.current_stream())
    prev_rank, next_rank = neighbors(rank, world, step)
    with torch.cuda.stream(comm):
        req = post_irecv(buf, src=prev_rank)
        dist.isend(x, dst=next_rank).wait()
    torch.cuda.current_stream().wait_stream(comm)
    req.wait()
    return buf
