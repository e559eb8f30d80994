import torch.distributed as dist


def send_both(t, u):
    req = dist.isend(t, 1)  # want CV401 "rebound at line 6"
    req = dist.isend(u, 1)
    req.wait()
