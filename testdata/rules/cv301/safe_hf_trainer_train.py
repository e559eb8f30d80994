# Trainer.train on every rank: a flag from the configuration is the same
# on every rank, and a checkpoint found once is handed to one call that
# every rank makes. (Resuming in one arm of a file system check and not in
# the other is fs_trainer_resume_arms.py.)
import os

from transformers import Trainer, TrainingArguments
from transformers.trainer_utils import get_last_checkpoint


def finetune(model, train_set, do_train):
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_set)
    if do_train:
        trainer.train()
    if trainer.is_world_process_zero():
        trainer.save_state()


def finetune_resume(model, train_set, resume):
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_set)
    if resume:
        trainer.train(resume_from_checkpoint=True)
    else:
        trainer.train()
