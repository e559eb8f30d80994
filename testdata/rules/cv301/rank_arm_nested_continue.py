# A pass of the loop that only rank 0 can leave, from an if nested in its
# rank test: the others go on to the all_reduce of that pass.
import torch.distributed as dist


def sync_names(names, x):
    for name in names:
        if dist.get_rank() == 0:
            if name.endswith(".tmp"):
                continue
        dist.all_reduce(x)  # want CV301 "all_reduce on the default group .*do not leave early"


def sync_until(names, x):
    for name in names:
        if dist.get_rank() == 0:
            if name == "stop":
                break
        dist.all_reduce(x)  # want CV301 "all_reduce on the default group .*do not leave early"
