# A checkpoint IO object of a library's own class writes a file: its
# save_checkpoint is not Trainer.save_checkpoint, whose name it shares, and
# rank zero alone may call it.
from lightning.fabric.plugins import TorchCheckpointIO
from lightning.pytorch import Trainer


class Saver:
    def __init__(self):
        self.io = TorchCheckpointIO()
        self.trainer = Trainer(devices=8, strategy="ddp")

    def save(self, ckpt, path):
        if self.trainer.is_global_zero:
            self.io.save_checkpoint(ckpt, path)

    def save_all(self, path):
        self.trainer.save_checkpoint(path)
