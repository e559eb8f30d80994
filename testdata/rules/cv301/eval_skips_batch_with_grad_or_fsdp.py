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
    train_for_a_while(DistributedDataParallel(net), loader, 60.0)
    evaluate_sharded(net, loader)


def train_for_a_while(model, loader, time_limit):
    import time
    start = time.time()
    for batch in loader:
        model(batch).sum().backward()  # want CV301 "reads the clock"
        if time.time() - start > time_limit:
            break
