# One method writes the weight bank on the current stream (the update
# after the optimizer step); another samples it on its own stream at the
# next batch, and nothing makes that stream wait for the current one
# (insightface's partial FC and its forks).
import torch
import torch.distributed as dist
from torch.nn import Module, Parameter
from torch.nn.functional import normalize


class PartialFC(Module):
    def __init__(self, num_local, dim, batch_size, world_size, local_rank):
        super().__init__()
        self.batch_size, self.world_size = batch_size, world_size
        self.weight = torch.normal(0, 0.01, (num_local, dim), device=local_rank)
        self.index = None
        self.sub_weight = Parameter(self.weight)
        self.stream = torch.cuda.Stream(local_rank)

    @torch.no_grad()
    def update(self):
        self.weight[self.index] = self.sub_weight

    def sample(self, total_label):
        self.index = torch.unique(total_label, sorted=True)
        self.sub_weight = Parameter(self.weight[self.index])

    def prepare(self, label):
        with torch.cuda.stream(self.stream):
            total_label = torch.zeros(self.batch_size * self.world_size, device=label.device, dtype=torch.long)
            dist.all_gather(list(total_label.chunk(self.world_size, dim=0)), label)
            self.sample(total_label)  # want CV203 "\"self.weight\" is written on the current stream by PartialFC.update .* read through this call of PartialFC.sample on self.stream"
            return total_label, normalize(self.sub_weight)

    def prepare_inline(self, total_label):
        with torch.cuda.stream(self.stream):
            return normalize(self.weight[total_label])  # want CV203 "read here on self.stream, which never waits for the current stream"


def train(pfc, loader, backbone, opt):
    for img, label in loader:
        total_label, norm_weight = pfc.prepare(label)
        torch.cuda.current_stream().wait_stream(pfc.stream)
        loss = (backbone(img) @ norm_weight.t()).sum()
        loss.backward()
        opt.step()
        pfc.update()
