# torchrl's client: a fire-and-forget sentinel thread sends on the gloo
# group (ProcessGroupGloo constructor) the calling thread also sends on.
import threading

import torch
import torch.distributed as dist


def run(store, rank):
    ctrl = dist.ProcessGroupGloo(dist.PrefixStore("ctrl", store), rank, 2)
    header = torch.zeros(2, dtype=torch.int64)

    def sentinel():
        ctrl.send([torch.full((2,), -1, dtype=torch.int64)], 0, 0).wait()  # want CV101 "ProcessGroupGloo@"

    threading.Thread(target=sentinel, daemon=True).start()
    for _ in range(100):
        ctrl.send([header], 0, 0).wait()
