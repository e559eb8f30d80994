# A truth test of a tensor reduction (`if not torch.isfinite(losses).all()`)
# copies a Python bool to the host, so the host has waited for the current
# stream: what that stream wrote before is finished when a side stream
# reads it (cvpods' and detectron2's _detect_anomaly before the metrics
# are written on a side stream). Directly or in a helper.
import torch


class Runner:
    def __init__(self, model):
        self.model = model

    def run_step(self, data):
        loss_dict = self.model(data)
        losses = sum(loss_dict.values())
        self._detect_anomaly(losses)
        return self._write_metrics(loss_dict)

    def _detect_anomaly(self, losses):
        if not torch.isfinite(losses).all():
            raise FloatingPointError("Loss became infinite or NaN")

    def _write_metrics(self, loss_dict):
        with torch.cuda.stream(torch.cuda.Stream()):
            return {k: v.detach().cpu().item() for k, v in loss_dict.items()}


def step(model, data):
    out = model(data)
    if torch.isnan(out).any():
        return None
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = out.float().cpu()
    return y
