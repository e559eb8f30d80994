# Per-rank plans of feature names, regrouped by a generator of slices
# and picked by rank and pass: host lists that no stream writes, read
# on the side streams (EcoRec's table-wise pipeline).
import torch
import torch.distributed as dist


def split_in_groups(seq, num_groups, decreasing=False):
    size = len(seq) // num_groups
    for g in range(num_groups):
        yield seq[g * size:(g + 1) * size]


def forward(embs, x, plan, comp_stream, comm_stream):
    groups = {r: list(split_in_groups(plan[r], 2, decreasing=True)) for r in plan.keys()}
    outs = []
    for i, group_keys in enumerate(groups[0]):
        group_plan = {r: groups[r][i] for r in plan.keys()}
        with torch.cuda.stream(comp_stream):
            parts = [embs[key](x) for key in group_keys]
            t = torch.cat(parts, dim=1)
        comm_stream.wait_stream(comp_stream)
        with torch.cuda.stream(comm_stream):
            outs.append(exchange(t, group_plan))
    comp_stream.wait_stream(comm_stream)
    return outs


def exchange(t, group_plan):
    n = dist.get_world_size()
    out = [torch.empty(t.shape[0] // n, len(group_plan[r]), device=t.device) for r in range(n)]
    dist.all_to_all(out, list(t.chunk(n)))
    return torch.cat(out, dim=1)
