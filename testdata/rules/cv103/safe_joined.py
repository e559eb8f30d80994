import threading

import torch.distributed as dist


def main(x, y):
    g = dist.new_group()

    def warm():
        dist.all_reduce(x, group=g)

    t = threading.Thread(target=warm)
    t.start()
    t.join()
    dist.all_reduce(y)
