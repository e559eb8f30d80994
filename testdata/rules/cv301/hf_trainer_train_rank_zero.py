# Trainer.train runs the whole training loop: under torchrun every step
# all-reduces gradients, so a train() that only the main process reaches
# leaves the other ranks waiting in their first step.
import torch.distributed as dist
from transformers import Trainer, TrainingArguments


def finetune(model, train_set):
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_set)
    if dist.get_rank() == 0:
        trainer.train()  # want CV301 "train on .* only when `dist.get_rank\(\) == 0` holds"
    trainer.save_model("out/final")
