# Ray Train's docs once guarded the Lightning checkpoint with the world
# rank (R2): save_checkpoint ends with a barrier the other workers never
# reach.
import ray.train


def train_func(trainer, model, ckpt):
    trainer.fit(model)
    if ray.train.get_context().get_world_rank() == 0:
        trainer.save_checkpoint(ckpt)  # want CV301 "save_checkpoint"
