# T3 (Tencent-Hunyuan/UniRL PR #410): an async DCP save on the memoized
# gloo group while a module's forward syncs its ranks with
# monitored_barrier on that same group. The fix gave the barrier a group
# of its own.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

GLOO_GROUP = None


def init_gloo_group():
    global GLOO_GROUP
    if GLOO_GROUP is None:
        GLOO_GROUP = dist.new_group(backend="gloo")
    return GLOO_GROUP


class TextEmbed:
    def __init__(self):
        self.sync_group = init_gloo_group()

    def forward(self, x):
        dist.monitored_barrier(group=self.sync_group)
        return x


def save(state, path):
    return dcp.async_save(state, checkpoint_id=path, process_group=init_gloo_group())  # want CV101 "async_save.*monitored_barrier"


def step(model, batch, state, path):
    out = model.forward(batch)
    save(state, path)
    return out
