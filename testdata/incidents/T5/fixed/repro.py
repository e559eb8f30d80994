import threading

import torch
import torch.distributed as dist
from sglang.srt.distributed.device_communicators.custom_all_reduce import CustomAllreduce

dist.init_process_group("nccl")
rank = dist.get_rank()
torch.cuda.set_device(rank)
cpu_group = dist.new_group(backend="gloo")
cpu_group_2 = dist.new_group(backend="gloo")
ca_prefill = CustomAllreduce(group=cpu_group, device=torch.device(f"cuda:{rank}"))
ca_decode = CustomAllreduce(group=cpu_group_2, device=torch.device(f"cuda:{rank}"))

prefill_stream = torch.cuda.Stream()
decode_stream = torch.cuda.Stream()


def run_partition(ca, stream, n):
    torch.cuda.set_device(rank)
    with torch.cuda.stream(stream):
        x = torch.randn(8192, device="cuda")
        for _ in range(n):
            x = ca.custom_all_reduce(x)


threads = [
    threading.Thread(target=run_partition, args=(ca_prefill, prefill_stream, 100)),
    threading.Thread(target=run_partition, args=(ca_decode, decode_stream, 100)),
]
for t in threads:
    t.start()
for t in threads:
    t.join()
