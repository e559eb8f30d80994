# Each rank estimates the validation loss on its own random batches and
# never all-reduces it, then decides whether to save; the save is
# collective (ZeRO-1's consolidate_state_dict, FSDP's full state dict), so
# ranks that disagree hang in it (a nanoGPT descendant's FSDP trainer).
# The estimate reaches the test through a helper's return, a tensor
# filled element by element, or a test joined with a configuration flag.
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("nccl")
model = DDP(torch.nn.Linear(4, 4).cuda())
optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-3)
always_save_checkpoint = False


def get_batch():
    ix = torch.randint(100, (8,))
    return ix.float().view(2, 4).cuda()


@torch.no_grad()
def estimate_loss():
    losses = torch.zeros(10)
    for k in range(10):
        losses[k] = model(get_batch()).pow(2).mean().item()
    return losses.mean()


@torch.no_grad()
def estimate_loss_reduced():
    losses = torch.zeros(10, device="cuda")
    for k in range(10):
        losses[k] = model(get_batch()).pow(2).mean().item()
    dist.all_reduce(losses)
    return losses.mean()


def train(iters):
    best = 1e9
    best_agreed = 1e9  # (best above is each rank's own after its arm)
    for it in range(iters):
        val = estimate_loss()
        if val < best or always_save_checkpoint:
            best = val
            optimizer.consolidate_state_dict(to=0)  # want CV301 "comparison of a value computed from each rank's own batch"
        agreed = estimate_loss_reduced()
        if agreed < best_agreed:
            best_agreed = agreed
            optimizer.consolidate_state_dict(to=0)
        loss = model(get_batch()).pow(2).mean()
        loss.backward()
        optimizer.step()
