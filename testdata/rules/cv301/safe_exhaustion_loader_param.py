# The evaluation helper iterates the loader it is handed, and every call
# of it hands a loader over a DistributedSampler, which pads each rank to
# as many samples as the others (drop_last=False): the ranks run out of
# batches on the same pass (minllm's evaluate, called with its training
# scripts' validation loaders).
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


@torch.no_grad()
def evaluate(model, loader, num_batches=50):
    losses = []
    it = iter(loader)
    for i in range(num_batches):
        try:
            batch = next(it)
        except StopIteration:
            break
        losses.append(model(batch[0]).mean().item())
    return sum(losses) / len(losses)


def main():
    dist.init_process_group("nccl")
    model = FSDP(torch.nn.Linear(8, 8).cuda())
    ds = TensorDataset(torch.randn(1001, 8))
    sampler = DistributedSampler(ds, shuffle=False, drop_last=False)
    loader = DataLoader(ds, batch_size=16, sampler=sampler, drop_last=False)
    print(evaluate(model, loader))
    print(evaluate(model, DataLoader(ds, batch_size=16, sampler=DistributedSampler(ds))))
