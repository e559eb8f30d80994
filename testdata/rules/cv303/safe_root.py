# Roots every rank agrees on.
import torch
import torch.distributed as dist


def sync_params(model):
    for p in model.parameters():
        dist.broadcast(p.data, src=0)


def round_robin(bufs):
    # Every rank runs the same loop: in each iteration all name the same
    # root.
    rank = dist.get_rank()
    for src in range(dist.get_world_size()):
        buf = bufs[src] if src == rank else torch.empty_like(bufs[src])
        dist.broadcast(buf, src=src)


def owner_sends(t, owner):
    # Under a rank test the root is rank only where rank == owner.
    rank = dist.get_rank()
    if rank == owner:
        dist.broadcast(t, src=rank)
    else:
        dist.broadcast(t, src=owner)


def tp_broadcast(t, tp_group, tp_size):
    # Megatron: the first rank of this rank's tensor-parallel group is the
    # same for all members of that group.
    src = dist.get_rank() // tp_size * tp_size
    dist.broadcast(t, src=src, group=tp_group)


def p2p(t):
    # Point-to-point peers differ by design.
    rank = dist.get_rank()
    if rank % 2 == 0:
        dist.send(t, dst=rank + 1)
    else:
        dist.recv(t, src=rank - 1)


def ordered_generation(data, local_rank, world_size):
    # Each rank waits for the ranks before it, takes its own turn as the
    # source, then hears the ranks after it: every rank issues the
    # broadcasts with src 1, 2, ..., in the same order.
    ack = [[None] for _ in range(world_size)]
    for lr in range(1, local_rank):
        dist.broadcast_object_list(ack[lr], src=lr)
    ack[local_rank] = [data]
    dist.broadcast_object_list(ack[local_rank], src=local_rank)
    for lr in range(local_rank + 1, world_size):
        dist.broadcast_object_list(ack[lr], src=lr)


def sampler_loop(state_buf, local_rank):
    # Reached only on the sampling rank (below); the trainers broadcast
    # from that rank's number in their own loop.
    dist.broadcast(state_buf, src=local_rank)


def trainer_loop(state_buf, num_gpus):
    dist.broadcast(state_buf, src=num_gpus)


def main(state_buf, num_gpus):
    local_rank = dist.get_rank()
    if local_rank == num_gpus:
        sampler_loop(state_buf, local_rank)
    else:
        trainer_loop(state_buf, num_gpus)


def serve_parameters(model):
    # A parameter server's own loop: it names itself as the root, and its
    # workers (started by another script) name the server's rank.
    for p in model.parameters():
        dist.broadcast(p.data, src=dist.get_rank())


def broadcast_module(module, pg, src=0):
    # torchrl's DistributedContext.broadcast_module: the group's rank src,
    # the same on every rank, translated to the global rank broadcast
    # takes.
    global_src = dist.get_global_rank(pg, src)
    for value in module.parameters():
        dist.broadcast(value, src=global_src, group=pg)
