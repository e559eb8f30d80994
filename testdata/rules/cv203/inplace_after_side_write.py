# An in-place write on the current stream after a write on a side stream:
# the two writes race, whichever lands last wins.
import torch


def reset_on_error(weight, incoming, side):
    with torch.cuda.stream(side):
        weight.copy_(incoming, non_blocking=True)
    weight.fill_(-1)  # want CV203 "\"weight\" is written on side .* written again in place here on the current stream .* either order"
