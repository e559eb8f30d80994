# The sender thread exists only in the "async" mode; the main thread
# sends itself after the modes that queue have returned (vLLM's P2P
# engine: `if self.send_type == "PUT" or self.send_type == "PUT_ASYNC":
# ... return` before the GET path).
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
        if self.mode == "queued" or self.mode == "async":
            self.queue.put(t)
            return
        dist.send(t, dst=1)

    def flush(self, t):
        if self.mode in ("queued", "async"):
            return
        dist.send(t, dst=1)
