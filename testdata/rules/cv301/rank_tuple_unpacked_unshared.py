# Without the broadcast, the pair a helper makes from rank 0's path is
# rank 0's alone: the others leave early and rank 0 waits in the
# all_reduce.
import torch.distributed as dist


def find_checkpoint():
    return "ckpt.pt"


def pick(path):
    return path, None


def resume(model_tensor):
    path, error = None, None
    if dist.get_rank() == 0:
        path = find_checkpoint()
    path, error = pick(path)
    if path is None:
        return
    dist.all_reduce(model_tensor)  # want CV301 "all_reduce"
