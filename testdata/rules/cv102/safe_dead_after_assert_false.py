# The hook's two-group path is cut off by `assert False`: the calls after
# it never run, so the hook communicates on no group (nnscaler's reducer).
import torch.distributed as dist

dist.init_process_group("nccl")
cross_group = dist.new_group([0, 2])
sub_group = dist.new_group([0, 1])


def two_step(buf):
    dist.all_reduce(buf, group=cross_group)
    dist.reduce_scatter_tensor(buf[: buf.numel() // 2], buf, group=sub_group)


def attach(param, buf, single_group):
    def hook(*unused):
        if single_group:
            pass
        else:
            assert False, "two-group path not supported in async mode"
            two_step(buf)

    acc = param.expand_as(param).grad_fn.next_functions[0][0]
    acc.register_hook(hook)
    return acc
