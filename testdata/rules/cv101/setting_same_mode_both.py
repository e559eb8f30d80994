# In the mode that starts the sender thread the main thread sends too.
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
            dist.send(self.queue.get(), dst=1)  # want CV101 "thread started at"

    def flush(self, t):
        if self.mode == "async":
            dist.send(t, dst=1)
