# A list that a loop over this rank's shard appends to holds the rank's
# own count: a rank whose shard is empty (fewer rows than ranks) or whose
# samples all failed skips the gather the others issue (3DGenMemorization's
# evaluation callback).
import torch.distributed as dist


def run_eval(model, rows, encoders):
    rank, world = dist.get_rank(), dist.get_world_size()
    shard = rows[rank::world]
    local_pcs = []
    for r in shard:
        m = model.sample(r)
        if m is None:
            continue
        local_pcs.append(m)
    for enc in encoders:
        if len(local_pcs) == 0:
            continue
        gathered = [None] * world
        dist.all_gather_object(gathered, enc(local_pcs))  # want CV301 "do not leave early .*`len\(local_pcs\) == 0`"
    dist.barrier()


def run_eval_filtered(model, rows, encoder):
    rank, world = dist.get_rank(), dist.get_world_size()
    shard = [r for i, r in enumerate(rows) if i % world == rank]
    local = []
    for r in shard:
        local.append(model.sample(r))
    if not local:
        return
    out = [None] * world
    dist.all_gather_object(out, encoder(local))  # want CV301 "do not leave early"
