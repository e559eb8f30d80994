# A draw from a process-wide generator differs between ranks (seed +
# rank, or one seed consumed differently), so a collective it decides on
# runs on some ranks only. LayerDrop hung FSDP this way (fairscale#796).
import random

import numpy as np
import torch
import torch.distributed as dist


def step(model, batch, p):
    loss = model(batch)
    if random.random() < p:
        dist.all_reduce(loss)  # want CV301 "draws a random number"
    if np.random.rand() < p:
        return loss
    dist.barrier()  # want CV301 "do not leave early .* draws a random number"
    drop = torch.rand(1).item() < p
    if drop:
        dist.barrier()  # want CV301 "draws a random number"
    return loss


def layer_drop(layers, x, p):
    # fairseq's LayerDropModuleList: one draw per layer, filled in place.
    probs = torch.empty(len(layers)).uniform_()
    for i, layer in enumerate(layers):
        if probs[i] < p:
            continue
        x = layer(x)
        dist.all_reduce(x)  # want CV301 "do not leave early .* draws a random number"
    return x
