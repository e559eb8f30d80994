# A base class's listener thread sets the window the subclass's training
# loop compares against (templar's BaseNode and Miner): each rank sees
# the window change at its own step, and steps its optimizer apart.
import threading

import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


class BaseNode:
    def __init__(self, chain):
        self.chain = chain
        self.current_window = 0

    def block_listener(self):
        def handler(event):
            self.current_window = int(event["number"]) // 100

        self.chain.subscribe_block_headers(handler)

    def start_listener(self):
        threading.Thread(target=self.block_listener, daemon=True).start()


class Miner(BaseNode):
    def train(self, model, batches, step_window):
        opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=object)
        self.start_listener()
        for batch in batches:
            model(batch).backward()
            window_changed = self.current_window != step_window
            if window_changed:
                opt.step()  # want CV301 "ZeroRedundancyOptimizer.step on the default group \(WORLD\) depends on `window_changed`"

    def train_agreed(self, model, batches, step_window, flag):
        opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=object)
        for batch in batches:
            model(batch).backward()
            flag.fill_(int(self.current_window != step_window))
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if flag.item():
                opt.step()
