# out= writes on a side stream, followed by the wait the reader needs, and
# an out= write on the current stream before a collective on it.
import torch
import torch.distributed as dist


def reduce_sum(grads, buf):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.sum(torch.stack(grads), dim=0, out=buf)
    torch.cuda.current_stream().wait_stream(side)
    dist.all_reduce(buf)


def same_stream(grads, buf):
    torch.sum(torch.stack(grads), dim=0, out=buf)
    dist.all_reduce(buf)


def out_is_not_a_tensor(x, buf):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = torch.relu(x)
    torch.cuda.current_stream().wait_stream(side)
    dist.all_reduce(y, out=None)
