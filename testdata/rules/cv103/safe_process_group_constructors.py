# Groups from the ProcessGroupNCCL/ProcessGroupGloo constructors: one
# thread drives both NCCL groups in a fixed order, and a gloo group on a
# background thread is a host-side communicator.
import threading

import torch
import torch.distributed as dist


def run(store, rank):
    req = dist.ProcessGroupNCCL(dist.PrefixStore("req", store), rank, 2)
    resp = dist.ProcessGroupNCCL(dist.PrefixStore("resp", store), rank, 2)
    x = torch.zeros(4, device="cuda")
    for _ in range(100):
        req.send([x], 1 - rank, 1).wait()
        resp.recv([x], 1 - rank, 1).wait()


def control(store, rank, x):
    ctrl = dist.ProcessGroupGloo(dist.PrefixStore("ctrl", store), rank, 2)

    def poll():
        ctrl.recv([torch.zeros(2)], 0, 0).wait()

    threading.Thread(target=poll).start()
    for _ in range(10):
        dist.all_reduce(x)
