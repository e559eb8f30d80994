# A script of its own: a barrier in a signal handler; its main thread
# issues no other collective.
import signal

import torch.distributed as dist

if __name__ == "__main__":
    dist.init_process_group("nccl")

    def handler(*args):
        dist.barrier()

    signal.signal(signal.SIGUSR1, handler)
    signal.pause()
