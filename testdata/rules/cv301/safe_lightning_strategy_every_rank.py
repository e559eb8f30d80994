# Every rank takes part in the strategy's collectives; rank 0 decides what
# the broadcast carries.
from lightning.pytorch import LightningModule, Trainer
from lightning.pytorch.callbacks import Callback


class PruneCallback(Callback):
    def on_validation_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        should_stop = False
        if trainer.is_global_zero:
            should_stop = True
        trainer.should_stop = trainer.strategy.broadcast(should_stop)

    def on_train_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        trainer.strategy.barrier()
        if pl_module.global_rank == 0:
            print("done")
