# An object a program class builds from a position read where this host
# found a checkpoint is no position itself: a flag it sets from what its
# own setup did (`learner.failed`) is no host's answer.
import os

import torch
import torch.distributed.rpc as rpc


class Learner:
    def __init__(self, start_step):
        self.start_step = start_step
        self.failed = False
        try:
            rpc.init_rpc("learner", rank=0, world_size=3)
        except Exception:
            self.failed = True
            rpc.shutdown()

    def run(self):
        try:
            pass
        finally:
            rpc.shutdown()


def train(ckpt):
    start = 0
    if os.path.exists(ckpt):
        start = torch.load(ckpt)["step"]
    learner = Learner(start)
    if learner.failed:
        return None
    learner.run()
