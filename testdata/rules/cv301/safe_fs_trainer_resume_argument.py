# The same single calls, resuming from what rank 0 found (broadcast to
# the others) or from a path the user named on the command line.
import os

import torch.distributed as dist
from transformers import Trainer


def train_agreed(model, args, ds):
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    last = None
    if os.path.isdir("out/checkpoint-100"):
        last = "out/checkpoint-100"
    box = [last]
    dist.broadcast_object_list(box, src=0)
    last = box[0]
    trainer.train(resume_from_checkpoint=last)


def train_named(model, args, ds, resume_path):
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    trainer.train(resume_from_checkpoint=resume_path)
