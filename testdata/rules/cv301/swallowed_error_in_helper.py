# The helper swallows its own failure: a rank whose load raises skips the
# broadcast, and the caller's training collectives pair with the others'.
import torch
import torch.distributed as dist


def load_shard(model, path):
    try:
        state = torch.load(path)
        dist.broadcast(state["step"], src=0)  # want CV301 "work before it raises"
        model.load_state_dict(state["model"])
    except Exception as e:
        print(f"load failed: {e}")


def train(model, path, loader):
    load_shard(model, path)
    for batch in loader:
        loss = model(batch).sum()
        loss.backward()
        dist.all_reduce(loss)
