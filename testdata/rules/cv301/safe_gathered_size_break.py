# A loop that leaves at a count taken from an all-gathered tensor
# (CaCo's init_memory: concat_all_gather(k).size(0) is world size times
# the local batch): every rank holds the same gathered tensor, so every
# rank leaves at the same iteration.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


@torch.no_grad()
def concat_all_gather(t):
    out = [torch.ones_like(t) for _ in range(dist.get_world_size())]
    dist.all_gather(out, t, async_op=False)
    return torch.cat(out, dim=0)


def init_memory(loader, model, bank, K):
    for i, (x, _) in enumerate(loader):
        k = model(x.cuda())
        gathered = concat_all_gather(k.detach())
        batch_size = gathered.size(0)
        bank[:, i * batch_size:(i + 1) * batch_size] = gathered[: K - i * batch_size].T
        if (i + 1) * batch_size >= K:
            break


def main(ds, net, K):
    dist.init_process_group("nccl")
    model = DDP(net.cuda())
    init_memory(torch.utils.data.DataLoader(ds), model, torch.zeros(128, K).cuda(), K)
