"""Saving on rank 0 only, with a save that is collective inside.

Lightning's Trainer.save_checkpoint ends with strategy.barrier(); called on
rank 0 only, that barrier pairs with the other ranks' next collective and the
job hangs (alan-turing-institute/autocast#386). collvet reports CV301. Call
save_checkpoint on every rank: Lightning writes the file on rank 0 itself.
"""


def finish(trainer, model, path):
    trainer.fit(model)
    if trainer.is_global_zero:
        trainer.save_checkpoint(path)
    trainer.strategy.barrier("finalize")
