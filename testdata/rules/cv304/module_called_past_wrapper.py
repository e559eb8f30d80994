# Losses computed by the module inside DistributedDataParallel, past the
# wrapper: DDP's reducer is armed only by its own forward, so these
# backwards never all-reduce the gradients.
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 7)

    def predict_action(self, h):
        return self.fc(h)


def train_head(backbone, loader, device_id):
    # openvla-oft's action head: the backbone goes through its wrapper,
    # the head does not, and its reducer is a different one.
    vla = DDP(backbone.to(device_id), device_ids=[device_id])
    action_head = DDP(Head().to(device_id), device_ids=[device_id])
    opt = torch.optim.AdamW(list(vla.parameters()) + list(action_head.parameters()))
    for x, y in loader:
        h = vla(x)
        pred = action_head.module.predict_action(h)
        loss = nn.functional.l1_loss(pred, y)
        loss.backward()  # want CV304 "computed by `action_head.module.predict_action` .*past the DistributedDataParallel wrapper `action_head`"
        opt.step()
        opt.zero_grad()


def _unwrap(model):
    return model.module if isinstance(model, DDP) else model


def train_unwrapped(net, loader, local_rank):
    # timesfm's PEFT trainer: the forward unwraps the model first.
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        raw = _unwrap(model)
        out = raw.encoder(x.cuda())
        loss = nn.functional.mse_loss(out, y.cuda())
        opt.zero_grad()
        loss.backward()  # want CV304 "computed by `raw.encoder` .*past its DistributedDataParallel wrapper"
        opt.step()


def run_forward_pass(vla, action_head, batch):
    # VLA-Adapter's forward helper, called from the training loop below.
    h = vla(batch["x"])
    pred = action_head.module.predict_action(h)
    return nn.functional.l1_loss(pred, batch["y"])


def finetune(backbone, loader, device_id):
    vla = DDP(backbone.to(device_id), device_ids=[device_id])
    action_head = DDP(Head().to(device_id), device_ids=[device_id])
    opt = torch.optim.AdamW(list(vla.parameters()) + list(action_head.parameters()))
    for batch in loader:
        loss = run_forward_pass(vla, action_head, batch)
        loss.backward()  # want CV304 "computed by `run_forward_pass` .*past the DistributedDataParallel wrapper `action_head`"
        opt.step()
