# The group of batch_isend_irecv is the one its P2POp entries carry: a
# background thread's ring on a subgroup, the main thread's all-reduce on
# WORLD (two communicators from two threads).
import threading

import torch.distributed as dist

pg = dist.new_group(ranks=[0, 1])


def ring_worker(buf, out, peer):
    ops = [
        dist.P2POp(dist.isend, buf, peer, group=pg),
        dist.P2POp(dist.irecv, out, peer, group=pg),
    ]
    for w in dist.batch_isend_irecv(ops):  # want CV103 "batch_isend_irecv on group new_group@"
        w.wait()


def main(x, buf, out, peer):
    t = threading.Thread(target=ring_worker, args=(buf, out, peer))
    t.start()
    dist.all_reduce(x)
    t.join()
