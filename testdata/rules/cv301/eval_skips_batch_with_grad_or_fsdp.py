# A skipped batch still unpairs collectives when the forward communicates
# on every call: DDP with autograd on (each forward broadcasts the
# buffers and the backward all-reduces), and FSDP, whose forward
# all-gathers the parameters under no_grad too.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel
from torch.nn.parallel import DistributedDataParallel


def train(model, loader):
    for batch in loader:
        if batch is None:
            continue
        loss = model(batch).sum()  # want CV301 "test of the batch this rank loaded"
        loss.backward()


def evaluate_sharded(net, loader):
    model = FullyShardedDataParallel(net)
    for batch in loader:
        if batch is None:
            continue
        with torch.no_grad():
            model(batch)  # want CV301 "test of the batch this rank loaded"


def main(net, loader):
    dist.init_process_group("nccl")
    train(DistributedDataParallel(net), loader)
    evaluate_sharded(net, loader)
