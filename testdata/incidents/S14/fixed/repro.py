import torch
import torch.distributed as dist


def sync_grads(model, comm_stream):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.view(-1) for g in grads])
    comm_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm_stream):
        dist.all_reduce(flat)
        flat.div_(dist.get_world_size())
    torch.cuda.current_stream().wait_stream(comm_stream)
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()
