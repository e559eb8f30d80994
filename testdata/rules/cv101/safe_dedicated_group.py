# T2's fix: the background work uses its own group, created on every rank.
import threading

import torch.distributed as dist


def main(t, flag):
    side = dist.new_group(backend="gloo")

    def poll():
        dist.all_reduce(flag, group=side)

    threading.Thread(target=poll).start()
    dist.all_reduce(t)
