import torch.distributed as dist


def recv_maybe(buf, skip):
    req = dist.irecv(buf, 0)  # want CV401 "not waited on the path that leaves the function at line 7"
    if skip:
        return None
    req.wait()
    return buf
