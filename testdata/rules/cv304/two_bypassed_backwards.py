# Two networks, each wrapped, each trained past its wrapper in one
# function: neither backward reduces gradients, and each is reported (a
# music RL trainer's value net and policy net).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def optimize(model, value_net, x, optimizer):
    v = value_net.module.decode(x)
    loss_v = v.sum()
    loss_v.backward()  # want CV304 "value_net.module.decode"
    out = model.module.decode(x)
    loss = out.sum()
    loss.backward()  # want CV304 "model.module.decode"
    optimizer.step()


def optimize_one_wrapped(model, value_net, x, optimizer):
    # The policy net goes through its wrapper: only the value net's
    # backward is past one.
    v = value_net.module.decode(x)
    v.sum().backward()  # want CV304 "value_net.module.decode"
    model(x).sum().backward()
    optimizer.step()


def train(rank):
    dist.init_process_group("nccl")
    torch.cuda.set_device(rank)
    net = DDP(torch.nn.Linear(4, 4).cuda(), device_ids=[rank])
    vnet = DDP(torch.nn.Linear(4, 4).cuda(), device_ids=[rank])
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    optimize(net, vnet, torch.randn(2, 4).cuda(), opt)
    optimize_one_wrapped(net, vnet, torch.randn(2, 4).cuda(), opt)
