# Rank 0 leaves the loop after this pass's all_reduce; the others go round
# again into the next pass's all_reduce and wait for it forever.
import torch.distributed as dist


def train(model, loader):
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)  # want CV301 "do not leave early"
        if dist.get_rank() == 0:
            return False
    return True


def train_until(model, loader):
    while True:
        loss = model(next(loader))
        dist.all_reduce(loss)  # want CV301 "do not leave early"
        if dist.get_rank() == 0 and loss.item() > 3:
            break
