# R1 (alan-turing-institute/autocast#386): save_checkpoint ends with a barrier.
def finish(trainer, model, path):
    trainer.fit(model)
    if trainer.is_global_zero:
        trainer.save_checkpoint(path)  # want CV301 "save_checkpoint on .* only when `trainer.is_global_zero` holds"
    trainer.strategy.barrier("finalize")
