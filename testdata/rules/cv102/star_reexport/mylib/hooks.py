# Collectives reached through the re-exporting module, as a module
# attribute and as an imported name, are torch.distributed's.
import mylib.distributed as dist
from mylib.distributed import all_gather, get_global_rank


def install(params, group):
    def hook(grad):
        dist.all_reduce(grad, group=group)  # want CV102 "all_reduce .*register_hook"
        all_gather([grad], grad, group=group)  # want CV102 "all_gather .*register_hook"
        get_global_rank(group, 0)
        return grad

    for p in params:
        p.register_hook(hook)
