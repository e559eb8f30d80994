# A metric "gather" made of broadcasts: rank 0 broadcasts from each other
# rank in turn, but each of them broadcasts only its own. With three ranks
# or more, ranks 1 and 2 issue their broadcasts together, each as the root.
import torch
import torch.distributed as dist


def collect(loss):
    rank = dist.get_rank()
    if rank == 0:
        total = loss.clone()
        for process in range(1, dist.get_world_size()):
            buf = torch.zeros_like(loss)
            dist.broadcast(buf, src=process)
            total += buf
        return total
    else:
        dist.broadcast(loss, src=rank)  # want CV303 "names the calling rank"
        return None


def report(value):
    if dist.get_rank() != 0:
        dist.broadcast(value, src=dist.get_rank())  # want CV303 "where `dist.get_rank.. != 0` holds"
