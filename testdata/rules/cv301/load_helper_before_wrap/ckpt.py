import torch


def load_checkpoint(model, path):
    model.load_state_dict(torch.load(path, map_location="cpu"))
    return model
