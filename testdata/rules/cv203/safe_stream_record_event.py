# stream.record_event() returns the Event it recorded: waiting it on the
# current stream reads no tensor, and orders the reduction before the
# accumulated gradient is used.
import torch
import torch.distributed as dist


def reduce_chunks(grads, acc, side, group):
    for g in grads:
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            out = torch.empty_like(acc)
            dist.reduce_scatter_tensor(out, g, group=group)
            acc.add_(out)
            done = side.record_event()
        torch.cuda.current_stream().wait_event(done)
    return acc * 2
