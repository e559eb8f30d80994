"""dcp.async_save plans its checkpoint with collectives on a background thread.

Without process_group it uses the default group, which the main thread keeps
using for the next steps: the KempnerForge deadlock (py-spy: MainThread in
barrier, AsyncCheckpointExecutor_0 in all_gather). collvet reports CV101 on
async_save. Pass a dedicated group: dcp.async_save(..., process_group=pg)
with pg = dist.new_group(backend="gloo") created once on every rank.
"""
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def train(model, loader, every, ckpt_dir):
    pending = None
    for step, batch in enumerate(loader):
        loss = model(batch).sum()
        loss.backward()
        if step % every == 0:
            if pending is not None:
                pending.result()
            pending = dcp.async_save({"model": model.state_dict()}, checkpoint_id=f"{ckpt_dir}/{step}")
            dist.barrier()
