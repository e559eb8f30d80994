# Megatron's track_moe_metrics all-reduces the MoE auxiliary losses over
# the pipeline-parallel group, which spans every stage: called on the last
# stage only, it waits for stages that never call it.
from megatron.core import parallel_state as mpu
from megatron.core.transformer.moe.moe_utils import track_moe_metrics


def train_step(forward_backward, optimizer, n_micro):
    losses = forward_backward()
    optimizer.step()
    out = {}
    if mpu.is_pipeline_last_stage():
        out["loss"] = sum(x["loss"].item() for x in losses) / len(losses)
        total = {}
        track_moe_metrics(loss_scale=1.0 / n_micro, iteration=0, writer=None, total_loss_dict=total)  # want CV301 "track_moe_metrics on group get_pipeline_model_parallel_group"
        out.update(total)
    return out
