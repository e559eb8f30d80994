# A background thread's function hands a nested callback to a
# subscription API (templar's block listener); the callback sets the
# attribute that gates the collective, at its own moment on each rank.
import threading
import torch.distributed as dist


class Node:
    def __init__(self, chain):
        self.chain = chain
        self.current_window = 0

    def block_listener(self):
        def handler(event):
            self.current_window = int(event["number"]) // 100

        self.chain.subscribe_block_headers(handler)

    def train(self, grads, step_window):
        t = threading.Thread(target=self.block_listener, daemon=True)
        t.start()
        for g in grads:
            window_changed = self.current_window != step_window
            if window_changed:
                dist.all_reduce(g)  # want CV301 "all_reduce on the default group \(WORLD\) depends on `window_changed`"
