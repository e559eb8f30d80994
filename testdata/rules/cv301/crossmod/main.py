import torch.distributed as dist

import utils


def is_main_process():
    return dist.get_rank() == 0


def end(model):
    if is_main_process():
        utils.save(model, "ckpt.pt")  # want CV301 "barrier"
