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
