# Megatron-style region Functions on a group kept in a module global and
# read through a getter without arguments (torch-harmonics' polar_group()).
# The main thread communicates on the same getter's group, and a forward
# that talks through a helper another method shares (an ONNX `symbolic`)
# still counts as the forward communicating: one communicator shared with
# a thread blocked in backward(), so these are warnings with that note.
import torch
import torch.distributed as dist

_MP_GROUP = None


def mp_group():
    return _MP_GROUP


class CopyToRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        dist.all_reduce(g, group=mp_group())  # want CV102 "the main thread communicates on `mp_group\(\)` too"
        return g


class ReduceFromRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        dist.all_reduce(x, group=mp_group())
        return x

    @staticmethod
    def backward(ctx, g):
        return g


def _gather(x, group=None):
    out = [torch.empty_like(x) for _ in range(dist.get_world_size(group=group))]
    dist.all_gather(out, x, group=group)
    return torch.cat(out, dim=0)


def _reduce_scatter(g, group=None):
    chunks = list(g.chunk(dist.get_world_size(group=group), dim=0))
    out = torch.empty_like(chunks[0])
    dist.reduce_scatter(out, chunks, group=group)  # want CV102 "the Function's forward communicates too"
    return out


class GatherFromCopy(torch.autograd.Function):
    @staticmethod
    def symbolic(graph, x):
        return _gather(x, mp_group())

    @staticmethod
    def forward(ctx, x):
        return _gather(x, group=mp_group())

    @staticmethod
    def backward(ctx, g):
        return _reduce_scatter(g, group=mp_group())


def run(x, w):
    h = CopyToRegion.apply(x) @ w
    y = ReduceFromRegion.apply(h)
    z = GatherFromCopy.apply(y)
    z.sum().backward()


class Mode:
    TENSOR = "tensor"


class ParallelContext:
    def __init__(self, groups):
        self.groups = groups

    def get_group(self, mode):
        return self.groups[mode]


class CopyWithContext(torch.autograd.Function):
    # The group comes from a registry the Function keeps on ctx; the main
    # thread asks the same registry for the same mode (pipegoose).
    @staticmethod
    def forward(ctx, x, pc):
        ctx.pc = pc
        return x

    @staticmethod
    def backward(ctx, g):
        dist.all_reduce(g, group=ctx.pc.get_group(Mode.TENSOR))  # want CV102 "the main thread communicates on `get_group\(Mode.TENSOR\)` too"
        return g, None


def run_with_context(x, w, pc):
    y = CopyWithContext.apply(x, pc) @ w
    dist.all_reduce(y, group=pc.get_group(Mode.TENSOR))
    y.sum().backward()
