# The two arms of an if inside a loop can both run, in different
# iterations: the isend of one iteration may still be reading the tensor
# when a later iteration's broadcast on another group writes it.
import torch.distributed as dist


def exchange(tensor, peers, src):
    group = dist.new_group()
    works = []
    for i, peer in enumerate(peers):
        if i % 2 == 0:
            works.append(dist.isend(tensor, peer))
        else:
            dist.broadcast(tensor, src, group=group)  # want CV202 "broadcast .* \"tensor\""
    for w in works:
        w.wait()
