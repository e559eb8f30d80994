# broadcast_object_list fills each rank's list in place and keeps its
# length: the source's list of every key and the others' one-element
# placeholder stay of different lengths, so a loop over the list runs a
# different number of broadcasts on the source.
import torch
import torch.distributed as dist


def broadcast_state_dict(model, state_dict, src=0):
    if dist.get_rank() == src:
        keys = list(state_dict.keys())
    else:
        state_dict = {}
        keys = [None]
    dist.broadcast_object_list(keys, src=src)
    for key in keys:
        if dist.get_rank() != src:
            state_dict[key] = torch.empty_like(model.state_dict()[key])
        dist.broadcast(state_dict[key], src=src)  # want CV301 "once per element of `keys`"
    return state_dict


def broadcast_two(tensors):
    if dist.get_rank() == 0:
        names = ["weight", "bias"]
    else:
        names = [None] * 3
    for i in range(len(names)):
        dist.broadcast(tensors[i], src=0)  # want CV301 "depends on the rank"
