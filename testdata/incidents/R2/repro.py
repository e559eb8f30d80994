import os
import tempfile

import lightning.pytorch as pl
import ray.train
from ray.train import Checkpoint, ScalingConfig
from ray.train.torch import TorchTrainer


def train_func(config):
    model = build_model(config)
    trainer = pl.Trainer(
        max_epochs=config["epochs"],
        devices="auto",
        accelerator="auto",
        strategy=ray.train.lightning.RayDDPStrategy(),
        plugins=[ray.train.lightning.RayLightningEnvironment()],
        enable_checkpointing=False,
    )
    trainer = ray.train.lightning.prepare_trainer(trainer)
    trainer.fit(model, datamodule=build_datamodule(config))
    world_rank = ray.train.get_context().get_world_rank()
    with tempfile.TemporaryDirectory() as tmpdir:
        ckpt = os.path.join(tmpdir, "checkpoint.ckpt")
        if world_rank == 0:
            trainer.save_checkpoint(ckpt)
            ray.train.report({"done": 1}, checkpoint=Checkpoint.from_directory(tmpdir))
        else:
            ray.train.report({"done": 1})


trainer = TorchTrainer(train_func, scaling_config=ScalingConfig(num_workers=4, use_gpu=True))
trainer.fit()
