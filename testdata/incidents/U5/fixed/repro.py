import torch
import torch.distributed as dist


def send_forward(output_tensor, next_rank, group):
    return dist.isend(output_tensor, dst=next_rank, group=group)


def recv_forward(shape, prev_rank, group):
    buf = torch.empty(shape, device="cuda")
    req = dist.irecv(buf, src=prev_rank, group=group)
    req.wait()
    return buf


def pipeline_step(stage, microbatches, shape, group):
    rank = dist.get_rank(group)
    world = dist.get_world_size(group)
    pending = []
    for mb in microbatches:
        x = mb if rank == 0 else recv_forward(shape, rank - 1, group)
        y = stage(x)
        if rank < world - 1:
            pending.append((send_forward(y, rank + 1, group), y))
    for req, _ in pending:
        req.wait()
