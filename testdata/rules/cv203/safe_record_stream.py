import torch


def step(big, consume):
    side = torch.cuda.Stream()
    a = big + 1
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        consume(a)
    a.record_stream(side)
    del a
