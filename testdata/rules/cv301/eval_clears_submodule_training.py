# Sequence-parallel attention communicates only in training mode (`if
# self.training:`), inside layers the model runs from a ModuleList
# (torchgt's graph transformer). model.eval() clears every submodule's
# flag, so rank 0's evaluation after it issues nothing; an evaluation
# that forgets eval() runs the all_to_all on rank 0 alone.
import torch
import torch.distributed as dist
import torch.nn as nn


class SeqAttention(nn.Module):
    def __init__(self, group):
        super().__init__()
        self.group = group

    def forward(self, x):
        if self.training:
            outs = [torch.empty_like(x) for _ in range(dist.get_world_size(self.group))]
            dist.all_to_all(outs, [x] * len(outs), group=self.group)
            x = torch.cat(outs)
        return x


class Layer(nn.Module):
    def __init__(self, group):
        super().__init__()
        self.attn = SeqAttention(group)
        self.mlp = nn.Linear(8, 8)

    def forward(self, x):
        return self.mlp(self.attn(x))


class Model(nn.Module):
    def __init__(self, group):
        super().__init__()
        self.layers = nn.ModuleList([Layer(group) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


@torch.no_grad()
def evaluate(model, x):
    model.eval()
    return model(x).argmax(1)


@torch.no_grad()
def evaluate_in_training_mode(model, x):
    return model(x).argmax(1)


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    group = dist.new_group(list(range(dist.get_world_size())))
    model = Model(group).cuda()
    x = torch.randn(16, 8, device="cuda")
    for epoch in range(10):
        model.train()
        model(x).sum().backward()
        if rank == 0 and epoch % 5 == 0:
            evaluate(model, x)
        if rank == 0 and epoch == 9:
            evaluate_in_training_mode(model, x)  # want CV301 "epoch == 9"
