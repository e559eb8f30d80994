import threading

import torch.distributed as dist


class Heartbeat(threading.Thread):
    def run(self):
        dist.barrier()  # want CV101 "barrier on the default group"


def main(t):
    Heartbeat().start()
    dist.all_reduce(t)
