import torch.distributed as dist


def exchange(x, y, peer):
    ops = [dist.P2POp(dist.isend, x, peer), dist.P2POp(dist.irecv, y, peer)]
    reqs = dist.batch_isend_irecv(ops)  # want CV401 "\"reqs\".* never waited"
    return y
