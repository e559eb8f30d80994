# Keys name no tensor, a dict the function builds takes references
# without writing device memory, and a side stream that waits for the
# current one first orders the reads.
import torch


class Trainer:
    def __init__(self, model):
        self.model = model

    def run_step(self, batch):
        loss_dict = self.model(batch)
        losses = sum(loss_dict.values())
        losses.backward()
        self._names(loss_dict)
        self._write_metrics(loss_dict)

    def _names(self, loss_dict):
        with torch.cuda.stream(torch.cuda.Stream()):
            names = [k.upper() for k in loss_dict.keys()]
            labels = {k: len(k) for k, v in loss_dict.items()}
        return names, labels

    def _write_metrics(self, loss_dict):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            metrics = {}
            for k, v in loss_dict.items():
                metrics[k] = v.detach().cpu().item()
        return metrics
