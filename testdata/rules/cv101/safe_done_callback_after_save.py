# Each save gets its own gloo group, destroyed by the save future's
# done-callback: the callback runs only once the save's collectives have
# finished, and the main thread never uses that group.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class Trainer:
    def __init__(self, model):
        self.model = model

    def save(self, path):
        grp = dist.new_group(backend="gloo")

        def _done(fut, g=grp):
            dist.destroy_process_group(g)

        fut = dcp.async_save(self.model.state_dict(), checkpoint_id=path, process_group=grp)
        fut.add_done_callback(_done)
        return fut

    def step(self, loss):
        dist.all_reduce(loss)
