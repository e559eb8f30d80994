import deepspeed
import torch


def train(net, loader, cfg):
    model_engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model_engine(x), y)
        optimizer.zero_grad()
        loss.backward()  # want CV304 "DeepSpeed engine `model_engine`"
        optimizer.step()
