# One group per tensor-parallel index, each made on every rank; in the
# loop over the indexes a rank passes over the groups it is not a member
# of, so each group's members all issue its broadcast (nanoRLHF's weight
# sync from the trainer's ranks to the rollout ranks).
import torch
import torch.distributed as dist


def sync_weights(buf, tp_size, n_senders):
    rank, world = dist.get_rank(), dist.get_world_size()
    is_receiver = rank >= n_senders
    my_tp = (rank - n_senders) % tp_size if is_receiver else rank % tp_size
    groups = {}
    for tp in range(tp_size):
        members = [tp] + [r for r in range(n_senders, world) if (r - n_senders) % tp_size == tp]
        groups[tp] = dist.new_group(ranks=members)
    for tp in range(tp_size):
        if is_receiver:
            if tp != my_tp:
                continue
        elif tp != my_tp:
            continue
        dist.broadcast(buf, src=tp, group=groups[tp])
