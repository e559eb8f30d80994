# Every stage tracks the MoE auxiliary losses; only the last one reports.
from megatron.core import parallel_state as mpu
from megatron.core.transformer.moe.moe_utils import track_moe_metrics


def train_step(forward_backward, optimizer, n_micro):
    losses = forward_backward()
    optimizer.step()
    total = {}
    track_moe_metrics(loss_scale=1.0 / n_micro, iteration=0, writer=None, total_loss_dict=total)
    out = {}
    if mpu.is_pipeline_last_stage():
        out["loss"] = sum(x["loss"].item() for x in losses) / len(losses)
        out.update(total)
    return out
