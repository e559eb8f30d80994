# The same save without waiting for the previous one: the broadcast can
# run while the last async save still drives the group.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

_GLOO = dist.new_group(backend="gloo")


def _prepare(path, group):
    box = [None]
    dist.broadcast_object_list(box, src=0, group=group)


class Backend:
    def save(self, state, path):
        _prepare(path, _GLOO)
        self.pending = dcp.async_save(state, checkpoint_id=path, process_group=_GLOO)  # want CV101 "async_save.*broadcast_object_list"
