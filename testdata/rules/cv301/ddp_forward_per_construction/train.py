# Whether DDP's forward broadcasts buffers is decided by each
# construction: a trainer elsewhere in the program that passes
# broadcast_buffers=False (ultralytics' BaseTrainer next to yolov7's
# train.py) leaves the default-built model's forward a collective, and
# only the quiet construction's forward may run on rank 0 alone.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def evaluate_default(net, x):
    model = DistributedDataParallel(net)  # broadcast_buffers defaults to True
    if dist.get_rank() == 0:
        with torch.no_grad():
            model(x)  # want CV301 "DDP broadcasts the module's buffers"
    model(x).sum().backward()


class QuietTrainer:
    def __init__(self, net):
        self.net = DistributedDataParallel(net, broadcast_buffers=False)

    def evaluate(self, x):
        if dist.get_rank() == 0:
            with torch.no_grad():
                self.net(x)
        self.net(x).sum().backward()


def evaluate_kwargs(net, x, static_graph):
    # **ddp_args from a dict the function builds without broadcast_buffers
    # (EVA-CLIP's): the default holds, and the forward broadcasts.
    ddp_args = {}
    if static_graph:
        ddp_args["static_graph"] = True
    model = DistributedDataParallel(net, **ddp_args)
    if dist.get_rank() == 0:
        with torch.no_grad():
            model(x)  # want CV301 "DDP broadcasts the module's buffers"
    model(x).sum().backward()


def evaluate_quiet_kwargs(net, x):
    ddp_args = {"broadcast_buffers": False}
    model = DistributedDataParallel(net, **ddp_args)
    if dist.get_rank() == 0:
        with torch.no_grad():
            model(x)
    model(x).sum().backward()


def evaluate_opaque_kwargs(net, x, ddp_args):
    # A dict the caller hands in may say either: not reported.
    model = DistributedDataParallel(net, **ddp_args)
    if dist.get_rank() == 0:
        with torch.no_grad():
            model(x)
    model(x).sum().backward()
