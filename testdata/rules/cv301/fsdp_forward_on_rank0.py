# An FSDP model's forward all-gathers the parameters it shards: running it
# on rank 0 only (a sample, a quick evaluation) waits for ranks that never
# join the all-gather.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, net):
        self.model = FSDP(net)

    def sample(self, prompt):
        if dist.get_rank() == 0:
            with torch.no_grad():
                out = self.model(prompt)  # want CV301 "the model's forward"
            print(out)


def evaluate(net, batch):
    model = FSDP(net)
    if dist.get_rank() != 0:
        return None
    return model.forward(batch)  # want CV301 "do not leave early"


def sample_text(net, batch):
    # generate() runs the sharded forward step after step.
    model = FSDP(net)
    if dist.get_rank() == 0:
        out = model.generate(**batch, max_new_tokens=8)  # want CV301 "the model's forward"
        print(out)
    dist.barrier()
