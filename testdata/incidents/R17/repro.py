import torch
import torch.distributed as dist


class ShardedEmbeddingStep:
    def __init__(self, mesh):
        self.shard_pg = mesh.get_group("shard")
        self.replicate_pg = mesh.get_group("replicate")

    def step(self, ids, lengths, dense_grads):
        out_splits = torch.empty_like(lengths)
        if lengths.sum().item() > 0:
            dist.all_to_all_single(out_splits, lengths, group=self.shard_pg)
            recv = torch.empty(int(out_splits.sum().tolist()), dtype=ids.dtype, device=ids.device)
            dist.all_to_all_single(recv, ids, out_splits.tolist(), lengths.tolist(), group=self.shard_pg)
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
        else:
            dist.all_reduce_coalesced(dense_grads, group=self.replicate_pg)
            dist.all_to_all_single(out_splits, lengths, group=self.shard_pg)
            recv = torch.empty(int(out_splits.sum().tolist()), dtype=ids.dtype, device=ids.device)
            dist.all_to_all_single(recv, ids, out_splits.tolist(), lengths.tolist(), group=self.shard_pg)
        torch.cuda.synchronize()
        return recv
