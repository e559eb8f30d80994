# The key helper reads the tensor's data (a checksum of its values) on
# the current stream before the side stream's copy into it is waited.
import torch

d2h_stream = torch.cuda.Stream()


def get_key(t):
    return str(t.data.sum().item())


def pack_to_cpu(tensor):
    cpu_tensor = torch.empty(tensor.size(), dtype=tensor.dtype, pin_memory=True)
    d2h_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(d2h_stream):
        cpu_tensor.copy_(tensor, non_blocking=True)
    key = get_key(cpu_tensor)  # want CV203 "read here on the current stream"
    return key
