# The NPU side stream waits for the default stream before the collective
# reads what it wrote; a chunk size computed from a shape is a host int.
import torch
import torch.distributed as dist
import torch_npu


def gather(x, group, num_chunks):
    side = torch.npu.Stream()
    inp = x * 2
    chunk_size = inp.shape[1] // num_chunks
    out = torch.empty_like(inp)
    side.wait_stream(torch.npu.current_stream())
    with torch.npu.stream(side):
        dist.all_to_all_single(out, inp[:, :chunk_size].contiguous(), group=group)
    torch.npu.current_stream().wait_stream(side)
    return out
