# Unpacking makes new names for the elements, not new tensors: the halves
# still hold what the side stream wrote, and the current stream reads
# them with no wait.
import torch


def split_on_side(x, side):
    with torch.cuda.stream(side):
        pair = torch.chunk(x * 2, 2)
    first, second = pair
    return first + second  # want CV203 "first" CV203 "second"
