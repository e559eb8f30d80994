# Pool scoring under no_grad with a DDP model (ReDAL's active-learning
# selection): each rank starts at its own offset into the pool and leaves
# when it runs past the end, after the pass's forward. Under no_grad DDP
# broadcasts the buffers on the first such forward only, and every rank
# has made it by then; the Monte Carlo dropout forwards after it make no
# collective.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def score_pool(model, loader, pool_len, per_rank, n_drop):
    idx = dist.get_rank() * per_rank
    scores = []
    model.eval()
    with torch.no_grad():
        for batch in loader:
            out = model(batch.cuda())
            for _ in range(1, n_drop):
                out = out + model(batch.cuda())
            for row in out:
                scores.append(row.sum().item())
                idx += 1
                if idx >= pool_len:
                    break
            if idx >= pool_len:
                break
    return scores


def main(loader, pool_len, per_rank):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda()
    model = DDP(net, device_ids=[dist.get_rank()])
    scores = score_pool(model, loader, pool_len, per_rank, 4)
    dist.barrier()
    return scores
