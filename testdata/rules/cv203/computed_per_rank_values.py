# A comprehension whose values a kernel computes on the current stream,
# read on the side stream without a wait.
import torch


def forward(xs, plan, comp_stream):
    scaled = {r: xs[r] * 2 for r in plan.keys()}
    with torch.cuda.stream(comp_stream):
        y = [scaled[r] + 1 for r in plan.keys()]  # want CV203 "\"scaled\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(comp_stream)
    return y
