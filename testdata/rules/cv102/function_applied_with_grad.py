# The same gather applied once where autograd records the graph (a
# contrastive loss): its backward runs on the engine's thread.
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
        dist.all_reduce(all_gradients)  # want CV102 "all_reduce on the default group \(WORLD\) runs in a callback registered with Function.backward"
        return all_gradients[dist.get_rank()]


@torch.no_grad()
def knn_features(net, x):
    return torch.cat(GatherLayer.apply(net(x)), 0)


def contrastive_loss(net, x):
    z = torch.cat(GatherLayer.apply(net(x)), 0)
    return (z @ z.T).mean()
