import os
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(*[torch.nn.Linear(4096, 4096) for _ in range(8)])

    def forward(self, x):
        return self.layers(x)


def main():
    dist.init_process_group("nccl")
    torch.autograd.set_multithreading_enabled(False)
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = FSDP(Net().cuda(), sharding_strategy=ShardingStrategy.HYBRID_SHARD)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(1000):
        batch = torch.randn(16, 4096, device="cuda")
        loss = model(batch).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
