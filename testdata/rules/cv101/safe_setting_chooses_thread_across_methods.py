# The sender thread exists only in one mode, chosen at construction; the
# main thread sends itself only in another (vLLM's P2P engine's send_type).
import threading

import torch.distributed as dist


class Engine:
    def __init__(self, mode, queue):
        self.mode = mode
        self.queue = queue
        if self.mode == "async":
            threading.Thread(target=self.send_loop, daemon=True).start()

    def send_loop(self):
        while True:
            dist.send(self.queue.get(), dst=1)

    def send(self, t):
        if self.mode == "sync":
            dist.send(t, dst=1)
            return
        self.queue.put(t)
