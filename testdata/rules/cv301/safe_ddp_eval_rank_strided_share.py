# Each rank validates its round-robin share, `range(rank, len(dataset),
# world_size)`, through the DDP model under no_grad. DDP broadcasts the
# buffers on a rank's first no-grad forward after a grad-enabled one
# only, so every rank issues that broadcast once however long its share
# is (BasicSR's video model validation), as in the `if idx % world_size
# != rank: continue` form.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class VideoModel:
    def __init__(self, net):
        self.net_g = DDP(net.cuda(), device_ids=[torch.cuda.current_device()])

    def test(self, lq):
        self.net_g.eval()
        with torch.no_grad():
            self.output = self.net_g(lq)
        self.net_g.train()

    def dist_validation(self, dataset, metrics):
        rank, world_size = dist.get_rank(), dist.get_world_size()
        for idx in range(rank, len(dataset), world_size):
            self.test(dataset[idx])
        dist.reduce(metrics, 0)
        dist.barrier()
