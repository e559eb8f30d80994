import torch


def forward(model, x):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = model(x)
    torch.cuda.synchronize()
    return y + 1
