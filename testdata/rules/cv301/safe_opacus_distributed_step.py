# The same Opacus training with every rank wrapping the model and stepping
# the distributed DP optimizer each batch; only rank 0 logs.
import torch
import torch.distributed as dist
from opacus.distributed import DifferentiallyPrivateDistributedDataParallel as DPDDP
from opacus.optimizers import DistributedDPOptimizer


def train_all(model, loader, optimizer):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if dist.get_rank() == 0:
            print(loss.item())


def main_all(net, loader):
    dist.init_process_group("nccl")
    model = DPDDP(net)
    optimizer = DistributedDPOptimizer(
        optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
        noise_multiplier=1.0,
        max_grad_norm=1.0,
        expected_batch_size=64,
    )
    train_all(model, loader, optimizer)
