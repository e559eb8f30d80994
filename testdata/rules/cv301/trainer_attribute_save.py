# The trainer kept on the object is a Trainer: its save_checkpoint is
# collective, and rank zero alone calling it hangs.
from lightning.fabric.plugins import TorchCheckpointIO
from lightning.pytorch import Trainer


class Saver:
    def __init__(self):
        self.io = TorchCheckpointIO()
        self.trainer = Trainer(devices=8, strategy="ddp")

    def save(self, path):
        if self.trainer.is_global_zero:
            self.trainer.save_checkpoint(path)  # want CV301 "save_checkpoint on .* only when `self.trainer.is_global_zero` holds"
