# Annotated framework objects used on every rank, and annotations that name
# no described class (a union of two, a class of another library).
from typing import Union

from accelerate import Accelerator
from mylib import Checkpointer
from transformers import Trainer


def save_everywhere(accelerator: Accelerator, trainer: Trainer | None, out):
    accelerator.save_state(out)
    trainer.save_model(out)
    if accelerator.is_main_process:
        print("saved", out)


def other_library(ckpt: Checkpointer, accelerator: Accelerator, out):
    if accelerator.is_main_process:
        ckpt.save_model(out)


def ambiguous(obj: Union[Trainer, Checkpointer], accelerator: Accelerator, out):
    if accelerator.is_main_process:
        obj.save_model(out)


class Runner:
    # self.saver is declared as two different classes: no guess; the
    # accelerator is used on every rank.
    def __init__(self, accelerator: Accelerator, a: Checkpointer, b: Trainer):
        self.accelerator = accelerator
        self.saver = a
        self.saver = b

    def save(self, out):
        self.accelerator.save_state(out)
        if self.accelerator.is_main_process:
            self.saver.save_model(out)
