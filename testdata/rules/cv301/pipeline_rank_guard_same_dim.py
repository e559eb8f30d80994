# A test of the rank within the pipeline group guards all-gathers on the
# world group and on the pipeline group itself: their members are in
# different stages (safe_pipeline_rank_guard_other_dims.py gathers within
# a stage).
import torch
import torch.distributed as dist


class Model:
    def gather_logits(self, pc, out):
        if dist.get_rank(pc.pp_pg) == self.output_pp_rank:
            gathered = [torch.zeros_like(out) for _ in range(pc.world_pg.size())]
            dist.all_gather(gathered, out, group=pc.world_pg)  # want CV301 "all_gather on .* runs only when `dist.get_rank\(pc.pp_pg\) == self.output_pp_rank` holds"
            return torch.cat(gathered, dim=-1)
        return None

    def stage_sum(self, pc, out):
        if dist.get_rank(group=pc.pp_pg) == 0:
            dist.all_reduce(out, group=pc.pp_pg)  # want CV301 "all_reduce on .* runs only when"
        return out


def stage_sum(out, pp_group):
    if pp_group.rank() == 0:
        dist.all_reduce(out, group=pp_group)  # want CV301 "all_reduce on .* runs only when `pp_group.rank\(\) == 0` holds"
    return out
