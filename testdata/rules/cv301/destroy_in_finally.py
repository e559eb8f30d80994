# destroy_process_group in a finally clause (or a handler) around
# collectives also runs on the rank whose work raised, while the others
# wait in the collective it never joined: that rank hangs in the teardown
# instead of exiting (torchtitan#1342 moved it out of the finally).
import torch
import torch.distributed as dist


def train(model, loader):
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)


def main(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    finally:
        dist.destroy_process_group()  # want CV301 "runs at .* \(`finally`\), also on a rank whose work above raised"


def main_handler(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except RuntimeError:
        dist.destroy_process_group()  # want CV301 "`except RuntimeError`"
        raise
