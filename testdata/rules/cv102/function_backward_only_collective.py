# The only collective is the one in Function.backward, on a group the
# main thread made but never communicates on: the finding stands (the
# engine's thread issues it), without the note about two communicators,
# since the main thread drives none; with one communicator it is a
# warning (TestOneCommunicatorIsWarning).
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
mp_group = dist.new_group(list(range(dist.get_world_size())))


class CopyToModelParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=mp_group)  # want CV102 "order them differently and hang \(one communicator: the main thread waits in backward\(\) while the hook runs.*\); set_multithreading_enabled"
        return grad


w = torch.nn.Parameter(torch.randn(4, 4, device="cuda"))
loss = (CopyToModelParallel.apply(torch.randn(2, 4, device="cuda")) @ w).sum()
loss.backward()
