# The same helper called by rank 0 alone on the path where the flag is
# true: there the update all-reduces, and the other ranks never join.
import torch
import torch.distributed as dist


class GradientNoiseScale:
    def __init__(self, args, mpu):
        self.args = args
        self.mpu = mpu

    def _sync_overflow(self, is_overflow):
        if self.args.is_pipe_parallel:
            flag = torch.cuda.ByteTensor([is_overflow])
            dist.all_reduce(flag, group=self.mpu.get_pipe_parallel_group())
            return flag[0].item()
        return is_overflow

    def update(self, grad):
        if self.args.is_pipe_parallel:
            if dist.get_rank() == 0:
                self._sync_overflow(grad is None)  # want CV301 "all_reduce .* runs only when"
        dist.barrier()
