# Metrics gathered inside a side stream's block through the helper are
# unpickled Python objects: reading them afterwards crosses no stream.
import numpy as np
import torch

import detectron2.utils.comm as comm


def write_metrics(loss_dict, data_time):
    device = next(iter(loss_dict.values())).device
    with torch.cuda.stream(torch.cuda.Stream() if device.type == "cuda" else None):
        metrics = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        metrics["data_time"] = data_time
        all_metrics = comm.gather(metrics)
    return np.max([x.pop("data_time") for x in all_metrics])
