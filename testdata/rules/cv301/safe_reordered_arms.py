# Not this check's shape: one order in both arms; a reorder on a single
# group (ranks in different arms would pair different tensors, but no group
# waits on another); a group the analysis cannot tell apart by model or
# by text (groups[0] both times is one group, so this is the single-group
# case again).
import torch
import torch.distributed as dist


class Step:
    def __init__(self, mesh):
        self.shard_pg = mesh.get_group("shard")
        self.replicate_pg = mesh.get_group("replicate")

    def step(self, ids, lengths, dense_grads):
        out = torch.empty_like(lengths)
        if lengths.sum().item() > 0:
            dist.all_to_all_single(out, lengths, group=self.shard_pg)
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
        else:
            out.zero_()
            dist.all_to_all_single(out, lengths, group=self.shard_pg)
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
        return out


def one_group(a, b, flag):
    if flag:
        dist.all_reduce(a)
        dist.all_reduce(b)
    else:
        dist.all_reduce(b)
        dist.all_reduce(a)


def unknown_groups(a, b, groups, flag):
    if flag:
        dist.all_reduce(a, group=groups[0])
        dist.all_reduce(b, group=groups[0])
    else:
        dist.all_reduce(b, group=groups[0])
        dist.all_reduce(a, group=groups[0])
