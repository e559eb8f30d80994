# The same through Ray Train's prepare_model, which wraps the model in
# DDP (UnstableBaselines' learner).
import torch
from ray.train import get_context
from ray.train.torch import prepare_model


def train_loop(model, data):
    rank = get_context().get_world_rank()
    model = prepare_model(model)
    opt = torch.optim.AdamW(model.parameters())
    for x in data:
        loss = model(x).sum()  # want CV301 "rebinds the model's variable"
        loss.backward()
        opt.step()
        if rank == 0:
            model = getattr(model, "module", model)
            torch.save(model.state_dict(), "ckpt.pt")


def evaluate(model, x):
    rank = get_context().get_world_rank()
    model = prepare_model(model)
    if rank == 0:
        model(x)  # want CV301 "runs only when `rank == 0` holds"
