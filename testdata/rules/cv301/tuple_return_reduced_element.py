# A helper handed the DDP model returns (this rank's accuracy, the
# all-reduced accuracy): the caller's test of the second is the same on
# every rank (mlcommons' R-GAT evaluation), a test of the first is not.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def evaluate(model, batches, device, world_size):
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in batches:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    acc = correct / total
    acc_tensor = torch.tensor(acc).to(device)
    dist.all_reduce(acc_tensor, op=dist.ReduceOp.SUM)
    global_acc = acc_tensor.item() / world_size
    return acc, global_acc


def train(model, opt, batches, device, world_size, target):
    for idx, (x, y) in enumerate(batches):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if idx % 5 == 0:
            rank_acc, global_acc = evaluate(model, batches, device, world_size)
            if global_acc >= target:
                break


def train_on_own(model, opt, batches, device, world_size, target):
    for idx, (x, y) in enumerate(batches):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()  # want CV301 "rank_acc >= target"
        opt.step()
        if idx % 5 == 0:
            rank_acc, global_acc = evaluate(model, batches, device, world_size)
            if rank_acc >= target:
                break


def main(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    device = torch.device("cuda", rank)
    model = DistributedDataParallel(torch.nn.Linear(8, 4).to(device), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [(torch.ones(16, 8, device=device), torch.zeros(16, dtype=torch.long, device=device))]
    train(model, opt, batches, device, world_size, 0.9)
    train_on_own(model, opt, batches, device, world_size, 0.9)
