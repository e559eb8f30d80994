# A DDP model's no_grad forward on rank 0 alone, right after a no_grad
# evaluation loop that every rank ran: DDP broadcasts buffers in a forward
# only while require_forward_param_sync is set, and a no-grad forward clears
# it, so the rank-0 forward issues no collective.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda(rank)
    model = torch.nn.parallel.DistributedDataParallel(net, device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(64, 4))
    train_loader = DataLoader(data, batch_size=8, sampler=DistributedSampler(data))
    val_loader = DataLoader(data, batch_size=8, sampler=DistributedSampler(data, shuffle=False))

    for epoch in range(3):
        model.train()
        for (x,) in train_loader:
            loss = model(x.cuda()).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        val = torch.zeros(1, device="cuda")
        with torch.no_grad():
            for (x,) in val_loader:
                val += model(x.cuda()).sum()
        dist.all_reduce(val)

        if rank == 0:
            with torch.no_grad():
                (x,) = next(iter(val_loader))
                out = model(x.cuda())
            print(out.mean().item())

    dist.destroy_process_group()


if __name__ == "__main__":
    n = torch.cuda.device_count()
    torch.multiprocessing.spawn(main, args=(n,), nprocs=n)
