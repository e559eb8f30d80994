# A training loop whose handler swallows any error and breaks out: the
# rank whose pass raised (a bad sample, running out of memory) leaves the
# loop, and the others wait in the next pass's broadcast (FedScale's
# learner). A handler that raises again, or that only ends the data
# (next() running out), is another matter.
import torch
import torch.distributed as dist


def train_step(model, batch):
    return model(batch).sum()


def run(model, loader, epochs):
    for epoch in range(epochs):
        try:
            for batch in loader:
                train_step(model, batch)
            for p in model.parameters():
                dist.broadcast(p.data, src=0)  # want CV301 "skipped on a rank whose work before it raises"
        except Exception as e:
            print("error", e)
            break
    print("done")


def run_strict(model, loader, epochs):
    for epoch in range(epochs):
        try:
            for batch in loader:
                train_step(model, batch)
            for p in model.parameters():
                dist.all_reduce(p.data)
        except Exception as e:
            print("error", e)
            raise
