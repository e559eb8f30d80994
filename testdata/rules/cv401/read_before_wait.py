# The output of an async collective read before its work is waited:
# the collective may still be writing it.
import torch
import torch.distributed as dist


def scaled(x):
    req = dist.all_reduce(x, async_op=True)
    y = x * 2  # want CV401 "\"x\" is read here while all_reduce"
    req.wait()
    return y


def received(buf, src):
    req = dist.irecv(buf, src)
    total = buf.sum().item()  # want CV401 "\"buf\" is read here while irecv"
    req.wait()
    return total


def found_inf(v, group):
    # fairscale's ShardedGradScaler: the copy back to the CPU tensor reads
    # the buffer before the all-reduce is waited (and is discarded).
    v_on_cuda = v.cuda()
    last_handle = dist.all_reduce(v_on_cuda, async_op=True, group=group)
    v_on_cuda.cpu()  # want CV401 "\"v_on_cuda\" is read here"
    last_handle.wait()


def side_stream(x, group, side):
    out = torch.empty_like(x)
    req = dist.all_to_all_single(out, x, group=group, async_op=True)
    with torch.cuda.stream(side):
        y = out * 2  # want CV401 "\"out\" is read here while all_to_all_single"
    req.wait()
    torch.cuda.current_stream().wait_stream(side)
    return y
