# A patience counter kept on rank 0 only (`if rank == 0: … stale = 0 …
# else: stale += 1`) and tested by every rank: rank 0 leaves the epoch
# loop alone while the others run the next epoch's collectives
# (particleflow's early stop). A counter every rank keeps, on a loss they
# all-reduced, stops them together.
import torch
import torch.distributed as dist


def run_epoch(model, opt, loader, rank):
    total = torch.zeros(1, device=rank)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
    dist.all_reduce(total)
    return total.item()


def train_rank0_counter(model, opt, loader, epochs, patience):
    rank = dist.get_rank()
    stale, best = 0, float("inf")
    for epoch in range(epochs):
        val = run_epoch(model, opt, loader, rank)  # want CV301 "leave early"
        if rank == 0:
            if val < best:
                best = val
                stale = 0
            else:
                stale += 1
        if stale > patience:
            break
    dist.barrier()


def train_shared_counter(model, opt, loader, epochs, patience):
    rank = dist.get_rank()
    stale, best = 0, float("inf")
    for epoch in range(epochs):
        val = run_epoch(model, opt, loader, rank)
        if val < best:
            best = val
            stale = 0
        else:
            stale += 1
        if rank == 0:
            print(f"epoch {epoch}: {val:.4f}, {stale} without improvement")
        if stale > patience:
            break
    dist.barrier()
