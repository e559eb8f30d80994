import torch.distributed as dist


def reduce_param(p):
    dist.all_reduce(p.grad)  # want CV102 "register_post_accumulate_grad_hook"


def install(model):
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(reduce_param)
