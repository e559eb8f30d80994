import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def save(state, path):
    ckpt_pg = dist.new_group(backend="gloo")
    fut = dcp.async_save(state, checkpoint_id=path, process_group=ckpt_pg)
    dist.barrier()
    return fut
