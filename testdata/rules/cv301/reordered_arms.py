# R17 (meta-pytorch/torchrec PR #4149): both arms issue the same
# collectives on two groups, in different orders. Ranks whose lengths sum
# to zero take the other arm, and the two groups wait on each other.
import torch
import torch.distributed as dist


class Step:
    def __init__(self, mesh):
        self.shard_pg = mesh.get_group("shard")
        self.replicate_pg = mesh.get_group("replicate")

    def step(self, ids, lengths, dense_grads):
        out = torch.empty_like(lengths)
        if lengths.sum().item() > 0:
            dist.all_to_all_single(out, lengths, group=self.shard_pg)  # want CV301 "different orders .*all_to_all_single on `self.shard_pg`, in the other arm all_reduce_coalesced on `self.replicate_pg` first"
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
        else:
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
            dist.all_to_all_single(out, lengths, group=self.shard_pg)
        return out


def sync(a, b, tp, dp, flag):
    intra = dist.new_group([0, 1])
    inter = dist.new_group([0, 2])
    if flag.item():
        dist.all_reduce(a, group=intra)  # want CV301 "different orders"
        dist.broadcast(b, 0, group=inter)
    else:
        dist.broadcast(b, 0, group=inter)
        dist.all_reduce(a, group=intra)
