# A gather Function applied only where autograd is off (a kNN evaluation
# under @torch.no_grad(), through a helper, or inside `with
# torch.no_grad():`): no graph is recorded, so its backward never runs
# (scale-mae's GatherLayer).
import torch
import torch.distributed as dist


class GatherLayer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        output = [torch.zeros_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(output, x)
        return tuple(output)

    @staticmethod
    def backward(ctx, *grads):
        all_gradients = torch.stack(grads)
        dist.all_reduce(all_gradients)
        return all_gradients[dist.get_rank()]


def gather_from_all(t):
    return torch.cat(GatherLayer.apply(t), 0)


@torch.no_grad()
def knn_features(net, x):
    return gather_from_all(net(x))


def evaluate(net, x):
    with torch.no_grad():
        feats = torch.cat(GatherLayer.apply(net(x)), 0)
    return feats
