# The forward runs through the DeepSpeed engine, the backward does not:
# the engine reduces the gradients in its own backward only, so a plain
# loss.backward() leaves each rank's gradients its own (Expert-Slicing's
# MoE test), also for the engine deepspeed.initialize(...)[0] returns.
import deepspeed
import torch.nn.functional as F


def train(net, loader, cfg):
    engine = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg)[0]
    for x, y in loader:
        prediction = engine(x)
        loss = F.nll_loss(prediction, y)
        loss.backward()  # want CV304 "DeepSpeed engine `engine`"
