# Handing a tensor to a thread reads nothing, but this function then reads
# it itself on the current stream while the side stream may still write it.
import threading

import torch


def consume(x):
    print(x.sum())


def stage_and_reuse(grad, reduce):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = reduce(grad)
    worker = threading.Thread(target=consume, args=(out,))
    worker.start()
    return out * 2  # want CV203 "\"out\" is written on side .* read here on the current stream"
