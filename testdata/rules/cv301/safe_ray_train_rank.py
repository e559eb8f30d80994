# Every worker saves (Lightning writes on rank 0 only); the world rank
# gates the report's metrics only.
import ray.train


def train_func(trainer, model, ckpt):
    trainer.fit(model)
    trainer.save_checkpoint(ckpt)
    rank = ray.train.get_context().get_world_rank()
    if rank == 0:
        print("saved", ckpt)
