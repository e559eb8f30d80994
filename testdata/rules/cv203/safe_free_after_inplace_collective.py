# The fixes for S10: record the second stream on the tensor before freeing
# it, or make the allocating stream wait for the second one first.
import torch
import torch.distributed as dist


def recorded(flat_grad, shard_pg, replicate_pg, rs_stream, ar_stream):
    rs_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(rs_stream):
        reduce_output = torch.empty(flat_grad.numel() // 2, device="cuda")
        dist.reduce_scatter_tensor(reduce_output, flat_grad, group=shard_pg)
    ar_stream.wait_stream(rs_stream)
    with torch.cuda.stream(ar_stream):
        dist.all_reduce(reduce_output, group=replicate_pg)
    reduce_output.record_stream(ar_stream)
    del reduce_output


def waited(flat_grad, shard_pg, replicate_pg, rs_stream, ar_stream):
    rs_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(rs_stream):
        reduce_output = torch.empty(flat_grad.numel() // 2, device="cuda")
        dist.reduce_scatter_tensor(reduce_output, flat_grad, group=shard_pg)
    ar_stream.wait_stream(rs_stream)
    with torch.cuda.stream(ar_stream):
        dist.all_reduce(reduce_output, group=replicate_pg)
    rs_stream.wait_stream(ar_stream)
    del reduce_output


def same_stream(flat_grad, group, side):
    with torch.cuda.stream(side):
        out = torch.empty(flat_grad.numel() // 2, device="cuda")
        dist.reduce_scatter_tensor(out, flat_grad, group=group)
        dist.all_reduce(out, group=group)
    side.synchronize()
    del out
