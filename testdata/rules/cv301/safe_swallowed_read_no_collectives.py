# The same skip where the rest of the pass only computes locally, or
# where the handler re-raises: no rank falls out of step.
import torch
import torch.distributed as dist


def scan(loader):
    dist.init_process_group("gloo")
    total = 0.0
    for batch in loader:
        try:
            feat = torch.load(batch["feat_path"][0])
        except Exception:
            continue
        total += float(feat.sum())
    t = torch.tensor([total])
    dist.all_reduce(t)


def strict(loader, model):
    for batch in loader:
        try:
            feat = torch.load(batch["feat_path"][0])
        except Exception:
            raise
        dist.all_reduce(model(feat))
