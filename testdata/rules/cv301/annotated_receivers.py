# Helpers whose framework object is a parameter: its annotation says what
# it is, so its collective methods are known without seeing the caller.
from typing import Optional

import deepspeed
from accelerate import Accelerator
from transformers import Trainer


def save_state(accelerator: Accelerator, out):
    if accelerator.is_main_process:
        accelerator.save_state(out)  # want CV301 "Accelerator.save_state on .* only when `accelerator.is_main_process` holds"


def save_model(trainer: "Trainer", out):
    if trainer.is_world_process_zero():
        trainer.save_model(out)  # want CV301 "Trainer.save_model on .* only when `trainer.is_world_process_zero\(\)` holds"


def save_engine(engine: Optional[deepspeed.DeepSpeedEngine], out):
    if engine.global_rank == 0:
        engine.save_checkpoint(out)  # want CV301 "save_checkpoint on .* only when `engine.global_rank == 0` holds"


class Runner:
    # A trainer class keeps its framework objects: the declarations say
    # what they are (class-body annotation, annotated store, annotated
    # parameter copied in __init__).
    engine: deepspeed.DeepSpeedEngine

    def __init__(self, accelerator: Accelerator, trainer: Trainer, engine):
        self.accelerator = accelerator
        self.trainer: Trainer = trainer
        self.engine = engine

    def save(self, out):
        if self.accelerator.is_main_process:
            self.accelerator.save_state(out)  # want CV301 "Accelerator.save_state on .* only when `self.accelerator.is_main_process` holds"

    def save_model(self, out):
        if self.accelerator.is_main_process:
            self.trainer.save_model(out)  # want CV301 "Trainer.save_model"

    def save_engine(self, out):
        if self.accelerator.is_main_process:
            self.engine.save_checkpoint(out)  # want CV301 "save_checkpoint"
