import torch.distributed as dist


def load_flag(path, exists):
    flag = [exists]
    if dist.get_rank() == 0:
        dist.broadcast_object_list(flag, src=0)  # want CV301 "broadcast_object_list"
    return flag[0]
