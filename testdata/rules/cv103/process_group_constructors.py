# torchrl's request/reply transport: two groups built with the
# ProcessGroupNCCL constructor over prefixed stores, one driven by a
# receiver thread and the other by the calling thread.
import threading

import torch
import torch.distributed as dist
from torch.distributed import ProcessGroupNCCL


def run(store, rank):
    req = dist.ProcessGroupNCCL(dist.PrefixStore("req", store), rank, 2)
    resp = ProcessGroupNCCL(dist.PrefixStore("resp", store), rank, 2)
    x = torch.zeros(4, device="cuda")
    y = torch.zeros(4, device="cuda")

    def receive_loop():
        while True:
            resp.recv([y], 1 - rank, 1).wait()  # want CV103 "drives another device communicator"

    threading.Thread(target=receive_loop, daemon=True).start()
    for _ in range(100):
        req.send([x], 1 - rank, 1).wait()

