# A helper returns the list an object collective filled: unpickled Python
# objects, not tensors, so reading them after the stream block is no
# cross-stream read (detectron2's metrics writer).
import torch
import torch.distributed as dist


def gather_objects(obj):
    out = [None] * dist.get_world_size()
    dist.all_gather_object(out, obj)
    return out


def write_metrics(loss_dict):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        metrics = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        all_metrics = gather_objects(metrics)
    return [m["loss"] for m in all_metrics]
