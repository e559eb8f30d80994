# A test of the rank within the pipeline group guards all-gathers on the
# tensor- and data-parallel groups: those groups lie within one pipeline
# stage, so all of their members answer the test alike (lighteval's
# nanotron model, nanotron's ParallelContext).
import torch
import torch.distributed as dist


class Model:
    def gather_logits(self, pc, out):
        # SAFE: the test picks a pipeline stage; tp_pg and dp_pg lie within one stage,
        # so every member of those groups answers the test alike (lighteval nanotron_model.py shape)
        if dist.get_rank(pc.pp_pg) == self.output_pp_rank:
            gathered = [torch.zeros_like(out) for _ in range(pc.tp_pg.size())]
            dist.all_gather(gathered, out, group=pc.tp_pg)
            lengths = [torch.zeros_like(out) for _ in range(pc.dp_pg.size())]
            dist.all_gather(lengths, out, group=pc.dp_pg)
            return torch.cat(gathered, dim=-1)
        return None


def evaluate(loss, count, dp_group, pp_group):
    # SAFE: the process group's own rank() (OpenCastKit's GraphCast
    # evaluation): the last stage's data-parallel group lies within it.
    is_last_pipeline_stage = pp_group.rank() == pp_group.size() - 1
    if is_last_pipeline_stage:
        dist.all_reduce(loss, group=dp_group)
        dist.all_reduce(count, group=dp_group)
    dist.all_reduce(loss, group=pp_group)
