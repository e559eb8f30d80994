# A callback and a LightningModule talk to the other ranks through the
# trainer's strategy: on global rank 0 alone, the broadcast and the
# barrier wait for ranks that never join them.
from lightning.pytorch import LightningModule, Trainer
from lightning.pytorch.callbacks import Callback


class PruneCallback(Callback):
    def on_validation_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        should_stop = False
        if trainer.is_global_zero:
            should_stop = trainer.strategy.broadcast(True)  # want CV301 "Strategy.broadcast"
        trainer.should_stop = should_stop

    def on_train_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        if pl_module.global_rank == 0:
            trainer.strategy.barrier()  # want CV301 "Strategy.barrier"


class Model(LightningModule):
    def on_train_end(self):
        if self.global_rank == 0:
            self.trainer.strategy.barrier()  # want CV301 "Strategy.barrier"
