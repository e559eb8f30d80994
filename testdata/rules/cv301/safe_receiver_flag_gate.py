# gpt-neox's GradientNoiseScale: with pipeline parallelism every rank
# updates and all-reduces over the pipeline group; without it, rank 0
# alone updates, on the path where the instance's flag is false, and the
# update communicates only when that flag is true. The rank-0 path issues
# no collective.
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

    def _update(self, grad):
        if self._sync_overflow(grad is None):
            return
        if self.args.is_pipe_parallel:
            dist.all_reduce(grad, group=self.mpu.get_pipe_parallel_group())

    def update(self, grad):
        if self.args.is_pipe_parallel:
            self._update(grad)
        else:
            if dist.get_rank() == 0:
                self._update(grad)
            dist.barrier()
