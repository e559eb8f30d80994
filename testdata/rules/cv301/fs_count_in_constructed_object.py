# A loader counts this host's minibatch files in its constructor; the
# training loop runs that many steps of a DDP model. A node whose
# directory holds a different number of files runs a different number of
# steps (DistTGL's pre-generated minibatches).
import os

import torch
import torch.distributed as dist


class MinibatchLoader:
    def __init__(self, path, mode):
        self.path = path
        self.tot_length = len([fn for fn in os.listdir(path) if fn.startswith(mode)])
        self.batch = 64


def train(net):
    model = torch.nn.parallel.DistributedDataParallel(net.cuda())
    loader = MinibatchLoader("minibatches/", "train_pos")
    train_iters = loader.tot_length + 3
    for i in range(train_iters):
        loss = model(torch.randn(4, 8, device="cuda")).sum()  # want CV301 "is issued once per element of `range\(train_iters\)`, whose bounds depend on a file system check of this host"
        loss.backward()
    for i in range(loader.batch):
        dist.all_reduce(torch.ones(1, device="cuda"))
    return model
