# The same calls in the other order: the collective runs while the thread
# sends.
import threading

import torch
import torch.distributed as dist


def send_loop(queue, dst, n):
    for _ in range(n):
        dist.send(queue.get().cpu(), dst=dst, tag=1)  # want CV101 "thread started at"


class Handler:
    def __init__(self, world_size):
        self.world_size = world_size

    def initialize(self):
        sizes = [torch.zeros(1) for _ in range(self.world_size)]
        dist.all_gather(sizes, torch.ones(1))

    def start_helper_threads(self, queue, dst, n):
        threading.Thread(target=send_loop, args=(queue, dst, n)).start()


def main(queue, dst, n):
    dist.init_process_group("gloo")
    h = Handler(2)
    h.start_helper_threads(queue, dst, n)
    h.initialize()
