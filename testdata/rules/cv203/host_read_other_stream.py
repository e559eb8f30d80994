# A blocking copy to the host waits for the stream it runs on only: the
# default stream's .item() leaves the side stream's write pending, and a
# non-blocking copy waits for nothing.
import torch


def reduce_then_log(grad, loss, reduce):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = reduce(grad)
    print(loss.item())
    return out * 2  # want CV203 "\"out\" is written on side .* read here on the current stream"


def copy_without_waiting(grad, reduce):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = reduce(grad)
        staged = out.cpu(non_blocking=True)
    return out * 2, staged  # want CV203 "\"out\" is written on side .* read here on the current stream"
