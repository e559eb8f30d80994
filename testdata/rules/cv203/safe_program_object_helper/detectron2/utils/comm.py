# The library's own object gather, analysed as part of the library: it
# returns unpickled Python objects, as the tables say of
# detectron2.utils.comm.gather.
import pickle

import torch
import torch.distributed as dist


def gather(data, dst=0, group=None):
    if dist.get_world_size() == 1:
        return [data]
    payload = torch.frombuffer(bytearray(pickle.dumps(data)), dtype=torch.uint8)
    if dist.get_rank() == dst:
        parts = [torch.empty_like(payload) for _ in range(dist.get_world_size())]
        dist.gather(payload, parts, dst=dst, group=group)
        return [pickle.loads(p.numpy().tobytes()) for p in parts]
    dist.gather(payload, [], dst=dst, group=group)
    return []


def is_main_process():
    return dist.get_rank() == 0
