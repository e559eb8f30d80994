# Giving existing tensors another name launches no device work: a loop
# variable over a parameter, an element or a slice of one, a list of
# them, a comprehension that selects among them (DeepSpeed ZeRO-3's
# coordinator: partitions with and without a secondary tensor, gathered
# group by group on the all-gather stream). Like the parameter itself,
# whose producer is outside the function, none of these is a write on
# the current stream.
import torch
import torch.distributed as dist


def loop_variable(params, s):
    for p in params:
        with torch.cuda.stream(s):
            dist.all_reduce(p)


def element_and_slice(params, s):
    first = params[0]
    rest = params[1:]
    last: torch.Tensor = params[-1]
    with torch.cuda.stream(s):
        dist.all_reduce(first)
        dist.all_reduce(rest[0])
        dist.all_reduce(last)


def attribute(model, s):
    weight = model.weight
    with torch.cuda.stream(s):
        dist.all_reduce(weight)


class Coordinator:
    def fetch(self, params, s):
        partitioned = []
        for param in params:
            if param.ds_status == 0:
                partitioned.append(param)
        with_secondary = [p for p in partitioned if p.ds_secondary_tensor is not None]
        without_secondary = [p for p in partitioned if p.ds_secondary_tensor is None]
        for group in [with_secondary, without_secondary]:
            if not group:
                continue
            with torch.cuda.stream(s):
                for p in group:
                    dist.broadcast(p, 0)
