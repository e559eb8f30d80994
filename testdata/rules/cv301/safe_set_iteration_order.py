# Deterministic orders stay silent: sorted sets, lists, sets of integers,
# and set loops whose collectives do not depend on the element.
import torch
import torch.distributed as dist


def sync_buffers(buffers, names):
    for name in sorted(set(names)):
        dist.broadcast(buffers[name], 0)


def sync_params(model):
    for p in list(model.parameters()):
        dist.all_reduce(p.grad)


def by_index(tensors):
    for i in set(range(len(tensors))):
        dist.all_reduce(tensors[i])
    for i in {0, 1, 2}:
        dist.all_reduce(tensors[i])


def count_only(names, flag):
    for name in set(names):
        print(name)
        dist.all_reduce(flag)


def horovod_missing(handles, requires_update, hvd):
    # Horovod's coordinator matches operations by tensor name, so the
    # order in which a rank submits them does not matter.
    from horovod.torch.mpi_ops import allreduce_async_

    done = set(handles)
    for p in requires_update - done:
        handles[p] = allreduce_async_(p.grad, name=str(p))


def flat_dist_call(tensors, call, extra_args=None):
    # apex's fix: the keys are sorted before the dict is filled.
    buckets = {}
    for tp in sorted(set(t.type() for t in tensors)):
        buckets[tp] = [t for t in tensors if t.type() == tp]
    for tp in buckets:
        bucket = buckets[tp]
        coalesced = torch._utils._flatten_dense_tensors(bucket)
        call(coalesced, *extra_args)


def sync_model(model):
    flat_dist_call([p.data for p in model.parameters()], dist.broadcast, (0,))


def sync_deduplicated(tensors_by_name, names, flag):
    for name in sorted(list(set(names))):
        dist.all_reduce(tensors_by_name[name])
    seen = {}
    for name in set(names):
        seen[name] = True
    for key in sorted(seen):
        dist.all_reduce(tensors_by_name[key])
    # A dict filled from a set, then refilled from a list.
    order = {name: 0 for name in set(names)}
    order = {name: 0 for name in names}
    for name in order:
        dist.all_reduce(tensors_by_name[name])
    # Counting per element and reducing once is order-free.
    counts = {}
    for name in set(names):
        counts[name] = len(name)
    dist.all_reduce(flag)


class TiedGroups:
    # The fix: the keys sorted, so every rank creates the groups in one
    # order; and a set loop whose body never depends on the key.
    def index_tied(self, specs):
        tie_keys = set(s.key for s in specs)
        for key in sorted(tie_keys):
            tied_layers = []
            for idx, layer in enumerate(specs):
                if layer.key == key:
                    tied_layers.append(idx)
            dist.new_group(ranks=tied_layers)
        for key in tie_keys:
            unrelated = []
            for idx in range(4):
                if idx % 2:
                    unrelated.append(idx)
            print(key, unrelated)


def groups_from_gathered_rank_lists(tp):
    # Each element is a tuple of ranks handed to new_group as its members:
    # tuples of integers hash alike in every process, and the set is built
    # from a gathered list that every rank holds alike (PRISMA).
    world, rank = dist.get_world_size(), dist.get_rank()
    mine = [r for r in range(world) if r // tp == rank // tp]
    gathered = [None] * world
    dist.all_gather_object(gathered, mine)
    mine_group = None
    for ranks in set(tuple(r) for r in gathered):
        group = dist.new_group(list(ranks))
        if rank in ranks:
            mine_group = group
    return mine_group
