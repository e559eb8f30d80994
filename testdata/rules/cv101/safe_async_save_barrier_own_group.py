# T3 after its fix: the forward's monitored_barrier has a gloo group of
# its own, so the async save's background thread is alone on the save
# group.
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
        self.sync_group = dist.new_group(backend="gloo")

    def forward(self, x):
        dist.monitored_barrier(group=self.sync_group)
        return x


def save(state, path):
    return dcp.async_save(state, checkpoint_id=path, process_group=init_gloo_group())


def step(model, batch, state, path):
    out = model.forward(batch)
    save(state, path)
    return out
