# Lightning's fit, validate, test and predict run the strategy's
# collectives on every rank: on rank 0 alone they hang, and a failing
# fit followed by destroy_process_group in a finally leaves the other
# ranks in DDP's all-reduce (MVDream's training script).
import torch.distributed as dist
from pytorch_lightning.trainer import Trainer


def evaluate(trainer, model, data):
    if trainer.global_rank == 0:
        trainer.test(model, data)  # want CV301 "Trainer.test"


def train(model, data):
    trainer = Trainer(devices="auto", strategy="ddp")
    try:
        trainer.fit(model, data)
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()  # want CV301 "destroy_process_group"
