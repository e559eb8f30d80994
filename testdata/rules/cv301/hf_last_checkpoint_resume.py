# transformers' get_last_checkpoint lists the output directory of this
# host: a node that finds a checkpoint resumes and runs the remaining steps
# while a node that finds none starts from step 0 (the examples' run_*.py
# shape, instructor-embedding's train.py, on nodes without a shared
# output directory).
import os

from transformers import Seq2SeqTrainer, Trainer
from transformers.trainer_utils import get_last_checkpoint


def main(training_args, model, data):
    last_checkpoint = None
    if os.path.isdir(training_args.output_dir) and training_args.do_train:
        last_checkpoint = get_last_checkpoint(training_args.output_dir)
    trainer = Trainer(model=model, args=training_args, train_dataset=data)
    checkpoint = None
    if training_args.resume_from_checkpoint is not None:
        checkpoint = training_args.resume_from_checkpoint
    elif last_checkpoint is not None:
        checkpoint = last_checkpoint
    trainer.train(resume_from_checkpoint=checkpoint)  # want CV301 "resuming from a checkpoint"


def seq2seq(training_args, model, data):
    last = get_last_checkpoint(training_args.output_dir)
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=data)
    trainer.train(resume_from_checkpoint=last)  # want CV301 "resuming from a checkpoint"
