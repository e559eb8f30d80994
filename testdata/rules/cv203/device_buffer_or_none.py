# A tensor or None: when it is a tensor, the zeros kernel ran on the
# current stream, and the side stream reads it without a wait.
import torch


def forward(x, n, comp_stream, check):
    acc = torch.zeros(n, device="cuda") if check else None
    with torch.cuda.stream(comp_stream):
        y = x + acc  # want CV203 "\"acc\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(comp_stream)
    return y
