# mmengine's CheckpointHook saves through the runner on rank 0 only
# (@master_only). The program imports no library whose save_checkpoint is
# collective, and a receiver named `runner` is no Lightning Trainer or
# DeepSpeed engine: without an import, a framework's object is guessed only
# from a receiver named after it (trainer, engine, accelerator).
from mmengine.dist import master_only


class CheckpointHook:
    @master_only
    def _save_checkpoint(self, runner):
        runner.save_checkpoint("work_dirs", filename="epoch_1.pth")

    def after_train_epoch(self, runner):
        self._save_checkpoint(runner)
