# Every rank walks the peers in the same order and skips itself: the arm
# it takes sends before it receives, on every rank, so ranks 0 and 1 both
# start by sending to each other (ort_moe's compressed all-to-all).
import torch.distributed as dist


def naive_all_to_all(chunks, group=None):
    world_size = dist.get_world_size(group)
    rank = dist.get_rank(group)
    for i in range(world_size):
        if i != rank:
            dist.send(chunks[i], i)  # want CV302 "every rank runs this blocking send before its blocking recv"
            dist.recv(chunks[i], i)
    return chunks


def ordered_all_to_all(chunks):
    # The lower rank of each pair sends first: each side has its own
    # order.
    rank = dist.get_rank()
    for i in range(dist.get_world_size()):
        if i < rank:
            dist.send(chunks[i], i)
            dist.recv(chunks[i], i)
        elif i > rank:
            dist.recv(chunks[i], i)
            dist.send(chunks[i], i)
    return chunks
