# Receivers declared as classes whose save_checkpoint is collective: a
# Trainer, and DeepSpeed's pipeline engine, which is a DeepSpeedEngine.
import torch.distributed as dist
from deepspeed.runtime.pipe.engine import PipelineEngine
from lightning.pytorch import Trainer


def save(trainer: Trainer, path):
    if dist.get_rank() == 0:
        trainer.save_checkpoint(path)  # want CV301 "save_checkpoint on .* only when `dist.get_rank\(\) == 0` holds"


def save_pipe(engine: PipelineEngine, path):
    if dist.get_rank() == 0:
        engine.save_checkpoint(path)  # want CV301 "save_checkpoint on .* only when `dist.get_rank\(\) == 0` holds"
