# FSDP2's all-gather (torch/distributed/_composable/fsdp/_fsdp_collectives.py):
# the group's size and rank are host ints, unpacked together, and the
# events made under a stream are handles, not device memory: nothing here
# crosses streams unordered. (Four findings before these were modelled.)
import torch
import torch.distributed as dist


def foreach_all_gather(inputs, group, copy_in_stream, all_gather_stream, device):
    world_size, rank = group.size(), group.rank()
    with torch.cuda.stream(copy_in_stream):
        numel = sum(t.numel() for t in inputs)
        output = torch.empty((numel * world_size,), device=device)
        inp = output.narrow(0, numel * rank, numel)
        torch._foreach_copy_(torch.split(inp, [t.numel() for t in inputs]), inputs)
        copy_in_event = torch.cuda.Event()
        copy_in_event.record()
    all_gather_stream.wait_event(copy_in_event)
    with torch.cuda.stream(all_gather_stream):
        dist.all_gather_into_tensor(output, inp, group=group)
        done = torch.cuda.Event()
        done.record()
    return output, done


def foreach_reduce_scatter(grads, group, rs_stream, device):
    current = torch.cuda.current_stream()
    rs_stream.wait_stream(current)
    with torch.cuda.stream(rs_stream):
        flat = torch.cat([g.view(-1) for g in grads])
        copy_in_event = torch.cuda.Event()
        copy_in_event.record()
        current.wait_event(copy_in_event)
        out = flat.new_empty((flat.numel() // group.size(),))
        dist.reduce_scatter_tensor(out, flat, group=group)
        view_out_event = torch.cuda.Event()
        view_out_event.record()
    return view_out_event
