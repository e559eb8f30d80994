# An object built with a label chosen by a file check holds that label in
# the attribute its __init__ binds from it; its other attributes (a flag
# set from what its own setup did) are not the host's answer.
import os

import torch.distributed.rpc as rpc


class Learner:
    def __init__(self, name):
        self.name = name
        self.failed = False
        try:
            rpc.init_rpc("learner", rank=0, world_size=3)
        except Exception:
            self.failed = True
            self.on_done()

    def on_done(self):
        rpc.shutdown()

    def run(self):
        try:
            pass
        finally:
            self.on_done()


def run_trial():
    name = "trial_2" if os.path.exists("./trials.p") else "trial_1"
    learner = Learner(name)
    if learner.failed:
        return "FAIL"
    learner.run()
    return "OK"
