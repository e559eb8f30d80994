# The module is taken from an attribute into a local, and the local is
# wrapped in place; the training forward still calls the attribute,
# past the wrapper (d3po's `trainable_layers = pipeline.unet`).
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
        loss = pipeline.unet(x).pow(2).mean()
        accelerator.backward(loss)  # want CV304 "loss computed by `pipeline.unet` .*wraps as `trainable`"
        optimizer.step()


def train_single(loader):
    accelerator = Accelerator()
    pipeline = Pipeline()
    unet = pipeline.unet
    unet = accelerator.prepare(unet)
    for x in loader:
        loss = pipeline.unet(x).pow(2).mean()
        accelerator.backward(loss)  # want CV304 "loss computed by `pipeline.unet` .*wraps as `unet`"
