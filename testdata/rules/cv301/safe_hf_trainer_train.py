# Trainer.train on every rank: a flag from the configuration is the same
# on every rank, and resuming or not both reach train().
import os

from transformers import Trainer, TrainingArguments
from transformers.trainer_utils import get_last_checkpoint


def finetune(model, train_set, do_train):
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_set)
    if do_train:
        trainer.train()
    last = get_last_checkpoint(args.output_dir) if os.path.isdir(args.output_dir) else None
    if last is not None:
        trainer.train(resume_from_checkpoint=last)
    else:
        trainer.train()
    if trainer.is_world_process_zero():
        trainer.save_state()
