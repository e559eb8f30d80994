# Ascend NPU streams (torch_npu patches torch.npu in) order work as CUDA
# streams do: an input written on the default stream, read by a
# collective issued on a side stream that never waited for it.
import torch
import torch.distributed as dist
import torch_npu


def gather(x, group):
    side = torch_npu.npu.Stream()
    inp = x * 2
    out = torch.empty_like(inp)
    with torch_npu.npu.stream(side):
        dist.all_to_all_single(out, inp, group=group)  # want CV203 "\"inp\" is written on the current stream"
    torch.npu.current_stream().wait_stream(side)
    return out
