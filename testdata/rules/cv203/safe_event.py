import torch


def forward(model, x):
    s = torch.cuda.Stream()
    done = torch.cuda.Event()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = model(x)
        done.record()
    torch.cuda.current_stream().wait_event(done)
    return y + 1
