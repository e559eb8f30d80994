# One side stream, stored with an annotation (`self.stream:
# torch.cuda.Stream = …`), used by two methods, one of which nothing in
# the program calls: both issue on that one stream (insightface's partial
# FC).
import torch
import torch.distributed as dist


class PartialFC(torch.nn.Module):
    def __init__(self, world_size, batch_size, local_rank):
        super().__init__()
        self.world_size, self.batch_size = world_size, batch_size
        self.stream: torch.cuda.Stream = torch.cuda.Stream(local_rank)

    def prepare(self, label):
        with torch.cuda.stream(self.stream):
            total = torch.zeros(self.batch_size * self.world_size, device="cuda", dtype=torch.long)
            dist.all_gather(list(total.chunk(self.world_size, dim=0)), label)
            return total

    def prepare_scale(self, label):
        with torch.cuda.stream(self.stream):
            total = torch.zeros(self.batch_size * self.world_size, device="cuda", dtype=torch.long)
            dist.all_gather(list(total.chunk(self.world_size, dim=0)), label)
            return total

    def forward_backward(self, label):
        return self.prepare(label)


def main():
    dist.init_process_group("nccl")
    pfc = PartialFC(dist.get_world_size(), 8, 0)
    for _ in range(10):
        pfc.forward_backward(torch.randint(0, 100, (8,), device="cuda"))
        torch.cuda.current_stream().wait_stream(pfc.stream)
