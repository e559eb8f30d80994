# Only a plain hand-off is the caller's business: a returned expression
# that computes on a tensor runs on the context's stream, so a tensor
# written on the current stream before the block is read there unordered.
import torch


def scaled_copy(x, side):
    y = x * 2
    with torch.cuda.stream(side):
        return y + 1  # want CV203 "\"y\" is written on the current stream .* read here on side"


def scaled_pair(x, side):
    y = x * 2
    with torch.cuda.stream(side):
        z = y * 3  # want CV203 "\"y\" is written on the current stream .* read here on side"
        return z, y
