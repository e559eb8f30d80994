# The engine stores whether this host found the checkpoint to continue
# from; bound by `with Engine(…) as engine:` (its __enter__ returns
# self), its restored epoch still bounds the training loop (TorchSemiSeg's
# furnace engine).
import os

import torch
import torch.distributed as dist


class State:
    def __init__(self):
        self.epoch = 0


class Engine:
    def __init__(self, continue_fpath=None):
        self.state = State()
        if continue_fpath is not None and os.path.exists(continue_fpath):
            self.continue_state_object = continue_fpath
        else:
            self.continue_state_object = None
        dist.init_process_group(backend="nccl")

    def restore_checkpoint(self):
        tmp = torch.load(self.continue_state_object)
        self.state.epoch = tmp["epoch"] + 1

    def __enter__(self):
        return self

    def __exit__(self, typ, value, tb):
        return False


def main():
    with Engine(os.environ.get("CONTINUE")) as engine:
        if engine.continue_state_object:
            engine.restore_checkpoint()
        for epoch in range(engine.state.epoch, 40):
            loss = torch.ones(1).cuda()
            dist.all_reduce(loss)  # want CV301 "whose bounds depend on a file system check of this host"
