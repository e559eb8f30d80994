# A handler for any error that swallows it, around a try body that
# communicates, with collectives after the try: a rank whose body raised
# (out of memory on its longer batch) skips the body's remaining
# collectives and goes on to the next ones (LongRecipe's backward,
# OpenOneRec's checkpoint barrier).
import torch
import torch.distributed as dist


def train_step(model, batch, grads):
    loss = model(batch).sum()
    try:
        loss.backward()
        dist.all_reduce(grads)  # want CV301 "all_reduce on the default group \(WORLD\) is skipped on a rank whose work before it raises"
    except Exception:
        print("wrong step")
    dist.all_reduce(loss.detach())
    return loss


def save_checkpoint(loader, optimizer, path):
    try:
        state = loader.state_dict()
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) is skipped on a rank whose work before it raises"
        torch.save(state, f"{path}/loader_rank{dist.get_rank()}.pt")
    except Exception as e:
        print(f"Failed to save dataloader state: {e}")
    dist.barrier()


def measure_env():
    probe = torch.ones(16 * 1024 * 1024, device="cuda")
    dist.barrier()
    for _ in range(5):
        dist.all_reduce(probe)
    stats = torch.tensor([probe[0].item(), 0.0], device="cuda")
    dist.broadcast(stats, src=0)
    return stats


def main():
    # The helper allocates before its first collective and reads .item()
    # between them: a rank that raises there skips the rest of them
    # (powersgd-adaptive-rank).
    try:
        measure_env()  # want CV301 "(barrier|all_reduce) on the default group \(WORLD\) is skipped on a rank whose work before it raises"
    except Exception as e:
        print(f"measurement failed: {e}")
    dist.barrier()
