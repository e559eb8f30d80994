import torch
import torch.distributed as dist


def reduce_bucket(bucket, worker_stream, group):
    worker_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(worker_stream):
        flat = torch.cat([t.view(-1) for t in bucket])
    torch.cuda.current_stream().wait_stream(worker_stream)
    flat.record_stream(torch.cuda.current_stream())
    work = dist.all_reduce(flat, group=group, async_op=True)
    work.wait()
    offset = 0
    for t in bucket:
        t.copy_(flat[offset:offset + t.numel()].view_as(t))
        offset += t.numel()
    del flat
