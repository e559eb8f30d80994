import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint import async_save

dist.init_process_group("gloo")
side = dist.new_group([0, 1], backend="gloo")  # alloc: S


def save(state):
    # The planning collectives run on the executor thread the call starts.
    fut = dcp.async_save(state, checkpoint_id="ckpt")  # spawn: A  # context: main, background@A  # group: WORLD  # reach-group: A=WORLD
    dist.barrier()  # context: main
    fut.result()


def save_side(state):
    async_save(state, checkpoint_id="ckpt", process_group=side)  # spawn: B  # context: main, background@B  # reach-group: B=new_group@S


save({})
save_side({})
