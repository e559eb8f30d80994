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
