# Opacus's distributed pieces communicate themselves: the DPDDP
# constructor broadcasts the parameters from rank 0, and the distributed
# DP optimizer's step all-reduces the clipped gradients. A step only rank 0
# takes (it alone adds the noise, so it alone steps?) leaves the others
# out of the all-reduce, and wrapping the model on one rank only leaves
# them out of the broadcast.
import torch
import torch.distributed as dist
from opacus.distributed import DifferentiallyPrivateDistributedDataParallel as DPDDP
from opacus.optimizers import DistributedDPOptimizer


def train(model, loader, optimizer):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        if dist.get_rank() == 0:
            optimizer.step()  # want CV301 "DistributedDPOptimizer.step .* runs only when `dist.get_rank\(\) == 0`"
        optimizer.zero_grad()


def main(net, loader):
    dist.init_process_group("nccl")
    if dist.get_rank() == 0:
        net = DPDDP(net)  # want CV301 "DifferentiallyPrivateDistributedDataParallel .* runs only when"
    model = DPDDP(net)
    optimizer = DistributedDPOptimizer(
        optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
        noise_multiplier=1.0,
        max_grad_norm=1.0,
        expected_batch_size=64,
    )
    train(model, loader, optimizer)
