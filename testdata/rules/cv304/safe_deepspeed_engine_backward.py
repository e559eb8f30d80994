# The engine's own backward and step: the gradients are reduced there.
import deepspeed
import torch.nn.functional as F


def train(net, loader, cfg):
    model_engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg)
    for x, y in loader:
        loss = F.nll_loss(model_engine(x), y)
        model_engine.backward(loss)
        model_engine.step()
