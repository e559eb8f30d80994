# Both arms run the trainer's loop, but only the arm this host's file
# system check picks resumes: it restores the step count and runs the
# remaining steps only, while a rank whose host sees no checkpoint trains
# from step 0 (GOT-OCR2.0, FastChat-style train.py; Hunyuan3D's
# auto-resume with Lightning).
import os
import pathlib

import lightning.pytorch as pl
import transformers


def train_hf(model, training_args, data_module):
    trainer = transformers.Trainer(model=model, args=training_args, **data_module)
    if list(pathlib.Path(training_args.output_dir).glob("checkpoint-*")):
        trainer.train(resume_from_checkpoint=True)  # want CV301 "Trainer.train resuming from a checkpoint .*file system check"
    else:
        trainer.train()
    trainer.save_state()


def train_lightning(model, data, logdir, ckpt, nodes):
    trainer = pl.Trainer(strategy="ddp", devices=8, num_nodes=nodes)
    if os.path.exists(os.path.join(logdir, "last.ckpt")):
        trainer.fit(model, data, ckpt_path=ckpt)  # want CV301 "Trainer.fit resuming from a checkpoint"
    else:
        trainer.fit(model, data)


def train_last_checkpoint(model, training_args, output_dir):
    # transformers' get_last_checkpoint lists this host's output_dir.
    from transformers.trainer_utils import get_last_checkpoint

    trainer = transformers.Trainer(model=model, args=training_args)
    last = get_last_checkpoint(output_dir) if os.path.isdir(output_dir) else None
    if last is not None:
        trainer.train(resume_from_checkpoint=last)  # want CV301 "resuming from a checkpoint"
    else:
        trainer.train()
