# The metrics gathered under a side stream are host objects: reading them
# afterwards on the current stream needs no wait.
import torch

from detectron2.utils import comm


def write_metrics(loss_dict, log):
    with torch.cuda.stream(torch.cuda.Stream()):
        metrics = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        gathered = comm.gather(metrics)
    if comm.is_main_process():
        log(max(x["loss"] for x in gathered))
