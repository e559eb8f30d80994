# M1 (pytorch/pytorch#175145): P2P on a background thread's group, all_reduce
# on the main thread's group.
import threading

import torch.distributed as dist


def main(t, x, peer, n):
    pg_main = dist.new_group()
    pg_bg = dist.new_group()

    def bg():
        for _ in range(n):
            for w in dist.batch_isend_irecv([dist.P2POp(dist.isend, t, peer, group=pg_bg)]):  # want CV103 "drives another device communicator"
                w.wait()

    threading.Thread(target=bg).start()
    for _ in range(n):
        dist.all_reduce(x, group=pg_main)
