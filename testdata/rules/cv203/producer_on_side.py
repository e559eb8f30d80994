import torch


def forward(model, x):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = model(x)
    z = y + 1  # want CV203 "\"y\" is written on s"
    return z
