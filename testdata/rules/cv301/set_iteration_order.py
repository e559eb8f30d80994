# R13 (NVIDIA/apex#18): collectives issued once per element of a set run
# in the set's hash order, which differs between processes (string hash
# seeds, object addresses): ranks pair different tensors.
import torch
import torch.distributed as dist


def sync_buffers(buffers, names):
    for name in set(names):
        dist.broadcast(buffers[name], 0)  # want CV301 "once per element of `set\(names\)`"


def sync_params(model):
    params = set(model.parameters())
    for p in params:
        dist.all_reduce(p.grad)  # want CV301 "once per element of `params`"


def reduce_bucket(bucket):
    dist.all_reduce(bucket)


def sync_groups(grouped):
    kinds = {t.dtype for t in grouped}
    for kind in kinds | {"extra"}:
        reduce_bucket(grouped[kind])  # want CV301 "all_reduce.*once per element"


def flat_dist_call(tensors, call, extra_args=None):
    # apex's original: tensors grouped by type in a dict filled from a set,
    # then one collective per group on a value derived from the key.
    buckets = {}
    for tp in set(t.type() for t in tensors):
        buckets[tp] = [t for t in tensors if t.type() == tp]
    for tp in buckets:
        bucket = buckets[tp]
        coalesced = torch._utils._flatten_dense_tensors(bucket)
        call(coalesced, *extra_args)  # want CV301 "broadcast.*once per element of `buckets`"


def sync_model(model):
    flat_dist_call([p.data for p in model.parameters()], dist.broadcast, (0,))


def sync_deduplicated(tensors_by_name, names):
    for name in list(set(names)):
        dist.all_reduce(tensors_by_name[name])  # want CV301 "once per element of `list\(set\(names\)\)`"
    for i, name in enumerate({n.lower() for n in names}):
        dist.all_reduce(tensors_by_name[name])  # want CV301 "once per element"
    grads = {name: tensors_by_name[name] for name in set(names)}
    for name, grad in grads.items():
        dist.all_reduce(grad)  # want CV301 "once per element of `grads.items\(\)`"


class TiedGroups:
    # DeepSpeed's PipelineModule._index_tied_modules before its fix
    # (deepspeedai/DeepSpeed PR #7208 sorts the keys): one group creation
    # per tied key, in the order of a set of strings.
    def index_tied(self, specs, ds_comm):
        tie_keys = set(s.key for s in specs)
        for key in tie_keys:
            tied_layers = []
            for idx, layer in enumerate(specs):
                if layer.key == key:
                    tied_layers.append(idx)
            ranks = []
            for s in sorted(set(self.owner(i) for i in tied_layers)):
                ranks.append(self.to_global(s))
            dist.new_group(ranks=ranks)  # want CV301 "new_group .*once per element of `tie_keys`.*creates these groups in its own order"
