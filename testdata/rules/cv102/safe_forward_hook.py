# Forward hooks run on the thread that calls the module.
import torch.distributed as dist


def gather_acts(module, inputs, output):
    dist.all_reduce(output)


def install(model):
    model.register_forward_hook(gather_acts)
