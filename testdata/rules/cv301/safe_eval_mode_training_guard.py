# Rank 0 alone evaluates, after model.eval(): the model's similarity
# all-gathers only `if self.training:`, so rank 0 issues no collective
# there (CLIP4Clip's eval_epoch, also through a helper method).
import torch
import torch.distributed as dist
from torch import nn


class AllGather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, world_size):
        output = [torch.empty_like(tensor) for _ in range(world_size)]
        dist.all_gather(output, tensor)
        return torch.cat(output, dim=0)

    @staticmethod
    def backward(ctx, g):
        return g, None


class Retriever(nn.Module):
    def __init__(self, world_size):
        super().__init__()
        self.world_size = world_size
        self.proj = nn.Linear(8, 8)

    def _similarity(self, text, video):
        if self.training:
            video = AllGather.apply(video, self.world_size)
        return self.proj(text) @ video.t()

    def get_similarity_logits(self, text, video):
        return self._similarity(text, video)


def eval_epoch(args, model, batches):
    if hasattr(model, "module"):
        model = model.module
    model.eval()
    with torch.no_grad():
        return [model.get_similarity_logits(t, v) for t, v in batches]


def _run_on_single_gpu(model, batches):
    return [model.get_similarity_logits(t, v) for t, v in batches]


def eval_through_helper(model, batches):
    # The helper's parameter is the module evaluated here.
    model.eval()
    with torch.no_grad():
        return _run_on_single_gpu(model, batches)


def main(args, batches):
    dist.init_process_group(backend="nccl")
    model = Retriever(dist.get_world_size()).cuda()
    if dist.get_rank() == 0:
        eval_epoch(args, model, batches)
    if dist.get_rank() == 0:
        eval_through_helper(model, batches)
