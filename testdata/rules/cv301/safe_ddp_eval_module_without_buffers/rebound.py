# disttgl's shape: the name is rebound to its own wrapper (`model =
# Net().cuda(); model = DDP(model)`), and the wrapped Net holds no
# buffers, so rank 0's no-grad evaluation forward broadcasts nothing.
import torch
import torch.distributed as dist


class TemporalNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.GRUCell(8, 8)
        self.norm = torch.nn.LayerNorm(8)
        self.out = torch.nn.Linear(8, 1)

    def forward(self, x):
        return self.out(self.norm(self.cell(x)))


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = TemporalNet().cuda()
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    opt = torch.optim.Adam(model.parameters())
    for _ in range(10):
        model(torch.randn(4, 8, device="cuda")).sum().backward()
        opt.step()
    if rank == 0:
        with torch.no_grad():
            print(model(torch.randn(4, 8, device="cuda")).mean())
    dist.barrier()
