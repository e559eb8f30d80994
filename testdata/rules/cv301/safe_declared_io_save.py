# A receiver declared as a class whose save_checkpoint the tables do not
# list (a Lightning CheckpointIO writes one file) is not guessed to be a
# Trainer or an engine from the method's name.
import torch.distributed as dist
from lightning.fabric.plugins import CheckpointIO


def save(io: CheckpointIO, ckpt, path):
    if dist.get_rank() == 0:
        io.save_checkpoint(ckpt, path)


class Saver:
    io: CheckpointIO

    def save(self, ckpt, path):
        if dist.get_rank() == 0:
            self.io.save_checkpoint(ckpt, path)
