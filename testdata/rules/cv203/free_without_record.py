# S1/S8: a buffer used on a side stream is freed from the default stream.
import torch


def step(big, consume):
    side = torch.cuda.Stream()
    a = big + 1
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        consume(a)
    del a  # want CV203 "freed here without a.record_stream\(side\)"
