# On gloo a blocking send waits until the receiver takes the message, even
# for 16 floats (BENCHMARKS.md): a ring where every rank sends first hangs
# at once, not only at scale.
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    token = torch.tensor([rank])
    buf = torch.empty(1, dtype=torch.long)
    dist.send(token, dst=(rank + 1) % world)  # want CV302 "to `\(rank \+ 1\) % world` and from `\(rank - 1\) % world`, in a ring"
    dist.recv(buf, src=(rank - 1) % world)


def objects(payload):
    peer = dist.get_rank() ^ 1
    out = [None]
    dist.send_object_list([payload], dst=peer)  # want CV302 "send_object_list before its blocking recv_object_list"
    dist.recv_object_list(out, src=peer)
    return out[0]
