# The arms of a file system check call the trainer's loop the same way:
# both resume, or neither does (resume_from_checkpoint=None resumes
# nothing), or one call takes a checkpoint decided on a uniform setting.
import pathlib

import lightning.pytorch as pl
import transformers


def train_both_resume(model, args, data_module, ckpt):
    trainer = transformers.Trainer(model=model, args=args, **data_module)
    if list(pathlib.Path(args.output_dir).glob("checkpoint-*")):
        trainer.train(resume_from_checkpoint=ckpt)
    else:
        trainer.train(resume_from_checkpoint=ckpt)


def train_none(model, args, data_module):
    trainer = transformers.Trainer(model=model, args=args, **data_module)
    if pathlib.Path(args.output_dir).exists():
        trainer.train(resume_from_checkpoint=None)
    else:
        trainer.train()


def fit_from_flag(model, data, args):
    trainer = pl.Trainer(strategy="ddp", devices=8)
    if args.resume:
        trainer.fit(model, data, ckpt_path=args.resume)
    else:
        trainer.fit(model, data)
