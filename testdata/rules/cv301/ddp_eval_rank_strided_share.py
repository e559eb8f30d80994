# The same round-robin share with a forward that tracks gradients: DDP
# then takes part in every forward, so ranks with longer shares issue
# more of them.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class VideoModel:
    def __init__(self, net):
        self.net_g = DDP(net.cuda(), device_ids=[torch.cuda.current_device()])

    def test(self, lq):
        self.output = self.net_g(lq)

    def dist_validation(self, dataset, metrics):
        rank, world_size = dist.get_rank(), dist.get_world_size()
        for idx in range(rank, len(dataset), world_size):
            self.test(dataset[idx])  # want CV301 "once per element of `range\(rank, len\(dataset\), world_size\)`"
        dist.reduce(metrics, 0)
