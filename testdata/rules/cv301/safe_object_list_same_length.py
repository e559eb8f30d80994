# Lists of the same length on every rank before broadcast_object_list:
# a one-element display on each arm, placeholders as many as the source's
# keys, or a list every rank computes alike.
import torch
import torch.distributed as dist


def broadcast_config(cfg):
    if dist.get_rank() == 0:
        objs = [cfg]
    else:
        objs = [None]
    dist.broadcast_object_list(objs, src=0)
    for c in objs:
        dist.barrier()
    return objs[0]


def broadcast_keys(model, state_dict):
    if dist.get_rank() == 0:
        keys = list(state_dict.keys())
    else:
        keys = [None] * len(model.state_dict())
    dist.broadcast_object_list(keys, src=0)
    for key in keys:
        dist.broadcast(model.state_dict()[key], src=0)


def rebound_after(model, state_dict):
    if dist.get_rank() == 0:
        keys = list(state_dict.keys())
    else:
        keys = [None]
    keys = sorted(model.state_dict().keys())
    for key in keys:
        dist.broadcast(model.state_dict()[key], src=0)
