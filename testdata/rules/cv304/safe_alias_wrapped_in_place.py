# The local wrapped in place is what the training forward calls.
import torch
import torch.nn as nn
from accelerate import Accelerator


class Pipeline:
    def __init__(self):
        self.unet = nn.Linear(8, 8)


def train(loader):
    accelerator = Accelerator()
    pipeline = Pipeline()
    trainable = pipeline.unet
    optimizer = torch.optim.AdamW(trainable.parameters(), lr=1e-4)
    trainable, optimizer = accelerator.prepare(trainable, optimizer)
    for x in loader:
        loss = trainable(x).pow(2).mean()
        accelerator.backward(loss)
        optimizer.step()
