# The same helper given the DDP model under a rank test runs the wrapper's
# forward, which broadcasts its buffers: the other ranks never join.
import torch
import torch.distributed as dist


def evaluate(model, batch):
    return model(batch).mean()


def run_eval(model, batch):
    return evaluate(model, batch)


def train(net, loader, local_rank):
    model = torch.nn.parallel.DistributedDataParallel(net, device_ids=[local_rank])
    for batch in loader:
        model(batch).sum().backward()
        if dist.get_rank() == 0:
            print(run_eval(model, batch))  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"
        dist.barrier()
