# One custom all-reduce communicator driven from two threads, each on its
# own stream (T5: SGLang's prefill and decode partitions wedged at 100%
# utilisation).
import threading

import torch
from sglang.srt.distributed.device_communicators.custom_all_reduce import CustomAllreduce

ca = CustomAllreduce(group=None, device=torch.device("cuda:0"))


def run(stream, n):
    with torch.cuda.stream(stream):
        x = torch.randn(8192, device="cuda")
        for _ in range(n):
            x = ca.custom_all_reduce(x)  # want CV101 "CustomAllreduce.custom_all_reduce"


threads = [threading.Thread(target=run, args=(torch.cuda.Stream(), 100)) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
