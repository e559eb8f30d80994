# S10 (pytorch/pytorch PR #180665): a reduce-scatter output allocated on
# one stream, all-reduced in place and copied out on a second, then freed.
# The allocator hands the block back to the first stream's next
# allocation while the second still reads it. The in-place all-reduce
# writes the tensor; it does not move its memory to the second stream.
import torch
import torch.distributed as dist


def post_backward_reduce(flat_grad, shard_pg, replicate_pg, rs_stream, ar_stream):
    rs_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(rs_stream):
        reduce_output = torch.empty(flat_grad.numel() // 2, device="cuda")
        dist.reduce_scatter_tensor(reduce_output, flat_grad, group=shard_pg)
    ar_stream.wait_stream(rs_stream)
    with torch.cuda.stream(ar_stream):
        dist.all_reduce(reduce_output, group=replicate_pg)
        cpu_grad = torch.empty(reduce_output.shape, device="cpu", pin_memory=True)
        cpu_grad.copy_(reduce_output, non_blocking=True)
        post_reduce_event = ar_stream.record_event()
    del reduce_output  # want CV203 "\"reduce_output\" is allocated on rs_stream .* used on ar_stream .* freed here without reduce_output.record_stream\(ar_stream\)"
    return cpu_grad, post_reduce_event
