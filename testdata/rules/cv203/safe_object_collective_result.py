# What an object collective returns is unpickled Python objects on the
# host, not a tensor a stream writes: reading it after the side-stream
# block needs no wait (detectron2's SimpleTrainer._write_metrics).
import torch
import torch.distributed as dist
from detectron2.utils import comm


def write_metrics(loss_dict):
    with torch.cuda.stream(torch.cuda.Stream()):
        metrics = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        gathered = comm.gather(metrics)
    if comm.is_main_process():
        print(max(x["loss"] for x in gathered))


def torch_objects(obj):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = [None] * dist.get_world_size()
        dist.all_gather_object(out, obj)
        names = comm.all_gather(obj)
    return names
