# The same model called on rank 0 in training mode (no eval(), or after
# train() again): its similarity all-gathers there.
import torch
import torch.distributed as dist
from torch import nn


class Retriever(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def get_similarity_logits(self, text, video):
        if self.training:
            out = [torch.empty_like(video) for _ in range(dist.get_world_size())]
            dist.all_gather(out, video)
            video = torch.cat(out)
        return self.proj(text) @ video.t()


def probe(model, t, v):
    model.eval()
    model.get_similarity_logits(t, v)
    model.train()
    return model.get_similarity_logits(t, v)


def run_helper(model, t, v):
    return model.get_similarity_logits(t, v)


def main(t, v):
    model = Retriever().cuda()
    if dist.get_rank() == 0:
        model.get_similarity_logits(t, v)  # want CV301 "all_gather"
    if dist.get_rank() == 0:
        probe(model, t, v)  # want CV301 "all_gather"
    if dist.get_rank() == 0:
        run_helper(model, t, v)  # want CV301 "all_gather"
