# A wrapper sets an entry of its own **kwargs dict, then calls the wrapped
# collective on a side stream: a Python dict entry, not a tensor written
# on the current stream (aorta's stream profiler).
import torch

side = torch.cuda.Stream()


def wrap(original):
    def wrapper(*args, **kwargs):
        kwargs["async_op"] = True
        with torch.cuda.stream(side):
            work = original(*args, **kwargs)
        work.wait()
    return wrapper
