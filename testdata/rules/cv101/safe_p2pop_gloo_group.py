# A background thread's P2P ring on a gloo group of its own (carried by
# the P2POp entries, appended one by one) beside the main thread's
# all-reduce on WORLD: one communicator per thread.
import threading

import torch.distributed as dist

side = dist.new_group(ranks=[0, 1], backend="gloo")


def ring_worker(buf, out, peer):
    ops = []
    ops.append(dist.P2POp(dist.isend, buf, peer, group=side))
    ops.append(dist.P2POp(dist.irecv, out, peer, group=side))
    for w in dist.batch_isend_irecv(ops):
        w.wait()


def main(x, buf, out, peer):
    t = threading.Thread(target=ring_worker, args=(buf, out, peer))
    t.start()
    dist.all_reduce(x)
    t.join()
